"""``python -m engine.papa_paolo.selfplay``: AI self-play figures per player count, beside the
design page's sanity figures (PAPA_PAOLO.md §2.12). A benchmark, not a test: it only prints.

    python -m engine.papa_paolo.selfplay --games 40 --level normal
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from .components import TRACK_TOP
from .definition import GAME
from .events import DeliveryTileTaken, ExpressDelivered, StairsPaid, TileTaken

DESIGN = ("design page (greedy bots, per player per game): ~12 tiles taken, 15-16 squares, ~29 houses, "
          "~20 delivered (~1.7 by express), ~9 completed, tracks ~3.4, lowest ~2.4, ~21 VP, "
          "1.5 Lire bid a round (4p), 15-23 Lire left, 1 player in 8 maxes a track")


def play(n: int, seed: int, level: str):
    match = GAME.new_match([f"p{i}" for i in range(n)], seed=seed)
    while not match.is_terminal():
        seat = match.to_act()[0]
        match.apply(GAME.choose(match, seat, seed=seed * 100_003 + match.move_count, level=level), by=seat)
    return match.state


def figures(n: int, games: int, level: str, first_seed: int = 1) -> dict[str, float]:
    per: dict[str, list[float]] = {k: [] for k in (
        "tiles", "squares", "houses", "delivered", "express", "completed", "tracks", "lowest", "score", "lire",
        "maxed", "bid")}
    spread, tiebreak, rounds = [], 0, 0
    columns: Counter[int] = Counter()
    for seed in range(first_seed, first_seed + games):
        g = play(n, seed, level)
        rounds += 5
        for seat, p in enumerate(g.people):
            per["tiles"].append(sum(1 for e in g.log if isinstance(e, TileTaken) and e.seat == seat))
            per["squares"].append(len(p.hood.cities) + len(p.hood.shops))
            per["houses"].append(sum(c.houses for c in p.hood.cities.values()))
            per["delivered"].append(p.hood.delivered())
            per["express"].append(sum(len(e.trip["drops"]) for e in g.log
                                      if isinstance(e, ExpressDelivered) and e.seat == seat))
            per["completed"].append(p.hood.completed())
            per["tracks"].append(statistics.fmean(p.tracks.values()))
            per["lowest"].append(min(p.tracks.values()))
            per["score"].append(g.final[seat])
            per["lire"].append(p.lire)
            per["maxed"].append(any(v == TRACK_TOP for v in p.tracks.values()))
            per["bid"].append(sum(e.cost for e in g.log if isinstance(e, StairsPaid) and e.seat == seat) / 5)
        spread.append(max(g.final) - min(g.final))
        best = max(g.final)
        if sum(1 for s in g.final if s == best) > 1 and len(g.winners) == 1:
            tiebreak += 1
        for e in g.log:
            if isinstance(e, DeliveryTileTaken):
                columns[_column(g, e.tile)] += 1
    out = {k: statistics.fmean(v) for k, v in per.items()}
    out["spread"] = statistics.fmean(spread)
    out["tiebreak"] = tiebreak / games
    for col in range(1, 5):
        out[f"column{col}"] = columns[col] / rounds
    return out


def _column(g, tile: str) -> int:
    from .components import DELIVERY_TILES
    return DELIVERY_TILES[tile].column


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.papa_paolo.selfplay")
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--level", default="normal", choices=("easy", "normal"))
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    args = parser.parse_args(argv)
    print(f"Papà Paolo self-play, every seat {args.level}, {args.games} games per player count")
    print(DESIGN)
    for n in args.players:
        f = figures(n, args.games, args.level)
        print(f"{n} players, per player per game: tiles taken {f['tiles']:.1f}, squares {f['squares']:.1f}, "
              f"houses {f['houses']:.1f}, delivered {f['delivered']:.1f} ({f['express']:.1f} by express), "
              f"completed {f['completed']:.1f}, tracks {f['tracks']:.2f}, lowest {f['lowest']:.2f}, "
              f"score {f['score']:.1f}, Lire left {f['lire']:.1f}, maxes a track {f['maxed']:.0%}, "
              f"Lire bid a round {f['bid']:.2f}")
        print(f"   per game: score spread (best - worst) {f['spread']:.1f}; money tie-break decided "
              f"{f['tiebreak']:.0%}; delivery tile taken per round by column 1-4: "
              + " / ".join(f"{f[f'column{c}']:.2f}" for c in range(1, 5)))


if __name__ == "__main__":
    main()
