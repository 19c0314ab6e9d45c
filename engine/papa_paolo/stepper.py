"""Play in small steps: what a seat may choose next (``legal_steps``) and making it (``apply_step``).

A decision of several steps keeps its draft in ``game.drafts[seat]`` and ends in one whole move
(``Game.play``), the record's: phase 1 is a space, then one of the tile's squares (the
rotation next, unless only one fits there) or an action with its amount at once: "pizzas n"
(a buy; then a whole "split" of them where several pizzerias have room), "pizzeria P4-1" (a
build; its square next unless one is free), "best-trip" (an express delivery's best trip),
"sponsor". Those are shortcuts (``SHORTCUTS``): "take", "buy", "build", "express" then their
details one step at a time reach the same whole moves (the AI's way, and older games'); phase 4
is "track" or "action", with the same shortcuts for the tile's action; phase 5 is a private plan (pizzeria, next square, drop here, end trip, done) or
"best-plan", computed exactly for that seat; "undo-trip" drops the trip under way, or else the last
trip planned, before the plan is sent.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.shared import shared

from . import components as C
from .actions import Bonus, build_choices, buy_counts, can_express, received, splits
from .errors import (
    GameIsOver,
    NotYourTurn,
    SpaceTaken,
    StairsIllegal,
    StepNotOffered,
    TileNotOpen,
    TrackFull,
    fault,
)
from .events import Event, PlanStep
from .game import Game, place_action_move, take_move
from .hood import Hood, Pos, rotated
from .steps import Step
from .trips import best_express, best_plan, trip_json

ORDER = lambda p: (p[1], p[0])  # noqa: E731  squares in reading order (y, then x)


def legal_steps(g: Game, seat: int) -> list[Step]:
    """What ``seat`` may choose now, in a stable order (the menus' and the AI's)."""
    if g.finished or seat not in g.to_act():
        return []
    draft = g.drafts.get(seat)
    if g.phase == "place":
        if draft is None:
            b = g.board
            markers = g.markers
            return [step for i, step in enumerate(_place_steps(b.rows, b.cols)) if i not in markers]
        return _action_steps(g, seat, draft)
    if g.phase == "invest":
        if draft is not None:
            return _action_steps(g, seat, draft)
        ways = g.resolutions(seat)
        action = C.INVESTMENT_TILES[g.inv_held[seat]].action
        if "action" not in ways:
            return [Step(w) for w in ways]
        # The action with its amount before the action step by step (a menu shows it first).
        return [*(Step(w) for w in ways if w != "action"), *_amounts(g, seat, action), Step("action")]
    if g.phase == "bid":
        return [Step("stairs", s) for s in g.stair_spaces(seat)]
    if g.phase == "settle":
        return [Step("invest", t) for t in g.inv_open]
    if g.phase == "late":
        return [*(Step("late", t) for t in g.inv_open), Step("decline")]
    return _plan_steps(g, seat, draft or {"trips": [], "cur": None})


@cache
def _place_steps(rows: int, cols: int) -> tuple[Step, ...]:
    """The "place" step of every grid space, row by row."""
    return tuple(Step("place", (i // cols, i % cols)) for i in range(rows * cols))


# --- Phase 1 and 4 actions ----------------------------------------------------------------------

def _action_steps(g: Game, seat: int, d: dict[str, Any]) -> list[Step]:
    person = g.people[seat]
    hood = person.hood
    mode = d["mode"]
    if mode == "choose":
        r, c = d["space"]
        out = []
        tile = g.grid[r * g.board.cols + c]
        spots = hood.placements(C.CITY_TILES[tile]) if tile is not None else []
        if spots:
            # The tile's squares at once (a square taps "take it there"), and "take" as before:
            # records and stored games that went through it stay good.
            out += [Step("square", q) for q in _unique(q for q, _ in spots)]
            out.append(Step("take"))
        bonus = g.bonus_now(seat)
        for a in g.board.actions_at(r, c):
            out += _offer(g, seat, a, bonus)
        return [*out, Step("nothing")]
    if mode == "square":
        return [Step("square", q) for q in _unique(q for q, _ in _placements(g, d))]
    if mode == "rotate":
        return [Step("rotate", rot) for q, rot in _placements(g, d) if q == d["square"]]
    if mode == "pizzas":
        return [Step("pizzas", n) for n in buy_counts(person, g.bonus_now(seat))]
    if mode == "put":
        puts = [Step("put", p) for p in sorted(hood.shops, key=ORDER) if _room_left(hood, d, p) > 0]
        return puts + [Step("split", s) for s in _sensible_splits(hood, d)]
    if mode == "which":
        return [Step("pizzeria", p) for p in build_choices(person, g.supply, g.bonus_now(seat))]
    if mode == "where":
        return [Step("square", q) for q in hood.shop_squares()]
    if mode == "from":
        ignore = g.options["express_ignores_roads"]
        return [Step("from", p) for p in sorted(hood.shops, key=ORDER)
                if hood.shops[p].pizzas > 0 and _serves(hood, p, ignore)]
    return _trip_steps(hood, d["trip"], limit=person.value("red"), max_distance=None,
                       stock={}, open_={}, express=True, ignore=g.options["express_ignores_roads"])


def _offer(g: Game, seat: int, action: str, bonus: Bonus) -> list[Step]:
    """``[*_amounts(g, seat, action), Step(action)]`` if ``g.can_act(seat, action, bonus)``, else
    nothing: what a grid space offers of its action (each rule read once for both)."""
    person = g.people[seat]
    if action == "sponsor":
        return [Step(action)]
    if action == "buy":
        counts = buy_counts(person, bonus)
        return [*(Step("pizzas", n) for n in counts), Step(action)] if counts else []
    if action == "express":
        if not can_express(person, bonus, g.options["express_ignores_roads"]):
            return []
        return [Step("best-trip"), Step(action)] if person.value("red") > 0 else [Step(action)]
    choices = build_choices(person, g.supply, bonus)
    if not choices or not person.hood.shop_squares():
        return []
    return [*(Step("pizzeria", p) for p in choices), Step(action)]


def _amounts(g: Game, seat: int, action: str) -> list[Step]:
    """An action's shortcuts, its amount chosen at once: the pizzas to buy, the pizzeria to
    build, the best express trip (a person's one tap; the action's own step leads to the same)."""
    person, bonus = g.people[seat], g.bonus_now(seat)
    if action == "buy":
        return [Step("pizzas", n) for n in buy_counts(person, bonus)]
    if action == "build":
        return [Step("pizzeria", p) for p in build_choices(person, g.supply, bonus)]
    if action == "express" and _express_serves(g, seat):
        return [Step("best-trip")]
    return []


def _express_serves(g: Game, seat: int) -> bool:
    """Whether ``_best_express`` finds a trip, without searching for the best one: some
    pizzeria with pizzas reaches an unserved house, and the red track lets a pizza be dropped
    (the best trip is computed when it is chosen)."""
    person = g.people[seat]
    return person.value("red") > 0 and person.hood.can_express(g.options["express_ignores_roads"])


def _best_express(g: Game, seat: int):
    person = g.people[seat]
    return best_express(person.hood, max_drops=person.value("red"),
                        ignore_roads=g.options["express_ignores_roads"])


SPLITS_SHOWN = 6        # a buy's distributions offered whole when there are at most this many


def _sensible_splits(hood: Hood, d: dict[str, Any]) -> list[str]:
    """The whole distributions of the pizzas still to place, as "split" texts: all of them when
    few, else each pizzeria filled first in turn (the rest by most room) and the even spread."""
    room = {p: _room_left(hood, d, p) for p in sorted(hood.shops, key=ORDER) if _room_left(hood, d, p) > 0}
    every = splits(room, d["left"], ORDER)
    if len(every) <= SPLITS_SHOWN:
        return [split_text(s) for s in every]
    chosen = [_filled_first(room, d["left"], first) for first in room]
    chosen.append(_filled_first(room, d["left"], None))
    return _unique(split_text(s) for s in chosen)


def _filled_first(room: dict[Pos, int], count: int, first: Pos | None) -> tuple[tuple[Pos, int], ...]:
    """``first`` gets as many as fit, the rest one at a time to the pizzeria with most room
    left (``first`` None: an even spread)."""
    left = dict(room)
    out: dict[Pos, int] = {}
    if first is not None:
        out[first] = min(count, left[first])
        left[first] -= out[first]
        count -= out[first]
    for _ in range(count):
        p = max(left, key=lambda q: left[q])          # ties: the first in reading order
        left[p] -= 1
        out[p] = out.get(p, 0) + 1
    return tuple(sorted(((p, k) for p, k in out.items() if k), key=lambda item: ORDER(item[0])))


def split_text(split: tuple[tuple[Pos, int], ...]) -> str:
    """``0,0=2;1,-1=1``: a distribution as a step's argument (squares in reading order)."""
    return ";".join(f"{p[0]},{p[1]}={k}" for p, k in split)


def parse_split(text: str) -> tuple[tuple[Pos, int], ...]:
    out = []
    for part in text.split(";"):
        square, _, k = part.partition("=")
        x, _, y = square.partition(",")
        out.append(((int(x), int(y)), int(k)))
    return tuple(out)


def _placements(g: Game, d: dict[str, Any]) -> list[tuple[Pos, int]]:
    r, c = d["space"]
    return g.people[d["seat"]].hood.placements(C.CITY_TILES[g.grid[r * g.board.cols + c]])


def _unique(items) -> list:
    """``items`` without repeats, in first-seen order (squares and split texts: hashable)."""
    return list(dict.fromkeys(items))


def _room_left(hood: Hood, d: dict[str, Any], p: Pos) -> int:
    return hood.shops[p].room - d["to"].get(p, 0)


def _serves(hood: Hood, start: Pos, ignore: bool) -> bool:
    squares = hood.cities if ignore else hood.reachable(start)
    return any(hood.cities[q].open > 0 for q in squares)


# --- Trips (express and phase 5) ------------------------------------------------------------------

def _trip_steps(hood: Hood, trip: dict[str, Any], *, limit: int, max_distance: int | None,
                stock: dict[Pos, int], open_: dict[Pos, int], express: bool, ignore: bool) -> list[Step]:
    """Steps of a trip under way; ``stock``/``open_`` hold what earlier trips of the plan took."""
    start, path, drops = trip["from"], trip["path"], trip["drops"]
    stock_left = hood.shops[start].pizzas - stock.get(start, 0) - len(drops)
    can_drop = len(drops) < limit and stock_left > 0

    def open_left(q: Pos) -> int:
        return hood.cities[q].open - open_.get(q, 0) - drops.count(q)

    out: list[Step] = []
    if ignore and express:
        if can_drop:
            out += [Step("drop", q) for q in sorted(hood.cities, key=ORDER) if open_left(q) > 0]
        return [*out, Step("end-trip")] if drops else out
    here = path[-1] if path else start
    used = {frozenset((a, b)) for a, b in zip([start, *path], path, strict=False)}
    if max_distance is None or len(path) < max_distance:
        for _, nxt in hood.links(here):
            link = frozenset((here, nxt))
            if nxt in hood.shops or link in used:
                continue
            if express and not drops and not _drop_ahead(hood, nxt, used | {link}, open_left):
                continue
            out.append(Step("step", nxt))
    if path and can_drop and open_left(here) > 0:
        out.append(Step("drop", here))
    if path and (drops or not express):
        out.append(Step("end-trip"))
    return out


def _drop_ahead(hood: Hood, pos: Pos, used: set, open_left) -> bool:
    """Whether a trip at ``pos`` could still reach a house without a pizza."""
    return open_left(pos) > 0 or any(open_left(q) > 0 for q in hood.reachable(pos, frozenset(used)))


def _plan_steps(g: Game, seat: int, d: dict[str, Any]) -> list[Step]:
    person = g.people[seat]
    hood = person.hood
    tile = g.delivery_tile(seat)
    stock, open_, total = _plan_use(d["trips"])
    if d["cur"] is not None:
        # The trip under way can be dropped as a whole (a person who took a wrong turn).
        return [*_trip_steps(hood, d["cur"], limit=tile.max_pizzas - total, max_distance=tile.max_distance,
                             stock=stock, open_=open_, express=False, ignore=False), Step("undo-trip")]
    out = []
    if len(d["trips"]) < person.value("green") and total < tile.max_pizzas:
        out = [Step("from", p) for p in sorted(hood.shops, key=ORDER)
               if hood.shops[p].pizzas - stock.get(p, 0) > 0
               and any(q not in hood.shops for _, q in hood.links(p))]
    out.append(Step("done"))
    if not d["trips"]:
        out.append(Step("best-plan"))
    else:
        out.append(Step("undo-trip"))       # a planned trip taken back before the plan is sent
    return out


def _plan_use(trips: list[dict[str, Any]]) -> tuple[dict[Pos, int], dict[Pos, int], int]:
    stock: dict[Pos, int] = {}
    open_: dict[Pos, int] = {}
    for t in trips:
        stock[t["from"]] = stock.get(t["from"], 0) + len(t["drops"])
        for q in t["drops"]:
            open_[q] = open_.get(q, 0) + 1
    return stock, open_, sum(len(t["drops"]) for t in trips)


# --- Checking and applying a step -------------------------------------------------------------

def check_step(g: Game, seat: int, step: Step) -> Step:
    if g.finished:
        raise GameIsOver("the game is over")
    if seat not in g.to_act():
        names = ", ".join(g.players[s] for s in g.to_act())
        raise NotYourTurn(f"it is {names}'s turn, not {g.players[seat]}'s", seat=seat)
    if _surely_offered(g, seat, step):
        return step
    offered = legal_steps(g, seat)
    if step in offered:
        return step
    raise _why_not(g, seat, step, offered)


def _surely_offered(g: Game, seat: int, step: Step) -> bool:
    """Whether ``legal_steps`` lists ``step`` (of the seat to act), answered for the common steps
    without listing them all; False means "not known here", and the list decides."""
    verb, arg = step.verb, step.arg
    draft = g.drafts.get(seat)
    phase = g.phase
    if phase == "place":
        if draft is None:
            if verb != "place" or type(arg) is not tuple or len(arg) != 2:
                return False
            r, c = arg
            b = g.board
            return type(r) is int and type(c) is int and 0 <= r < b.rows and 0 <= c < b.cols \
                and r * b.cols + c not in g.markers
        return _draft_offers(g, seat, draft, verb, arg)
    if phase == "invest":
        if draft is not None:
            return _draft_offers(g, seat, draft, verb, arg)
        tile = C.INVESTMENT_TILES[g.inv_held[seat]]
        if verb == "track":
            return g.people[seat].tracks[tile.colour] < C.TRACK_TOP
        return verb == "action" and g.can_act(seat, tile.action, g.bonus_now(seat))
    if phase == "bid":
        return verb == "stairs" and type(arg) is tuple and len(arg) == 2 and type(arg[0]) is int \
            and type(arg[1]) is int and g.stair_open(seat, *arg)
    if phase == "settle":
        return verb == "invest" and type(arg) is str and arg in g.inv_open
    if phase == "deliver":
        if verb == "best-plan":
            return draft is None or draft["cur"] is None and not draft["trips"]
        if verb == "undo-trip":
            return draft is not None and (draft["cur"] is not None or bool(draft["trips"]))
        return verb == "done" and (draft is None or draft["cur"] is None)
    return False


def _draft_offers(g: Game, seat: int, draft: dict[str, Any], verb: str, arg: Any) -> bool:
    """``_surely_offered`` inside a decision of phase 1 or 4 (``_action_steps``)."""
    mode = draft["mode"]
    if mode == "choose":
        return draft["space"] is not None and _choose_offers(g, seat, draft, verb, arg)
    if mode == "rotate":
        return verb == "rotate" and type(arg) is int \
            and any(q == draft["square"] and rot == arg for q, rot in _placements(g, draft))
    if verb != "square" or type(arg) is not tuple:
        return False
    if mode == "square":
        return any(q == arg for q, _ in _placements(g, draft))
    return mode == "where" and arg in g.people[seat].hood.shop_squares()


def _choose_offers(g: Game, seat: int, draft: dict[str, Any], verb: str, arg: Any) -> bool:
    """``_surely_offered`` once a grid space is chosen (``_action_steps``, mode "choose")."""
    if verb == "nothing":
        return True
    r, c = draft["space"]
    tile = g.grid[r * g.board.cols + c]
    if verb in ("square", "take"):
        if tile is None:
            return False
        spots = g.people[seat].hood.placements(C.CITY_TILES[tile])
        return bool(spots) if verb == "take" else type(arg) is tuple and any(q == arg for q, _ in spots)
    action = {"pizzas": "buy", "pizzeria": "build", "best-trip": "express"}.get(verb, verb)
    if action not in g.board.actions_at(r, c) or not g.can_act(seat, action, g.bonus_now(seat)):
        return False
    if verb == action:
        return True
    return Step(verb, arg) in _amounts(g, seat, action)


def _why_not(g: Game, seat: int, step: Step, offered: list[Step]) -> Exception:
    d = g.drafts.get(seat) or {}
    verbs = {s.verb for s in offered}
    if step.verb in verbs:
        if step.verb == "place":
            return SpaceTaken(f"space {step.arg} is taken or not on the board")
        if step.verb == "stairs":
            return StairsIllegal(f"staircase space {step.arg} is not open to you (too dear, not above "
                                 "the others, or a step down)")
        if step.verb in ("invest", "late"):
            return TileNotOpen(f"{step.arg} is not an open investment tile")
        if step.verb == "square" and d.get("mode") == "where" and isinstance(step.arg, tuple):
            code = g.people[seat].hood.shop_fault(step.arg)
            if code:
                return fault(code, f"square {step.arg}")
        if step.verb == "square" and d.get("mode") in ("square", "choose") and isinstance(step.arg, tuple):
            r, c = d["space"]
            tile = C.CITY_TILES[g.grid[r * g.board.cols + c]]
            codes = {g.people[seat].hood.placement_fault(step.arg, rotated(tile.roads, k)) for k in range(4)}
            codes.discard(None)
            if codes:
                return fault(sorted(codes)[0], f"{tile.id} on {step.arg}")
    if step.verb == "track" and g.phase == "invest":
        return TrackFull("the track of this investment tile is at its last position")
    shown = ", ".join(str(s) for s in offered[:8]) + (" ..." if len(offered) > 8 else "")
    return StepNotOffered(f"{step} is not a choice now; the choices are: {shown}", step=str(step))


def apply_step(g: Game, seat: int, step: Step) -> list[Event]:
    check_step(g, seat, step)
    before = len(g.log)
    pair = (seat, str(step))
    g.moves.append(shared(pair) if g.shares else pair)     # the same pairs recur in every game
    g.by_seat[seat] += 1
    private = g.phase == "deliver"
    _do(g, seat, step)
    if private and g.phase == "deliver" and seat in g.pending:
        event = PlanStep(seat, str(step))
        g.log.append(shared(event) if g.shares else event)
    return g.log[before:]


def _do(g: Game, seat: int, step: Step) -> None:
    v, arg = step.verb, step.arg
    if g.phase == "bid":
        g.play(seat, {"stairs": list(arg)})
    elif g.phase == "settle":
        g.play(seat, {"invest": arg})
    elif g.phase == "late":
        g.play(seat, {"late": None if v == "decline" else arg})
    elif g.phase == "deliver":
        _plan_step(g, seat, step)
    elif v == "place":
        g.drafts[seat] = {"seat": seat, "space": arg, "mode": "choose"}
    elif v == "track":
        g.play(seat, {"resolve": "track"})
    elif g.phase == "invest" and seat not in g.drafts and v in SHORTCUTS:    # the tile's action at once
        g.drafts[seat] = {"seat": seat, "space": None, "mode": "choose"}
        _amount_chosen(g, seat, step)
    elif v == "action":
        tile = C.INVESTMENT_TILES[g.inv_held[seat]]
        g.drafts[seat] = {"seat": seat, "space": None, "mode": "choose"}
        _start_action(g, seat, tile.action)
    else:
        _action_step(g, seat, step)


def _start_action(g: Game, seat: int, action: str) -> None:
    d = g.drafts[seat]
    d["action"] = action
    if action in ("sponsor", "nothing"):
        _finish(g, seat, "none" if action == "nothing" else action, None)
    elif action == "take":
        d["mode"] = "square"
    elif action == "buy":
        d["mode"] = "pizzas"
    elif action == "express":
        d["mode"] = "from"
    else:
        d["mode"] = "which"


def _action_step(g: Game, seat: int, step: Step) -> None:
    d = g.drafts[seat]
    v, arg = step.verb, step.arg
    if d["mode"] == "choose" and v == "square":
        _take_to(g, seat, arg)
    elif d["mode"] == "choose" and v in ("pizzas", "pizzeria", "best-trip"):
        _amount_chosen(g, seat, step)
    elif d["mode"] == "choose":
        _start_action(g, seat, v)
    elif d["mode"] == "square":
        d["square"], d["mode"] = arg, "rotate"
    elif d["mode"] == "rotate":
        g.play(seat, take_move(d["space"], d["square"], arg))
    elif d["mode"] == "pizzas":
        d["n"], d["to"], d["left"], d["mode"] = arg, {}, received(g.people[seat], arg), "put"
        _settle_put(g, seat)
    elif d["mode"] == "put" and v == "split":
        for p, k in parse_split(arg):
            d["to"][p] = d["to"].get(p, 0) + k
            d["left"] -= k
        _settle_put(g, seat)
    elif d["mode"] == "put":
        d["to"][arg] = d["to"].get(arg, 0) + 1
        d["left"] -= 1
        _settle_put(g, seat)
    elif d["mode"] == "which":
        d["pizzeria"], d["mode"] = arg, "where"
    elif d["mode"] == "where":
        _finish(g, seat, "build", (d["pizzeria"], arg))
    elif d["mode"] == "from":
        d["trip"], d["mode"] = {"from": arg, "path": [], "drops": []}, "trip"
    elif v == "step":
        d["trip"]["path"].append(arg)
    elif v == "drop":
        d["trip"]["drops"].append(arg)
    else:                        # end-trip: the express delivery is complete
        t = d["trip"]
        _finish(g, seat, "express", (t["from"], tuple(t["path"]), tuple(t["drops"])))


def _amount_chosen(g: Game, seat: int, step: Step) -> None:
    """A shortcut: the action with its amount; a pizzeria's square asked only where several are
    free, the best express trip made at once."""
    if step.verb == "pizzas":
        _start_action(g, seat, "buy")
        _action_step(g, seat, step)
    elif step.verb == "pizzeria":
        _start_action(g, seat, "build")
        _action_step(g, seat, step)
        squares = g.people[seat].hood.shop_squares()
        if len(squares) == 1:
            _finish(g, seat, "build", (step.arg, squares[0]))
    else:
        start, path, drops = _best_express(g, seat)
        g.drafts[seat]["action"] = "express"
        _finish(g, seat, "express", (start, path, drops))


def _take_to(g: Game, seat: int, square: Pos) -> None:
    """The tile of the chosen space goes to ``square``: at once where only one rotation fits
    there, otherwise the rotation comes next."""
    d = g.drafts[seat]
    d["action"], d["square"], d["mode"] = "take", square, "rotate"
    rotations = [rot for q, rot in _placements(g, d) if q == square]
    if len(rotations) == 1:
        g.play(seat, take_move(d["space"], square, rotations[0]))


SHORTCUTS = ("square", "pizzas", "pizzeria", "best-trip", "split")
# Steps of a trip or a buy's pizzas made one square or one pizza at a time, beside the one-tap
# ways (the best plan, the best express trip, a whole split): a player chooses them to make a
# move those do not offer, so a decision through them may take more than three steps.
ONE_AT_A_TIME = ("from", "step", "drop", "end-trip", "put")


def without_shortcuts(g: Game, seat: int, steps: list[Step]) -> list[Step]:
    """``steps`` without a person's shortcuts: the squares offered right after a grid space (the
    same placements are reached through "take"), an action with its amount ("buy", "build",
    "express" or "action" then step by step reach the same moves), a buy's whole distribution."""
    d = g.drafts.get(seat)
    if g.phase == "invest" and d is None or g.phase == "place" and d is not None and d.get("mode") == "choose":
        return [s for s in steps if s.verb not in SHORTCUTS]
    if d is not None and d.get("mode") == "put":
        return [s for s in steps if s.verb != "split"]
    return steps


def _settle_put(g: Game, seat: int) -> None:
    """Put the rest automatically once only one pizzeria has room; finish when all are placed."""
    d = g.drafts[seat]
    hood = g.people[seat].hood
    roomy = [p for p in hood.shops if _room_left(hood, d, p) > 0]
    if d["left"] > 0 and len(roomy) == 1:
        d["to"][roomy[0]] = d["to"].get(roomy[0], 0) + d["left"]
        d["left"] = 0
    if d["left"] <= 0:
        to = tuple(sorted(((p, k) for p, k in d["to"].items() if k), key=lambda item: ORDER(item[0])))
        _finish(g, seat, "buy", (d["n"], to))


def _finish(g: Game, seat: int, name: str, body: Any) -> None:
    d = g.drafts[seat]
    if d["space"] is None:
        from .actions import action_json
        g.play(seat, {"resolve": action_json(name, body)})
    else:
        g.play(seat, place_action_move(d["space"], name, body))


def _plan_step(g: Game, seat: int, step: Step) -> None:
    d = g.drafts.setdefault(seat, {"trips": [], "cur": None})
    v, arg = step.verb, step.arg
    if v == "from":
        d["cur"] = {"from": arg, "path": [], "drops": []}
    elif v == "step":
        d["cur"]["path"].append(arg)
    elif v == "drop":
        d["cur"]["drops"].append(arg)
    elif v == "end-trip":
        d["trips"].append(d["cur"])
        d["cur"] = None
    elif v == "undo-trip":
        if d["cur"] is not None:
            d["cur"] = None
        else:
            d["trips"].pop()
        if not d["trips"] and d["cur"] is None:
            del g.drafts[seat]        # nothing planned: as before the first step (a record replays to it)
    elif v == "done":
        g.play(seat, {"deliver": [trip_json((t["from"], tuple(t["path"]), tuple(t["drops"])))
                                  for t in d["trips"]]})
    else:
        tile = g.delivery_tile(seat)
        plan = best_plan(g.people[seat].hood, trips_allowed=g.people[seat].value("green"),
                         max_pizzas=tile.max_pizzas, max_distance=tile.max_distance)
        g.play(seat, {"deliver": [trip_json(t) for t in plan]})


def in_decision(g: Game, seat: int) -> bool:
    d = g.drafts.get(seat)
    if d is None or seat not in g.to_act():
        return False
    return bool(d.get("trips") or d.get("cur")) if g.phase == "deliver" else True
