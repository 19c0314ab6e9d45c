"""The picture only one seat sees: its own neighbourhood while it chooses, the squares its legal
steps name carrying the very numbers its buttons show (``squares.square_keys``), the trip it is
planning drawn as it grows, the tile it turns shown in each rotation it may choose."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.papa_paolo import components as C
from engine.papa_paolo.steps import Rotate, parse
from i18n import t

from .. import draw, style
from . import pieces
from . import text as words
from .hoodtext import planned_trips
from .squares import square_keys

CELL = 120
HOOD_TOP = 110          # the neighbourhood's top, under the title, the money and the tracks


@dataclass(frozen=True, slots=True)
class _Frame:
    """How the seat's picture is laid out: what its squares carry and how large it is."""

    labels: dict[tuple[int, int], int]      # the numbered squares
    chosen: tuple[int, int] | None          # the square a tile being turned goes to
    rotations: list[int]                    # the rotations offered, in the order drawn
    hood_w: int
    hood_h: int

    @property
    def width(self) -> int:
        return max(self.hood_w + 40, 560)

    @property
    def extra(self) -> list[tuple[int, int]]:
        """Squares drawn beyond the neighbourhood's own: numbered ones, and where a tile goes."""
        return [*self.labels, *([self.chosen] if self.chosen else [])]


def _frame(view) -> _Frame:
    steps = [parse(s) for s in view.legal]
    labels = square_keys(steps)
    rotations = [s.rotation for s in steps if isinstance(s, Rotate)]
    chosen = _chosen(view, rotations)
    squares = view.neighbourhoods[view.viewer]
    hood_w, hood_h = pieces.hood_size(squares, CELL, [*labels, *([chosen] if chosen else [])])
    return _Frame(labels, chosen, rotations, hood_w, hood_h)


def render_own(view, *, events: Sequence[Any] = (), language: str = "en", layout: str = "landscape") -> bytes:
    seat = view.viewer
    frame = _frame(view)
    labels, chosen, rotations, hood_w, hood_h = frame.labels, frame.chosen, frame.rotations, frame.hood_w, frame.hood_h
    squares = view.neighbourhoods[seat]
    trips = planned_trips(view.draft)
    width = frame.width
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


def square_box(view, pos: tuple[int, int]) -> tuple[int, int, int, int]:
    """Where square ``pos`` of the viewer's neighbourhood is drawn in its own picture (pixels)."""
    frame = _frame(view)
    x0, y0, _, _ = pieces.hood_bounds(view.neighbourhoods[view.viewer], frame.extra)
    left = (frame.width - frame.hood_w) // 2 + (pos[0] - x0) * CELL
    top = HOOD_TOP + (pos[1] - y0) * CELL
    return left, top, left + CELL, top + CELL


def rotation_box(view, rotation: int) -> tuple[int, int, int, int]:
    """Where the tile being placed is shown turned by ``rotation`` (one of those offered) (pixels)."""
    frame = _frame(view)
    return _rotation_box(frame.rotations.index(rotation), HOOD_TOP + frame.hood_h + 30)


def _rotation_box(i: int, top: int) -> tuple[int, int, int, int]:
    """The ``i``-th rotation's tile in the strip whose heading is at ``top``."""
    x, y = 20 + i * (CELL + 20), top + 22
    return x, y, x + CELL - 10, y + CELL - 10


def _rotations(d: ImageDraw.ImageDraw, view, rotations: list[int], top: int, language: str) -> None:
    """The tile being placed in each rotation offered, labelled as the rotation buttons are."""
    space = view.draft.get("space")
    tile_id = view.grid[space[0] * view.grid_size[1] + space[1]]
    tile = C.CITY_TILES[tile_id]
    draw.text(d, (20, top - 4), t(language, "papa.img.rotations"), 18, bold=True)
    for i, rot in enumerate(rotations):
        x, y, x1, y1 = _rotation_box(i, top)
        pieces.city_square(d, x, y, x1 - x, tile.colour, sorted(words.rotated_roads(tile_id, rot)), tile.houses)
        draw.text(d, ((x + x1) / 2, y1 + 4), f"↻ {rot * 90}°", 16, bold=True, anchor="ma")
