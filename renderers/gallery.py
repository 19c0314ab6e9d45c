"""Write the gallery of example images: ``python -m renderers.gallery [folder]``.

Every image comes from a seeded game (each game's ``scenes`` module), so the gallery is
reproducible; the default folder is docs/gallery/. Paris Connection's files start "pc-".
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import paris_connection
from .papa_paolo import scenes as pp_scenes
from .papa_paolo.presenter import PRESENTER as PAPA
from .paris_connection import scenes as pc_scenes
from .paris_paris import render_final, render_lobby, render_map, scenes


def pictures():
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
    yield from _paris_connection()
    yield from _papa_paolo()


def _paris_connection():
    for n, language in ((3, "en"), (6, "fr")):
        after = pc_scenes.after_cycle(n)
        yield f"pc-map-{n}p-after-cycle.png", paris_connection.render_map(after.view, events=after.events,
                                                                          language=language)
    build = pc_scenes.building(4)
    yield "pc-map-4p-building.png", paris_connection.render_map(build.view, events=build.events)
    yield "pc-map-4p-building-portrait-de.png", paris_connection.render_map(build.view, events=build.events,
                                                                            language="de", layout="portrait")
    for n, language in ((3, "it"), (5, "en")):
        final = pc_scenes.final(n)
        yield f"pc-final-{n}p.png", paris_connection.render_final(final.view, events=final.events, language=language)


def _papa_paolo():
    for n, language, layout in ((2, "en", "landscape"), (4, "it", "portrait")):
        match = pp_scenes.played(n, rounds_done=2, options={"hidden_money": n == 4})
        events = pp_scenes.round_events(match, 2)
        yield f"pp-board-{n}p-{layout}.png", PAPA.render("map", match.view(None), events, language, layout=layout)
    for mode, language in (("rotate", "en"), ("deliver-trip", "de")):
        match = pp_scenes.choosing(3, mode)
        seat = match.to_act()[0]
        yield f"pp-own-{mode}.png", PAPA.render_private(match.view(seat), [], language, layout="portrait")
    final = pp_scenes.played(3, rounds_done=5)
    yield "pp-final-3p.png", PAPA.render("final", final.view(None), [], "fr")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / "gallery"
    folder.mkdir(parents=True, exist_ok=True)
    for name, png in pictures():
        (folder / name).write_bytes(png)
        print(f"{folder / name}  {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
