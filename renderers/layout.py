"""The schematic map's geometry, in a 1280 x 800 design space scaled to any width.

Positions were hand-tuned from the stations' latitude and longitude (RULES.md) so
that lines stay straight-ish, crossings are spread out and names never collide.
Tests sample pixels at ``station_xy`` to check what the renderer drew there.
"""

from __future__ import annotations

import math

from engine.board import CROSSINGS, LINES, STATIONS

BASE_WIDTH = 1280
BASE_HEIGHT = 800
HOUSE_SIZE = 27         # a shop's width in design units
HOUSE_GAP = 15          # half the distance between the two shops of a crossing
MAP_WIDTH = 900          # the map occupies x < MAP_WIDTH; the side panel the rest

# station -> (x, y, label side, label lines)
# label side: where the name sits relative to the station: n, s, e, w, ne, nw, se, sw.
STATION_LAYOUT: dict[str, tuple[int, int, str, tuple[str, ...]]] = {
    "montmartre": (470, 95, "nw", ("Montmartre",)),
    "gare-du-nord": (650, 130, "e", ("Gare du Nord",)),
    "arc-de-triomphe": (95, 215, "e", ("Arc de Triomphe",)),
    "madeleine": (270, 285, "w", ("Madeleine",)),
    "opera": (370, 215, "w", ("Opéra",)),
    "grands-boulevards": (490, 225, "e", ("Grands", "Boulevards")),
    "republique": (730, 290, "ne", ("République",)),
    "belleville": (845, 215, "n", ("Belleville",)),
    "palais-royal": (380, 325, "w", ("Palais-Royal",)),
    "pompidou": (565, 350, "w", ("Centre", "Pompidou")),
    "saint-nicolas": (650, 350, "se", ("Saint-Nicolas",)),
    "concorde": (250, 400, "w", ("Concorde",)),
    "louvre": (380, 420, "nw", ("Louvre",)),
    "hotel-de-ville": (575, 450, "ne", ("Hôtel de Ville",)),
    "tour-eiffel": (70, 510, "s", ("Tour Eiffel",)),
    "invalides": (170, 510, "s", ("Invalides",)),
    "pont-neuf": (465, 470, "sw", ("Pont Neuf",)),
    "bastille": (770, 470, "n", ("Bastille",)),
    "saint-germain": (370, 550, "w", ("Saint-Germain-", "des-Prés")),
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


_SIDE_ANGLE = {"e": 0, "se": 45, "s": 90, "sw": 135, "w": 180, "nw": 225, "n": 270, "ne": 315}


def offer_badge_xy(offer, index: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Centre of the numbered badge for ``offer[index]``.

    Badges sit on the side of the station away from its name; several offers at one
    station fan out around it.
    """
    tile = offer[index]
    same = [i for i, t in enumerate(offer) if t.station == tile.station]
    slot = same.index(index)
    x, y, side, _ = STATION_LAYOUT[tile.station]
    turn = (180, 135, 225, 90, 270)[slot % 5]
    angle = math.radians(_SIDE_ANGLE[side] + turn)
    # Clear of the shops: two side by side at a crossing need more room left and right.
    a, b = (45, 33) if tile.station in CROSSINGS else (30, 30)
    distance = 1 / math.hypot(math.cos(angle) / a, math.sin(angle) / b)
    s = scale(width)
    return round((x + distance * math.cos(angle)) * s), round((y + distance * math.sin(angle)) * s)


def tag_xy(station: str, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Where a points tag attaches: beyond the first offer badge, away from the name."""
    x, y, side, _ = STATION_LAYOUT[station]
    angle = math.radians(_SIDE_ANGLE[side] + 180)
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
