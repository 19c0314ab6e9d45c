"""The picture only one seat sees: its own neighbourhood while it chooses, the squares its legal
steps name carrying the very numbers its buttons show (``squares.square_keys``), the trip it is
planning drawn as it grows, the tile it turns shown in each rotation it may choose."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.papa_paolo import components as C
from engine.papa_paolo.steps import parse

from .. import draw, style
from ..i18n import t
from . import pieces
from . import text as words
from .hoodtext import planned_trips
from .squares import square_keys

CELL = 120
HOOD_TOP = 110          # the neighbourhood's top, under the title, the money and the tracks


def render_own(view, *, events: Sequence[Any] = (), language: str = "en", layout: str = "landscape") -> bytes:
    seat = view.viewer
    steps = [parse(s) for s in view.legal]
    labels = square_keys(steps)
    squares = view.neighbourhoods[seat]
    trips = planned_trips(view.draft)
    rotations = [s.arg for s in steps if s.verb == "rotate"]
    chosen = _chosen(view, rotations)
    hood_w, hood_h = pieces.hood_size(squares, CELL, [*labels, *([chosen] if chosen else [])])
    width = _width(hood_w)
    strip = CELL + 50 if rotations else 0
    height = HOOD_TOP + hood_h + 30 + strip
    img = Image.new("RGB", (width, height), style.PAPER)
    d = ImageDraw.Draw(img)
    draw.text(d, (20, 14), words.status_line(view, language), 24, bold=True, max_width=width - 40)
    draw.text(d, (20, 48), f"{view.players[seat]} · {words.money(view, seat, language)}", 20, max_width=width - 260)
    pieces.tracks_row(d, 20, 78, view.tracks[seat], 22)
    held = view.delivery_held[seat]
    if held:
        draw.text(d, (width - 20, 80), words.delivery_text(held, language), 20, anchor="ra")
    pieces.draw_hood(d, squares, (width - hood_w) // 2, HOOD_TOP, CELL, labels=labels, trips=trips, chosen=chosen)
    if rotations:
        _rotations(d, view, rotations, HOOD_TOP + hood_h + 30, language)
    return pieces.png(img)


def _chosen(view, rotations) -> tuple[int, int] | None:
    return tuple(view.draft["square"]) if rotations and view.draft and view.draft.get("square") else None


def _width(hood_w: int) -> int:
    return max(hood_w + 40, 560)


def square_box(view, pos: tuple[int, int]) -> tuple[int, int, int, int]:
    """Where square ``pos`` of the viewer's neighbourhood is drawn in its own picture (pixels)."""
    steps = [parse(s) for s in view.legal]
    labels = square_keys(steps)
    chosen = _chosen(view, [s.arg for s in steps if s.verb == "rotate"])
    extra = [*labels, *([chosen] if chosen else [])]
    squares = view.neighbourhoods[view.viewer]
    hood_w, _ = pieces.hood_size(squares, CELL, extra)
    x0, y0, _, _ = pieces.hood_bounds(squares, extra)
    left = (_width(hood_w) - hood_w) // 2 + (pos[0] - x0) * CELL
    top = HOOD_TOP + (pos[1] - y0) * CELL
    return left, top, left + CELL, top + CELL


def _rotations(d: ImageDraw.ImageDraw, view, rotations: list[int], top: int, language: str) -> None:
    """The tile being placed in each rotation offered, labelled as the rotation buttons are."""
    space = view.draft.get("space")
    tile_id = view.grid[space[0] * view.grid_size[1] + space[1]]
    tile = C.CITY_TILES[tile_id]
    draw.text(d, (20, top - 4), t(language, "papa.img.rotations"), 18, bold=True)
    for i, rot in enumerate(rotations):
        x = 20 + i * (CELL + 20)
        pieces.city_square(d, x, top + 22, CELL - 10, tile.colour, sorted(words.rotated_roads(tile_id, rot)),
                           tile.houses)
        draw.text(d, (x + (CELL - 10) / 2, top + 22 + CELL - 10 + 4), f"↻ {rot * 90}°", 16, bold=True, anchor="ma")
