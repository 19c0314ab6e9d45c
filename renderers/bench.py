"""Benchmark: ``python -m renderers.bench [--width 1280] [--repeat 40]``.

Prints the median time per map render and the PNG size at the default width, for a
busy 4-player position with highlights (targets: median <= 60 ms, <= 250 KB), plus
the first render (which draws and caches the static background), the final standings
and the lobby.
"""

from __future__ import annotations

import argparse
import statistics
import time

from .paris_paris import render_final, render_lobby, render_map, scenes


def _time(fn, repeat: int) -> tuple[float, int]:
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
    busy = scenes.big_tour(4)
    busy_view = busy.game.view(None)
    pending = scenes.eviction_pending(4)
    final = scenes.final(4)

    start = time.perf_counter()
    render_map(busy_view, events=busy.events, width=args.width)
    first = (time.perf_counter() - start) * 1000
    rows = [
        ("map, 4 players, after a big tour", lambda: render_map(busy_view, events=busy.events, width=args.width)),
        ("map, 4 players, no highlights", lambda: render_map(busy_view, width=args.width)),
        ("map, eviction choice pending", lambda: render_map(pending.game.view(None), events=pending.events,
                                                            pending_tile=pending.pending_tile, width=args.width)),
        ("map, portrait 1200 px (phones)", lambda: render_map(busy_view, events=busy.events, width=1200,
                                                              layout="portrait")),
        ("final standings, 4 players", lambda: render_final(final.game.view(None), events=final.events,
                                                          width=args.width)),
        ("lobby, 3 players", lambda: render_lobby(scenes.players(3), width=args.width)),
    ]
    print(f"width {args.width} px, {args.repeat} renders each")
    print(f"first map render (draws and caches the background): {first:.1f} ms")
    results = []
    for label, fn in rows:
        median, size = _time(fn, args.repeat if "final" not in label else max(5, args.repeat // 4))
        results.append((median, size))
        print(f"{label:<36} median {median:6.1f} ms   PNG {size / 1024:6.1f} KB")
    median, size = results[0]
    print(f"MAP median {median:.1f} ms per render, {size / 1024:.1f} KB "
          f"(targets: <= 60 ms, <= 250 KB): {'OK' if median <= 60 and size <= 250 * 1024 else 'MISSED'}")


if __name__ == "__main__":
    main()
