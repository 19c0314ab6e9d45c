"""Benchmark: ``python -m renderers.bench [--width 1280] [--repeat 40]``.

Paris Paris: the median time per map render and the PNG size at the default width, for a
busy 4-player position with highlights (targets: median <= 60 ms, <= 250 KB), plus
the first render (which draws and caches the static background), the final standings
and the lobby. Paris Connection: the same for a 6-player map after a cycle, a build under
way, portrait, and the final picture (targets: median <= 80 ms, <= 300 KB).
"""

from __future__ import annotations

import argparse
import statistics
import time

from . import paris_connection
from .papa_paolo import scenes as pp_scenes
from .papa_paolo.presenter import PRESENTER as PAPA
from .paris_connection import scenes as pc_scenes
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
    _paris_connection(args.width, args.repeat)
    _papa_paolo(args.repeat)


def _paris_connection(width: int, repeat: int) -> None:
    after = pc_scenes.after_cycle(6)
    build = pc_scenes.building(4)
    final = pc_scenes.final(5)
    start = time.perf_counter()
    paris_connection.render_map(after.view, events=after.events, width=width)
    first = (time.perf_counter() - start) * 1000
    rows = [
        ("map, 6 players, after a cycle", lambda: paris_connection.render_map(after.view, events=after.events,
                                                                            width=width)),
        ("map, 4 players, build under way", lambda: paris_connection.render_map(build.view, events=build.events,
                                                                              width=width)),
        ("map, portrait (phones)", lambda: paris_connection.render_map(after.view, events=after.events,
                                                                      width=width, layout="portrait")),
        ("final, 5 players", lambda: paris_connection.render_final(final.view, events=final.events, width=width)),
    ]
    print(f"\nParis Connection, width {width} px")
    print(f"first map render (draws and caches the background): {first:.1f} ms")
    results = []
    for label, fn in rows:
        median, size = _time(fn, repeat)
        results.append((median, size))
        print(f"{label:<36} median {median:6.1f} ms   PNG {size / 1024:6.1f} KB")
    ok = all(median <= 80 and size <= 300 * 1024 for median, size in results[:2] + results[3:])
    median, size = results[0]
    print(f"PARIS CONNECTION MAP median {median:.1f} ms per render, {size / 1024:.1f} KB "
          f"(targets at the default size, map and final: <= 80 ms, <= 300 KB): {'OK' if ok else 'MISSED'}")


def _papa_paolo(repeat: int) -> None:
    board = pp_scenes.played(4, rounds_done=3, options={"hidden_money": True})
    events = pp_scenes.round_events(board, 3)
    own = pp_scenes.choosing(4, "deliver-trip")
    final = pp_scenes.played(4, rounds_done=5)
    seat = own.to_act()[0]
    rows = [
        ("board, 4 players, landscape", lambda: PAPA.render("map", board.view(None), events, "en")),
        ("board, 4 players, portrait", lambda: PAPA.render("map", board.view(None), events, "en", layout="portrait")),
        ("own neighbourhood, trip under way", lambda: PAPA.render_private(own.view(seat), [], "en")),
        ("final, 4 players", lambda: PAPA.render("final", final.view(None), [], "en", layout="portrait")),
    ]
    print("\nPapà Paolo")
    results = []
    for label, fn in rows:
        median, size = _time(fn, repeat)
        results.append((median, size))
        print(f"{label:<36} median {median:6.1f} ms   PNG {size / 1024:6.1f} KB")
    ok = all(median <= 80 and size <= 300 * 1024 for median, size in results)
    print(f"PAPA PAOLO pictures (targets: <= 80 ms, <= 300 KB): {'OK' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
