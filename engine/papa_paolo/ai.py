"""Papà Paolo AI players, one step at a time, from what the seat may see (its view and choices).

The AI rebuilds its own neighbourhood from ``match.view(seat)`` (every neighbourhood is public)
and weighs each choice in victory points:

* a tile: its houses, discounted by their road distance from a pizzeria, plus the road ends it
  opens toward growth and a little for the colour of its lowest track;
* sponsor: Lire at ``LIRA`` points each (less as the game ends); buy: the pizzas it can deliver
  this round and next (a pizza left at the end costs a point); express: the houses served now
  plus the tracks they move; build: the houses it brings within reach;
* a staircase space: what the column's delivery tile lets it deliver (a quick estimate of the
  best plan) less the price; an investment tile: a track step (worth more on the lowest track)
  or its action;
* deliveries: the exact best plan (the engine's "best-plan").

``normal`` takes the best-valued choice (ties broken by a seeded ``random.Random``); ``easy``
draws among choices with weights ``exp(value / EASY_TEMPERATURE)``, so it often plays a
worse move, and bids on a random affordable space.
"""

from __future__ import annotations

import math
import random
from collections import deque
from functools import cached_property, lru_cache
from typing import Any

from . import components as C
from .hood import WAYS, City, Geometry, Hood, Pos, Shop, rotated
from .memo import Memo
from .phases import Phase
from .steps import (
    Act,
    BestPlan,
    Decline,
    Done,
    Drop,
    EndTrip,
    OnBoard,
    OnSquare,
    OnTile,
    Pizzas,
    Place,
    Rotate,
    Step,
    TileAction,
    Track,
    as_kind,
)
from .trips import best_plan

LEVELS = ("easy", "normal")   # the strong level searches: ai_search.py
LIRA = 0.3                 # points a Lira is worth early on
EASY_TEMPERATURE = 1.5
HOUSE = 1.0                # a house within reach: a pizza delivered later
ROAD_END = 0.35            # an open road end: room to grow
COIN_SHARE = 0.5           # share of a coin's worth counted for a line the AI would lead
COLOUR_NEED = (1.0, 0.5, 0.1, 0.0)   # a tile of its lowest (then second, third) track's colour


def choose(match, seat: int, *, seed: int, level: str = "normal") -> Step:
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; Papà Paolo has {', '.join(LEVELS)}")
    choices = match.legal_choices(seat)
    if not choices:
        raise ValueError(f"seat {seat} has nothing to choose now")
    if len(choices) == 1:
        return choices[0]
    view = match.view(seat)
    return pick(view, hood_of(view, seat), seat, choices, seed=seed, level=level)


def pick(view, hood: Hood, seat: int, choices: list[Step], *, seed: int, level: str = "normal") -> Step:
    """``choose`` among ``choices`` (two or more), from ``view`` (a ``PapaView``, or a ``Sight``:
    the fields read here) and the seat's neighbourhood as ``hood_of`` rebuilds it from the view
    (the same squares in the same order; read, never changed)."""
    return _Mind(view, hood, seat, seed, easy=level == "easy").pick(choices)


def hood_of(view, seat: int) -> Hood:
    hood = Hood()
    for q in view.neighbourhoods[seat]:
        if q.kind == "city":
            city = City(q.id, q.colour, frozenset(q.roads), q.houses)
            city.served, city.scored = q.served, q.scored
            hood.cities[(q.x, q.y)] = city
        else:
            hood.shops[(q.x, q.y)] = Shop(q.id, q.capacity, q.pizzas)
    return hood


def distances(hood: Hood) -> dict[Pos, int]:
    """Road distance of every city square from the nearest pizzeria."""
    dist: dict[Pos, int] = {}
    queue: deque[Pos] = deque()
    for p in hood.shops:
        dist[p] = 0
        queue.append(p)
    while queue:
        a = queue.popleft()
        for _, b in hood.links(a):
            if b not in dist and b not in hood.shops:
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


class _Layout:
    """What the normal AI reads of a neighbourhood's geometry alone (``Hood.geometry``: its
    squares and roads, not houses or pizzas), worked out when first asked and kept for every
    choice made on that geometry (``_layout``): a rollout asks each seat again and again with
    its neighbourhood unchanged, and paired playouts repeat each other's positions. Each method
    reads a neighbourhood of that geometry, given by the caller (none is kept)."""

    __slots__ = ("dist", "ends_before", "ends", "bounds", "placed", "patterns")

    def __init__(self) -> None:
        self.dist: dict[Pos, int] | None = None   # ``distances``
        self.ends_before: int | None = None     # ``_open_ends``
        self.ends: list[Pos] | None = None      # the free squares those ends point at, one per end
        self.bounds: tuple[int, int, int, int] | None = None    # the squares' x and y spans
        # (square, roads) -> ``placement``
        self.placed: dict[tuple[Pos, frozenset[str]], tuple[float, int]] = {}
        # a tile's roads -> ``pattern``
        self.patterns: dict[frozenset[str], frozenset[tuple[float, int]]] = {}

    def distances(self, hood: Hood) -> dict[Pos, int]:
        if self.dist is None:
            self.dist = distances(hood)
        return self.dist

    def pattern(self, hood: Hood, tile: C.CityTile) -> frozenset[tuple[float, int]]:
        """The distinct ``placement`` answers of the tile's legal placements (the same for every
        tile with its roads; the best of fewer equal worths is the same worth)."""
        found = self.patterns.get(tile.roads)
        if found is None:
            # Every one of them is legal (``placements``): weighed without asking the rules again.
            found = self.patterns[tile.roads] = frozenset(
                self.placement(hood, q, rotated(tile.roads, rot)) for q, rot in hood.placements(tile))
        return found

    def placement(self, hood: Hood, square: Pos, roads: frozenset[str]) -> tuple[float, int]:
        """A city with ``roads`` placed on the free ``square``: its reach (1 near a pizzeria,
        less farther) and the open road ends it adds, read from the neighbourhood as it is
        (the AI weighs hundreds of placements a decision)."""
        key = (square, roads)
        found = self.placed.get(key)
        if found is None:
            dist = self._distance_with(hood, square, roads)
            ends = self._open_ends_with(hood, square, roads)
            if self.ends_before is None:
                self.ends_before = _open_ends(hood)
            found = self.placed[key] = (max(0.2, 1.0 - 0.15 * max(0, dist - 2)), ends - self.ends_before)
        return found

    def _distance_with(self, hood: Hood, square: Pos, roads: frozenset[str]) -> int:
        """``distances`` of a city with ``roads`` placed on the free ``square`` (9 if no road
        reaches it): one more than its nearest linked neighbour's (a shortest way to it never
        passes through it, so its neighbours' distances are those without it)."""
        dist = self.distances(hood)
        x, y = square
        best = None
        for side, dx, dy, back in WAYS:
            if side not in roads:
                continue
            q = (x + dx, y + dy)
            if q in hood.shops:
                d = 0
            else:
                city = hood.cities.get(q)
                found = dist.get(q) if city is not None and back in city.roads else None
                if found is None:
                    continue
                d = found
            if best is None or d < best:
                best = d
        return 9 if best is None else best + 1

    def _open_ends_with(self, hood: Hood, square: Pos, roads: frozenset[str]) -> int:
        """``_open_ends`` with a city with ``roads`` placed on the free ``square``: the ends the
        neighbourhood has now, but the one at ``square``, and the new city's, all within the box
        the new city widens."""
        if self.ends is None:
            self.ends = [(q[0] + dx, q[1] + dy) for q, city in hood.cities.items() for side in city.roads
                         for dx, dy in (C.DELTA[side],) if not hood.occupied((q[0] + dx, q[1] + dy))]
        x, y = square
        mine = [(x + dx, y + dy) for side in roads for dx, dy in (C.DELTA[side],)
                if not hood.occupied((x + dx, y + dy))]
        if self.bounds is None:
            squares = [*hood.cities, *hood.shops]
            self.bounds = (min(p[0] for p in squares), max(p[0] for p in squares),
                           min(p[1] for p in squares), max(p[1] for p in squares))
        x0, x1, y0, y1 = self.bounds
        x0, x1, y0, y1 = (x if x < x0 else x0), (x if x > x1 else x1), (y if y < y0 else y0), (y if y > y1 else y1)
        short, long = min(C.MAX_BBOX), max(C.MAX_BBOX)
        count = 0
        for nx, ny in (*self.ends, *mine):
            w = (nx if nx > x1 else x1) - (nx if nx < x0 else x0) + 1
            h = (ny if ny > y1 else y1) - (ny if ny < y0 else y0) + 1
            # min(w, h) <= short and max(w, h) <= long, spelled out
            if (w <= short and h <= long or w <= long and h <= short) and (nx, ny) != square:
                count += 1
        return count


def _open_ends(hood: Hood) -> int:
    """Road ends pointing at free squares that a tile could still use (inside the 4x5 box).
    The box is read once (``Hood.fits_with`` per end made this most of the normal AI's time)."""
    cities, shops = hood.cities, hood.shops
    xs = [p[0] for p in cities] + [p[0] for p in shops]
    ys = [p[1] for p in cities] + [p[1] for p in shops]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    short, long = min(C.MAX_BBOX), max(C.MAX_BBOX)
    count = 0
    for q, city in cities.items():
        for side in city.roads:
            dx, dy = C.DELTA[side]
            nxt = (q[0] + dx, q[1] + dy)
            if nxt in cities or nxt in shops:
                continue
            w = max(x1, nxt[0]) - min(x0, nxt[0]) + 1
            h = max(y1, nxt[1]) - min(y0, nxt[1]) + 1
            if min(w, h) <= short and max(w, h) <= long:
                count += 1
    return count


# The layouts of the last geometries weighed (a few kilobytes each): the seats of the rollouts
# under way (75 geometries in a search of 20 playouts at 4 players), and of the games the process
# plays. ``lru_cache`` because the AIs of several games may think at once, in threads.
LAYOUTS_KEPT = 128


@lru_cache(maxsize=LAYOUTS_KEPT)
def _layout(geometry: Geometry) -> _Layout:
    """The (empty at first) layout of every neighbourhood of ``geometry``."""
    return _Layout()

# Pizzas the best plan delivers, kept by what it reads (``trips.best_plan``'s key): a bid weighs
# every staircase column's tile, and a rollout asks that of every seat (160 plans in a search of
# 20 playouts at 4 players), more than the rules' own memory keeps.
PLANS_KEPT = 512
_SERVED: Memo[int] = Memo(PLANS_KEPT)


def _plan_serves(hood: Hood, trips_allowed: int, max_pizzas: int, max_distance: int) -> int:
    """The pizzas ``best_plan`` drops in ``hood`` with these limits."""
    return _SERVED.get((hood.serving(), trips_allowed, max_pizzas, max_distance), lambda: sum(
        len(t[2]) for t in best_plan(hood, trips_allowed=trips_allowed, max_pizzas=max_pizzas,
                                     max_distance=max_distance)))


class _Mind:
    """One choice's weighing. Nothing it reads changes while it weighs (the view, the
    neighbourhood, the tracks), so what several choices ask alike is worked out once: an
    action's worth, which lines a marker would lead; and what only the neighbourhood's
    geometry decides (a placement's reach and open road ends), once for every choice made on
    that geometry (``_Layout``)."""

    def __init__(self, view, hood: Hood, seat: int, seed: int, *, easy: bool) -> None:
        self.view, self.seat, self.seed, self.easy = view, seat, seed, easy
        self.hood = hood
        self.tracks = dict(view.tracks[seat])
        self.lire = view.lire[seat] or 0
        self.rounds_left = C.ROUNDS - view.round + 1
        self.lira = LIRA * min(1.0, (self.rounds_left + 0.5) / 3)
        self.memo: dict[str, float] = {}
        self.colour_need: dict[str, float] = {}   # per colour: COLOUR_NEED of its track's rank
        self.action_worths: dict[tuple[str, int], float] = {}     # (action, bonus) -> action_worth
        self.leads: tuple[bool, ...] | None = None          # per row then column: one more marker leads it

    @cached_property
    def rng(self) -> random.Random:
        """Seeded when first drawn from (most choices have one best and draw nothing)."""
        return random.Random(self.seed)

    @cached_property
    def layout(self) -> _Layout:
        return _layout(self.hood.geometry())

    @cached_property
    def dist(self) -> dict[Pos, int]:
        return self.layout.distances(self.hood)

    def value(self, colour: str) -> int:
        return C.track_value(colour, self.tracks[colour])

    # --- Picking ------------------------------------------------------------------------------

    def pick(self, choices: list[Step]) -> Step:
        if self.view.phase == Phase.DELIVER:
            return BestPlan() if BestPlan() in choices else self._continue_plan(choices)
        if self.view.phase == Phase.BID and self.easy:
            cheap = sorted(choices, key=lambda s: C.stair_cost(*as_kind(s, OnBoard).space))[:3]
            return self.rng.choice(cheap)
        scored = [(self.worth(c), i, c) for i, c in enumerate(choices)]
        if self.easy:
            top = max(w for w, _, _ in scored)
            weights = [math.exp((w - top) / EASY_TEMPERATURE) for w, _, _ in scored]
            return self.rng.choices([c for _, _, c in scored], weights)[0]
        best = max(w for w, _, _ in scored)
        tied = [c for w, _, c in scored if w >= best - 1e-9]
        # ``rng.choice`` of one choice is that choice
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    def _continue_plan(self, choices: list[Step]) -> Step:
        """A plan begun by hand (a deadline): drop where possible, else end it."""
        for kind in (Drop, EndTrip, Done):
            for c in choices:
                if isinstance(c, kind):
                    return c
        return choices[0]

    def worth(self, step: Step) -> float:
        v = self.view
        draft = v.draft or {}
        mode = draft.get("mode")
        if v.phase == Phase.BID:
            return self.stairs_worth(*as_kind(step, OnBoard).space)
        if v.phase in (Phase.SETTLE, Phase.LATE):
            if isinstance(step, Decline):
                return self.lira * C.LATE_PRICE
            return self.investment_worth(as_kind(step, OnTile).tile)
        if isinstance(step, Place):
            return self.space_worth(step.space)
        if isinstance(step, Track):
            return self.track_worth(C.INVESTMENT_TILES[v.investment_held[self.seat]].colour)
        if isinstance(step, TileAction):
            tile = C.INVESTMENT_TILES[v.investment_held[self.seat]]
            return self.action_worth(tile.action, tile.bonus)
        if mode == "choose":          # an action (the AI's choices have no shortcuts)
            if isinstance(step, Act) and step.action == "take":
                return self.take_worth(self._draft_tile())
            if isinstance(step, Act) and step.action == "nothing":
                return 0.0
            return self.action_worth(step.verb, 0)
        if mode == "square":
            return self.square_worth(self._draft_tile(), as_kind(step, OnSquare).square)
        if mode == "rotate":
            return self.placement_worth(self._draft_tile(), draft["square"], as_kind(step, Rotate).rotation)
        if mode == "pizzas":
            return self.buy_worth(as_kind(step, Pizzas).count, self._bonus("buy"))
        if mode == "put":
            return self.shop_reach(as_kind(step, OnSquare).square)
        if mode == "which":
            pizzeria = C.PIZZERIAS[as_kind(step, OnTile).tile]
            return -pizzeria.cost * self.lira + pizzeria.capacity * 0.1
        if mode == "where":
            return self.build_square_worth(as_kind(step, OnSquare).square)
        if mode == "from":
            return self.express_from_worth(as_kind(step, OnSquare).square)
        return self.trip_step_worth(step, draft)

    def _bonus(self, action: str) -> int:
        held = self.view.investment_held[self.seat]
        if self.view.phase == Phase.INVEST and held is not None:
            tile = C.INVESTMENT_TILES[held]
            return tile.bonus if tile.action == action else 0
        return 0

    def _draft_tile(self) -> C.CityTile:
        r, c = self.view.draft["space"]
        return C.CITY_TILES[self.view.grid[r * self.view.grid_size[1] + c]]

    # --- Phase 1 -------------------------------------------------------------------------------

    def space_worth(self, space: tuple[int, int]) -> float:
        v = self.view
        rows, cols = v.grid_size
        r, c = space
        options = [0.0]
        tile_id = v.grid[r * cols + c]
        if tile_id is not None:
            options.append(self.take_worth(C.CITY_TILES[tile_id]))
        options += [self.action_worth(a, 0) for a in v.space_actions[r * cols + c]]
        return max(options) + self.coin_worth(r, c)

    def coin_worth(self, r: int, c: int) -> float:
        v = self.view
        rows = v.grid_size[0]
        if self.leads is None:
            self.leads = self._leads()
        total = 0.0
        for line, coin in ((r, v.coins[r]), (rows + c, v.coins[rows + c])):
            if self.leads[line]:
                total += (coin if coin is not None else 2) * self.lira * COIN_SHARE
        return total

    def _leads(self) -> tuple[bool, ...]:
        """Per row, then per column: whether the seat's markers there and one more outnumber
        every other seat's (the markers are counted once for every space weighed)."""
        v = self.view
        rows, cols = v.grid_size
        counts = [[0] * len(v.players) for _ in range(rows + cols)]
        for (r, c), owner in v.markers.items():
            counts[r][owner] += 1
            counts[rows + c][owner] += 1
        return tuple(line[self.seat] + 1 > max((n for o, n in enumerate(line) if o != self.seat), default=0)
                     for line in counts)

    def take_worth(self, tile: C.CityTile) -> float:
        """The worth of the tile's best placement. A placement's worth reads the tile only
        through its houses and colour, and the placement only through its reach and the open
        road ends it adds: those are worked out once per road pattern (``_Layout.pattern``)."""
        found = self.layout.pattern(self.hood, tile)
        if not found:
            return -1.0
        return max(self._tile_worth(tile, reach, gained) for reach, gained in found)

    def square_worth(self, tile: C.CityTile, square: Pos) -> float:
        """The worth of the tile's best rotation on ``square``: the rotations that fit there are
        the tile's ``placements`` on it (one per distinct road set, the rest weigh the same)."""
        layout, hood = self.layout, self.hood
        return max(self._tile_worth(tile, *layout.placement(hood, square, rotated(tile.roads, rot)))
                   for q, rot in hood.placements(tile) if q == square)

    def placement_worth(self, tile: C.CityTile, square: Pos, rot: int) -> float:
        roads = rotated(tile.roads, rot)
        if self.hood.placement_fault(square, roads) is not None:
            return -1.0
        return self._tile_worth(tile, *self.layout.placement(self.hood, square, roads))

    def _tile_worth(self, tile: C.CityTile, reach: float, gained: int) -> float:
        """A placement of ``tile`` with ``reach`` that adds ``gained`` open road ends."""
        colour = self.colour_need.get(tile.colour)
        if colour is None:
            ranked = sorted(self.tracks.values())
            colour = self.colour_need[tile.colour] = COLOUR_NEED[min(ranked.index(self.tracks[tile.colour]), 3)]
        easy_complete = 0.3 if tile.houses == 1 else 0.0
        late = 0.5 if self.rounds_left <= 1 else 1.0
        return late * (tile.houses * HOUSE * reach + colour + easy_complete) + ROAD_END * gained * late

    def open_houses(self, max_distance: int = 99) -> int:
        return sum(c.open for q, c in self.hood.cities.items() if self.dist.get(q, 99) <= max_distance)

    def action_worth(self, action: str, bonus: int) -> float:
        key = (action, bonus)
        found = self.action_worths.get(key)
        if found is None:
            found = self.action_worths[key] = self._action_worth(action, bonus)
        return found

    def _action_worth(self, action: str, bonus: int) -> float:
        if action == "sponsor":
            return (self.value("yellow") + (bonus if self._bonus("sponsor") else 0)) * self.lira
        if action == "buy":
            return max([self.buy_worth(n, bonus) for n in range(1, C.MAX_BUY + 1)], default=-1.0)
        if action == "express":
            return self.express_worth(bonus)
        if action == "build":
            return self.build_worth(bonus)
        return 0.0

    @cached_property
    def deliveries_left(self) -> int:
        """Pizzas the AI can still hope to deliver: the delivery phases to come (a mid-sized tile
        each) and an express now and then, within the houses it has and will add."""
        v = self.view
        phases = self.rounds_left - (1 if v.phase in (Phase.OVER,) else 0)
        tiles = sum(min(r + 2, 6) for r in range(v.round if v.phase != Phase.OVER else 6, C.ROUNDS + 1))
        houses = self.open_houses() + 4 * max(0, phases - 1)
        return min(tiles + phases, houses)

    def buy_worth(self, n: int, bonus: int) -> float:
        hood = self.hood
        cost = max(0, C.INGREDIENT_COST[n] - bonus)
        if cost > self.lire or n > hood.free_room():
            return -5.0
        got = min(n + self.value("blue"), hood.free_room())
        room = max(0, self.deliveries_left - hood.pizzas())
        useful = min(got, room)
        return useful * 0.9 - (got - useful) * 1.0 - cost * self.lira

    def express_worth(self, bonus: int) -> float:
        fee = max(0, C.EXPRESS_FEE - bonus)
        if fee > self.lire:
            return -5.0
        best = 0.0
        for start, shop in self.hood.shops.items():
            if shop.pizzas <= 0:
                continue
            squares = self.hood.reachable(start) if not self.view.options["express_ignores_roads"] \
                else set(self.hood.cities)
            opens = sorted(self.hood.cities[q].open for q in squares if self.hood.cities[q].open > 0)
            can = min(self.value("red"), shop.pizzas)
            served, done = 0, 0
            for o in opens:
                if served + o <= can:
                    served += o
                    done += 1
            served = min(can, sum(opens))
            best = max(best, served * (1.8 if self.rounds_left <= 1 else 1.1) + done * 1.2)
        return best - fee * self.lira if best else -5.0

    def build_worth(self, bonus: int) -> float:
        cheapest = min((C.PIZZERIAS[p].cost for p in self.view.supply), default=None)
        if cheapest is None or max(0, cheapest - bonus) > self.lire or not self.hood.shop_squares():
            return -5.0
        far = sum(c.open for q, c in self.hood.cities.items() if self.dist.get(q, 99) > 2)
        best_square = max(self.build_square_worth(q) for q in self.hood.shop_squares())
        late = 0.3 if self.rounds_left <= 1 else 1.0
        surplus = max(0, self.hood.pizzas() + 2 - self.deliveries_left)
        return late * (1.5 + 0.3 * far + best_square) - max(0, cheapest - bonus) * self.lira - surplus

    def build_square_worth(self, square: Pos) -> float:
        hood = self.hood
        near = 0.0
        for side, (dx, dy) in C.DELTA.items():
            city = hood.cities.get((square[0] + dx, square[1] + dy))
            if city is not None and C.OPPOSITE[side] in city.roads:
                near += 1 + city.open * 0.5
        return near

    def shop_reach(self, square: Pos) -> float:
        hood = self.hood
        return sum(hood.cities[q].open for q in hood.reachable(square)) + hood.shops[square].room * 0.01

    def express_from_worth(self, square: Pos) -> float:
        return self.shop_reach(square) + self.hood.shops[square].pizzas * 0.1

    def trip_step_worth(self, step: Step, draft: dict[str, Any]) -> float:
        """Express under way: drop where there are houses; otherwise head for the nearest house."""
        if isinstance(step, Drop):
            city = self.hood.cities[step.square]
            return 10.0 + (1.0 if city.open == 1 else 0.0)
        if isinstance(step, EndTrip):
            return 1.0
        square = as_kind(step, OnSquare).square      # a step along the road
        trip = draft.get("trip") or {}
        path = [tuple(p) for p in trip.get("path", ())]
        start = tuple(trip.get("from", (0, 0)))
        used = {frozenset((a, b)) for a, b in zip([start, *path], path, strict=False)}
        here = path[-1] if path else start
        used.add(frozenset((here, square)))
        reach = self.hood.reachable(square, frozenset(used)) | {square}
        return 2.0 + sum(self.hood.cities[q].open for q in reach if q in self.hood.cities) * 0.1

    # --- Phases 3 and 4 ----------------------------------------------------------------------

    def delivery_worth(self, tile_id: str) -> float:
        if tile_id not in self.memo:
            self.memo[tile_id] = self._delivery_worth(tile_id)
        return self.memo[tile_id]

    def _delivery_worth(self, tile_id: str) -> float:
        tile = C.DELIVERY_TILES[tile_id]
        if self.value("green") <= 2:
            served = _plan_serves(self.hood, self.value("green"), tile.max_pizzas, tile.max_distance)
        else:
            served = min(tile.max_pizzas, self.hood.pizzas(), self.open_houses(tile.max_distance))
        return served * (2.0 if self.rounds_left <= 1 else 1.1)

    def stairs_worth(self, row: int, col: int) -> float:
        tile = self.view.delivery_tiles[col - 1]
        first = 0.3 if col == 1 else 0.0
        return self.delivery_worth(tile) + 1.0 + first - C.stair_cost(row, col) * self.lira - row * 0.05

    def track_worth(self, colour: str) -> float:
        pos = self.tracks[colour]
        if pos >= C.TRACK_TOP:
            return -1.0
        low = min(self.tracks.values())
        gain = 0.0
        if pos == low and sum(1 for v in self.tracks.values() if v == low) == 1:
            gain += C.TRACK_VP[low + 1] - C.TRACK_VP[low]
        elif pos == low:
            gain += (C.TRACK_VP[low + 1] - C.TRACK_VP[low]) * 0.4
        if pos + 1 == C.TRACK_TOP:
            gain += C.MAXED_VP
        use = {"yellow": 0.4, "blue": 0.6, "red": 0.4, "green": 1.2}[colour] * min(self.rounds_left, 3) / 3
        return gain + use

    def investment_worth(self, tile_id: str) -> float:
        tile = C.INVESTMENT_TILES[tile_id]
        action = self.action_worth(tile.action, tile.bonus)
        return max(self.track_worth(tile.colour), action) - (self.lira * C.LATE_PRICE
                                                              if self.view.phase == Phase.LATE else 0)
