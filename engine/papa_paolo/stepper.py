"""Play in small steps: what a seat may choose next (``legal_steps``) and making it (``apply_step``).

A decision of several steps keeps its draft (drafts.py) in ``game.drafts[seat]`` and ends in one whole move
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

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, NamedTuple

from . import components as C
from .actions import Bonus, build_choices, buy_counts, can_express, received, splits
from .drafts import NO_PLAN, ActionDraft, PlanDraft, TripDraft, chosen
from .errors import (
    SpaceTaken,
    StairsIllegal,
    StepNotOffered,
    TileNotOpen,
    TrackFull,
    fault,
)
from .events import Event, PlanStep
from .game import Game
from .hood import Hood, Pos, reading_order, rotated
from .moves import Bid, Deliver, LateInvest, PlaceAction, ResolveAction, ResolveTrack, Settle, TakeTile
from .phases import Phase
from .steps import (
    Act,
    BestPlan,
    BestTrip,
    Decline,
    Done,
    Drop,
    EndTrip,
    From,
    Invest,
    Late,
    Pizzas,
    Pizzeria,
    Place,
    Put,
    Rotate,
    Split,
    Square,
    Stairs,
    Step,
    StepTo,
    TileAction,
    Track,
    UndoTrip,
    as_kind,
)
from .trips import best_express, best_plan

STEPS_KEPT = 2048       # steps with an argument kept (far more than a game offers)


@lru_cache(maxsize=STEPS_KEPT)
def _step(kind: Callable[[Any], Step], arg: Any) -> Step:
    """``kind(arg)``: steps are frozen values, so the lists offered share one of each (making
    one is dearer than finding it, and a step found in the list is found by identity at once).
    Their arguments are a neighbourhood's squares, board spaces, tile ids and small numbers."""
    return kind(arg)


# Steps without an argument, one of each.
_DECLINE, _TRACK, _TILE_ACTION, _BEST_TRIP = Decline(), Track(), TileAction(), BestTrip()
_END_TRIP, _UNDO_TRIP, _DONE, _BEST_PLAN = EndTrip(), UndoTrip(), Done(), BestPlan()


def legal_steps(g: Game, seat: int) -> list[Step]:
    """What ``seat`` may choose now, in a stable order (the menus' and the AI's)."""
    if g.finished or seat not in g.to_act():
        return []
    return STEPS[g.phase].offered(g, seat, g.drafts.get(seat))


def _place_steps(g: Game, seat: int, draft: ActionDraft | None) -> list[Step]:
    if draft is None:
        b = g.board
        markers = g.markers
        return [step for i, step in enumerate(_grid_steps(b.rows, b.cols)) if i not in markers]
    return _action_steps(g, seat, draft)


@cache
def _grid_steps(rows: int, cols: int) -> tuple[Place, ...]:
    """The "place" step of every grid space, row by row."""
    return tuple(Place((i // cols, i % cols)) for i in range(rows * cols))


def _bid_steps(g: Game, seat: int, draft: None) -> list[Step]:
    return [_step(Stairs, s) for s in g.stair_spaces(seat)]


def _settle_steps(g: Game, seat: int, draft: None) -> list[Step]:
    return [_step(Invest, t) for t in g.inv_open]


def _late_steps(g: Game, seat: int, draft: None) -> list[Step]:
    return [*(_step(Late, t) for t in g.inv_open), _DECLINE]


def _invest_steps(g: Game, seat: int, draft: ActionDraft | None) -> list[Step]:
    if draft is not None:
        return _action_steps(g, seat, draft)
    ways = g.resolutions(seat)
    action = C.INVESTMENT_TILES[g.inv_held[seat]].action
    track: list[Step] = [_TRACK] if "track" in ways else []
    if "action" not in ways:
        return track
    # The action with its amount before the action step by step (a menu shows it first).
    return [*track, *_amounts(g, seat, action), _TILE_ACTION]


def _deliver_steps(g: Game, seat: int, draft: PlanDraft | None) -> list[Step]:
    return _plan_steps(g, seat, draft or NO_PLAN)


# --- Phase 1 and 4 actions ----------------------------------------------------------------------

def _action_steps(g: Game, seat: int, d: ActionDraft) -> list[Step]:
    person = g.people[seat]
    hood = person.hood
    mode = d.mode
    if mode == "choose":
        r, c = chosen(d.space, "grid space")
        out: list[Step] = []
        tile = g.grid[r * g.board.cols + c]
        spots = hood.placements(C.CITY_TILES[tile]) if tile is not None else []
        if spots:
            # The tile's squares at once (a square taps "take it there"), and "take" as before:
            # records and stored games that went through it stay good.
            out += [_step(Square, q) for q in _unique(q for q, _ in spots)]
            out.append(_step(Act, "take"))
        bonus = g.bonus_now(seat)
        for a in g.board.actions_at(r, c):
            out += _offer(g, seat, a, bonus)
        return [*out, _step(Act, "nothing")]
    if mode == "square":
        return [_step(Square, q) for q in _unique(q for q, _ in _placements(g, d))]
    if mode == "rotate":
        return [_step(Rotate, rot) for q, rot in _placements(g, d) if q == d.square]
    if mode == "pizzas":
        return [_step(Pizzas, n) for n in buy_counts(person, g.bonus_now(seat))]
    if mode == "put":
        puts: list[Step] = [_step(Put, p) for p in sorted(hood.shops, key=reading_order) if _room_left(hood, d, p) > 0]
        return puts + _sensible_splits(hood, d)
    if mode == "which":
        return [_step(Pizzeria, p) for p in build_choices(person, g.supply, g.bonus_now(seat))]
    if mode == "where":
        return [_step(Square, q) for q in hood.shop_squares()]
    if mode == "from":
        ignore = g.options["express_ignores_roads"]
        return [_step(From, p) for p in sorted(hood.shops, key=reading_order)
                if hood.shops[p].pizzas > 0 and _serves(hood, p, ignore)]
    return _trip_steps(hood, chosen(d.trip, "trip"), limit=person.value("red"), max_distance=None,
                       stock={}, open_={}, express=True, ignore=g.options["express_ignores_roads"])


def _offer(g: Game, seat: int, action: str, bonus: Bonus) -> list[Step]:
    """``[*_amounts(g, seat, action), Act(action)]`` if ``g.can_act(seat, action, bonus)``, else
    nothing: what a grid space offers of its action (each rule read once for both)."""
    person = g.people[seat]
    if action == "sponsor":
        return [_step(Act, action)]
    if action == "buy":
        counts = buy_counts(person, bonus)
        return [*(_step(Pizzas, n) for n in counts), _step(Act, action)] if counts else []
    if action == "express":
        if not can_express(person, bonus, g.options["express_ignores_roads"]):
            return []
        return [_BEST_TRIP, _step(Act, action)] if person.value("red") > 0 else [_step(Act, action)]
    choices = build_choices(person, g.supply, bonus)
    if not choices or not person.hood.shop_squares():
        return []
    return [*(_step(Pizzeria, p) for p in choices), _step(Act, action)]


def _amounts(g: Game, seat: int, action: str) -> list[Step]:
    """An action's shortcuts, its amount chosen at once: the pizzas to buy, the pizzeria to
    build, the best express trip (a person's one tap; the action's own step leads to the same)."""
    person, bonus = g.people[seat], g.bonus_now(seat)
    if action == "buy":
        return [_step(Pizzas, n) for n in buy_counts(person, bonus)]
    if action == "build":
        return [_step(Pizzeria, p) for p in build_choices(person, g.supply, bonus)]
    if action == "express" and _express_serves(g, seat):
        return [_BEST_TRIP]
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


def _sensible_splits(hood: Hood, d: ActionDraft) -> list[Split]:
    """The whole distributions of the pizzas still to place: all of them when few, else each
    pizzeria filled first in turn (the rest by most room) and the even spread."""
    room = {p: _room_left(hood, d, p) for p in sorted(hood.shops, key=reading_order) if _room_left(hood, d, p) > 0}
    left = chosen(d.left, "pizzas left to put")
    every = splits(room, left, reading_order)
    if len(every) <= SPLITS_SHOWN:
        return [Split(s) for s in every]
    picked = [_filled_first(room, left, first) for first in room]
    picked.append(_filled_first(room, left, None))
    return _unique(Split(s) for s in picked)


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
    return tuple(sorted(((p, k) for p, k in out.items() if k), key=lambda item: reading_order(item[0])))


def _placements(g: Game, d: ActionDraft) -> list[tuple[Pos, int]]:
    r, c = chosen(d.space, "grid space")
    return g.people[d.seat].hood.placements(C.CITY_TILES[g.grid[r * g.board.cols + c]])


def _unique(items) -> list:
    """``items`` without repeats, in first-seen order (squares and splits: hashable)."""
    return list(dict.fromkeys(items))


def _room_left(hood: Hood, d: ActionDraft, p: Pos) -> int:
    return d.room_left(p, hood.shops[p].room)


def _serves(hood: Hood, start: Pos, ignore: bool) -> bool:
    squares = hood.cities if ignore else hood.reachable(start)
    return any(hood.cities[q].open > 0 for q in squares)


# --- Trips (express and phase 5) ------------------------------------------------------------------

def _trip_steps(hood: Hood, trip: TripDraft, *, limit: int, max_distance: int | None,
                stock: dict[Pos, int], open_: dict[Pos, int], express: bool, ignore: bool) -> list[Step]:
    """Steps of a trip under way; ``stock``/``open_`` hold what earlier trips of the plan took."""
    start, path, drops = trip.start, trip.path, trip.drops
    stock_left = hood.shops[start].pizzas - stock.get(start, 0) - len(drops)
    can_drop = len(drops) < limit and stock_left > 0

    def open_left(q: Pos) -> int:
        return hood.cities[q].open - open_.get(q, 0) - drops.count(q)

    out: list[Step] = []
    if ignore and express:
        if can_drop:
            out += [_step(Drop, q) for q in sorted(hood.cities, key=reading_order) if open_left(q) > 0]
        return [*out, _END_TRIP] if drops else out
    here = path[-1] if path else start
    used = {frozenset((a, b)) for a, b in zip([start, *path], path, strict=False)}
    if max_distance is None or len(path) < max_distance:
        for _, nxt in hood.links(here):
            link = frozenset((here, nxt))
            if nxt in hood.shops or link in used:
                continue
            if express and not drops and not _drop_ahead(hood, nxt, used | {link}, open_left):
                continue
            out.append(_step(StepTo, nxt))
    if path and can_drop and open_left(here) > 0:
        out.append(_step(Drop, here))
    if path and (drops or not express):
        out.append(_END_TRIP)
    return out


def _drop_ahead(hood: Hood, pos: Pos, used: set, open_left) -> bool:
    """Whether a trip at ``pos`` could still reach a house without a pizza."""
    return open_left(pos) > 0 or any(open_left(q) > 0 for q in hood.reachable(pos, frozenset(used)))


def _plan_steps(g: Game, seat: int, d: PlanDraft) -> list[Step]:
    person = g.people[seat]
    hood = person.hood
    stock, open_, total = d.taken()
    if d.cur is not None:
        tile = g.planning_tile(seat)
        # The trip under way can be dropped as a whole (a person who took a wrong turn).
        return [*_trip_steps(hood, d.cur, limit=tile.max_pizzas - total, max_distance=tile.max_distance,
                             stock=stock, open_=open_, express=False, ignore=False), _UNDO_TRIP]
    out: list[Step] = []
    if _trips_left(g, seat, d, total):
        out = [_step(From, p) for p in sorted(hood.shops, key=reading_order) if _trip_starts(hood, p, stock)]
    out.append(_DONE)
    if not d.trips:
        out.append(_BEST_PLAN)
    else:
        out.append(_UNDO_TRIP)       # a planned trip taken back before the plan is sent
    return out


def _trips_left(g: Game, seat: int, d: PlanDraft, total: int) -> bool:
    """Whether the plan may take one more trip: the green track and the tile's pizzas allow it."""
    return len(d.trips) < g.people[seat].value("green") and total < g.planning_tile(seat).max_pizzas


def _trip_starts(hood: Hood, p: Pos, stock: dict[Pos, int]) -> bool:
    """Whether a trip of the plan may leave the pizzeria on ``p``: pizzas left after the trips
    planned (``stock``), and a road out of it."""
    return hood.shops[p].pizzas - stock.get(p, 0) > 0 and any(q not in hood.shops for _, q in hood.links(p))


# --- Checking and applying a step -------------------------------------------------------------

def check_step(g: Game, seat: int, step: Step) -> Step:
    g.check_turn(seat)
    if _surely_offered(g, seat, step):
        return step
    offered = legal_steps(g, seat)
    if step in offered:
        return step
    raise _why_not(g, seat, step, offered)


def _surely_offered(g: Game, seat: int, step: Step) -> bool:
    """Whether ``legal_steps`` lists ``step`` (of the seat to act), answered for the common steps
    without listing them all; False means "not known here", and the list decides."""
    return STEPS[g.phase].surely(g, seat, g.drafts.get(seat), step)


def _surely_placed(g: Game, seat: int, draft: ActionDraft | None, step: Step) -> bool:
    if draft is not None:
        return _draft_offers(g, seat, draft, step)
    if not isinstance(step, Place) or type(step.space) is not tuple or len(step.space) != 2:
        return False
    r, c = step.space
    b = g.board
    return type(r) is int and type(c) is int and 0 <= r < b.rows and 0 <= c < b.cols \
        and r * b.cols + c not in g.markers


def _surely_resolved(g: Game, seat: int, draft: ActionDraft | None, step: Step) -> bool:
    if draft is not None:
        return _draft_offers(g, seat, draft, step)
    tile = C.INVESTMENT_TILES[g.inv_held[seat]]
    if isinstance(step, Track):
        return g.people[seat].tracks[tile.colour] < C.TRACK_TOP
    return isinstance(step, TileAction) and g.can_act(seat, tile.action, g.bonus_now(seat))


def _surely_bid(g: Game, seat: int, draft: None, step: Step) -> bool:
    if not isinstance(step, Stairs) or type(step.space) is not tuple or len(step.space) != 2:
        return False
    row, col = step.space
    return type(row) is int and type(col) is int and g.stair_open(seat, row, col)


def _surely_settled(g: Game, seat: int, draft: None, step: Step) -> bool:
    return isinstance(step, Invest) and type(step.tile) is str and step.tile in g.inv_open


def _surely_planned(g: Game, seat: int, draft: PlanDraft | None, step: Step) -> bool:
    if isinstance(step, From):         # a trip's pizzeria (``_plan_steps``, no trip under way)
        if draft is None:
            draft = NO_PLAN
        if draft.cur is not None or type(step.square) is not tuple or step.square not in g.people[seat].hood.shops:
            return False
        stock, _, total = draft.taken()
        return _trips_left(g, seat, draft, total) and _trip_starts(g.people[seat].hood, step.square, stock)
    if isinstance(step, BestPlan):
        return draft is None or draft.cur is None and not draft.trips
    if isinstance(step, UndoTrip):
        return draft is not None and (draft.cur is not None or bool(draft.trips))
    return isinstance(step, Done) and (draft is None or draft.cur is None)


def _not_known(g: Game, seat: int, draft: None, step: Step) -> bool:
    return False


def _draft_offers(g: Game, seat: int, draft: ActionDraft, step: Step) -> bool:
    """``_surely_offered`` inside a decision of phase 1 or 4 (``_action_steps``)."""
    mode = draft.mode
    if mode == "choose":
        return draft.space is not None and _choose_offers(g, seat, draft, step)
    if mode == "rotate":
        return isinstance(step, Rotate) and type(step.rotation) is int \
            and any(q == draft.square and rot == step.rotation for q, rot in _placements(g, draft))
    if not isinstance(step, Square) or type(step.square) is not tuple:
        return False
    if mode == "square":
        return any(q == step.square for q, _ in _placements(g, draft))
    return mode == "where" and step.square in g.people[seat].hood.shop_squares()


# The action a shortcut takes with its amount.
SHORTCUT_ACTION = {Pizzas: "buy", Pizzeria: "build", BestTrip: "express"}


def _choose_offers(g: Game, seat: int, draft: ActionDraft, step: Step) -> bool:
    """``_surely_offered`` once a grid space is chosen (``_action_steps``, mode "choose")."""
    action_chosen = step.action if isinstance(step, Act) else None
    if action_chosen == "nothing":
        return True
    r, c = chosen(draft.space, "grid space")
    tile = g.grid[r * g.board.cols + c]
    if action_chosen == "take" or isinstance(step, Square):
        if tile is None:
            return False
        spots = g.people[seat].hood.placements(C.CITY_TILES[tile])
        if action_chosen == "take":
            return bool(spots)
        square = as_kind(step, Square).square
        return type(square) is tuple and any(q == square for q, _ in spots)
    action = action_chosen or SHORTCUT_ACTION.get(type(step))
    if action is None or action not in g.board.actions_at(r, c) or not g.can_act(seat, action, g.bonus_now(seat)):
        return False
    return action_chosen is not None or step in _amounts(g, seat, action)


def _why_not(g: Game, seat: int, step: Step, offered: list[Step]) -> Exception:
    d = g.drafts.get(seat)
    mode = d.mode if isinstance(d, ActionDraft) else None
    if any(type(s) is type(step) for s in offered):
        if isinstance(step, Place):
            return SpaceTaken(f"space {step.space} is taken or not on the board")
        if isinstance(step, Stairs):
            return StairsIllegal(f"staircase space {step.space} is not open to you (too dear, not above "
                                 "the others, or a step down)")
        if isinstance(step, Invest | Late):
            return TileNotOpen(f"{step.tile} is not an open investment tile")
        if isinstance(step, Square) and mode == "where":
            code = g.people[seat].hood.shop_fault(step.square)
            if code:
                return fault(code, f"square {step.square}")
        if isinstance(step, Square) and isinstance(d, ActionDraft) and mode in ("square", "choose"):
            r, c = chosen(d.space, "grid space")
            tile = C.CITY_TILES[g.grid[r * g.board.cols + c]]
            codes = {g.people[seat].hood.placement_fault(step.square, rotated(tile.roads, k)) for k in range(4)}
            faults = sorted(code for code in codes if code is not None)
            if faults:
                return fault(faults[0], f"{tile.id} on {step.square}")
    if isinstance(step, Track) and g.phase == Phase.INVEST:
        return TrackFull("the track of this investment tile is at its last position")
    shown = ", ".join(str(s) for s in offered[:8]) + (" ..." if len(offered) > 8 else "")
    return StepNotOffered(f"{step} is not a choice now; the choices are: {shown}", step=str(step))


def apply_step(g: Game, seat: int, step: Step) -> list[Event]:
    check_step(g, seat, step)
    before = g.log_size()
    pair = (seat, str(step))
    g.moves.append(g.share(pair))     # the same pairs recur in every game
    g.by_seat[seat] += 1
    phase = g.phase
    STEPS[phase].make(g, seat, step)
    if phase == Phase.DELIVER and g.phase == phase and seat in g.pending:
        g.note(PlanStep, seat, pair[1])
    return g.log_since(before)


def _place(g: Game, seat: int, step: Step) -> None:
    if isinstance(step, Place):
        g.drafts[seat] = ActionDraft(seat, step.space)
    else:
        _action_step(g, seat, step)


def _bid(g: Game, seat: int, step: Stairs) -> None:
    g.play(seat, Bid(step.space))


def _settle(g: Game, seat: int, step: Invest) -> None:
    g.play(seat, Settle(step.tile))


def _late(g: Game, seat: int, step: Late | Decline) -> None:
    g.play(seat, LateInvest(None if isinstance(step, Decline) else step.tile))


def _invest(g: Game, seat: int, step: Step) -> None:
    if isinstance(step, Track):
        g.play(seat, ResolveTrack())
    elif seat not in g.drafts and isinstance(step, Pizzas | Pizzeria | BestTrip):   # the action at once
        # (the tile's shortcuts: an amount; ``check_step`` let no other through)
        g.drafts[seat] = ActionDraft(seat, None)
        _amount_chosen(g, seat, step)
    elif isinstance(step, TileAction):
        tile = C.INVESTMENT_TILES[g.inv_held[seat]]
        g.drafts[seat] = ActionDraft(seat, None)
        _start_action(g, seat, tile.action)
    else:
        _action_step(g, seat, step)


def _start_action(g: Game, seat: int, action: str) -> None:
    d = g.drafts[seat]
    if action in ("sponsor", "nothing"):
        g.drafts[seat] = d.but(action=action)
        _finish(g, seat, "none" if action == "nothing" else action, None)
        return
    mode = {"take": "square", "buy": "pizzas", "express": "from"}.get(action, "which")
    g.drafts[seat] = d.but(action=action, mode=mode)


def _action_step(g: Game, seat: int, step: Step) -> None:
    d: ActionDraft = g.drafts[seat]
    mode = d.mode
    if mode == "choose" and isinstance(step, Square):
        _take_to(g, seat, step.square)
    elif mode == "choose" and isinstance(step, Pizzas | Pizzeria | BestTrip):
        _amount_chosen(g, seat, step)
    elif mode == "choose":
        _start_action(g, seat, as_kind(step, Act).action)
    elif mode == "square":
        g.drafts[seat] = d.but(square=as_kind(step, Square).square, mode="rotate")
    elif mode == "rotate":
        g.play(seat, TakeTile(chosen(d.space, "grid space"), chosen(d.square, "square"),
                              as_kind(step, Rotate).rotation))
    elif mode == "pizzas":
        count = as_kind(step, Pizzas).count
        g.drafts[seat] = d.but(n=count, to=(), left=received(g.people[seat], count), mode="put")
        _settle_put(g, seat)
    elif mode == "put" and isinstance(step, Split):
        for p, k in step.parts:
            d = d.put(p, k)
        g.drafts[seat] = d
        _settle_put(g, seat)
    elif mode == "put":
        g.drafts[seat] = d.put(as_kind(step, Put).square, 1)
        _settle_put(g, seat)
    elif mode == "which":
        g.drafts[seat] = d.but(pizzeria=as_kind(step, Pizzeria).tile, mode="where")
    elif mode == "where":
        _finish(g, seat, "build", (d.pizzeria, as_kind(step, Square).square))
    elif mode == "from":
        g.drafts[seat] = d.but(trip=TripDraft(as_kind(step, From).square), mode="trip")
    elif isinstance(step, StepTo):
        g.drafts[seat] = d.but(trip=chosen(d.trip, "trip").stepped(step.square))
    elif isinstance(step, Drop):
        g.drafts[seat] = d.but(trip=chosen(d.trip, "trip").dropped(step.square))
    else:                        # end-trip: the express delivery is complete
        _finish(g, seat, "express", chosen(d.trip, "trip").whole)


def _amount_chosen(g: Game, seat: int, step: Pizzas | Pizzeria | BestTrip) -> None:
    """A shortcut: the action with its amount; a pizzeria's square asked only where several are
    free, the best express trip made at once."""
    if isinstance(step, Pizzas):
        _start_action(g, seat, "buy")
        _action_step(g, seat, step)
    elif isinstance(step, Pizzeria):
        _start_action(g, seat, "build")
        _action_step(g, seat, step)
        squares = g.people[seat].hood.shop_squares()
        if len(squares) == 1:
            _finish(g, seat, "build", (step.tile, squares[0]))
    else:
        start, path, drops = _best_express(g, seat)
        g.drafts[seat] = g.drafts[seat].but(action="express")
        _finish(g, seat, "express", (start, path, drops))


def _take_to(g: Game, seat: int, square: Pos) -> None:
    """The tile of the chosen space goes to ``square``: at once where only one rotation fits
    there, otherwise the rotation comes next."""
    d = g.drafts[seat] = g.drafts[seat].but(action="take", square=square, mode="rotate")
    rotations = [rot for q, rot in _placements(g, d) if q == square]
    if len(rotations) == 1:
        g.play(seat, TakeTile(d.space, square, rotations[0]))


# A person's shortcuts: a tile's square right after its grid space, an action with its amount,
# a buy's whole distribution.
SHORTCUTS = (Square, Pizzas, Pizzeria, BestTrip, Split)
# Steps of a trip or a buy's pizzas made one square or one pizza at a time, beside the one-tap
# ways (the best plan, the best express trip, a whole split): a player chooses them to make a
# move those do not offer, so a decision through them may take more than three steps.
ONE_AT_A_TIME = (From, StepTo, Drop, EndTrip, Put)


def without_shortcuts(g: Game, seat: int, steps: list[Step]) -> list[Step]:
    """``steps`` without a person's shortcuts: the squares offered right after a grid space (the
    same placements are reached through "take"), an action with its amount ("buy", "build",
    "express" or "action" then step by step reach the same moves), a buy's whole distribution."""
    d = g.drafts.get(seat)
    mode = d.mode if isinstance(d, ActionDraft) else None
    if g.phase == Phase.INVEST and d is None or g.phase == Phase.PLACE and mode == "choose":
        return [s for s in steps if not isinstance(s, SHORTCUTS)]
    if mode == "put":
        return [s for s in steps if not isinstance(s, Split)]
    return steps


def _settle_put(g: Game, seat: int) -> None:
    """Put the rest automatically once only one pizzeria has room; finish when all are placed."""
    d = g.drafts[seat]
    hood = g.people[seat].hood
    roomy = [p for p in hood.shops if _room_left(hood, d, p) > 0]
    if d.left > 0 and len(roomy) == 1:
        d = g.drafts[seat] = d.put(roomy[0], d.left)
    if d.left <= 0:
        to = tuple(sorted(((p, k) for p, k in d.to if k), key=lambda item: reading_order(item[0])))
        _finish(g, seat, "buy", (d.n, to))


def _finish(g: Game, seat: int, name: str, body: Any) -> None:
    d = g.drafts[seat]
    g.play(seat, ResolveAction(name, body) if d.space is None else PlaceAction(d.space, name, body))


def _plan_step(g: Game, seat: int, step: Step) -> None:
    d = g.drafts.get(seat, NO_PLAN)
    if isinstance(step, From):
        d = PlanDraft(d.trips, TripDraft(step.square))
    elif isinstance(step, StepTo):
        d = PlanDraft(d.trips, d.cur.stepped(step.square))
    elif isinstance(step, Drop):
        d = PlanDraft(d.trips, d.cur.dropped(step.square))
    elif isinstance(step, EndTrip):
        d = PlanDraft((*d.trips, d.cur))
    elif isinstance(step, UndoTrip):
        d = PlanDraft(d.trips) if d.cur is not None else PlanDraft(d.trips[:-1])
    elif isinstance(step, Done):
        g.play(seat, Deliver(tuple(t.whole for t in d.trips)))
        return
    else:
        tile = g.planning_tile(seat)
        plan = best_plan(g.people[seat].hood, trips_allowed=g.people[seat].value("green"),
                         max_pizzas=tile.max_pizzas, max_distance=tile.max_distance)
        g.play(seat, Deliver(tuple(plan)))
        return
    if d == NO_PLAN:
        g.drafts.pop(seat, None)      # nothing planned: as before the first step (a record replays to it)
    else:
        g.drafts[seat] = d


class PhaseSteps(NamedTuple):
    """A phase's play in steps: what a seat may choose in it, given its draft (``offered``); whether
    a step is surely one of those, without listing them (``surely``); making a choice (``make``).
    (A seat's draft is an ActionDraft, a PlanDraft or None by phase: each phase's functions say which.
    A named tuple: a dataclass costs about a millisecond to make at import.)"""

    offered: Callable[[Game, int, Any], list[Step]]
    surely: Callable[[Game, int, Any, Step], bool]
    make: Callable[[Game, int, Any], None]


# Each phase's steps (the game's own record of a phase is in phases.py).
STEPS: dict[Phase, PhaseSteps] = {
    Phase.PLACE: PhaseSteps(_place_steps, _surely_placed, _place),
    Phase.BID: PhaseSteps(_bid_steps, _surely_bid, _bid),
    Phase.SETTLE: PhaseSteps(_settle_steps, _surely_settled, _settle),
    Phase.LATE: PhaseSteps(_late_steps, _not_known, _late),
    Phase.INVEST: PhaseSteps(_invest_steps, _surely_resolved, _invest),
    Phase.DELIVER: PhaseSteps(_deliver_steps, _surely_planned, _plan_step),
}


def in_decision(g: Game, seat: int) -> bool:
    d = g.drafts.get(seat)
    if d is None or seat not in g.to_act():
        return False
    return bool(d.trips or d.cur) if isinstance(d, PlanDraft) else True
