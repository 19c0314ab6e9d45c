"""The Paris Connection map as a page draws it (``renderers/scene.py``): the static map fetched once,
the locomotives as sprites, the rims and the panel as shapes and words.

Everything is placed by the functions the map picture is drawn with (``mapimage``): the rims by
``rims``, the locomotives by ``locomotives``, the panel by ``_panel`` run against a ``Recorder``;
the city names, drawn over the locomotives in the picture, are static art laid over them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.paris_connection.board import COMPANIES

from ..scene import Piece, Recorder, Scene, Shape
from . import mapimage
from . import palette as P
from .spots import WIDTH

LAYOUTS = ("landscape", "portrait")
SPRITE_SIZE = 64        # a locomotive's sprite, drawn once and scaled by the page (crisp at 3× zoom)
ART_NAMES = frozenset({f"map-{layout}" for layout in LAYOUTS} | {f"names-{layout}" for layout in LAYOUTS}
                      | {mapimage.token_sprite(colour) for colour in COMPANIES})


def map_scene(view: Any, events: Sequence[Any], language: str, layout: str = "landscape") -> Scene:
    """``mapimage.board_image(view, events, language)`` at the presenter's width, as a scene."""
    layout = "portrait" if layout == "portrait" else "landscape"
    g = mapimage.geometry(WIDTH, layout)
    below = Recorder()
    mapimage.rims(below, g, view, events)
    pieces = tuple(Piece(loco.key, mapimage.token_sprite(loco.colour), loco.x, loco.y, loco.size)
                   for loco in mapimage.locomotives(view, WIDTH, layout))
    above = Recorder()
    mapimage._panel(mapimage.SceneInk(above), g, view, events, language, layout == "portrait")
    rims = tuple(d for d in below.drawn if isinstance(d, Shape))
    return Scene(f"map-{layout}", g.width, g.height, pieces, rims, f"names-{layout}", tuple(above.drawn))


def board_art(layout: str, language: str) -> tuple[str, ...]:
    """The art in every scene of ``layout``: the static map and the city names over it."""
    layout = "portrait" if layout == "portrait" else "landscape"
    return (f"map-{layout}", f"names-{layout}")


@lru_cache(maxsize=len(ART_NAMES))
def art(name: str) -> bytes:
    """One of ``ART_NAMES`` as lossless WebP (the portrait map: 58 KB, against 72 KB as the chat's
    256-colour PNG): the static map, the city names laid over the locomotives, a locomotive."""
    if name not in ART_NAMES:
        raise KeyError(name)
    kind, _, which = name.partition("-")
    if kind == "map":
        return _webp(mapimage.background(WIDTH, which))
    if kind == "names":
        g = mapimage.geometry(WIDTH, which)
        img = Image.new("RGBA", (g.width, g.height), (0, 0, 0, 0))
        mapimage.city_names(ImageDraw.Draw(img), g, WIDTH, which)
        return _webp(img)
    return _webp(P.token(which, SPRITE_SIZE))


def _webp(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="WEBP", lossless=True, method=4)
    return out.getvalue()
