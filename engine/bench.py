"""``python -m engine.bench``: how fast the engine plays and replays, on one core.

Prints complete random 4-player games per second (setup from a seed, legal moves,
random choices from a ``random.Random``, every tour and the final scoring) and game
records replayed per second (validation, setup and every move). A benchmark, not a
test: it only measures and prints.
"""

from __future__ import annotations

import argparse
import random
import time

from .game import Game
from .record import from_record

PLAYERS = ("ann", "bob", "cat", "dan")


def play_random(seed: int, players=PLAYERS) -> Game:
    """One complete game with uniformly random legal moves."""
    rng = random.Random(seed)
    game = Game.new(players, seed=seed)
    while not game.finished:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return game


def games_per_second(seconds: float) -> tuple[float, int]:
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            play_random(count)
            count += 1
    return count / (time.perf_counter() - start), count


def replays_per_second(seconds: float, distinct: int = 200) -> tuple[float, int]:
    records = [play_random(10_000 + i).to_record() for i in range(distinct)]
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for record in records:
            from_record(record)
        count += len(records)
    return count / (time.perf_counter() - start), count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.bench")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args(argv)
    rate, count = games_per_second(args.seconds)
    print(f"random 4-player games: {rate:,.0f} games/s ({count} games)")
    rate, count = replays_per_second(args.seconds)
    print(f"records replayed:      {rate:,.0f} replays/s ({count} replays of 4-player games)")


if __name__ == "__main__":
    main()
