"""Paris Paris's sample pictures: the gallery's and the render bench's (``python -m renderers.gallery``,
``python -m renderers.bench`` run every game's). Every picture comes from a seeded game (``scenes``).

Bench targets: the map's median <= 60 ms and <= 250 KB at the default width, for a busy 4-player
position with highlights; also the first render (which draws and caches the static background),
the final standings and the lobby.
"""

from __future__ import annotations

import time

from . import render_final, render_lobby, render_map, scenes


def gallery():
    """(file name, PNG bytes) for each gallery picture."""
    yield "lobby.png", render_lobby(scenes.players(3), title="#paris-paris")
    mid = scenes.mid_round(2)
    yield "map-2p-mid-round.png", render_map(mid.game.view(None), events=mid.events)
    tour = scenes.big_tour(3)
    yield "map-3p-big-tour.png", render_map(tour.game.view(None), events=tour.events)
    pending = scenes.eviction_pending(4)
    yield "map-4p-eviction-choice.png", render_map(pending.game.view(None), events=pending.events,
                                                   pending_tile=pending.pending_tile)
    evicted = scenes.eviction_done(4)
    yield "map-4p-after-eviction-de.png", render_map(evicted.game.view(None), events=evicted.events,
                                                     language="de")
    for n in (2, 4):
        final = scenes.final(n)
        yield f"final-{n}p.png", render_final(final.game.view(None), events=final.events,
                                              language="en" if n == 2 else "fr")


def bench(width: int, repeat: int, timed) -> None:
    """Print the render figures; ``timed(fn, repeat)`` gives (median ms, PNG bytes)."""
    busy = scenes.big_tour(4)
    busy_view = busy.game.view(None)
    pending = scenes.eviction_pending(4)
    final = scenes.final(4)

    start = time.perf_counter()
    render_map(busy_view, events=busy.events, width=width)
    first = (time.perf_counter() - start) * 1000
    rows = [
        ("map, 4 players, after a big tour", lambda: render_map(busy_view, events=busy.events, width=width)),
        ("map, 4 players, no highlights", lambda: render_map(busy_view, width=width)),
        ("map, eviction choice pending", lambda: render_map(pending.game.view(None), events=pending.events,
                                                            pending_tile=pending.pending_tile, width=width)),
        ("map, portrait 1200 px (phones)", lambda: render_map(busy_view, events=busy.events, width=1200,
                                                              layout="portrait")),
        ("final standings, 4 players", lambda: render_final(final.game.view(None), events=final.events,
                                                          width=width)),
        ("lobby, 3 players", lambda: render_lobby(scenes.players(3), width=width)),
    ]
    print(f"width {width} px, {repeat} renders each")
    print(f"first map render (draws and caches the background): {first:.1f} ms")
    results = []
    for label, fn in rows:
        median, size = timed(fn, repeat if "final" not in label else max(5, repeat // 4))
        results.append((median, size))
        print(f"{label:<36} median {median:6.1f} ms   PNG {size / 1024:6.1f} KB")
    median, size = results[0]
    print(f"MAP median {median:.1f} ms per render, {size / 1024:.1f} KB "
          f"(targets: <= 60 ms, <= 250 KB): {'OK' if median <= 60 and size <= 250 * 1024 else 'MISSED'}")
