"""Papà Paolo's sample pictures: the gallery's (files "pp-...") and the render bench's.

Bench targets: every picture's median <= 80 ms and <= 300 KB at the default size.
"""

from __future__ import annotations

from engine.papa_paolo.phases import Phase

from . import scenes
from .presenter import PRESENTER as PAPA


def gallery():
    """(file name, PNG bytes) for each gallery picture."""
    for n, language, layout in ((2, "en", "landscape"), (4, "it", "portrait")):
        match = scenes.played(n, rounds_done=2, options={"hidden_money": n == 4})
        events = scenes.stretch_events(match)
        yield f"pp-board-{n}p-{layout}.png", PAPA.render("map", match.view(None), events, language, layout=layout)
    placed = scenes.after_phase(3, Phase.PLACE, 2)
    yield "pp-board-3p-after-placing.png", PAPA.render("map", placed.view(None), scenes.stretch_events(placed), "fr")
    for mode, language in (("choose", "en"), ("rotate", "en"), ("deliver-trip", "de")):
        match = scenes.choosing(3, mode)
        seat = match.to_act()[0]
        yield f"pp-own-{mode}.png", PAPA.render_private(match.view(seat), [], language, layout="portrait")
    final = scenes.played(3, rounds_done=5)
    yield "pp-final-3p.png", PAPA.render("final", final.view(None), [], "fr")


def bench(width: int, repeat: int, timed) -> None:
    """Print the render figures (at the presenter's default size); ``timed(fn, repeat)`` gives (median ms, PNG bytes)."""
    board = scenes.played(4, rounds_done=3, options={"hidden_money": True})
    events = scenes.stretch_events(board)
    own = scenes.choosing(4, "deliver-trip")
    final = scenes.played(4, rounds_done=5)
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
        median, size = timed(fn, repeat)
        results.append((median, size))
        print(f"{label:<36} median {median:6.1f} ms   PNG {size / 1024:6.1f} KB")
    ok = all(median <= 80 and size <= 300 * 1024 for median, size in results)
    print(f"PAPA PAOLO pictures (targets: <= 80 ms, <= 300 KB): {'OK' if ok else 'MISSED'}")
