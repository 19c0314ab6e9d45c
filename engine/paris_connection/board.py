"""The Paris Connection board: an original hex map of mainland France, built from geography.

The published board is not public data (PARIS_CONNECTION.md, "The board is ours"), so the map
is derived here, once at import, from a few tables of real places: an outline of mainland
France and the cities, as approximate (latitude, longitude), and barrier lines along
mountain fronts and estuaries. A place goes onto the hex grid through an equirectangular
projection centred on France (docs/games/paris-connection-map.md says how and why).

Hexes are pointy-top, in axial coordinates (q, r): the centre of (q, r) lies at
x = sqrt(3) * (q + r / 2), y = 1.5 * r in hex-size units, r growing southwards. A hex's
id is its column letter and row number on the printed map ("F7"), at most 3 characters.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

MAP_ID: Final = "france-1"
COMPANIES: Final = ("red", "blue", "black", "brown", "yellow", "purple")


@dataclass(frozen=True, slots=True)
class HexCell:
    id: str               # column letter + row number, e.g. "F7"
    q: int                # axial coordinates, pointy-top
    r: int
    kind: str             # "tower" | "start" | "rural" | "city"
    city: str | None      # the real city's name, for city hexes
    value: int            # what a locomotive arriving here adds to its company (cities only)

    @property
    def capacity(self) -> int:
        """Locomotives the hex holds: a city 1, a rural hex 2 (of different colours), else none."""
        return {"city": 1, "rural": 2}.get(self.kind, 0)


# --- Geography -----------------------------------------------------------------------------

# Circumradius of a hex on the ground, in km: sets how many hexes lie between Paris and the
# coasts (Paris-Marseille is about 14 hexes), and so how long a game lasts.
HEX_KM: Final = 28.0
_LAT0, _LON0 = 46.6, 2.4            # projection centre: roughly the middle of mainland France
_KM_PER_DEG_LAT = 110.6
_KM_PER_DEG_LON = 111.3 * math.cos(math.radians(_LAT0))

PARIS: Final = (48.857, 2.352)

# Mainland France, clockwise from Dunkirk, (lat, lon); coarse, but every hex is 50 km across.
OUTLINE: Final[tuple[tuple[float, float], ...]] = (
    (51.05, 2.37), (50.80, 3.10), (50.50, 3.60), (50.30, 4.20), (50.15, 4.82), (49.95, 4.80),
    (49.55, 5.80), (49.45, 6.40), (49.20, 6.75), (49.15, 7.40), (48.97, 8.20), (48.60, 7.80),
    (48.00, 7.60), (47.60, 7.55), (47.45, 7.00), (47.00, 6.60), (46.60, 6.10), (46.40, 6.15),
    (46.40, 6.80), (46.05, 7.00), (45.80, 6.90), (45.10, 6.90), (44.80, 7.00), (44.40, 6.90),
    (44.10, 7.70), (43.78, 7.50), (43.70, 7.25), (43.55, 7.00), (43.40, 6.70), (43.10, 6.20),
    (43.20, 5.60), (43.30, 5.35), (43.35, 4.80), (43.50, 4.10), (43.40, 3.60), (43.20, 3.20),
    (42.90, 3.05), (42.45, 3.15), (42.45, 2.70), (42.35, 2.00), (42.60, 1.50), (42.80, 0.70),
    (42.75, 0.00), (42.90, -0.60), (43.05, -1.00), (43.25, -1.60), (43.38, -1.78), (43.50, -1.50),
    (44.00, -1.35), (44.65, -1.25), (45.20, -1.15), (45.60, -1.20), (46.00, -1.15), (46.15, -1.20),
    (46.50, -1.80), (47.00, -2.20), (47.30, -2.50), (47.50, -2.90), (47.70, -3.50), (47.85, -4.20),
    (48.05, -4.60), (48.35, -4.75), (48.60, -4.60), (48.70, -4.00), (48.85, -3.20), (48.60, -2.50),
    (48.65, -2.00), (48.65, -1.60), (49.00, -1.55), (49.70, -1.90), (49.65, -1.25), (49.40, -1.10),
    (49.35, -0.40), (49.45, 0.20), (49.85, 0.60), (49.95, 1.10), (50.20, 1.55), (50.70, 1.60),
    (50.95, 1.85),
)

# Cities, (name, lat, lon). The value follows the distance from Paris (``city_value``);
# Marseille, the far south's great port, is the one city worth 4.
MARSEILLE: Final = "Marseille"
CITY_PLACES: Final[tuple[tuple[str, float, float], ...]] = (
    ("Marseille", 43.30, 5.37),
    ("Lille", 50.63, 3.06), ("Rouen", 49.44, 1.10), ("Amiens", 49.89, 2.30), ("Reims", 49.26, 4.03),
    ("Orléans", 47.90, 1.91), ("Troyes", 48.30, 4.08), ("Caen", 49.18, -0.37), ("Le Havre", 49.49, 0.11),
    ("Le Mans", 48.00, 0.20), ("Tours", 47.39, 0.69), ("Auxerre", 47.80, 3.57), ("Calais", 50.95, 1.86),
    ("Saint-Quentin", 49.85, 3.29), ("Chartres", 48.45, 1.49), ("Bourges", 47.08, 2.40),
    ("Châlons", 48.96, 4.36), ("Dieppe", 49.92, 1.08), ("Blois", 47.59, 1.33),
    ("Metz", 49.12, 6.18), ("Épinal", 48.17, 6.45), ("Strasbourg", 48.58, 7.75), ("Dijon", 47.32, 5.04),
    ("Rennes", 48.11, -1.68), ("Nantes", 47.22, -1.55), ("Angers", 47.47, -0.55),
    ("Poitiers", 46.58, 0.34), ("Limoges", 45.83, 1.26), ("Clermont-Ferrand", 45.78, 3.08),
    ("Besançon", 47.24, 6.02), ("Lyon", 45.76, 4.84), ("Mulhouse", 47.75, 7.34), ("Cherbourg", 49.64, -1.62),
    ("La Rochelle", 46.16, -1.15), ("Saint-Étienne", 45.43, 4.39),
    ("Brest", 48.39, -4.49), ("Bordeaux", 44.84, -0.58), ("Toulouse", 43.60, 1.44),
    ("Montpellier", 43.61, 3.88), ("Nice", 43.70, 7.26), ("Grenoble", 45.19, 5.72), ("Perpignan", 42.70, 2.90),
    ("Bayonne", 43.49, -1.47), ("Pau", 43.30, -0.37), ("Avignon", 43.95, 4.81), ("Toulon", 43.12, 5.93),
)

# Barrier lines, (lat, lon) polylines: a hex edge whose centre-to-centre segment crosses one
# is a barrier. Each leaves gaps where the real railways pass.
BARRIER_LINES: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    # The Vosges between Lorraine and Alsace; open at the Saverne pass and the Belfort gap.
    "vosges": ((48.55, 7.15), (48.15, 7.00), (47.85, 6.90)),
    # The high Alps east of Grenoble; the coast and the Isère valley stay open.
    "alps": ((45.95, 6.45), (45.40, 6.15), (44.80, 6.25), (44.10, 6.55)),
    # The Massif Central's western edge (Limousin plateau to the Causses) ...
    "massif-central-west": ((45.50, 1.95), (44.90, 1.80), (44.30, 2.00)),
    # ... and its eastern edge, the Cévennes above the Rhône valley.
    "cevennes": ((45.20, 3.90), (44.60, 3.95), (44.10, 3.65)),
    # The Pyrenean front above Pau and the Ariège.
    "pyrenees": ((43.10, -0.90), (43.02, 0.40), (42.90, 1.60)),
    # Estuaries: the Gironde below Bordeaux, the Loire below Nantes, the Seine below Rouen.
    "gironde": ((45.62, -1.15), (45.05, -0.62)),
    "loire": ((47.28, -2.30), (47.20, -1.75)),
    "seine": ((49.46, 0.00), (49.40, 0.60)),
}

_DIRECTIONS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_SQRT3 = math.sqrt(3.0)


def city_value(distance_km: float) -> int:
    """The value rule: the further from Paris, the more a city is worth (Marseille aside)."""
    if distance_km <= 250:
        return 1
    return 2 if distance_km <= 450 else 3


def km_from_paris(lat: float, lon: float) -> float:
    x, y = _project(lat, lon)
    px, py = _project(*PARIS)
    return math.hypot(x - px, y - py)


def _project(lat: float, lon: float) -> tuple[float, float]:
    """Equirectangular projection centred on France: km east and km south of the centre."""
    return (lon - _LON0) * _KM_PER_DEG_LON, (_LAT0 - lat) * _KM_PER_DEG_LAT


def _unproject(x: float, y: float) -> tuple[float, float]:
    return _LAT0 - y / _KM_PER_DEG_LAT, _LON0 + x / _KM_PER_DEG_LON


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of hex (q, r) in hex-size units (x east, y south)."""
    return _SQRT3 * (q + r / 2), 1.5 * r


def _axial_of(lat: float, lon: float) -> tuple[int, int]:
    """The hex containing a place (cube rounding of the fractional axial coordinates)."""
    x, y = _project(lat, lon)
    fr = y / (1.5 * HEX_KM)
    fq = x / (_SQRT3 * HEX_KM) - fr / 2
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r


def _latlon_of(q: int, r: int) -> tuple[float, float]:
    x, y = hex_centre(q, r)
    return _unproject(x * HEX_KM, y * HEX_KM)


def _inside(lat: float, lon: float, polygon) -> bool:
    inside = False
    for (y1, x1), (y2, x2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > lat) != (y2 > lat) and lon < x1 + (lat - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _crosses(a, b, c, d) -> bool:
    """Whether segments ab and cd (points as (x, y)) properly intersect."""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (side(a, b, c) > 0) != (side(a, b, d) > 0) and (side(c, d, a) > 0) != (side(c, d, b) > 0)


def _column_label(q: int, r: int, min_col: int, min_row: int) -> str:
    col = q + (r - (r & 1)) // 2 - min_col        # "odd-r" offset column: straight printed columns
    return f"{chr(ord('A') + col)}{r - min_row + 1}"


def _build() -> tuple[dict[str, HexCell], str, tuple[str, ...], frozenset[frozenset[str]]]:
    tower_qr = _axial_of(*PARIS)
    start_qr = [(tower_qr[0] + dq, tower_qr[1] + dr) for dq, dr in _DIRECTIONS]
    corners = [_axial_of(lat, lon) for lat, lon in OUTLINE]
    q_lo, q_hi = min(q for q, _ in corners) - 12, max(q for q, _ in corners) + 12
    r_lo, r_hi = min(r for _, r in corners) - 1, max(r for _, r in corners) + 1
    land = {(q, r) for r in range(r_lo, r_hi + 1) for q in range(q_lo, q_hi + 1)
            if _inside(*_latlon_of(q, r), OUTLINE)}
    cities: dict[tuple[int, int], tuple[str, int]] = {}
    for name, lat, lon in CITY_PLACES:
        qr = _axial_of(lat, lon)
        if qr in cities or qr == tower_qr or qr in start_qr:
            taken = cities[qr][0] if qr in cities else "Paris"
            raise ValueError(f"{name} falls on the hex of {taken}: move it or drop it")
        cities[qr] = (name, 4 if name == MARSEILLE else city_value(km_from_paris(lat, lon)))
        land.add(qr)                              # a coastal city's hex centre may lie at sea
    land |= {tower_qr, *start_qr}
    # Keep the land joined to Paris (a stray sliver of coast would be an island).
    joined, queue = {tower_qr}, deque([tower_qr])
    while queue:
        q, r = queue.popleft()
        for dq, dr in _DIRECTIONS:
            nxt = (q + dq, r + dr)
            if nxt in land and nxt not in joined:
                joined.add(nxt)
                queue.append(nxt)
    min_row = min(r for _, r in joined)
    min_col = min(q + (r - (r & 1)) // 2 for q, r in joined)
    cells: dict[tuple[int, int], HexCell] = {}
    for q, r in sorted(joined, key=lambda qr: (qr[1], qr[0])):
        label = _column_label(q, r, min_col, min_row)
        if (q, r) == tower_qr:
            cells[q, r] = HexCell(label, q, r, "tower", None, 0)
        elif (q, r) in start_qr:
            cells[q, r] = HexCell(label, q, r, "start", None, 0)
        elif (q, r) in cities:
            name, value = cities[q, r]
            cells[q, r] = HexCell(label, q, r, "city", name, value)
        else:
            cells[q, r] = HexCell(label, q, r, "rural", None, 0)
    lines = [[_project(lat, lon) for lat, lon in line] for line in BARRIER_LINES.values()]
    barriers = set()
    for (q, r), cell in cells.items():
        for dq, dr in _DIRECTIONS[:3]:            # each edge once
            other = cells.get((q + dq, r + dr))
            if other is None:
                continue
            a = tuple(c * HEX_KM for c in hex_centre(q, r))
            b = tuple(c * HEX_KM for c in hex_centre(q + dq, r + dr))
            if any(_crosses(a, b, p1, p2) for line in lines for p1, p2 in pairwise(line)):
                barriers.add(frozenset((cell.id, other.id)))
    hexes = {cell.id: cell for cell in cells.values()}
    return hexes, cells[tower_qr].id, tuple(cells[qr].id for qr in start_qr), frozenset(barriers)


HEXES: dict[str, HexCell]
TOWER: str
START_HEXES: tuple[str, ...]
BARRIERS: frozenset[frozenset[str]]
HEXES, TOWER, START_HEXES, BARRIERS = _build()

_BY_AXIAL: Final = {(c.q, c.r): c.id for c in HEXES.values()}
_NEIGHBOURS: Final[dict[str, tuple[str, ...]]] = {
    cell.id: tuple(
        other for dq, dr in _DIRECTIONS
        if (other := _BY_AXIAL.get((cell.q + dq, cell.r + dr))) is not None
        and frozenset((cell.id, other)) not in BARRIERS)
    for cell in HEXES.values()
}


def neighbours(hex_id: str) -> tuple[str, ...]:
    """The hexes adjacent to ``hex_id`` and not across a barrier edge."""
    return _NEIGHBOURS[hex_id]


def cities() -> tuple[HexCell, ...]:
    """Every city hex, in map order."""
    return tuple(c for c in HEXES.values() if c.kind == "city")


def marseille() -> str:
    """The id of Marseille's hex: a locomotive arriving there ends the game."""
    return next(c.id for c in HEXES.values() if c.city == MARSEILLE)


def project(lat: float, lon: float) -> tuple[float, float]:
    """A place as km east and south of the map's centre, the frame hex centres are in (times
    ``HEX_KM``): for pictures that draw the real coast over the hexes."""
    return _project(lat, lon)
