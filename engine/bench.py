"""``python -m engine.bench``: how fast each game's engine plays and replays, on one core.

For every game in the registry it prints complete random games per second (setup from a
seed, uniformly random legal choices from a ``random.Random``, every event through
``apply``, the final scoring) and game records replayed per second (``from_record``:
validation, setup, every move and the scoring). A benchmark, not a test: it only measures
and prints. Each figure is measured in several short runs; the best run is the least
disturbed by other work on the machine, the median is printed next to it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from .interface import GameDefinition, Match
from .registry import GAMES

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def play_random(definition: GameDefinition, seed: int, players: int = 4) -> Match:
    """One complete game with uniformly random legal choices."""
    rng = random.Random(seed)
    match = definition.new_match(NAMES[:players], seed=seed)
    while not match.is_terminal():
        seat = match.to_act()[0]
        choices = match.legal_choices(seat)
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
    return match


def _rates(work, batch: int, seconds: float, runs: int) -> list[float]:
    """Items per second in ``runs`` runs of about ``seconds`` each."""
    rates = []
    for _ in range(runs):
        done = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            work()
            done += batch
        rates.append(done / elapsed)
    return rates


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.bench")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure")
    parser.add_argument("--records", type=int, default=40, help="records replayed per game")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only these games")
    args = parser.parse_args(argv)

    for game_id in args.game or GAMES:
        definition = GAMES[game_id]
        players = min(max(4, definition.min_players), definition.max_players)
        batch = 20 if game_id == "paris-paris" else 2      # Paris Connection games are ~50 times longer
        seeds = iter(range(10**9))
        games = _rates(lambda d=definition, p=players, b=batch, s=seeds: [play_random(d, next(s), p) for _ in range(b)],
                       batch, args.seconds, args.runs)
        records = [play_random(definition, 10**9 + i, players).to_record() for i in range(args.records)]
        replays = _rates(lambda d=definition, r=records: [d.from_record(x) for x in r], len(records),
                         args.seconds, args.runs)
        for label, rates in ((f"random {players}-player games", games), (f"{players}-player records replayed", replays)):
            print(f"{definition.name + ',':17} {label + ':':27} {max(rates):7,.1f}/s best, "
                  f"{statistics.median(rates):7,.1f}/s median ({args.runs} runs of {args.seconds:g} s, one core)")


if __name__ == "__main__":
    main()
