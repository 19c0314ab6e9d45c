"""A player's neighbourhood: squares, road links, placement rules and trips (PAPA_PAOLO.md §3, §2.11).

Coordinates (x, y): the starting pizzeria at (0, 0), its town square at (1, 0); x grows east,
y grows south. A square is a ``City`` (a city tile or the town square) or a ``Shop`` (a pizzeria).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

from .components import DELTA, MAX_BBOX, OPPOSITE, SIDES, CityTile

Pos = tuple[int, int]
# A neighbourhood's shape as the placement rules read it (``Hood.geometry``).
Geometry = tuple[frozenset[tuple[Pos, frozenset[str]]], frozenset[Pos]]


def reading_order(pos: Pos) -> tuple[int, int]:
    """The sort key of squares in reading order: by row (y), then column (x)."""
    return pos[1], pos[0]


class City:
    __slots__ = ("tile", "colour", "roads", "houses", "served", "scored")

    def __init__(self, tile: str, colour: str, roads: frozenset[str], houses: int) -> None:
        self.tile, self.colour, self.roads, self.houses = tile, colour, roads, houses
        self.served = 0
        self.scored = False

    def copy(self) -> City:
        other = City(self.tile, self.colour, self.roads, self.houses)
        other.served, other.scored = self.served, self.scored
        return other

    @property
    def open(self) -> int:
        return self.houses - self.served


class Shop:
    __slots__ = ("id", "capacity", "pizzas")

    def __init__(self, id: str, capacity: int, pizzas: int) -> None:
        self.id, self.capacity, self.pizzas = id, capacity, pizzas

    def copy(self) -> Shop:
        return Shop(self.id, self.capacity, self.pizzas)

    @property
    def room(self) -> int:
        return self.capacity - self.pizzas


@cache
def _rotated(roads: frozenset[str], rotation: int) -> frozenset[str]:
    return frozenset(SIDES[(SIDES.index(s) + rotation) % 4] for s in roads)


def rotated(roads: Iterable[str], rotation: int) -> frozenset[str]:
    """``roads`` turned ``rotation`` quarter turns clockwise (N -> E -> S -> W -> N)."""
    return _rotated(frozenset(roads), rotation % 4)


def step(pos: Pos, side: str) -> Pos:
    dx, dy = DELTA[side]
    return pos[0] + dx, pos[1] + dy


def fits_box(xs: Iterable[int], ys: Iterable[int]) -> bool:
    xs, ys = list(xs), list(ys)
    w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    return min(w, h) <= min(MAX_BBOX) and max(w, h) <= max(MAX_BBOX)


class Hood:
    """One player's neighbourhood."""

    __slots__ = ("cities", "shops")

    def __init__(self) -> None:
        self.cities: dict[Pos, City] = {}
        self.shops: dict[Pos, Shop] = {}

    def copy(self) -> Hood:
        other = Hood()
        other.cities = {p: c.copy() for p, c in self.cities.items()}
        other.shops = {p: s.copy() for p, s in self.shops.items()}
        return other

    # --- Geometry ----------------------------------------------------------------------------

    def occupied(self, pos: Pos) -> bool:
        return pos in self.cities or pos in self.shops

    def squares(self) -> Iterator[Pos]:
        yield from self.cities
        yield from self.shops

    def frontier(self) -> list[Pos]:
        """Free squares orthogonally next to the neighbourhood, in (y, x) order."""
        out = {step(p, s) for p in self.squares() for s in SIDES}
        return sorted((q for q in out if not self.occupied(q)), key=reading_order)

    def fits_with(self, pos: Pos) -> bool:
        xs, ys = zip(*self.cities, *self.shops, pos, strict=True)     # the squares, as xs and ys
        return fits_box(xs, ys)

    def linked(self, a: Pos, side: str) -> bool:
        """Whether a road link joins square ``a`` to its neighbour on ``side``."""
        b = step(a, side)
        ca, cb = self.cities.get(a), self.cities.get(b)
        if ca is not None and cb is not None:
            return side in ca.roads and OPPOSITE[side] in cb.roads
        if ca is not None and b in self.shops:
            return side in ca.roads
        if cb is not None and a in self.shops:
            return OPPOSITE[side] in cb.roads
        return False

    def links(self, a: Pos) -> list[tuple[str, Pos]]:
        """Each side of ``a`` with a road link and the square it leads to (``linked`` spelled out:
        trips and the AI ask this of every square they pass)."""
        cities, shops = self.cities, self.shops
        here = cities.get(a)
        x, y = a
        out = []
        for side, dx, dy, back in WAYS:
            b = (x + dx, y + dy)
            there = cities.get(b)
            if here is not None:
                if there is not None:
                    linked = side in here.roads and back in there.roads
                else:
                    linked = b in shops and side in here.roads
            else:
                linked = there is not None and a in shops and back in there.roads
            if linked:
                out.append((side, b))
        return out

    # --- Placement rules ---------------------------------------------------------------------

    def placement_fault(self, pos: Pos, roads: frozenset[str]) -> str | None:
        """Why a city tile with ``roads`` may not go on ``pos`` (an error code), or None if it may."""
        cities, shops = self.cities, self.shops
        if pos in cities or pos in shops:
            return "square_taken"
        # One look at each side, in order: the first road cut is the fault, as when the sides
        # are first checked for a neighbour (a road is cut only beside a city).
        x, y = pos
        near = connected = False
        for side, dx, dy, back in WAYS:
            q = (x + dx, y + dy)
            city = cities.get(q)
            if city is not None:
                near = True
                theirs = back in city.roads
                if (side in roads) != theirs:
                    return "road_cut"
                connected = connected or theirs
            elif q in shops:
                near = True
                connected = connected or side in roads
        if not near:
            return "not_adjacent"
        if not connected:
            return "not_connected"
        if not self.fits_with(pos):
            return "too_large"
        return None

    def geometry(self) -> Geometry:
        """What the placement rules read: each city square with its roads, and the pizzerias'
        squares (not houses, deliveries or pizzas). Equal geometries allow equal placements."""
        return (frozenset([(p, c.roads) for p, c in self.cities.items()]), frozenset(self.shops))

    def serving(self) -> tuple[frozenset[tuple[Pos, frozenset[str], int]], frozenset[tuple[Pos, int]]]:
        """What trips read: each city square with its roads and open houses, each pizzeria's
        square with its pizzas. Equal contents give equal best plans and express trips."""
        return (frozenset([(p, c.roads, c.houses - c.served) for p, c in self.cities.items()]),
                frozenset([(p, s.pizzas) for p, s in self.shops.items()]))

    def placements(self, tile: CityTile, first_only: bool = False) -> list[tuple[Pos, int]]:
        """Every legal (square, rotation) for ``tile``; rotations giving the same roads count once.
        (The same rules as ``placement_fault``.) One decision asks this several times (the
        choices, the check of the chosen step, the rotations), so the answer is cached by what
        it depends on; the key is the geometry itself, not this object, because the squares
        are written directly (the AI adds a tile to weigh it and takes it off again)."""
        found = _placements(self.geometry(), tile.roads)
        return list(found[:1] if first_only else found)

    def shop_fault(self, pos: Pos) -> str | None:
        """Why a pizzeria may not be built on ``pos``, or None."""
        if self.occupied(pos):
            return "square_taken"
        near = [step(pos, s) for s in SIDES]
        if not any(self.occupied(q) for q in near):
            return "not_adjacent"
        if any(q in self.shops for q in near):
            return "pizzerias_adjacent"
        if not self.fits_with(pos):
            return "too_large"
        return None

    def shop_squares(self) -> list[Pos]:
        """Where a pizzeria may be built, in (y, x) order (cached by geometry, as placements)."""
        return list(_shop_squares(self.geometry()))

    # --- Serving -----------------------------------------------------------------------------

    def reachable(self, start: Pos, used: frozenset = frozenset()) -> set[Pos]:
        """City squares reachable from ``start`` without entering a pizzeria or crossing ``used`` links.
        (``links`` spelled out: only links into a city square count, and every trip and express
        check walks this.)"""
        cities, shops = self.cities, self.shops
        seen: set[Pos] = set()
        queue = deque([start])
        while queue:
            a = queue.popleft()
            here = cities.get(a)
            if here is None and a not in shops:
                continue
            x, y = a
            for side, dx, dy, back in WAYS:
                b = (x + dx, y + dy)
                city = cities.get(b)
                if city is None or b in seen or back not in city.roads \
                        or here is not None and side not in here.roads:
                    continue
                if used and frozenset((a, b)) in used:
                    continue
                seen.add(b)
                queue.append(b)
        return seen

    def can_express(self, ignore_roads: bool) -> bool:
        """Whether one express trip could serve at least one house: a city square with an open
        house that ``reachable`` finds from a pizzeria with pizzas (one walk from all of them,
        ended at the first such square)."""
        cities = self.cities
        seen = [p for p, shop in self.shops.items() if shop.pizzas > 0]
        if not seen:
            return False
        if ignore_roads:
            return any(c.houses > c.served for c in cities.values())
        queue = list(seen)
        while queue:
            a = queue.pop()
            here = cities.get(a)
            x, y = a
            for side, dx, dy, back in WAYS:
                b = (x + dx, y + dy)
                city = cities.get(b)
                if city is None or back not in city.roads or here is not None and side not in here.roads \
                        or b in seen:
                    continue
                if city.houses > city.served:
                    return True
                seen.append(b)
                queue.append(b)
        return False

    def free_room(self) -> int:
        return sum(s.room for s in self.shops.values())

    def pizzas(self) -> int:
        return sum(s.pizzas for s in self.shops.values())

    def delivered(self) -> int:
        return sum(c.served for c in self.cities.values())

    def completed(self) -> int:
        return sum(1 for c in self.cities.values() if c.scored)


# The answers are asked again within one decision (the choices, the check of the chosen step,
# the move), for one neighbourhood and the few road patterns on the grid: a short memory is
# enough, and it keeps the process's memory from growing with the games it keeps (a thousand
# entries would weigh about 4 MB).
PLACEMENTS_CACHED = 64         # a neighbourhood's placements, per tile's roads
SQUARES_CACHED = 16            # neighbourhoods' open squares and pizzeria squares


@lru_cache(maxsize=PLACEMENTS_CACHED)
def _placements(geometry: Geometry, tile_roads: frozenset[str]) -> tuple[tuple[Pos, int], ...]:
    """``Hood.placements`` for a neighbourhood of ``geometry``: the open squares in (y, x) order,
    each square's rotations in turn (a rotation giving roads an earlier one gave is skipped).
    Each rotation finds its squares at once, on the board of bits (``_Shape``)."""
    shape = _shape(geometry)
    if shape is None:
        return _placements_plainly(geometry, tile_roads)
    free, met, cut, joins = shape.free, shape.road_met, shape.road_cut, shape.joins
    turns: list[tuple[int, int]] = []
    found = 0
    for rot, mask in _TURNS[_mask(tile_roads)]:
        fits = free
        near = 0
        for side in range(4):
            if mask >> side & 1:
                fits &= ~cut[side]
                near |= joins[side]
            else:
                fits &= ~met[side]
        fits &= near
        turns.append((rot, fits))
        found |= fits
    if len(turns) == 1:         # the loop below, every square found taking the one rotation
        rot, _ = turns[0]
        return tuple((pos, rot) for pos in _squares_of(found))
    out = []
    while found:
        low = found & -found
        pos = _SQUARE[low.bit_length() - 1]
        out += [(pos, rot) for rot, fits in turns if fits & low]
        found ^= low
    return tuple(out)


@lru_cache(maxsize=SQUARES_CACHED)
def _shop_squares(geometry: Geometry) -> tuple[Pos, ...]:
    """``Hood.shop_squares`` for a neighbourhood of ``geometry`` (the rules of ``shop_fault``)."""
    shape = _shape(geometry)
    if shape is None:
        return _shop_squares_plainly(geometry)
    return _squares_of(shape.free & ~shape.near_shop)


# The board of bits: square (x, y) is bit (y + OFFSET) * WIDTH + x + OFFSET, so that bits in
# increasing order are squares in reading order, and a square's neighbour is a shift away. A
# neighbourhood fits a 4x5 box that holds (0, 0), so its squares and their neighbours are at
# most 6 squares from it; a neighbourhood outside that (only tests build one) is read plainly.
WIDTH, OFFSET, REACH = 16, 8, 6
_SHIFT = tuple(DELTA[s][0] + WIDTH * DELTA[s][1] for s in SIDES)  # to each side's neighbour
_SQUARE = tuple((i % WIDTH - OFFSET, i // WIDTH - OFFSET) for i in range(WIDTH * WIDTH))


def _bit(pos: Pos) -> int:
    return 1 << (pos[1] + OFFSET) * WIDTH + pos[0] + OFFSET


# The bit of each square near enough (0, 0) to be read on the board of bits.
_BIT = {(x, y): _bit((x, y)) for x in range(-REACH, REACH + 1) for y in range(-REACH, REACH + 1)}
_BACK = tuple(SIDES.index(OPPOSITE[s]) for s in SIDES)       # the side facing back, by index


def _toward(bits: int, side: int) -> int:
    """The squares whose neighbour on ``side`` (an index into SIDES) is in ``bits``."""
    shift = _SHIFT[side]
    return bits >> shift if shift > 0 else bits << -shift


def _squares_of(bits: int) -> tuple[Pos, ...]:
    out = []
    while bits:
        low = bits & -bits
        out.append(_SQUARE[low.bit_length() - 1])
        bits ^= low
    return tuple(out)


class _Shape:
    """What the placement rules read of a neighbourhood, as sets of squares in bits: the
    ``free`` squares next to it inside the largest box it may fill; per side, the free squares
    whose neighbour there is a city with a road back (``road_met``), a city without one
    (``road_cut``), or either that or a pizzeria (``joins``: a road there connects); and the
    squares next to a pizzeria."""

    __slots__ = ("free", "road_met", "road_cut", "joins", "near_shop")

    def __init__(self, free: int, road_met: tuple[int, ...], road_cut: tuple[int, ...], joins: tuple[int, ...],
                 near_shop: int) -> None:
        self.free, self.road_met, self.road_cut, self.joins, self.near_shop = (
            free, road_met, road_cut, joins, near_shop)


@lru_cache(maxsize=SQUARES_CACHED)
def _shape(geometry: Geometry) -> _Shape | None:
    """The neighbourhood's ``_Shape``; None when it lies outside the board of bits. Every tile
    asks it of the same neighbourhood, so it is read once for all of them."""
    cities, shops = geometry
    boards = 0
    boards_of = _CITY_BOARDS.get
    for city in cities:
        board = boards_of(city)
        if board is None:           # a square outside the board of bits
            return None
        boards |= board
    shop_bits = 0
    bit_of = _BIT.get
    for pos in shops:
        bit = bit_of(pos)
        if bit is None:
            return None
        shop_bits |= bit
    city_bits = boards & _BOARD
    roads = [boards >> (side + 1) * _BOARD_BITS & _BOARD for side in range(4)]
    taken = city_bits | shop_bits
    near = near_shop = 0
    for side in range(4):
        near |= _toward(taken, side)
        near_shop |= _toward(shop_bits, side)
    free = near & ~taken & _box(*_span(taken))
    met, cut, joins = [], [], []
    for side in range(4):
        with_road = roads[_BACK[side]]
        met.append(free & _toward(with_road, side))
        cut.append(free & _toward(city_bits & ~with_road, side))
        joins.append(met[-1] | free & _toward(shop_bits, side))
    return _Shape(free, tuple(met), tuple(cut), tuple(joins), near_shop)


# A city square and its roads as five boards of bits in one number, its square on each board
# where it counts: the cities, then the cities with a road to the north, east, south and west
# (``_shape`` reads them all with one "or" per city).
_BOARD_BITS = WIDTH * WIDTH
_BOARD = (1 << _BOARD_BITS) - 1


def _span(bits: int) -> tuple[int, int, int, int]:
    """The smallest and largest x, then y, of the squares in ``bits`` (not empty)."""
    y_lo = ((bits & -bits).bit_length() - 1) // WIDTH
    y_hi = (bits.bit_length() - 1) // WIDTH
    columns = 0
    for row in range(y_lo, y_hi + 1):
        columns |= bits >> row * WIDTH
    columns &= (1 << WIDTH) - 1
    return ((columns & -columns).bit_length() - 1 - OFFSET, columns.bit_length() - 1 - OFFSET,
            y_lo - OFFSET, y_hi - OFFSET)


@lru_cache(maxsize=256)
def _box(x_lo: int, x_hi: int, y_lo: int, y_hi: int) -> int:
    """The squares a neighbourhood spanning x_lo..x_hi, y_lo..y_hi may grow to: it stays inside
    the largest box (``MAX_BBOX``, either way round)."""
    short, long = min(MAX_BBOX), max(MAX_BBOX)
    return _rectangle(x_lo, x_hi, short, y_lo, y_hi, long) | _rectangle(x_lo, x_hi, long, y_lo, y_hi, short)


def _rectangle(x_lo: int, x_hi: int, width: int, y_lo: int, y_hi: int, height: int) -> int:
    """The squares that keep the span x_lo..x_hi within ``width`` and y_lo..y_hi within ``height``."""
    if x_hi - x_lo >= width or y_hi - y_lo >= height:
        return 0
    x0, x1 = max(x_hi - width + 1, -OFFSET), min(x_lo + width - 1, WIDTH - OFFSET - 1)
    y0, y1 = max(y_hi - height + 1, -OFFSET), min(y_lo + height - 1, WIDTH - OFFSET - 1)
    row = ((1 << x1 - x0 + 1) - 1) << x0 + OFFSET
    return sum(row << (y + OFFSET) * WIDTH for y in range(y0, y1 + 1))


@cache
def _mask(roads: frozenset[str]) -> int:
    """Roads as a number: bit i for ``SIDES[i]``."""
    return sum(1 << i for i, side in enumerate(SIDES) if side in roads)


def _turned(mask: int, rotation: int) -> int:
    """``_mask(rotated(roads, rotation))`` for roads of ``mask``: bit i moves to bit i + rotation."""
    return (mask << rotation | mask >> 4 - rotation) & 15


def _turns(mask: int) -> tuple[tuple[int, int], ...]:
    """Each rotation of a tile's roads ``mask`` with the roads it gives, a rotation giving roads an
    earlier one gave skipped (``rotated`` read as bits)."""
    out: list[tuple[int, int]] = []
    for rot in range(4):
        if all(_turned(mask, rot) != seen for _, seen in out):
            out.append((rot, _turned(mask, rot)))
    return tuple(out)


_TURNS = tuple(_turns(mask) for mask in range(16))
_SIDES_OF = tuple(tuple(side for side in range(4) if mask >> side & 1) for mask in range(16))


def _city_boards(pos: Pos, mask: int) -> int:
    """The five boards of bits of a city square ``pos`` on the board of bits with the roads of ``mask``."""
    bit = _BIT[pos]
    boards = bit
    for side in _SIDES_OF[mask]:
        boards |= bit << (side + 1) * _BOARD_BITS
    return boards


# Each city square on the board of bits with each of the 16 road sets: its five boards of bits
# (169 squares times 16, some 2,700 numbers, about 0.6 MB).
_ROADS_OF = tuple(frozenset(SIDES[side] for side in sides) for sides in _SIDES_OF)
_CITY_BOARDS: dict[tuple[Pos, frozenset[str]], int] = {
    (pos, _ROADS_OF[mask]): _city_boards(pos, mask) for pos in _BIT for mask in range(16)}


def _plain_hood(geometry: Geometry) -> Hood:
    hood = Hood()
    for pos, roads in geometry[0]:
        hood.cities[pos] = City("", "", roads, 0)
    for pos in geometry[1]:
        hood.shops[pos] = Shop("", 0, 0)
    return hood


def _placements_plainly(geometry: Geometry, tile_roads: frozenset[str]) -> tuple[tuple[Pos, int], ...]:
    """``_placements`` by the rules of ``placement_fault``, square by square."""
    hood = _plain_hood(geometry)
    out = []
    for pos in hood.frontier():
        seen: list[frozenset[str]] = []
        for rot in range(4):
            roads = rotated(tile_roads, rot)
            if roads not in seen:
                seen.append(roads)
                if hood.placement_fault(pos, roads) is None:
                    out.append((pos, rot))
    return tuple(out)


def _shop_squares_plainly(geometry: Geometry) -> tuple[Pos, ...]:
    hood = _plain_hood(geometry)
    return tuple(q for q in hood.frontier() if hood.shop_fault(q) is None)


WAYS = tuple((s, *DELTA[s], OPPOSITE[s]) for s in SIDES)     # a side, its step and the side facing back
_SIDE_OF = {DELTA[s]: s for s in SIDES}                        # the side a step goes to


def trip_fault(hood: Hood, start: Pos, path: list[Pos], max_distance: int | None) -> str | None:
    """Why ``path`` from pizzeria ``start`` is not a trip (§3), or None."""
    if start not in hood.shops:
        return "not_a_pizzeria"
    if not path:
        return "empty_trip"
    if max_distance is not None and len(path) > max_distance:
        return "too_far"
    used: set[frozenset[Pos]] = set()
    here = start
    for nxt in path:
        if nxt in hood.shops:
            return "enters_pizzeria"
        side = _SIDE_OF.get((nxt[0] - here[0], nxt[1] - here[1]))
        if side is None or not hood.linked(here, side):
            return "no_road"
        link = frozenset((here, nxt))
        if link in used:
            return "road_twice"
        used.add(link)
        here = nxt
    return None
