"""Typed events: everything that happened, as data, in order.

Seats are indices into the players; squares (x, y) of the seat's neighbourhood; grid spaces
(row, col); staircase spaces (row, column from 1). Lire balances never appear in a public event
(``hidden_money``): only amounts gained or paid, which the table sees anyway. A delivery plan
under way is private to its seat (``PlanStep``); plans are revealed together (``DeliveriesMade``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.events import Event


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    players: tuple[str, ...]
    order: tuple[int, ...]
    starting_tiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int
    grid: tuple[str | None, ...]
    coins: tuple[int | None, ...]          # None: the face-down coin
    delivery_tiles: tuple[str, ...]
    investment_tiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MarkerPlaced(Event):
    kind: ClassVar[str] = "marker_placed"
    seat: int
    space: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TileTaken(Event):
    kind: ClassVar[str] = "tile_taken"
    seat: int
    space: tuple[int, int]
    tile: str
    square: tuple[int, int]
    rotation: int


@dataclass(frozen=True, slots=True)
class Sponsored(Event):
    kind: ClassVar[str] = "sponsored"
    seat: int
    lire: int


@dataclass(frozen=True, slots=True)
class PizzasBought(Event):
    kind: ClassVar[str] = "pizzas_bought"
    seat: int
    paid_for: int
    cost: int
    received: tuple[tuple[int, int, int], ...]     # (x, y, pizzas) per pizzeria
    lost: int


@dataclass(frozen=True, slots=True)
class ExpressDelivered(Event):
    kind: ClassVar[str] = "express_delivered"
    seat: int
    fee: int
    trip: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PizzeriaBuilt(Event):
    kind: ClassVar[str] = "pizzeria_built"
    seat: int
    pizzeria: str
    square: tuple[int, int]
    cost: int


@dataclass(frozen=True, slots=True)
class NoAction(Event):
    kind: ClassVar[str] = "no_action"
    seat: int


@dataclass(frozen=True, slots=True)
class TrackAdvanced(Event):
    kind: ClassVar[str] = "track_advanced"
    seat: int
    colour: str
    position: int
    reason: str                     # "completed" (a square), "investment"
    square: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class CoinAwarded(Event):
    kind: ClassVar[str] = "coin_awarded"
    line: str                       # "row" or "col"
    index: int
    value: int
    seat: int | None                # None: no marker in the line, the bank keeps it


@dataclass(frozen=True, slots=True)
class OrderChanged(Event):
    kind: ClassVar[str] = "order_changed"
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BidPlaced(Event):
    kind: ClassVar[str] = "bid_placed"
    seat: int
    row: int
    column: int


@dataclass(frozen=True, slots=True)
class LeftStaircase(Event):
    kind: ClassVar[str] = "left_staircase"
    seat: int


@dataclass(frozen=True, slots=True)
class StairsPaid(Event):
    kind: ClassVar[str] = "stairs_paid"
    seat: int
    cost: int


@dataclass(frozen=True, slots=True)
class InvestmentTaken(Event):
    kind: ClassVar[str] = "investment_taken"
    seat: int
    tile: str
    late: bool


@dataclass(frozen=True, slots=True)
class LateDeclined(Event):
    kind: ClassVar[str] = "late_declined"
    seat: int


@dataclass(frozen=True, slots=True)
class DeliveryTileTaken(Event):
    kind: ClassVar[str] = "delivery_tile_taken"
    seat: int
    tile: str


@dataclass(frozen=True, slots=True)
class InvestmentResolved(Event):
    kind: ClassVar[str] = "investment_resolved"
    seat: int
    tile: str
    how: str                        # "track", "action" or "unused"


@dataclass(frozen=True, slots=True)
class PlanStep(Event):
    """A step of a delivery plan under way: only its owner sees it."""

    kind: ClassVar[str] = "plan_step"
    seat: int
    step: str

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class PlanSubmitted(Event):
    kind: ClassVar[str] = "plan_submitted"
    seat: int


@dataclass(frozen=True, slots=True)
class DeliveriesMade(Event):
    kind: ClassVar[str] = "deliveries_made"
    seat: int
    trips: tuple[dict[str, Any], ...]
    pizzas: int


@dataclass(frozen=True, slots=True)
class PhaseEnded(Event):
    """A phase in which players chose is over and has changed the board (``phase``: place, bid,
    invest or deliver; the bid phase takes in its investment tiles). The table sees a picture
    then: a stretch of play (the interface's cycle) runs from one of these to the next."""

    kind: ClassVar[str] = "phase_ended"
    round: int
    phase: str


@dataclass(frozen=True, slots=True)
class CycleEnded(Event):
    """A round is over (``cycle`` = the round)."""

    kind: ClassVar[str] = "cycle_ended"
    cycle: int

    @property
    def ended_cycle(self) -> int:
        return self.cycle


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    scores: tuple[int, ...]
    lire: tuple[int, ...]
    winners: tuple[int, ...]
