"""The schematic map's geometry, in a 1280 x 800 design space scaled to any width.

Positions were hand-tuned from the stations' latitude and longitude (RULES.md) so that
lines stay straight-ish and crossings are spread out. Everything drawn beside a station
(its name, offer badges, points tags, the small tour's bus) is placed by one rule, see
``_best``: candidate positions around the station, tried in order, each scored by how much
it covers what is already there (names, shops, icons, lines), plus how far it strays.
Tests read the resulting boxes (``label_boxes``, ``map_boxes``) and sample pixels at
``station_xy`` to check what the renderer drew there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from engine.paris_paris import events as E
from engine.paris_paris.board import CROSSINGS, LINES, STATIONS

from .names import full_name, short_name

BASE_WIDTH = 1280
BASE_HEIGHT = 800
HOUSE_SIZE = 32         # a shop's width in design units (big enough to read on a phone)
HOUSE_GAP = 18          # half the distance between the two shops of a crossing
MAP_WIDTH = 900          # the map occupies x < MAP_WIDTH; the side panel the rest

# station -> (x, y, preferred label side)
# The side (n, s, e, w, ne, nw, se, sw) is where the name is tried first (see ``labels``).
STATION_LAYOUT: dict[str, tuple[int, int, str]] = {
    "montmartre": (470, 95, "nw"),
    "gare-du-nord": (650, 130, "e"),
    "arc-de-triomphe": (95, 215, "e"),
    "madeleine": (270, 285, "w"),
    "opera": (370, 215, "w"),
    "grands-boulevards": (490, 225, "e"),
    "republique": (730, 290, "ne"),
    "belleville": (845, 215, "n"),
    "palais-royal": (380, 325, "w"),
    "pompidou": (565, 350, "w"),
    "saint-nicolas": (650, 350, "s"),
    "concorde": (244, 404, "w"),
    "louvre": (380, 420, "nw"),
    "hotel-de-ville": (575, 450, "se"),
    "tour-eiffel": (70, 510, "s"),
    "invalides": (165, 510, "s"),
    "pont-neuf": (465, 470, "sw"),
    "bastille": (770, 470, "n"),
    "saint-germain": (370, 550, "w"),
    "notre-dame": (560, 535, "e"),
    "odeon": (455, 590, "e"),
    "luxembourg": (380, 650, "w"),
    "quartier-latin": (545, 650, "sw"),
    "jardin-des-plantes": (700, 650, "s"),
    "place-d-italie": (600, 750, "e"),
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
    x, y, _ = STATION_LAYOUT[station]
    s = scale(width)
    return round(x * s), round(y * s)


def line_points(colour: str, width: int = BASE_WIDTH) -> list[tuple[int, int]]:
    return [station_xy(s, width) for s in LINES[colour]]


SIDE_ANGLE = {"e": 0, "se": 45, "s": 90, "sw": 135, "w": 180, "nw": 225, "n": 270, "ne": 315}
Box = tuple[float, float, float, float]
T = TypeVar("T")                    # what a candidate place carries (a label, a centre)


def overlap(a, b) -> float:
    """Area shared by two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def gap(box, x: float, y: float) -> float:
    """Distance from (x, y) to the nearest point of ``box`` (0 inside)."""
    dx = max(box[0] - x, 0, x - box[2])
    dy = max(box[1] - y, 0, y - box[3])
    return math.hypot(dx, dy)


def grow(box, margin: float) -> Box:
    return box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin


# ---- what is always on the map: stations, shops, lines, start arrows, the legend -------------

LEGEND_BOX = (8, 682, 196, 794)    # bottom left of the map (a key for the desktop)
MAP_BOUNDS = (4, 4, MAP_WIDTH - 4, BASE_HEIGHT - 4)


def shop_box(station: str) -> Box:
    """A station's marker and the room its shops take (two side by side at a crossing)."""
    x, y, _ = STATION_LAYOUT[station]
    rx = HOUSE_GAP + HOUSE_SIZE / 2 + 1 if station in CROSSINGS else HOUSE_SIZE / 2 + 1
    return x - rx, y - 20, x + rx, y + 19


def start_stub(colour: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Outer end and unit direction (towards the first stop) of a line's start arrow."""
    (x0, y0), (x1, y1) = (STATION_LAYOUT[s][:2] for s in LINES[colour][:2])
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    return (x0 - ux * 46, y0 - uy * 46), (ux, uy)


@lru_cache(maxsize=1)
def _line_boxes() -> tuple[Box, ...]:
    """Small boxes every 8 units along every line and start arrow (the line with its white casing)."""
    boxes = []
    for colour, stops in LINES.items():
        (sx, sy), _ = start_stub(colour)
        points = [(sx, sy)] + [STATION_LAYOUT[s][:2] for s in stops]
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            steps = max(1, round(math.hypot(x1 - x0, y1 - y0) / 8))
            for i in range(steps + 1):
                px, py = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
                boxes.append((px - 8, py - 8, px + 8, py + 8))
    return tuple(boxes)


@lru_cache(maxsize=1)
def _fixed_boxes() -> tuple[Box, ...]:
    """Stations with their shops, the start badges and the legend: nothing may cover them."""
    boxes = [shop_box(station) for station in STATION_LAYOUT]
    for colour in LINES:
        (sx, sy), _ = start_stub(colour)
        boxes.append((sx - 15, sy - 15, sx + 15, sy + 15))
    boxes.append(LEGEND_BOX)
    return tuple(boxes)


# Weights of the placement rule, per square unit covered: a shop, station, badge, tag, start badge
# or the legend 60; a name 300 for badges and tags (they go anywhere else first); a line 2 for badges
# and tags, LABEL_ON_LINE for names (a name may cross a line, its halo keeps it legible). Each unit
# away from the station costs 1.
HARD = 60
NAME = 300
LINE = 2
REACH = 280      # obstacles farther from a station cannot touch what goes beside it (edges stay under 270)
OUT = 10 ** 9    # outside the map: never
AMBIGUOUS = 5000  # a name nearer to another station than to its own


def _cost(box, weighted: Iterable[tuple[Sequence[Box], float]]) -> float:
    if box[0] < MAP_BOUNDS[0] or box[1] < MAP_BOUNDS[1] or box[2] > MAP_BOUNDS[2] or box[3] > MAP_BOUNDS[3]:
        return OUT
    total = 0.0
    for boxes, weight in weighted:
        for other in boxes:
            if other[0] < box[2] and box[0] < other[2] and other[1] < box[3] and box[1] < other[3]:
                total += weight * overlap(box, other)
    return total


def _best(candidates: Iterable[tuple[float, Box, T]], weighted: Any,
          extra: Callable[[Box], float] | None = None) -> tuple[float, Box, T]:
    """The rule: of ``candidates`` (own cost, box, payload), in order of preference, the one whose
    own cost plus what it covers (``_cost``) plus ``extra(box)`` (never negative) is least; the
    earlier one on a tie."""
    best = None
    for own, box, payload in sorted(candidates, key=lambda c: c[0]):   # stable: ties keep their order
        if best is not None and own >= best[0]:
            break   # every candidate left costs at least this much on its own
        score = own + _cost(box, weighted)
        if extra is not None and (best is None or score < best[0]):     # only where it can still win
            score += extra(box)
        if best is None or score < best[0]:
            best = (score, box, payload)
    assert best is not None, "every name and badge has a candidate place"
    return best


def _turns(side: str) -> list[str]:
    """The eight sides, starting at ``side`` and moving away from it alternately."""
    order = [0, 45, -45, 90, -90, 135, -135, 180]
    names = {v: k for k, v in SIDE_ANGLE.items()}
    return [names[(SIDE_ANGLE[side] + turn) % 360] for turn in order]


# ---- station names ---------------------------------------------------------------------------

# Station names: 22 px bold at 1280 px wide still reads (about 7 CSS px) when a phone shows
# the image 390 px wide.
LABEL_SIZE = 22
LABEL_HALO = 4
LABEL_MAX_GAP = 44   # the nearest point of a name is at most this far from its station (design units)
LABEL_ON_LINE = 0.08
LABEL_SPACING = 6    # names keep this far apart, so that no two read as one


@dataclass(frozen=True, slots=True)
class Label:
    side: str                 # where the name sits: n, s, e, w, ne, nw, se, sw
    lines: tuple[str, ...]    # the text, one or two lines (the full name or the short name)
    box: Box                  # design units


def label_anchor(side: str, crossing: bool) -> tuple[int, int, str]:
    """Offset from the station centre and Pillow anchor for a label side (clear of the shops)."""
    a, d = (39, 27) if crossing else (20, 18)
    return {
        "n": (0, -d - 4, "md"), "s": (0, d + 2, "ma"), "e": (a, 0, "lm"), "w": (-a, 0, "rm"),
        "ne": (d, -d, "ld"), "nw": (-d, -d, "rd"), "se": (d, d, "la"), "sw": (-d, d, "ra"),
    }[side]


def align(anchor: str) -> str:
    return {"l": "left", "r": "right", "m": "center"}[anchor[0]]


def _two_lines(name: str) -> tuple[str, ...] | None:
    """``name`` broken into two lines as evenly as it can be (None for a single word)."""
    from ..draw import line_pieces

    pieces = line_pieces(name)
    if len(pieces) < 2:
        return None
    cuts = [("".join(pieces[:i]).strip(), "".join(pieces[i:]).strip()) for i in range(1, len(pieces))]
    return min(cuts, key=lambda c: max(len(c[0]), len(c[1])))


def label_texts(station: str) -> list[tuple[tuple[str, ...], float]]:
    """The ways to write a station's name, with their cost: full name on one line, then on two,
    then the short name (never an ellipsis)."""
    texts = [((full_name(station),), 0.0), (_two_lines(full_name(station)), 10.0)]
    if short_name(station) != full_name(station):
        texts += [((short_name(station),), 60.0), (_two_lines(short_name(station)), 70.0)]
    return [(lines, cost) for lines, cost in texts if lines]


@lru_cache(maxsize=256)
def _text_box(lines: tuple[str, ...], anchor: str, size: int) -> Box:
    """Box of ``lines`` drawn at (0, 0) with ``anchor`` at ``size`` pixels."""
    from PIL import Image, ImageDraw

    from ..fonts import font

    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    return measure.multiline_textbbox((0, 0), "\n".join(lines), font=font(size, bold=True), anchor=anchor,
                                      align=align(anchor), spacing=0)


def _label_candidates(station: str):
    """(own cost, box, Label) for each way to write the name on each side of the station. Own cost:
    the text's (full name first), 20 for each step away from the preferred side, the distance to the
    box and a quarter of the distance to its centre (a long name to the side strays further), and
    AMBIGUOUS when another station is (almost) as near: the name must read as this station's."""
    x, y, side = STATION_LAYOUT[station]
    crossing = station in CROSSINGS
    for lines, text_cost in label_texts(station):
        for rank, turn in enumerate(_turns(side)):
            dx, dy, anchor = label_anchor(turn, crossing)
            bx0, by0, bx1, by1 = _text_box(lines, anchor, LABEL_SIZE)
            box = (x + dx + bx0, y + dy + by0, x + dx + bx1, y + dy + by1)
            near = gap(box, x, y)
            if near > LABEL_MAX_GAP:
                continue
            nearest_other = min(gap(box, *STATION_LAYOUT[o][:2]) for o in STATION_LAYOUT if o != station)
            centre = math.hypot((box[0] + box[2]) / 2 - x, (box[1] + box[3]) / 2 - y)
            own = text_cost + rank * 20 + near + centre / 4 + (AMBIGUOUS if nearest_other < near + 8 else 0)
            yield own, box, Label(turn, lines, box)


@lru_cache(maxsize=1)
def labels() -> dict[str, Label]:
    """Where each station's name goes (design units), by the placement rule: crossings first, then the
    other stops, each taking its best candidate; then three passes that move each name again with all
    the others in place."""
    order = sorted(STATION_LAYOUT, key=lambda s: s not in CROSSINGS)
    placed: dict[str, Label] = {}

    def place(station: str) -> None:
        others = [grow(label.box, LABEL_SPACING) for name, label in placed.items() if name != station]
        placed[station] = _best(_label_candidates(station),
                                [(_fixed_boxes(), HARD), (others, HARD), (_line_boxes(), LABEL_ON_LINE)])[2]

    for _ in range(4):
        for station in order:
            place(station)
    return {station: placed[station] for station in STATION_LAYOUT}


@lru_cache(maxsize=8)
def label_boxes(width: int = BASE_WIDTH) -> dict[str, tuple[int, int, int, int]]:
    """Pixel bounding box of each station name on a map ``width`` wide."""
    s = scale(width)
    size = round(LABEL_SIZE * s)
    boxes = {}
    for station, label in labels().items():
        x, y, _ = STATION_LAYOUT[station]
        dx, dy, anchor = label_anchor(label.side, station in CROSSINGS)
        bx0, by0, bx1, by1 = _text_box(label.lines, anchor, size)
        ox, oy = (x + dx) * s, (y + dy) * s
        boxes[station] = (round(ox + bx0), round(oy + by0), round(ox + bx1), round(oy + by1))
    return boxes


@lru_cache(maxsize=32)
def static_obstacles(station: str) -> list[tuple[Sequence[Box], float]]:
    """What badges and tags beside ``station`` must not cover (names above all, then shops, start
    badges, the legend) and should not cover (lines), with the placement rule's weights; only what
    lies within their reach of the station, for speed."""
    x, y, _ = STATION_LAYOUT[station]

    def near(boxes):
        return tuple(box for box in boxes if gap(box, x, y) < REACH)

    names = tuple(grow(label.box, 2) for label in labels().values())
    return [(near(_fixed_boxes()), HARD), (near(names), NAME), (near(_line_boxes()), LINE)]


# ---- offer badges ----------------------------------------------------------------------------

BADGE_RADIUS = 17


def offer_badge_xy(offer, index: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Centre of the numbered badge for ``offer[index]`` on a map ``width`` wide.

    Badges sit beside their station, clear of its shops, preferably on the side away
    from its name, and wherever they cover the fewest names, stations and other badges.
    """
    x, y = _badge_positions(tuple((t.station, t.colour) for t in offer))[index]
    s = scale(width)
    return round(x * s), round(y * s)


def _badge_box(x: float, y: float) -> Box:
    r = BADGE_RADIUS + 1
    return x - r, y - r, x + r, y + r


@lru_cache(maxsize=512)
def _badge_positions(offer: tuple[tuple[str, str], ...]) -> tuple[tuple[float, float], ...]:
    placed: list[Box] = []
    centres = []
    for station, _colour in offer:
        x, y, _ = STATION_LAYOUT[station]
        a, b = (54, 40) if station in CROSSINGS else (36, 36)
        candidates = []
        for reach in (1.0, 1.4, 1.8):
            for rank, side in enumerate(_turns(labels()[station].side)[::-1]):
                angle = math.radians(SIDE_ANGLE[side])
                distance = reach / math.hypot(math.cos(angle) / a, math.sin(angle) / b)
                cx, cy = x + distance * math.cos(angle), y + distance * math.sin(angle)
                own = rank * 12 + distance + (AMBIGUOUS if _nearer_elsewhere(station, cx, cy) else 0)
                candidates.append((own, _badge_box(cx, cy), (cx, cy)))
        _, box, centre = _best(candidates, [*static_obstacles(station), (placed, HARD)])
        placed.append(box)
        centres.append(centre)
    return tuple(centres)


def _nearer_elsewhere(station: str, x: float, y: float) -> bool:
    """A badge at (x, y) would be read as another station's: it is nearer to another station, or
    to another station's name, than to its own station."""
    sx, sy, _ = STATION_LAYOUT[station]
    own = math.hypot(x - sx, y - sy)
    for other, (ox, oy, _) in STATION_LAYOUT.items():
        if other == station:
            continue
        if math.hypot(x - ox, y - oy) < own or gap(labels()[other].box, x, y) < own - BADGE_RADIUS:
            return True
    return False


def badge_box(offer, index: int) -> Box:
    """Design box of offer badge ``index``."""
    return _badge_box(*_badge_positions(tuple((t.station, t.colour) for t in offer))[index])


# ---- tags: points, evictions and the small tour's bus ----------------------------------------

TAG_H = 30
TAG_FONT = 18
TAG_MARK = 21    # the scorer's initial disc in a tag
EVICTION_W = 48
EVICTION_H = 28
BUS_SIZE = 26    # the bus beside the small tour's station


@dataclass(frozen=True, slots=True)
class Tag:
    key: tuple             # ("bus", station), (station, colour or "small"), (station, "evicted", index)
    station: str
    items: tuple           # (seat, points) for points tags, ((owner, 0),) for an eviction, () for the bus
    colour: str | None     # the line for points tags, None for an eviction or the bus


def tag_width(items) -> float:
    from ..fonts import font

    f = font(TAG_FONT, bold=True)
    return 26 + sum(TAG_MARK + 2 + f.getlength(f"+{points}") + 6 for _, points in items) + 6


def shown_events(view, events: Iterable[E.Event]) -> list[E.Event]:
    """Events to highlight: visible to the viewer, and, once the game is over, only the last
    round's (the final tours and the bag belong to the final standings image)."""
    shown = []
    for event in events:
        if isinstance(event, E.MarkersRevealed):
            break
        if event.visible_to(view.viewer):
            shown.append(event)
    return shown


def _tag_requests(events: Sequence[E.Event]):
    """The tags the events call for: the bus at each small tour's station first (it belongs next to
    its station), then points tags for tours and eviction marks."""
    for event in events:
        if isinstance(event, E.SmallTour):
            yield Tag(("bus", event.tile.station), event.tile.station, (), None)
    for i, event in enumerate(events):
        if isinstance(event, E.ShopEvicted):
            yield Tag((event.station, "evicted", i), event.station, ((event.owner, 0),), None)
        elif isinstance(event, E.BigTour):
            for halt in event.halts:
                items = tuple((seat, p) for seat, p in enumerate(halt.points) if p)
                if items:
                    yield Tag((halt.station, event.colour), halt.station, items, event.colour)
        elif isinstance(event, E.SmallTour) and event.shops:
            per_station: dict[str, dict[int, int]] = {}
            for station, owner in event.shops:
                points = per_station.setdefault(station, {})
                points[owner] = points.get(owner, 0) + 1
            for station, points in per_station.items():
                yield Tag((station, "small"), station, tuple(sorted(points.items())), event.tile.colour)


def _tag_size(tag: Tag) -> tuple[float, float]:
    if tag.key[0] == "bus":
        return BUS_SIZE + 4, BUS_SIZE + 4
    if tag.colour is None:
        return EVICTION_W, EVICTION_H
    return tag_width(tag.items), TAG_H


STRAY = 30    # the cost of each design unit by which a tag is nearer another station's name than its own station


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 where they touch or overlap)."""
    dx = max(b[0] - a[2], 0, a[0] - b[2])
    dy = max(b[1] - a[3], 0, a[1] - b[3])
    return math.hypot(dx, dy)


def _stray(station: str, box: Box) -> float:
    """How much nearer ``box`` is to another station or its name than to ``station`` or its name
    (0: it reads as its own station's). "A✕" at Pont Neuf sat by the Louvre's name and read as the Louvre's."""
    x, y, _ = STATION_LAYOUT[station]
    own = min(gap(box, x, y), box_gap(box, labels()[station].box))
    nearest = min((min(gap(box, ox, oy), box_gap(box, label)) for ox, oy, label in _others(station)),
                  default=own)
    return max(0.0, own - nearest)


@lru_cache(maxsize=64)
def _others(station: str) -> tuple[tuple[float, float, Box], ...]:
    """The other stations (point and name) near enough to ``station`` to matter to what goes beside it."""
    x, y, _ = STATION_LAYOUT[station]
    return tuple((ox, oy, labels()[other].box) for other, (ox, oy, _) in STATION_LAYOUT.items()
                 if other != station and (gap(labels()[other].box, x, y) < REACH or math.hypot(ox - x, oy - y) < REACH))


def tag_strays(view, events: Sequence[E.Event]) -> dict[tuple, float]:
    """For each tag (by key), how much nearer it is to another station or name than to its own
    (design units; 0 everywhere on a legible map, for tests)."""
    return {tag.key: _stray(tag.station, box) for tag, box in place_tags(view, events)}


def place_tags(view, events: Sequence[E.Event]) -> list[tuple[Tag, Box]]:
    """Each tag (design units) by the placement rule, around its station at growing distances,
    after the offer badges."""
    placed = [badge_box(view.offer, i) for i in range(len(view.offer))]
    result = []
    for tag in _tag_requests(events):
        x, y, _ = STATION_LAYOUT[tag.station]
        w, h = _tag_size(tag)
        candidates = []
        start = SIDE_ANGLE[labels()[tag.station].side] + 180   # away from the name first
        for distance in (34, 50, 66, 82, 98, 120, 150):
            for turn in (0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180):
                angle = math.radians(start + turn)
                cos, sin = math.cos(angle), math.sin(angle)
                cx = x + cos * (distance + w / 2 * abs(cos))
                cy = y + sin * (distance + h / 2 * abs(sin))
                candidates.append((distance, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), None))
        near = [(tuple(b for b in placed if gap(b, x, y) < REACH), HARD)]
        station = tag.station

        def stray(box: Box, station: str = station) -> float:
            return STRAY * _stray(station, box)

        _, box, _ = _best(candidates, [*static_obstacles(station), *near], stray)
        placed.append(box)
        result.append((tag, box))
    return result


# ---- shops -----------------------------------------------------------------------------------

def house_xy(station: str, slot: int, count: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """Centre of shop ``slot`` of ``count`` at ``station``."""
    x, y = station_xy(station, width)
    if count <= 1:
        return x, y
    s = scale(width)
    return round(x + (-HOUSE_GAP if slot == 0 else HOUSE_GAP) * s), y


def house_box(station: str, slot: int, count: int) -> Box:
    """Design box of shop ``slot`` of ``count`` at ``station`` (its house, roof to floor)."""
    x, y = house_xy(station, slot, count, BASE_WIDTH)
    half = HOUSE_SIZE / 2
    return x - half, y - half * 1.05, x + half, y + half * 1.05


def pixel_box(box: Box, width: int = BASE_WIDTH) -> tuple[int, int, int, int]:
    """A design box in pixels of a map ``width`` wide."""
    s = scale(width)
    x0, y0, x1, y1 = box
    return round(x0 * s), round(y0 * s), round(x1 * s), round(y1 * s)


def house_fill_xy(station: str, slot: int, count: int, width: int = BASE_WIDTH) -> tuple[int, int]:
    """A pixel inside shop ``slot``'s wall, clear of its initial (for tests)."""
    x, y = house_xy(station, slot, count, width)
    s = scale(width)
    return round(x - HOUSE_SIZE * 0.3 * s), round(y + HOUSE_SIZE * 0.3 * s)


# ---- every box, for tests --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MapBoxes:
    """Pixel boxes of what the map shows beside its stations (for tests)."""
    labels: dict[str, tuple[int, int, int, int]]     # station -> its name
    houses: dict[tuple[str, int], tuple[int, ...]]    # (station, slot) -> a shop
    badges: list[tuple[int, ...]]                     # offer badges, in offer order
    tags: dict[tuple, tuple[int, ...]]                # Tag.key -> a tag (points, eviction, bus)


def map_boxes(view, events: Iterable[E.Event] = (), width: int = BASE_WIDTH) -> MapBoxes:
    def pixels(box):
        return pixel_box(box, width)

    houses = {(station, slot): pixels(house_box(station, slot, len(owners)))
              for station, owners in view.board.items() for slot in range(len(owners))}
    return MapBoxes(
        labels=label_boxes(width),
        houses=houses,
        badges=[pixels(badge_box(view.offer, i)) for i in range(len(view.offer))],
        tags={tag.key: pixels(box) for tag, box in place_tags(view, shown_events(view, events))},
    )
