"""Write the gallery of example images: ``python -m renderers.gallery [folder]``.

Every image comes from a seeded game (renderers.scenes), so the gallery is
reproducible; the default folder is docs/gallery/.
"""

from __future__ import annotations

import sys
from pathlib import Path

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


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / "gallery"
    folder.mkdir(parents=True, exist_ok=True)
    for name, png in pictures():
        (folder / name).write_bytes(png)
        print(f"{folder / name}  {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
