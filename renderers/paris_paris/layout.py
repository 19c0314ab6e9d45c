"""The schematic map's geometry, in a 1280 x 800 design space scaled to any width.

Positions were hand-tuned from the stations' latitude and longitude (RULES.md) so
that lines stay straight-ish, crossings are spread out and names never collide.
Tests sample pixels at ``station_xy`` to check what the renderer drew there.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.paris_paris.board import CROSSINGS, LINES, STATIONS

BASE_WIDTH = 1280
BASE_HEIGHT = 800
HOUSE_SIZE = 32         # a shop's width in design units (big enough to read on a phone)
HOUSE_GAP = 18          # half the distance between the two shops of a crossing
MAP_WIDTH = 900          # the map occupies x < MAP_WIDTH; the side panel the rest

# station -> (x, y, label side, label lines)
# label side: where the name sits relative to the station: n, s, e, w, ne, nw, se, sw.
STATION_LAYOUT: dict[str, tuple[int, int, str, tuple[str, ...]]] = {
    "montmartre": (470, 95, "nw", ("Montmartre",)),
    "gare-du-nord": (650, 130, "e", ("Gare du Nord",)),
    "arc-de-triomphe": (95, 215, "e", ("Arc de", "Triomphe")),
    "madeleine": (270, 285, "w", ("Madeleine",)),
    "opera": (370, 215, "w", ("Opéra",)),
    "grands-boulevards": (490, 225, "e", ("Grands", "Boulevards")),
    "republique": (730, 290, "ne", ("République",)),
    "belleville": (845, 215, "n", ("Belleville",)),
    "palais-royal": (380, 325, "w", ("Palais-Royal",)),
    "pompidou": (565, 350, "w", ("Centre", "Pompidou")),
    "saint-nicolas": (650, 350, "s", ("Saint-Nicolas",)),
    "concorde": (244, 404, "w", ("Concorde",)),
    "louvre": (380, 420, "nw", ("Louvre",)),
    "hotel-de-ville": (575, 450, "se", ("Hôtel de Ville",)),
    "tour-eiffel": (70, 510, "s", ("Tour", "Eiffel")),
    "invalides": (165, 510, "s", ("Invalides",)),
    "pont-neuf": (465, 470, "sw", ("Pont Neuf",)),
    "bastille": (770, 470, "n", ("Bastille",)),
    "saint-germain": (370, 550, "w", ("St-Germain-", "des-Prés")),
    "notre-dame": (560, 535, "e", ("Notre-Dame",)),
    "odeon": (455, 590, "e", ("Odéon",)),
    "luxembourg": (380, 650, "w", ("Luxembourg",)),
    "quartier-latin": (545, 650, "sw", ("Quartier Latin",)),
    "jardin-des-plantes": (700, 650, "s", ("Jardin des Plantes",)),
    "place-d-italie": (600, 750, "e", ("Place d'Italie",)),
}

assert set(STATION_LAYOUT) == set(STATIONS)

# The Seine, west to east, as a smoothed polyline (design coordinates).
SEINE: tuple[tuple[int, int], ...] = (
    (-20, 395), (60, 440), (120, 462), (210, 460), (300, 470), (400, 484), (465, 472),
    (520, 500), (565, 512), (625, 530), (700, 565), (780, 595), (860, 640), (920, 690),
)
# The Île de la Cité under Notre-Dame (a polygon).
ILE: tuple[tuple[int, int], ...] = (
    (500, 500), (530, 503), (570, 512), (603, 526), (612, 540), (596, 552), (560, 553), (522, 538),
    (505, 520),
)
# Parks: (x0, y0, x1, y1) ellipses, for a hint of the city.
PARKS: tuple[tuple[int, int, int, int], ...] = (
    (20, 525, 130, 600),     # Champ de Mars
    (275, 410, 355, 445),    # Tuileries
    (330, 665, 420, 720),    # Jardin du Luxembourg
    (650, 670, 750, 715),    # Jardin des Plantes
    (420, 40, 520, 70),      # Butte Montmartre
    (760, 150, 880, 195),    # Buttes-Chaumont
)


def scale(width: int) -> float:
    return width / BASE_WIDTH


def canvas_size(width: int) -> tuple[int, int]:
    return width, round(BASE_HEIGHT * scale(width))


def station_xy(station: str, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Pixel centre of ``station`` on a map ``width`` pixels wide."""
    x, y, _, _ = STATION_LAYOUT[station]
    s = scale(width)
    return round(x * s), round(y * s)


def line_points(colour: str, width: int = BASE_WIDTH) -> list[tuple[int, int]]:
    return [station_xy(s, width) for s in LINES[colour]]


SIDE_ANGLE = {"e": 0, "se": 45, "s": 90, "sw": 135, "w": 180, "nw": 225, "n": 270, "ne": 315}


def offer_badge_xy(offer, index: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Centre of the numbered badge for ``offer[index]`` on a map ``width`` wide.

    Badges sit beside their station, clear of its shops, preferably on the side away
    from its name, and wherever they cover the fewest names, stations and other badges.
    """
    x, y = _badge_positions(tuple((t.station, t.colour) for t in offer))[index]
    s = scale(width)
    return round(x * s), round(y * s)


BADGE_RADIUS = 17


@lru_cache(maxsize=512)
def _badge_positions(offer: tuple[tuple[str, str], ...]) -> tuple[tuple[float, float], ...]:
    taken = list(static_obstacles())
    placed = []
    r = BADGE_RADIUS + 1
    for station, _colour in offer:
        x, y, side, _ = STATION_LAYOUT[station]
        a, b = (54, 40) if station in CROSSINGS else (36, 36)
        best = None
        for rank, turn in enumerate((180, 135, 225, 90, 270, 45, 315, 0)):
            angle = math.radians(SIDE_ANGLE[side] + turn)
            distance = 1 / math.hypot(math.cos(angle) / a, math.sin(angle) / b)
            cx, cy = x + distance * math.cos(angle), y + distance * math.sin(angle)
            rect = (cx - r, cy - r, cx + r, cy + r)
            score = sum(overlap(rect, other) for other in taken) + rank * 12
            if cx - r < 2 or cy - r < 2 or cx + r > MAP_WIDTH or cy + r > BASE_HEIGHT - 2:
                score += 10_000
            if best is None or score < best[0]:
                best = (score, (cx, cy), rect)
        placed.append(best[1])
        taken.append(best[2])
    return tuple(placed)


def overlap(a, b) -> float:
    """Area shared by two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


# ---- station names --------------------------------------------------------------------------

# Station names: 22 px bold at 1280 px wide still reads (about 7 CSS px) when a phone shows
# the image 390 px wide.
LABEL_SIZE = 22
LABEL_HALO = 4


def label_anchor(side: str, crossing: bool) -> tuple[int, int, str]:
    """Offset from the station centre and Pillow anchor for a label side (clear of the shops)."""
    a, d = (39, 27) if crossing else (20, 18)
    return {
        "n": (0, -d - 4, "md"), "s": (0, d + 2, "ma"), "e": (a, 0, "lm"), "w": (-a, 0, "rm"),
        "ne": (d, -d, "ld"), "nw": (-d, -d, "rd"), "se": (d, d, "la"), "sw": (-d, d, "ra"),
    }[side]


def align(anchor: str) -> str:
    return {"l": "left", "r": "right", "m": "center"}[anchor[0]]


@lru_cache(maxsize=8)
def label_boxes(width: int = BASE_WIDTH) -> dict[str, tuple[int, int, int, int]]:
    """Pixel bounding box of each station name on a map ``width`` wide."""
    from PIL import Image, ImageDraw

    from ..fonts import font

    s = scale(width)
    f = font(round(LABEL_SIZE * s), bold=True)
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    boxes = {}
    for station, (x, y, side, lines) in STATION_LAYOUT.items():
        dx, dy, anchor = label_anchor(side, station in CROSSINGS)
        box = measure.multiline_textbbox(((x + dx) * s, (y + dy) * s), "\n".join(lines), font=f, anchor=anchor,
                                         align=align(anchor), spacing=0)
        boxes[station] = tuple(round(v) for v in box)
    return boxes


def start_stub(colour: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Outer end and unit direction (towards the first stop) of a line's start arrow."""
    (x0, y0), (x1, y1) = (STATION_LAYOUT[s][:2] for s in LINES[colour][:2])
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    return (x0 - ux * 46, y0 - uy * 46), (ux, uy)


@lru_cache(maxsize=1)
def static_obstacles() -> tuple[tuple[float, float, float, float], ...]:
    """Design-space boxes that badges and tags should not cover: names, shops, start arrows."""
    boxes = list(label_boxes(BASE_WIDTH).values())
    for station, (x, y, _, _) in STATION_LAYOUT.items():
        rx = HOUSE_GAP + HOUSE_SIZE / 2 if station in CROSSINGS else HOUSE_SIZE / 2
        boxes.append((x - rx, y - 19, x + rx, y + 19))
    for colour in LINES:
        (sx, sy), (ux, uy) = start_stub(colour)
        for t in (0, 16, 32):
            px, py = sx + ux * t, sy + uy * t
            boxes.append((px - 15, py - 15, px + 15, py + 15))
    return tuple(boxes)


def tag_xy(station: str, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Where a points tag attaches: beyond the first offer badge, away from the name."""
    x, y, side, _ = STATION_LAYOUT[station]
    angle = math.radians(SIDE_ANGLE[side] + 180)
    distance = 40 if station in CROSSINGS else 32
    s = scale(width)
    return round((x + distance * math.cos(angle)) * s), round((y + distance * math.sin(angle)) * s)


def house_xy(station: str, slot: int, count: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Centre of shop ``slot`` of ``count`` at ``station``."""
    x, y = station_xy(station, width)
    if count <= 1:
        return x, y
    s = scale(width)
    return round(x + (-HOUSE_GAP if slot == 0 else HOUSE_GAP) * s), y


def house_fill_xy(station: str, slot: int, count: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """A pixel inside shop ``slot``'s wall, clear of its initial (for tests)."""
    x, y = house_xy(station, slot, count, width)
    s = scale(width)
    return round(x - HOUSE_SIZE * 0.3 * s), round(y + HOUSE_SIZE * 0.3 * s)
