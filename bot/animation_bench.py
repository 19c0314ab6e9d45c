"""Benchmark: ``python -m bot.animation_bench [--players 4] [--seed 1] [--repeat 3]``.

For every registered game, a finished game of ``--players`` seats played by its easy AI, drawn as the
whole-game animation in each format (bot/service/posts/animation.py, renderers/animation.py): the frames
(every cycle's picture and the final standings), then each encoding, median seconds of ``--repeat``
runs, and the bytes; with the format each platform gets and its limit.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.games import KINDS, GameKind
from bot.platforms import DECLARED
from bot.service.posts.animation import frames
from renderers.animation import FORMATS, encode


def finished_game(kind: GameKind, players: int, seed: int) -> tuple[dict, list[tuple[int, str]], int]:
    """A game played to its end by the easy AI: (stored setup, moves, cycles)."""
    match = kind.definition.new_match([f"P{i + 1}" for i in range(players)], seed=seed)
    setup = match.stored_setup()
    moves: list[tuple[int, str]] = []
    while not match.is_terminal():
        seat = match.to_act()[0]
        choice = kind.definition.choose(match, seat, seed=seed + len(moves), level="easy")
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))
    return setup, moves, match.rhythm.cycle


def median_seconds(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.animation_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("platforms: " + ", ".join(f"{p} {c.animation.format} (at most {c.animation.limit / 2**20:.1f} MiB)" for p, c in DECLARED.items()))
    for kind_id, kind in KINDS.items():
        setup, moves, cycles = finished_game(kind, args.players, args.seed)
        drawn, shown = median_seconds(lambda g=kind, s=setup, m=moves: frames(g, s, m, "en"), args.repeat)
        print(f"\n== {kind_id}: {args.players} players, {len(moves)} moves, {cycles} cycles, "
              f"{len(shown)} frames, {sum(f.seconds for f in shown):.1f} s long")
        print(f"  frames (replay and pictures): {drawn:.2f} s")
        for fmt in FORMATS:
            took, data = median_seconds(lambda f=fmt, s=shown: encode(s, f), args.repeat)
            print(f"  {fmt:5} encode {took:.2f} s, total {drawn + took:.2f} s, {len(data) / 1024:,.0f} KiB")


if __name__ == "__main__":
    main()
