"""The Paris Paris map as a page draws it (``renderers/scene.py``): the static map fetched once, and
what the game puts on it as named pictures (``pieces``), shapes and words.

The map picture's own drawing (``mapimage.draw_map``) runs against a ``Recorder``: every picture it
would paste is recorded by its name, each label (a player's initial, a slot's number) as words over
it, so initials never make a new picture. The rings and glows it draws before laying the station
names back on top are the scene's pieces, the names are static art over them, and the shops,
badges, tags and the panel come after, as the picture draws them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from PIL import Image

from i18n import LANGUAGES, normalize_language

from ..scene import Piece, Recorder, Scene
from . import layout as L
from . import mapimage, pieces
from .spots import WIDTH

LAYOUTS = ("landscape", "portrait")
ART_SIZE = 64          # an icon's or a shop's picture, scaled by the page (crisp at 2× zoom)
RING_SCALE = 2         # rings are drawn at twice their size on the map, their lines alike
RING_SIZES = {"ring": mapimage.OFFER_RING, "dash": 72}
ART_NAMES = frozenset({f"map-{layout}" for layout in LAYOUTS} | {f"names-{layout}" for layout in LAYOUTS}
                      | {f"legend-{language}" for language in LANGUAGES} | pieces.names())


def map_scene(view: Any, events: Sequence[Any], language: str, layout: str = "landscape") -> Scene:
    """``mapimage.render_map(view, events=events, language=language, width=WIDTH, layout=layout)``
    as a scene."""
    layout = "portrait" if layout == "portrait" else "landscape"
    language = normalize_language(language)
    recorder = Recorder()
    canvas = mapimage.draw_map(view, events, language, None, WIDTH, layout, recorder)
    split = canvas.names_at
    assert split is not None, "the map lays its names back on top"
    under = _keyed([d for d in recorder.drawn[:split] if isinstance(d, Piece)])
    assert len(under) == split, "only pictures under the names"
    width, height = _board_size(layout)
    if layout == "portrait":
        return Scene(f"map-{layout}", width, canvas.img.height, under, (), f"names-{layout}",
                     tuple(recorder.drawn[split:]), board_height=height)
    return Scene(f"map-{layout}", width, height, under, (), f"names-{layout}", tuple(recorder.drawn[split:]))


def board_art(layout: str, language: str) -> tuple[str, ...]:
    """The art in every scene of ``layout`` and ``language``: the static map, the station names
    over it, and the legend (always drawn, ``mapimage._Canvas.legend``)."""
    layout = "portrait" if layout == "portrait" else "landscape"
    return (f"map-{layout}", f"names-{layout}", f"legend-{normalize_language(language)}")


def _keyed(drawn: list[Piece]) -> tuple[Piece, ...]:
    """The pieces, each key once (a second big tour of a line in a round glows again)."""
    seen: dict[str, int] = {}
    out = []
    for piece in drawn:
        count = seen[piece.key] = seen.get(piece.key, 0) + 1
        out.append(piece if count == 1 else replace(piece, key=f"{piece.key}#{count}"))
    return tuple(out)


def _board_size(layout: str) -> tuple[int, int]:
    """The static map's size: the whole landscape picture, or the map atop a portrait one."""
    if layout == "portrait":
        return WIDTH, L.canvas_size(mapimage.portrait_virtual_width(WIDTH))[1]
    return L.canvas_size(WIDTH)


def _map_width(layout: str) -> int:
    """The width of the landscape map a layout's board is cut from."""
    return mapimage.portrait_virtual_width(WIDTH) if layout == "portrait" else WIDTH


@lru_cache(maxsize=len(ART_NAMES))
def art(name: str) -> bytes:
    """One of ``ART_NAMES`` as lossless WebP (a map in 256 colours): a static map, the station names
    laid over the rings, the legend in a language, or one of ``pieces`` without its label."""
    if name not in ART_NAMES:
        raise KeyError(name)
    kind, _, rest = name.partition("-")
    if kind == "map":
        return _webp(_colours(mapimage.background(_map_width(rest)).crop((0, 0, *_board_size(rest)))))
    if kind == "legend":
        return _webp(_colours(mapimage.legend(WIDTH, rest)))
    if kind == "names":
        return _webp(_colours(_names(rest)))
    if kind == "glow":
        return _webp(mapimage.glow(rest, WIDTH)[0])
    if kind in RING_SIZES:
        size = (80 if name == "dash-alert" else RING_SIZES[kind]) * RING_SCALE
        return _webp(pieces.picture(name, size, RING_SCALE))
    return _webp(pieces.picture(name, ART_SIZE, 1.0))


def _names(layout: str) -> Image.Image:
    """The station names as the static map has them, on nothing: laid over the rings and glows."""
    width = _map_width(layout)
    plain = mapimage.background(width)
    img = Image.new("RGBA", _board_size(layout), (0, 0, 0, 0))
    for box in mapimage.name_boxes(width):
        img.paste(plain.crop(box), box[:2])
    return img


def _colours(img: Image.Image) -> Image.Image:
    """``img`` in 256 colours, as the chat's picture is sent (a third of the bytes or less: the
    portrait map 59 KB, against 244 KB in full colour; the legend 3 KB against 11)."""
    return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _webp(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="WEBP", lossless=True, method=4)
    return out.getvalue()
