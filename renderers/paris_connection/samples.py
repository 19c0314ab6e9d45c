"""Paris Connection's sample pictures: the gallery's (files "pc-...") and the render bench's.

Bench targets at the default size, map and final: median <= 80 ms, <= 300 KB (a 6-player map
after a cycle, a build under way, portrait, and the final picture).
"""

from __future__ import annotations

import time

from . import render_final, render_map, scenes


def gallery():
    """(file name, PNG bytes) for each gallery picture."""
    for n, language in ((3, "en"), (6, "fr")):
        after = scenes.after_cycle(n)
        yield f"pc-map-{n}p-after-cycle.png", render_map(after.view, events=after.events,
                                                                          language=language)
    build = scenes.building(4)
    yield "pc-map-4p-building.png", render_map(build.view, events=build.events)
    yield "pc-map-4p-building-portrait-de.png", render_map(build.view, events=build.events,
                                                                            language="de", layout="portrait")
    for n, language in ((3, "it"), (5, "en")):
        final = scenes.final(n)
        yield f"pc-final-{n}p.png", render_final(final.view, events=final.events, language=language)


def bench(width: int, repeat: int, timed) -> None:
    """Print the render figures; ``timed(fn, repeat)`` gives (median ms, PNG bytes)."""
    after = scenes.after_cycle(6)
    build = scenes.building(4)
    final = scenes.final(5)
    start = time.perf_counter()
    render_map(after.view, events=after.events, width=width)
    first = (time.perf_counter() - start) * 1000
    rows = [
        ("map, 6 players, after a cycle", lambda: render_map(after.view, events=after.events,
                                                                            width=width)),
        ("map, 4 players, build under way", lambda: render_map(build.view, events=build.events,
                                                                              width=width)),
        ("map, portrait (phones)", lambda: render_map(after.view, events=after.events,
                                                                      width=width, layout="portrait")),
        ("final, 5 players", lambda: render_final(final.view, events=final.events, width=width)),
    ]
    print(f"\nParis Connection, width {width} px")
    print(f"first map render (draws and caches the background): {first:.1f} ms")
    results = []
    for label, fn in rows:
        median, size = timed(fn, repeat)
        results.append((median, size))
        print(f"{label:<36} median {median:6.1f} ms   PNG {size / 1024:6.1f} KB")
    ok = all(median <= 80 and size <= 300 * 1024 for median, size in results[:2] + results[3:])
    median, size = results[0]
    print(f"PARIS CONNECTION MAP median {median:.1f} ms per render, {size / 1024:.1f} KB "
          f"(targets at the default size, map and final: <= 80 ms, <= 300 KB): {'OK' if ok else 'MISSED'}")
