"""The four actions (sponsor, buy, express, build) and taking a tile, as whole actions: checked
against one player's state, then applied. Phase 1 and phase 4 share them; an investment tile's
bonus arrives as a ``Bonus``. Actions are the record's JSON objects (PAPA_PAOLO.md §12)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .components import BUILD_PIZZAS, EXPRESS_FEE, INGREDIENT_COST, MAX_BUY, PIZZERIAS, track_value
from .errors import (
    BadDistribution,
    MalformedInput,
    NoRoom,
    NotAffordable,
    NothingToServe,
    NotInSupply,
    fault,
)
from .hood import Hood, Pos, reading_order
from .trips import _pos, check_trip, parse_trip


@dataclass(frozen=True, slots=True)
class Bonus:
    """What an investment tile's action adds: Lire to a sponsor, Lire off a cost or fee."""

    sponsor: int = 0
    buy: int = 0
    express: int = 0
    build: int = 0


NO_BONUS = Bonus()


@cache
def bonus_of(action: str, amount: int) -> Bonus:
    """An investment tile's bonus (one frozen value per tile kind: the rules ask it often)."""
    return Bonus(**{action: amount})


# The keys of a buy's and a build's details (a mapping's keys compare with a set as ``set(keys)``).
_BUY_KEYS, _BUILD_KEYS = frozenset({"pizzas", "to"}), frozenset({"pizzeria", "square"})


def parse_action(data: Any) -> tuple[str, Any]:
    """``(name, body)`` of a record's ACTION object."""
    if not isinstance(data, Mapping) or len(data) != 1:
        raise MalformedInput("an action is one of {sponsor: {}}, {buy: ...}, {express: ...}, {build: ...}, "
                             "{none: {}}")
    (name, body), = data.items()
    if name in ("sponsor", "none"):
        if body != {}:
            raise MalformedInput(f"the {name} action takes no details")
        return name, None
    if name == "buy":
        if not isinstance(body, Mapping) or body.keys() != _BUY_KEYS or type(body["pizzas"]) is not int \
                or not isinstance(body["to"], list):
            raise MalformedInput('buy is {"pizzas": n, "to": [[x, y, k], ...]}')
        to = []
        for entry in body["to"]:
            if not isinstance(entry, list) or len(entry) != 3 or type(entry[0]) is not int \
                    or type(entry[1]) is not int or type(entry[2]) is not int:
                raise MalformedInput(f"a buy's destination is [x, y, pizzas], not {entry!r}"[:100])
            to.append(((entry[0], entry[1]), entry[2]))
        return name, (body["pizzas"], tuple(to))
    if name == "express":
        return name, parse_trip(body)
    if name == "build":
        if not isinstance(body, Mapping) or body.keys() != _BUILD_KEYS \
                or not isinstance(body["pizzeria"], str):
            raise MalformedInput('build is {"pizzeria": id, "square": [x, y]}')
        return name, (body["pizzeria"], _pos(body["square"], "square"))
    raise MalformedInput(f"no action {name!r}"[:80])


def action_json(name: str, body: Any) -> dict[str, Any]:
    if name in ("sponsor", "none"):
        return {name: {}}
    if name == "buy":
        n, to = body
        return {"buy": {"pizzas": n, "to": [[p[0], p[1], k] for p, k in to]}}
    if name == "express":
        from .trips import trip_json
        return {"express": trip_json(body)}
    pizzeria, square = body
    return {"build": {"pizzeria": pizzeria, "square": list(square)}}


class Player:
    """What the actions read and change of one player."""

    __slots__ = ("hood", "lire", "tracks")

    def __init__(self, hood: Hood, lire: int, tracks: dict[str, int]) -> None:
        self.hood, self.lire, self.tracks = hood, lire, tracks

    def copy(self) -> Player:
        return Player(self.hood.copy(), self.lire, dict(self.tracks))

    def value(self, colour: str) -> int:
        return track_value(colour, self.tracks[colour])


def buy_cost(n: int, bonus: Bonus) -> int:
    return max(0, INGREDIENT_COST[n] - bonus.buy)


def express_fee(bonus: Bonus) -> int:
    return max(0, EXPRESS_FEE - bonus.express)


def build_cost(pizzeria: str, bonus: Bonus) -> int:
    return max(0, PIZZERIAS[pizzeria].cost - bonus.build)


def buy_counts(player: Player, bonus: Bonus) -> list[int]:
    """The numbers of pizzas the player may buy now (ruling 15)."""
    room = player.hood.free_room()
    return [n for n in range(1, MAX_BUY + 1) if n <= room and buy_cost(n, bonus) <= player.lire]


def received(player: Player, n: int) -> int:
    """Pizzas a buy of ``n`` brings that fit: the paid ones and the free ones there is room for."""
    return min(n + player.value("blue"), player.hood.free_room())


def default_distribution(hood: Hood, count: int) -> tuple[tuple[Pos, int], ...]:
    """Fill the pizzeria with most free room first (ties: first square in (y, x) order)."""
    room = {p: s.room for p, s in hood.shops.items()}
    out: dict[Pos, int] = {}
    for _ in range(count):
        p = max(sorted(room, key=reading_order), key=lambda q: room[q])
        room[p] -= 1
        out[p] = out.get(p, 0) + 1
    return tuple(sorted(out.items(), key=lambda item: (item[0][1], item[0][0])))


def splits(room: Mapping[Pos, int], count: int, order) -> list[tuple[tuple[Pos, int], ...]]:
    """Every way to put ``count`` pizzas into pizzerias with ``room`` (each within its room),
    as (square, pizzas) pairs in ``order`` of the squares, without the empty ones."""
    squares = sorted(room, key=order)
    out: list[tuple[tuple[Pos, int], ...]] = []

    def go(i: int, left: int, chosen: tuple[tuple[Pos, int], ...]) -> None:
        if i == len(squares):
            if left == 0:
                out.append(chosen)
            return
        for k in range(min(left, room[squares[i]]), -1, -1):
            go(i + 1, left - k, (*chosen, (squares[i], k)) if k else chosen)

    go(0, count, ())
    return out


def can_express(player: Player, bonus: Bonus, ignore_roads: bool) -> bool:
    return player.lire >= express_fee(bonus) and player.hood.can_express(ignore_roads)


def build_choices(player: Player, supply: list[str], bonus: Bonus) -> list[str]:
    """One affordable supply pizzeria of each kind (the first by id)."""
    out, kinds = [], set()
    for pid in supply:
        kind = (PIZZERIAS[pid].cost, PIZZERIAS[pid].capacity)
        if kind not in kinds and build_cost(pid, bonus) <= player.lire:
            kinds.add(kind)
            out.append(pid)
    return out


def can_build(player: Player, supply: list[str], bonus: Bonus) -> bool:
    return bool(build_choices(player, supply, bonus)) and bool(player.hood.shop_squares())


def check_action(player: Player, name: str, body: Any, bonus: Bonus, *, supply: list[str],
                 ignore_roads: bool) -> None:
    """Raise the rule the action breaks for this player now."""
    hood = player.hood
    if name == "buy":
        n, to = body
        if n not in INGREDIENT_COST:
            raise MalformedInput(f"a buy is 1 to {MAX_BUY} pizzas, not {n}")
        if buy_cost(n, bonus) > player.lire:
            raise NotAffordable(f"{n} pizzas cost {buy_cost(n, bonus)} Lire")
        if n > hood.free_room():
            raise NoRoom(f"the pizzerias have room for {hood.free_room()} pizzas, not the {n} paid for")
        seen = set()
        for p, k in to:
            if p not in hood.shops or p in seen or k < 1 or k > hood.shops[p].room:
                raise BadDistribution(f"{k} pizza(s) cannot go to {p}: each pizzeria once, within its room")
            seen.add(p)
        want = received(player, n)
        if sum(k for _, k in to) != want:
            raise BadDistribution(f"the buy brings {want} pizzas that fit; the destinations hold "
                                  f"{sum(k for _, k in to)}")
    elif name == "express":
        fee = express_fee(bonus)
        if fee > player.lire:
            raise NotAffordable(f"an express delivery costs {fee} Lire")
        if not hood.can_express(ignore_roads):
            raise NothingToServe("no trip could serve a house")
        stock = {p: s.pizzas for p, s in hood.shops.items()}
        open_ = {p: c.open for p, c in hood.cities.items()}
        check_trip(hood, body, max_distance=None, max_drops=player.value("red"), stock=stock, open_=open_,
                   ignore_roads=ignore_roads)
        if not body[2]:
            raise NothingToServe("an express delivery drops at least one pizza")
    elif name == "build":
        pizzeria, square = body
        if pizzeria not in supply:
            raise NotInSupply(f"pizzeria {pizzeria} is not in the supply")
        if build_cost(pizzeria, bonus) > player.lire:
            raise NotAffordable(f"pizzeria {pizzeria} costs {build_cost(pizzeria, bonus)} Lire")
        code = hood.shop_fault(square)
        if code is not None:
            raise fault(code, f"square {square}")


def do_action(player: Player, name: str, body: Any, bonus: Bonus, supply: list[str]) -> dict[str, Any]:
    """Apply a checked action; returns the facts the events report."""
    hood = player.hood
    if name == "sponsor":
        gain = player.value("yellow") + bonus.sponsor
        player.lire += gain
        return {"lire": gain}
    if name == "buy":
        n, to = body
        cost = buy_cost(n, bonus)
        player.lire -= cost
        for p, k in to:
            hood.shops[p].pizzas += k
        return {"cost": cost, "lost": n + player.value("blue") - sum(k for _, k in to)}
    if name == "express":
        fee = express_fee(bonus)
        player.lire -= fee
        start, _, drops = body
        hood.shops[start].pizzas -= len(drops)
        for q in drops:
            hood.cities[q].served += 1
        return {"fee": fee}
    if name == "build":
        pizzeria, square = body
        cost = build_cost(pizzeria, bonus)
        player.lire -= cost
        supply.remove(pizzeria)
        from .hood import Shop
        hood.shops[square] = Shop(pizzeria, PIZZERIAS[pizzeria].capacity, BUILD_PIZZAS)
        return {"cost": cost}
    return {}
