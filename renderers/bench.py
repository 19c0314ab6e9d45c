"""Benchmark: ``python -m renderers.bench [--width 1280] [--repeat 40]``.

For every registered game, its sample pictures' median render time and PNG size at the
default size, with that game's targets (each game's ``samples.bench``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from .registry import sample_modules


def timed(fn, repeat: int) -> tuple[float, int]:
    """The median milliseconds of ``repeat`` calls of ``fn`` and the size of what it returned."""
    times, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, size


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m renderers.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args(argv)
    for game_id, samples in sample_modules().items():
        print(f"\n== {game_id}")
        samples.bench(args.width, args.repeat, timed)


if __name__ == "__main__":
    main()
