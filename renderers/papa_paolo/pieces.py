"""Drawing pieces shared by Papà Paolo's pictures: a city square (colour, letter, roads, houses),
a pizzeria, a neighbourhood with numbered squares and a trip, a track row, a PNG.

Colour is never the only cue: a square's colour also shows as its letter (Y, B, R, G), a served
house is filled and an unserved one hollow, players carry their initials.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.papa_paolo import components as C

from .. import draw, style
from ..fonts import drawable, font
from ..players import colour as player_colour

TILE_RGB = {"yellow": (240, 200, 60), "blue": (90, 150, 215), "red": (215, 90, 70), "green": (105, 175, 95)}
TILE_LIGHT = {"yellow": (250, 236, 180), "blue": (200, 222, 244), "red": (244, 200, 190), "green": (208, 234, 200)}
LETTER = {"yellow": "Y", "blue": "B", "red": "R", "green": "G"}
ROAD = (120, 116, 110)
PIZZERIA = (150, 40, 40)
LABEL = (255, 214, 0)
TRIP = (30, 30, 30)
DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


COIN = (236, 196, 90)
SHOP_FILL = (252, 236, 230)
DROP = (250, 170, 40)


def png(img: Image.Image) -> bytes:
    """PNG bytes of a palette image: flat colours survive, and encoding takes half the time of RGB.
    The palette is worked out once (``palette``): mapping to it takes a seventh of the time of
    finding each picture's own, which counts on the tall phone picture."""
    out = io.BytesIO()
    img.quantize(palette=palette(), dither=Image.Dither.NONE).save(out, "PNG", compress_level=6)
    return out.getvalue()


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The colours of every Papà Paolo picture: each ink and ground exactly, and their blends (the
    edges of antialiased text and shapes) brought down to the rest of 160 colours."""
    grounds = [style.PAPER, style.PAPER_DARK, style.PANEL, style.PANEL_EDGE, style.WHITE, style.HIGHLIGHT,
               *TILE_LIGHT.values(), *TILE_RGB.values(), SHOP_FILL, LABEL, COIN, DROP,
               *(pc.rgb for pc in style.PLAYER_COLOURS)]
    inks = [style.INK, style.MUTED, PIZZERIA, ROAD, TRIP, *(pc.ink for pc in style.PLAYER_COLOURS)]
    exact = list(dict.fromkeys(tuple(c) for c in grounds + inks))
    blends = sorted({tuple(round(a[i] + (b[i] - a[i]) * f) for i in range(3))
                     for a in grounds + inks for b in grounds for f in (0.2, 0.4, 0.6, 0.8)} - set(exact))
    swatch = Image.new("RGB", (len(blends), 1))
    swatch.putdata(blends)
    mixed = swatch.quantize(160 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = mixed.getpalette()
    assert palette is not None, "a quantized image has a palette"
    colours = exact + [tuple(palette[i:i + 3]) for i in range(0, 3 * (160 - len(exact)), 3)]
    out = Image.new("P", (1, 1))
    out.putpalette([v for c in colours + [colours[0]] * (256 - len(colours)) for v in c])   # padded: no stray black
    return out


def city_square(d: ImageDraw.ImageDraw, x: int, y: int, size: int, colour: str, roads: Sequence[str],
                houses: int, served: int = 0, name: str = "") -> None:
    """One city square: its colour's tint, roads from the centre, houses (served ones filled)."""
    d.rectangle((x, y, x + size, y + size), fill=TILE_LIGHT[colour], outline=TILE_RGB[colour], width=2)
    cx, cy = x + size / 2, y + size / 2
    w = max(3, size // 9)
    for side in roads:
        dx, dy = DIRS[side]
        d.line((cx, cy, cx + dx * size / 2, cy + dy * size / 2), fill=ROAD, width=w)
    if roads:
        d.ellipse((cx - w / 2, cy - w / 2, cx + w / 2, cy + w / 2), fill=ROAD)
    draw.text(d, (x + 4, y + 2), LETTER[colour], label_size(size), bold=True, fill=style.INK)
    hs = max(6, size // 6)
    for i in range(houses):
        hx = x + size - (i + 1) * (hs + 3) - 2
        hy = y + size - hs - 4
        pts = [(hx, hy + hs * 0.45), (hx + hs / 2, hy), (hx + hs, hy + hs * 0.45), (hx + hs, hy + hs),
               (hx, hy + hs)]
        d.polygon(pts, fill=style.INK if i < served else style.WHITE, outline=style.INK)
    if name:
        draw.text(d, (x + size - 3, y + 2), name, max(9, min(18, round(size / 4.9))), fill=style.MUTED, anchor="ra")


def label_size(size: int) -> int:
    """The letters on a square ``size`` wide (16 px on the phone picture's 78 px squares)."""
    return max(10, round(size / 4.8))


def pizzeria_square(d: ImageDraw.ImageDraw, x: int, y: int, size: int, pizzas: int, capacity: int) -> None:
    d.rectangle((x, y, x + size, y + size), fill=SHOP_FILL, outline=PIZZERIA, width=3)
    pizzeria_label(d, x, y, size, pizzas, capacity)


def pizzeria_label(d: ImageDraw.ImageDraw, x: int, y: int, size: int, pizzas: int, capacity: int,
                   halo: bool = False) -> None:
    """"P" and its pizzas out of its room ("4/5"); with ``halo``, drawn again over a trip's line."""
    stroke = max(2, size // 30) if halo else 0
    draw.text(d, (x + size / 2, y + size * 0.34), "P", max(12, size // 3), bold=True, fill=PIZZERIA, anchor="mm",
              stroke=stroke, stroke_fill=SHOP_FILL)
    draw.text(d, (x + size / 2, y + size * 0.74), f"🍕{pizzas}/{capacity}", label_size(size), bold=True,
              anchor="mm", stroke=stroke, stroke_fill=SHOP_FILL)


def pizzeria_label_box(x: int, y: int, size: int, pizzas: int, capacity: int) -> tuple[float, float, float, float]:
    """The box round a pizzeria's label (its "P" and its count) on its square at (x, y), ``size`` wide."""
    boxes = []
    for value, py, px, bold in (("P", 0.34, max(12, size // 3), True),
                                (f"🍕{pizzas}/{capacity}", 0.74, label_size(size), True)):
        left, top, right, bottom = font(px, bold).getbbox(drawable(value, empty=""), anchor="mm")
        boxes.append((x + size / 2 + left, y + size * py + top, x + size / 2 + right, y + size * py + bottom))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def badge_box(x: int, y: int, cell: int, pizzeria: bool) -> tuple[float, float, float, float]:
    """Where a square's number badge goes on a square at (x, y), ``cell`` wide: in the middle of a
    city square; in the top right corner of a pizzeria, clear of its label (it covered "P 4/5")."""
    if pizzeria:
        r = cell * 0.13
        cx, cy = x + cell - r - 3, y + r + 3
    else:
        r = cell * 0.2
        cx, cy = x + cell / 2, y + cell / 2
    return cx - r, cy - r, cx + r, cy + r


def hood_bounds(squares, extra: Sequence[tuple[int, int]] = ()) -> tuple[int, int, int, int]:
    xs = [q.x for q in squares] + [p[0] for p in extra]
    ys = [q.y for q in squares] + [p[1] for p in extra]
    return min(xs), min(ys), max(xs), max(ys)


def hood_size(squares, cell: int, extra: Sequence[tuple[int, int]] = ()) -> tuple[int, int]:
    """The pixel size of a neighbourhood drawn with squares ``cell`` wide (``extra``: squares to
    leave room for, such as numbered empty ones)."""
    x0, y0, x1, y1 = hood_bounds(squares, extra)
    return (x1 - x0 + 1) * cell, (y1 - y0 + 1) * cell


def draw_hood(d: ImageDraw.ImageDraw, squares, left: int, top: int, cell: int, *,
              labels: dict[tuple[int, int], int] | None = None, trips: Sequence[dict] = (),
              extra: Sequence[tuple[int, int]] = (), chosen: tuple[int, int] | None = None) -> None:
    """A neighbourhood at (left, top): each square ``cell`` wide; ``labels`` print a button's number
    on a square (empty ones drawn as dashed outlines); ``trips`` draw as lines with drops."""
    labels = labels or {}
    x0, y0, _, _ = hood_bounds(squares, [*extra, *labels, *([chosen] if chosen else [])])

    def at(p) -> tuple[int, int]:
        return left + (p[0] - x0) * cell, top + (p[1] - y0) * cell

    for q in squares:
        x, y = at((q.x, q.y))
        if q.kind == "pizzeria":
            pizzeria_square(d, x + 1, y + 1, cell - 2, q.pizzas, q.capacity)
        else:
            city_square(d, x + 1, y + 1, cell - 2, q.colour, q.roads, q.houses, q.served, q.id)
    for trip in trips:
        _trip(d, trip, at, cell)
    if trips:           # a pizzeria's label back over the lines that start there
        for q in squares:
            if q.kind == "pizzeria":
                x, y = at((q.x, q.y))
                pizzeria_label(d, x + 1, y + 1, cell - 2, q.pizzas, q.capacity, halo=True)
    if chosen is not None:          # the square a tile is being turned for
        x, y = at(chosen)
        d.rectangle((x + 3, y + 3, x + cell - 3, y + cell - 3), outline=LABEL, width=6)
        draw.text(d, (x + cell / 2, y + cell / 2), "↻", cell // 3, bold=True, anchor="mm")
    occupied = {(q.x, q.y) for q in squares}
    shops = {(q.x, q.y) for q in squares if q.kind == "pizzeria"}
    for pos, key in labels.items():
        x, y = at(pos)
        if pos not in occupied:
            for i in range(0, cell - 4, 10):
                d.line((x + 2 + i, y + 2, x + 2 + min(i + 5, cell - 4), y + 2), fill=style.MUTED, width=2)
                d.line((x + 2 + i, y + cell - 2, x + 2 + min(i + 5, cell - 4), y + cell - 2), fill=style.MUTED,
                       width=2)
                d.line((x + 2, y + 2 + i, x + 2, y + 2 + min(i + 5, cell - 4)), fill=style.MUTED, width=2)
                d.line((x + cell - 2, y + 2 + i, x + cell - 2, y + 2 + min(i + 5, cell - 4)), fill=style.MUTED,
                       width=2)
        box = badge_box(x, y, cell, pos in shops)
        r, cx, cy = (box[2] - box[0]) / 2, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        d.ellipse(box, fill=LABEL, outline=style.INK, width=2)
        draw.text(d, (cx, cy), str(key), int(r * 1.2), bold=True, anchor="mm")


def _trip(d: ImageDraw.ImageDraw, trip: dict, at, cell: int) -> None:
    start = trip.get("from")
    if start is None:
        return
    points = [tuple(start), *(tuple(p) for p in trip.get("path", ()))]
    centres = [(at(p)[0] + cell / 2, at(p)[1] + cell / 2) for p in points]
    if len(centres) > 1:
        # The line leaves from the pizzeria's edge, not its middle, where it would cross out "P 4/5".
        (ax, ay), (bx, by) = centres[0], centres[1]
        edge = ((ax + bx) / 2, (ay + by) / 2)
        w = max(3, cell // 14)
        d.line([edge, *centres[1:]], fill=TRIP, width=w, joint="curve")
        d.ellipse((edge[0] - w, edge[1] - w, edge[0] + w, edge[1] + w), fill=TRIP)
    for p in trip.get("drops", ()):
        x, y = at(tuple(p))
        r = cell * 0.12
        cx, cy = x + cell * 0.3, y + cell * 0.62
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DROP, outline=style.INK, width=2)


def tracks_row(d: ImageDraw.ImageDraw, x: int, y: int, tracks: dict[str, int], size: int) -> int:
    """Four small track gauges (letter, position out of 6); returns the width drawn."""
    step = size * 3
    for i, c in enumerate(C.COLOURS):
        gx = x + i * step
        d.rectangle((gx, y, gx + size, y + size), fill=TILE_RGB[c], outline=style.INK)
        draw.text(d, (gx + size / 2, y + size / 2), LETTER[c], int(size * 0.7), bold=True, anchor="mm")
        draw.text(d, (gx + size + 4, y + size / 2), str(tracks[c]), int(size * 0.8), bold=True, anchor="lm")
    return step * 4


def marker(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int, mark: str) -> None:
    pc = player_colour(seat)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pc.rgb, outline=style.INK, width=2)
    draw.text(d, (cx, cy), mark, int(r * 1.1), bold=True, fill=pc.ink, anchor="mm")
