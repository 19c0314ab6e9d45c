"""Pictures and words for a game of Paris Paris.

Pictures (PNG bytes, pure functions of an ``engine.GameView`` and events):
    render_map(view, *, events=(), language="en", pending_tile=None, width=1280, layout="landscape")
    render_final(view, *, events=(), language="en", width=1280)
    render_lobby(players, *, language="en", width=1280, title="")
Words: ``renderers.text`` (board_text, narrate, tile_label, error_text, COLOUR_EMOJI).
Geometry for tests: ``layout`` (station_xy, offer_badge_xy, house_xy, label_boxes, map_boxes).
Colours: ``renderers.style`` (PLAYER_COLOURS, LINE_COLOURS, LINE_SHAPES).
Fonts ship in ``renderers/fonts`` (see renderers/fonts.py). ``python -m renderers.bench``
measures, ``python -m renderers.gallery`` writes docs/gallery/.

The image functions import Pillow on first use, so importing ``renderers`` (e.g. for
``renderers.text``) stays cheap.
"""

from __future__ import annotations


def render_map(view, *, events=(), language: str = "en", pending_tile=None, width: int = 1280,
               layout: str = "landscape") -> bytes:
    """The board for ``view`` (a ``engine.GameView``), with what ``events`` changed highlighted.

    ``layout="portrait"`` puts the panel under the map (a larger map on phones).
    """
    from .mapimage import render_map as _render

    return _render(view, events=events, language=language, pending_tile=pending_tile, width=width, layout=layout)


def render_final(view, *, events=(), language: str = "en", width: int = 1280) -> bytes:
    """Final standings of a finished game: ranking, special routes and bag, score chart."""
    from .final import render_final as _render

    return _render(view, events=events, language=language, width=width)


def render_lobby(players, *, language: str = "en", width: int = 1280, title: str = "") -> bytes:
    """The empty board with the players who joined so far."""
    from .mapimage import render_lobby as _render

    return _render(players, language=language, width=width, title=title)


__all__ = ["render_final", "render_lobby", "render_map"]
