"""The round's phases (PAPA_PAOLO.md §4-§6), one record each (``PhaseRules``): its rules' number,
who acts in it, the whole moves a player makes in it, how each plays (``play``) and how a record's
JSON object writes it (``read``, moves.py), and what the rules then do alone (``advance``): whether
the phase has ended, and which phase follows (True: it moved on, run the next one; False: a player
must choose). As boardgame.io's ``phases``.

``Game`` (game.py) holds the state and the helpers these share; it reads a phase's record through
``Phase.rules``. Play in steps keeps its own record a phase (``stepper.STEPS``: it builds on Game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from . import components as C
from .actions import NO_BONUS, bonus_of
from .errors import (
    ActionNotOnSpace,
    NoLegalPlacement,
    NoSuchSpace,
    NoTileThere,
    SpaceTaken,
    StairsIllegal,
    TileNotOpen,
    TrackFull,
    WrongInvestmentAction,
    fault,
)
from .events import (
    BidPlaced,
    DeliveryTileTaken,
    Event,
    InvestmentResolved,
    InvestmentTaken,
    LateDeclined,
    MarkerPlaced,
    PlanSubmitted,
    TileTaken,
)
from .hood import City, rotated
from .moves import (
    Bid,
    Deliver,
    LateInvest,
    Move,
    PlaceAction,
    ResolveAction,
    ResolveTrack,
    Settle,
    TakeTile,
    read_bid,
    read_deliver,
    read_late,
    read_none,
    read_place,
    read_resolve,
    read_settle,
)
from .trips import check_plan

if TYPE_CHECKING:
    from .game import Game


class Phase(StrEnum):
    """Where a round stands (its values are the words views, stored data and renderers use)."""

    PLACE = "place"         # phase 1: markers on the grid, a tile or an action each
    BID = "bid"             # phase 3: the staircase auction
    SETTLE = "settle"       # phase 3: the staircase paid, top first, each taking an investment tile
    LATE = "late"           # phase 3: those off the staircase may buy one late
    INVEST = "invest"       # phase 4: investment tiles resolved
    DELIVER = "deliver"     # phase 5: delivery plans, all at once
    OVER = "over"           # the game has ended

    @property
    def rules(self) -> PhaseRules:
        return RULES[self]

    @property
    def number(self) -> int:
        """The rules' phase number (2 and 6 run alone)."""
        return RULES[self].number


class Acting(StrEnum):
    """Who acts in a phase."""

    IN_TURN = "in turn"         # one seat at a time, in turn order (``Game.turn``)
    AT_ONCE = "at once"         # every seat still to plan, at once (``Game.pending``)
    QUEUED = "queued"           # the seats of a queue, its head first (``Game.queue``)
    NOBODY = "nobody"           # the game is over


class PhaseRules(NamedTuple):
    """One phase's rules (the module's docstring says what each field is). (A named tuple, not a
    dataclass: making a dataclass costs about a millisecond at import, and every command imports this.)"""

    number: int
    acting: Acting
    moves: tuple[type[Move], ...]
    play: Callable[[Game, int, Any, list[Event]], None]
    advance: Callable[[Game, list[Event]], bool]
    read: Callable[[Mapping[str, Any]], Move]        # its move as a record's JSON object writes it


# --- Each phase's moves ----------------------------------------------------------------------------


def play_place(g: Game, seat: int, move: TakeTile | PlaceAction, events: list[Event]) -> None:
    r, c = move.space
    if not (0 <= r < g.board.rows and 0 <= c < g.board.cols):
        raise NoSuchSpace(f"there is no space [{r}, {c}] on this board")
    index = r * g.board.cols + c
    if index in g.markers:
        raise SpaceTaken(f"space [{r}, {c}] already holds a marker")
    person = g.people[seat]
    if isinstance(move, TakeTile):
        square, rotation = move.square, move.rotation
        tile_id = g.grid[index]
        if tile_id is None:
            raise NoTileThere(f"the tile of space [{r}, {c}] is gone")
        tile = C.CITY_TILES[tile_id]
        roads = rotated(tile.roads, rotation)
        code = person.hood.placement_fault(square, roads)
        if code is not None:
            # A tile that fits nowhere is refused as such before its square is blamed (a
            # fitting square means it fits somewhere, so a replay need not list them all).
            if not person.hood.placements(tile, first_only=True):
                raise NoLegalPlacement(f"{tile_id} fits nowhere in the neighbourhood")
            raise fault(code, f"{tile_id} on {square}")
        g.markers[index] = seat
        g.left[seat] -= 1
        g.grid[index] = None
        person.hood.cities[square] = City(tile_id, tile.colour, roads, tile.houses)
        events += [g.event(MarkerPlaced, seat, (r, c)),
                   g.event(TileTaken, seat, (r, c), tile_id, square, rotation)]
    else:
        name, body = move.name, move.body
        if name != "none" and name not in g.board.actions_at(r, c):
            raise ActionNotOnSpace(f"space [{r}, {c}] offers {', '.join(g.board.actions_at(r, c))}, "
                                   f"not {name}")
        g._action(seat, name, body, NO_BONUS, events, space=(r, c))
        g.markers[index] = seat
        g.left[seat] -= 1
    g._next_placer()


def play_bid(g: Game, seat: int, move: Bid, events: list[Event]) -> None:
    row, col = move.space
    if not g.stair_open(seat, row, col):
        raise StairsIllegal(g._stairs_why(seat, row, col))
    g.pos[seat] = (row, col)
    g.placed.add(seat)
    events.append(g.event(BidPlaced, seat, row, col))
    g._next_bidder()


def play_settle(g: Game, seat: int, move: Settle, events: list[Event]) -> None:
    tile = move.tile
    if tile not in g.inv_open:
        raise TileNotOpen(f"{tile!r} is not an open investment tile"[:80])
    g.inv_open.remove(tile)
    g.inv_held[seat] = tile
    col = g.pos[seat][1]
    g.dlv_held[seat] = g.stairs_tiles[col - 1]
    events += [g.event(InvestmentTaken, seat, tile, False),
               g.event(DeliveryTileTaken, seat, g.dlv_held[seat])]
    g.queue.pop(0)
    g._pay_head(events)


def play_late(g: Game, seat: int, move: LateInvest, events: list[Event]) -> None:
    tile = move.tile
    if tile is None:
        events.append(g.event(LateDeclined, seat))
    else:
        if tile not in g.inv_open:
            raise TileNotOpen(f"{tile!r} is not an open investment tile"[:80])
        g.inv_open.remove(tile)
        g.inv_held[seat] = tile
        g.people[seat].lire -= C.LATE_PRICE
        events.append(g.event(InvestmentTaken, seat, tile, True))
    g.queue.pop(0)


def play_invest(g: Game, seat: int, move: ResolveTrack | ResolveAction, events: list[Event]) -> None:
    tile = C.INVESTMENT_TILES[g.inv_held[seat]]
    if isinstance(move, ResolveTrack):
        if g.people[seat].tracks[tile.colour] >= C.TRACK_TOP:
            raise TrackFull(f"the {tile.colour} track is at its last position")
        g._advance_track(seat, tile.colour, "investment", None, events)
        events.append(g.event(InvestmentResolved, seat, tile.id, "track"))
    else:
        if move.name != tile.action:
            raise WrongInvestmentAction(f"{tile.id}'s action is {tile.action}, not {move.name}")
        g._action(seat, move.name, move.body, bonus_of(tile.action, tile.bonus), events)
        events.append(g.event(InvestmentResolved, seat, tile.id, "action"))
    g.inv_used.append(tile.id)
    g.inv_held[seat] = None
    g.queue.pop(0)


def play_deliver(g: Game, seat: int, move: Deliver, events: list[Event]) -> None:
    trips = list(move.trips)
    tile = g.planning_tile(seat)
    check_plan(g.people[seat].hood, trips, trips_allowed=g.people[seat].value("green"),
               max_pizzas=tile.max_pizzas, max_distance=tile.max_distance)
    g.plans[seat] = trips
    g.pending.remove(seat)
    events.append(g.event(PlanSubmitted, seat))
    if not g.pending:
        g._resolve_deliveries(events)


# --- What the rules do alone after a move: whether the phase has ended, what follows ---------------


def after_place(g: Game, events: list[Event]) -> bool:
    if any(g.left):
        return False
    g._subsidies(events)
    g._phase_ended(Phase.PLACE, events)
    g._start_bidding()
    return True


def after_bid(g: Game, events: list[Event]) -> bool:
    if g._run_bidding(events):
        return False
    g.phase, g.queue = Phase.SETTLE, g.rank()
    g._pay_head(events)
    return True


def after_settle(g: Game, events: list[Event]) -> bool:
    if g.queue:
        return False
    g.phase = Phase.LATE
    g.queue = [s for s in g.order if s not in g.pos]
    return True


def after_late(g: Game, events: list[Event]) -> bool:
    while g.queue and (not g.inv_open or g.people[g.queue[0]].lire < C.LATE_PRICE):
        g.queue.pop(0)
    if g.queue:
        return False
    g._new_order(events)
    g._phase_ended(Phase.BID, events)
    g.phase, g.queue = Phase.INVEST, [s for s in g.order if g.inv_held[s]]
    return True


def after_invest(g: Game, events: list[Event]) -> bool:
    while g.queue and not g.resolutions(g.queue[0]):
        seat = g.queue.pop(0)
        held = g.inv_held[seat]
        assert held is not None, "the queue holds the seats holding an investment tile"
        events.append(g.event(InvestmentResolved, seat, held, "unused"))
        g.inv_used.append(held)
        g.inv_held[seat] = None
    if g.queue:
        return False
    g._phase_ended(Phase.INVEST, events)
    g.phase = Phase.DELIVER
    g.plans = {}
    g.pending = [s for s in g.order if g.dlv_held[s] is not None]
    if not g.pending:
        g._resolve_deliveries(events)
    return True


def after_deliver(g: Game, events: list[Event]) -> bool:
    return False            # the last plan in resolves the deliveries (``play_deliver``)


def play_none(g: Game, seat: int, move: Any, events: list[Event]) -> None:
    raise AssertionError("no move is made once the game is over (``check_turn`` refuses it first)")


def after_none(g: Game, events: list[Event]) -> bool:
    return False            # nothing follows the end


RULES: dict[Phase, PhaseRules] = {
    Phase.PLACE: PhaseRules(1, Acting.IN_TURN, (TakeTile, PlaceAction), play_place, after_place, read_place),
    Phase.BID: PhaseRules(3, Acting.IN_TURN, (Bid,), play_bid, after_bid, read_bid),
    Phase.SETTLE: PhaseRules(3, Acting.QUEUED, (Settle,), play_settle, after_settle, read_settle),
    Phase.LATE: PhaseRules(3, Acting.QUEUED, (LateInvest,), play_late, after_late, read_late),
    Phase.INVEST: PhaseRules(4, Acting.QUEUED, (ResolveTrack, ResolveAction), play_invest, after_invest,
                             read_resolve),
    Phase.DELIVER: PhaseRules(5, Acting.AT_ONCE, (Deliver,), play_deliver, after_deliver, read_deliver),
    Phase.OVER: PhaseRules(6, Acting.NOBODY, (), play_none, after_none, read_none),
}
