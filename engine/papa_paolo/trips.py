"""Trips: their JSON form, their rules (§3, phase 5, the express action) and the best plan.

A trip is ``(start, path, drops)``: the pizzeria it leaves, the squares it enters in order and
one square per pizza dropped. ``check_trip`` applies the rules to one trip against the stock
and the unserved houses still left (both updated when the trip is legal), so a plan is checked
trip after trip, as its trips run.

``best_plan`` is the one-step "best plan": an exact search for the plan serving the most houses,
then completing the most squares, then leaving the fewest pizzas (PAPA_PAOLO.md §9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from .errors import (
    DropOffPath,
    HouseServed,
    MalformedInput,
    NoPizzasLeft,
    TooManyPizzas,
    TooManyTrips,
    fault,
)
from .hood import Hood, Pos, trip_fault
from .memo import Memo

Trip = tuple[Pos, tuple[Pos, ...], tuple[Pos, ...]]


def _pos(value: Any, what: str) -> Pos:
    if not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int or type(value[1]) is not int:
        raise MalformedInput(f"{what} is a square [x, y], not {value!r}"[:120])
    return value[0], value[1]


def parse_trip(data: Any) -> Trip:
    if not isinstance(data, Mapping) or set(data) != {"from", "path", "drops"}:
        raise MalformedInput('a trip is {"from": [x, y], "path": [...], "drops": [...]}')
    if not isinstance(data["path"], list) or not isinstance(data["drops"], list):
        raise MalformedInput("a trip's path and drops are lists of squares")
    return (_pos(data["from"], "from"), tuple(_pos(p, "a path square") for p in data["path"]),
            tuple(_pos(p, "a drop") for p in data["drops"]))


def trip_json(trip: Trip) -> dict[str, Any]:
    start, path, drops = trip
    return {"from": list(start), "path": [list(p) for p in path], "drops": [list(p) for p in drops]}


def check_trip(hood: Hood, trip: Trip, *, max_distance: int | None, max_drops: int,
               stock: dict[Pos, int], open_: dict[Pos, int], ignore_roads: bool = False) -> None:
    """Raise the rule ``trip`` breaks; otherwise take its drops off ``stock`` and ``open_``."""
    start, path, drops = trip
    if ignore_roads:
        if start not in hood.shops:
            raise fault("not_a_pizzeria", str(start))
        if path:
            raise MalformedInput("an express delivery that ignores roads has an empty path")
        allowed = set(hood.cities)
    else:
        code = trip_fault(hood, start, list(path), max_distance)
        if code is not None:
            raise fault(code, f"trip from {start}")
        allowed = set(path)
    if len(drops) > max_drops:
        raise TooManyPizzas(f"this trip may drop at most {max_drops} pizzas, not {len(drops)}")
    if len(drops) > stock[start]:
        raise NoPizzasLeft(f"the pizzeria at {start} holds {stock[start]} pizzas, not {len(drops)}")
    for square, count in Counter(drops).items():
        if square not in allowed:
            raise DropOffPath(f"a pizza is dropped on {square}, which the trip does not enter")
        if count > open_.get(square, 0):
            raise HouseServed(f"{square} has {open_.get(square, 0)} house(s) without a pizza, not {count}")
    stock[start] -= len(drops)
    for square in drops:
        open_[square] -= 1


def check_plan(hood: Hood, trips: list[Trip], *, trips_allowed: int, max_pizzas: int,
               max_distance: int) -> None:
    """Raise the rule a phase-5 plan breaks (trips run in listed order)."""
    if len(trips) > trips_allowed:
        raise TooManyTrips(f"the green track allows {trips_allowed} trip(s), not {len(trips)}")
    stock = {p: s.pizzas for p, s in hood.shops.items()}
    open_ = {p: c.open for p, c in hood.cities.items()}
    left = max_pizzas
    for trip in trips:
        check_trip(hood, trip, max_distance=max_distance, max_drops=left, stock=stock, open_=open_)
        left -= len(trip[2])


# --- The best plan -------------------------------------------------------------------------------

SEARCH_CAP = 400             # sets of trips weighed at most: a guard (about 1 s of one core) that
                             # only the largest neighbourhoods with 4 trips reach; then the best
                             # plan found is played (typical searches end on the bound far sooner)


def trails(hood: Hood, start: Pos, max_distance: int, ways: dict[Pos, list[tuple[Pos, int]]] | None = None
           ) -> dict[frozenset[Pos], tuple[Pos, ...]]:
    """Every set of squares with unserved houses one trip from ``start`` can reach, with a shortest
    path for each; sets contained in another are dropped (they are never better).

    The walk tries every path in the order of ``Hood.links`` (the first shortest path to a set is
    kept); the roads out of each square are read once, and the links crossed are bits of a number."""
    found: dict[frozenset[Pos], tuple[Pos, ...]] = {}
    ways = ways if ways is not None else ways_out(hood)
    cities = hood.cities

    def walk(here: Pos, path: tuple[Pos, ...], used: int, covered: frozenset[Pos]) -> None:
        if covered and (covered not in found or len(found[covered]) > len(path)):
            found[covered] = path
        if len(path) == max_distance:
            return
        for nxt, bit in ways.get(here, ()):
            if used & bit:
                continue
            walk(nxt, (*path, nxt), used | bit, covered | {nxt} if cities[nxt].open > 0 else covered)

    walk(start, (), 0, frozenset())
    keys = sorted(found, key=len, reverse=True)
    kept: list[frozenset[Pos]] = []
    for k in keys:
        if not any(k < other for other in kept):
            kept.append(k)
    return {k: found[k] for k in kept}


def ways_out(hood: Hood) -> dict[Pos, list[tuple[Pos, int]]]:
    """For every square, the city squares a road link leads to from it (in ``Hood.links`` order),
    each with its link's bit (one bit per link, whichever way it is crossed)."""
    bits: dict[tuple[Pos, Pos], int] = {}
    ways: dict[Pos, list[tuple[Pos, int]]] = {}
    cities = hood.cities
    for a in hood.squares():
        out = []
        for _, b in hood.links(a):
            if b not in cities:         # a trip ends on a city: a link into a pizzeria leads nowhere
                continue
            key = (a, b) if a < b else (b, a)
            bit = bits.get(key)
            if bit is None:
                bit = bits[key] = 1 << len(bits)
            out.append((b, bit))
        ways[a] = out
    return ways


def _allocate(hood: Hood, cover: dict[Pos, frozenset[Pos]], max_pizzas: int
              ) -> tuple[tuple[int, int], dict[Pos, dict[Pos, int]]]:
    """The best drops given what each pizzeria's trips reach: (served, completed) and, per
    pizzeria, pizzas per square."""
    if len(cover) == 1:              # nine sets of trips in ten leave from one pizzeria
        (shop, squares), = cover.items()
        return _allocate_one(hood, shop, squares, max_pizzas)
    return _allocate_many(hood, cover, max_pizzas)


# (served, completed) as one number, served * DONE + completed: compared as the pair is (a trip
# completes fewer squares than this).
DONE = 1 << 10


def _allocate_one(hood: Hood, shop: Pos, covered: frozenset[Pos], max_pizzas: int
                  ) -> tuple[tuple[int, int], dict[Pos, dict[Pos, int]]]:
    """``_allocate_many`` for trips from one pizzeria, the same answer: the squares in order, each
    taking 0, 1, ... of its open houses, the first best kept; what the squares from i on can
    still be given is all that counts (the pizzas left and the tile's limit, whichever is less),
    so the table is filled from the last square back, one entry per amount."""
    squares = sorted(covered)
    cities = hood.cities
    opens = [cities[q].houses - cities[q].served for q in squares]
    n = len(squares)
    total = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        total[i] = total[i + 1] + opens[i]
    most = min(hood.shops[shop].pizzas, max_pizzas)
    if most >= total[0]:            # pizzas for every house: each square gets all it can take
        return (total[0], n), {shop: {q: o for q, o in zip(squares, opens, strict=True) if o}}
    after = [0]                 # the best value of the squares from i + 1 on, per amount given them
    picks: list[list[int]] = [[]] * n
    for i in range(n - 1, -1, -1):
        top, o = min(most, total[i]), opens[i]
        # More than the later squares can take is worth what all they can take.
        after += [after[-1]] * (top + 1 - len(after))
        here = [0] * (top + 1)
        pick = [0] * (top + 1)
        for m in range(1, top + 1):
            values = [after[m - a] + a * DONE for a in range(min(m, o) + 1)]
            if m >= o:
                values[o] += 1                  # the square completed
            best = max(values)
            here[m], pick[m] = best, values.index(best)     # the first best, as the search keeps it
        after, picks[i] = here, pick
    m = min(most, total[0])
    value = after[m] if n else 0
    drops: dict[Pos, int] = {}
    for i in range(n):
        m = min(m, total[i])
        a = picks[i][m] if m else 0
        if a:
            drops[squares[i]] = a
            m -= a
    return (value // DONE, value % DONE), {shop: drops}


def _allocate_many(hood: Hood, cover: dict[Pos, frozenset[Pos]], max_pizzas: int
                   ) -> tuple[tuple[int, int], dict[Pos, dict[Pos, int]]]:
    """``_allocate`` for any number of pizzerias: a search over the squares in order, each
    splitting its open houses among the pizzerias that reach it (``_splits``' order, the first
    best kept: the drops are the first best in that order).

    Each position of the search (the square, what each pizzeria and the tile's limit can still
    give) is weighed once: its best value, as one number (``DONE``), and the split it takes are
    kept, and the drops are read back along the best splits from the start."""
    shops = sorted(cover)
    squares = sorted({q for qs in cover.values() for q in qs})
    who = [tuple(i for i, p in enumerate(shops) if q in cover[p]) for q in squares]
    cities = hood.cities
    opens = [cities[q].houses - cities[q].served for q in squares]
    n = len(squares)

    # What the squares from i on could still take from each pizzeria, and in all: stocks and the
    # tile's limit beyond these change nothing, so states are clamped to them (far fewer states).
    suffix = [(0,) * len(shops)] * (n + 1)
    total = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = tuple(suffix[i + 1][j] + (opens[i] if j in who[i] else 0) for j in range(len(shops)))
        total[i] = total[i + 1] + opens[i]
    kept: dict[tuple[int, tuple[int, ...], int], tuple[int, Any]] = {}

    def value(i: int, stock: tuple[int, ...], left: int) -> int:
        """The best value from square ``i`` on (``stock`` and ``left`` clamped to what it can take)."""
        if i == n or left == 0:
            return 0
        key = (i, stock, left)
        known = kept.get(key)
        if known is not None:
            return known[0]
        o, mine = opens[i], who[i]
        cap, room = suffix[i + 1], total[i + 1]
        best, chosen = -1, None
        for amounts, got, nxt in _takes(o, stock, mine, left):
            after = (tuple(map(min, nxt, cap)), min(left - got, room))
            v = value(i + 1, *after) + got * DONE + (got == o)
            if v > best:
                best, chosen = v, (amounts, after)
        kept[key] = (best, chosen)
        return best

    stock = tuple(map(min, (hood.shops[p].pizzas for p in shops), suffix[0]))
    left = min(max_pizzas, total[0])
    best = value(0, stock, left)
    drops: dict[Pos, dict[Pos, int]] = {p: {} for p in shops}
    i = 0
    while i < n and left:
        amounts, (stock, left) = kept[(i, stock, left)][1]
        for j, a in zip(who[i], amounts, strict=True):
            if a:
                drops[shops[j]][squares[i]] = a
        i += 1
    return (best // DONE, best % DONE), drops


def _takes(need: int, stock: tuple[int, ...], mine: tuple[int, ...], left: int
           ) -> Iterator[tuple[tuple[int, ...], int, list[int]]]:
    """``_splits`` of ``need`` among the pizzerias ``mine`` (indices into ``stock``), each with
    the pizzas it takes in all and the stock after it."""
    if len(mine) == 1:        # most squares are reached from one pizzeria: its amounts in turn
        j, = mine
        for a in range(min(stock[j], need, left) + 1):
            after = list(stock)
            after[j] -= a
            yield (a,), a, after
        return
    for amounts in _splits(need, [stock[j] for j in mine], left):
        after = list(stock)
        for j, a in zip(mine, amounts, strict=True):
            after[j] -= a
        yield amounts, sum(amounts), after


def _splits(need: int, stocks: list[int], left: int) -> list[tuple[int, ...]]:
    """Ways to take up to ``need`` pizzas (and ``left`` in all) from pizzerias with ``stocks``."""
    out: list[tuple[int, ...]] = [()]
    for s in stocks:
        out = [(*o, a) for o in out for a in range(min(s, need - sum(o), left - sum(o)) + 1)]
    return out


# A decision asks for the same best plan or express trip several times (the choices offered,
# the check of the chosen step, the move); the answers are kept by the neighbourhood's contents.
_PLANS: Memo[tuple[Trip, ...]] = Memo(16)
_EXPRESS: Memo[Trip | None] = Memo(16)


def best_plan(hood: Hood, *, trips_allowed: int, max_pizzas: int, max_distance: int) -> list[Trip]:
    """The plan serving the most houses, then completing the most squares, then leaving the
    fewest pizzas (``_best_plan``, remembered by the neighbourhood's contents)."""
    key = (hood.serving(), trips_allowed, max_pizzas, max_distance)
    return list(_PLANS.get(key, lambda: tuple(_best_plan(hood, trips_allowed=trips_allowed, max_pizzas=max_pizzas,
                                                         max_distance=max_distance))))


def _best_plan(hood: Hood, *, trips_allowed: int, max_pizzas: int, max_distance: int) -> list[Trip]:
    """The plan serving the most houses, then completing the most squares, then leaving the
    fewest pizzas (the same as serving the most: every pizza dropped serves a house).

    A branch and bound over sets of trips (each trip a maximal set of squares it can reach),
    richest trips first; a branch stops when even its best completion cannot beat the best plan
    found (its houses, stock and tile limit bound what it can serve)."""
    options, opens = _options(hood, max_distance)
    if not options or trips_allowed <= 0 or max_pizzas <= 0:
        return []
    stock = sum(hood.shops[p].pizzas for p in {o[0] for o in options})
    limit = min(max_pizzas, stock)
    if trips_allowed == 1:
        value, chosen, drops = _best_trip(hood, options, opens, limit, max_pizzas)
    else:
        value, chosen, drops = _search(hood, options, opens, limit, trips_allowed, max_pizzas)
    if not chosen or value[0] == 0 or drops is None:      # a chosen plan comes with its drops
        return []
    return _trips_of(chosen, options, drops)


Option = tuple[Pos, frozenset[Pos], tuple[Pos, ...]]        # a trip's pizzeria, its squares with houses, its path
Found = tuple[tuple[int, int], list[int] | None, dict[Pos, dict[Pos, int]] | None]   # value, options, drops


def _options(hood: Hood, max_distance: int) -> tuple[list[Option], dict[Pos, int]]:
    """Every trip worth weighing (``trails`` of each pizzeria with pizzas), richest first, and
    each city square's open houses."""
    options: list[Option] = []
    ways = ways_out(hood)
    for start, shop in sorted(hood.shops.items()):
        if shop.pizzas > 0:
            options += [(start, k, path) for k, path in trails(hood, start, max_distance, ways).items()]
    opens = {q: c.houses - c.served for q, c in hood.cities.items()}
    options.sort(key=lambda o: (-sum(opens[q] for q in o[1]), o[0], sorted(o[1])))
    return options, opens


def _search(hood: Hood, options: list[Option], opens: dict[Pos, int], limit: int, trips_allowed: int,
            max_pizzas: int) -> Found:
    """The branch and bound of ``_best_plan``: the first best set of trips in the order of
    ``options``, at most ``SEARCH_CAP`` sets weighed."""
    best: list[Any] = [(-1, -1), None, None]
    tried = [0]
    seen: set[frozenset] = set()

    def bound(first: int, cover: dict[Pos, frozenset[Pos]], trips_left: int) -> tuple[int, int]:
        covered = frozenset().union(*cover.values()) if cover else frozenset()
        extra = sorted((len(o[1] - covered) and sum(opens[q] for q in o[1] - covered)
                        for o in options[first:]), reverse=True)[:trips_left]
        houses = sum(opens[q] for q in covered) + sum(extra)
        reach = covered.union(*(o[1] for o in options[first:]))
        return min(limit, houses), _most_done({q: opens[q] for q in reach}, limit)

    def search(first: int, chosen: list[int], cover: dict[Pos, frozenset[Pos]]) -> None:
        key = frozenset(cover.items())
        if chosen and key not in seen:
            seen.add(key)
            tried[0] += 1
            if _value_bound(hood, cover, opens, max_pizzas) > best[0]:       # else it cannot beat the best
                value, drops = _allocate(hood, cover, max_pizzas)
                if value > best[0]:
                    best[:] = [value, list(chosen), drops]
        left = trips_allowed - len(chosen)
        if left == 0 or tried[0] >= SEARCH_CAP or best[0][0] == limit and best[0][1] >= _most_done(opens, limit):
            return
        if bound(first, cover, left) <= best[0]:
            return
        for i in range(first, len(options)):
            start, k, _ = options[i]
            if k <= cover.get(start, frozenset()):
                continue
            search(i + 1, [*chosen, i], {**cover, start: cover.get(start, frozenset()) | k})

    search(0, [], {})
    value, chosen, drops = best
    return value, chosen, drops


def _value_bound(hood: Hood, cover: dict[Pos, frozenset[Pos]], opens: dict[Pos, int], max_pizzas: int) -> tuple[int, int]:
    """At least ``_allocate``'s value, without placing a pizza: the houses the trips reach, as
    many as the pizzerias' stocks and the tile allow, then the squares so many could complete."""
    reached = frozenset().union(*cover.values())
    houses = sum(opens[q] for q in reached)
    served = min(max_pizzas, houses, sum(min(hood.shops[p].pizzas, sum(opens[q] for q in squares))
                                         for p, squares in cover.items()))
    return served, _most_done({q: opens[q] for q in reached}, served)


def _best_trip(hood: Hood, options: list[Option], opens: dict[Pos, int], limit: int, max_pizzas: int) -> Found:
    """``_search`` with one trip allowed, the same answer: there every trip is weighed (the
    first level of the search is not cut short), the first best kept. The options come richest
    first, so once the best found serves more than an option's houses, no later one can beat it;
    a trip whose ``_value_bound`` cannot beat the best is passed."""
    best: tuple[int, int] = (-1, -1)
    chosen, drops = None, None
    for i, (start, squares, _) in enumerate(options):
        if best[0] > min(limit, sum(opens[q] for q in squares)):
            break
        if best >= _value_bound(hood, {start: squares}, opens, max_pizzas):
            continue
        value, allocated = _allocate_one(hood, start, squares, max_pizzas)
        if value > best:
            best, chosen, drops = value, [i], allocated
    return best, chosen, drops


def _most_done(opens: dict[Pos, int], limit: int) -> int:
    """The most squares ``limit`` pizzas could complete, whatever the roads."""
    done, used = 0, 0
    for o in sorted(v for v in opens.values() if v > 0):
        if used + o > limit:
            break
        used += o
        done += 1
    return done


def _trips_of(chosen: list[int], options, drops: dict[Pos, dict[Pos, int]]) -> list[Trip]:
    trips = []
    todo = {p: dict(d) for p, d in drops.items()}
    for i in chosen:
        start, _, path = options[i]
        mine: list[Pos] = []
        for q in sorted(set(path)):
            count = todo.get(start, {}).pop(q, 0)
            mine += [q] * count
        trips.append((start, path, tuple(mine)))
    return trips


def best_express(hood: Hood, *, max_drops: int, ignore_roads: bool) -> Trip | None:
    """The express trip serving the most houses (then completing the most squares), or None when
    none serves one (``_best_express``, remembered by the neighbourhood's contents)."""
    return _EXPRESS.get((hood.serving(), max_drops, ignore_roads),
                        lambda: _best_express(hood, max_drops=max_drops, ignore_roads=ignore_roads))


def _best_express(hood: Hood, *, max_drops: int, ignore_roads: bool) -> Trip | None:
    """Along the roads the express trip is the best one-trip plan without a distance limit;
    ignoring roads, the fullest pizzerias' pizzas go to the squares nearest completion."""
    if max_drops <= 0:
        return None
    if not ignore_roads:
        distance = 4 * len(hood.cities) + 4        # more than the links: no limit (a link is crossed once)
        plan = _best_plan(hood, trips_allowed=1, max_pizzas=max_drops, max_distance=distance)
        if not plan or not plan[0][2]:
            return None
        start, path, planned = plan[0]
        # Drops in the order the trip passes the squares, as a player tapping along it drops them.
        ordered = [q for i, q in enumerate(path) if q not in path[:i] for _ in range(planned.count(q))]
        return start, path, tuple(ordered)
    stocked = [p for p, s in sorted(hood.shops.items(), key=lambda item: (item[0][1], item[0][0])) if s.pizzas]
    if not stocked:
        return None
    start = max(stocked, key=lambda p: hood.shops[p].pizzas)
    can = min(max_drops, hood.shops[start].pizzas)
    drops: list[Pos] = []
    for q, city in sorted(hood.cities.items(), key=lambda item: (item[1].open, item[0][1], item[0][0])):
        take = min(city.open, can - len(drops))
        drops += [q] * take
    return (start, (), tuple(drops)) if drops else None
