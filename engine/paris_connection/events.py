"""Typed events: everything that happened, as data, in order.

Seats are indices into the players; colours and hexes their string ids. ``private_to`` is
None for public events and a seat for secrets (a deal, holdings after a trade);
``visible_to(seat)`` is the one test a redacted log needs (``seat=None``: the public view).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.events import Event


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    players: tuple[str, ...]
    first_player: int
    start_hexes: dict[str, str]


@dataclass(frozen=True, slots=True)
class HoldingsDealt(Event):
    """What ``seat`` drew at the deal: a secret."""

    kind: ClassVar[str] = "holdings_dealt"
    seat: int
    holdings: dict[str, int]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class BuildStarted(Event):
    kind: ClassVar[str] = "build_started"
    seat: int
    colour: str


@dataclass(frozen=True, slots=True)
class LocomotivePlaced(Event):
    """A tentative placement; ``gain`` is what this locomotive would add (its city's value)."""

    kind: ClassVar[str] = "locomotive_placed"
    seat: int
    colour: str
    hex: str
    gain: int


@dataclass(frozen=True, slots=True)
class PlacementUndone(Event):
    kind: ClassVar[str] = "placement_undone"
    seat: int
    colour: str
    hex: str


@dataclass(frozen=True, slots=True)
class BuildCancelled(Event):
    kind: ClassVar[str] = "build_cancelled"
    seat: int
    colour: str


@dataclass(frozen=True, slots=True)
class BuildCompleted(Event):
    """A build committed: ``gain`` raised the company to ``value``."""

    kind: ClassVar[str] = "build_completed"
    seat: int
    colour: str
    hexes: tuple[str, ...]
    gain: int
    value: int


@dataclass(frozen=True, slots=True)
class Traded(Event):
    kind: ClassVar[str] = "traded"
    seat: int
    give: str
    take: str
    count: int


@dataclass(frozen=True, slots=True)
class HoldingsChanged(Event):
    """``seat``'s holdings after one of their trades: a secret."""

    kind: ClassVar[str] = "holdings_changed"
    seat: int
    holdings: dict[str, int]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """``seat`` could neither build nor trade."""

    kind: ClassVar[str] = "turn_skipped"
    seat: int


@dataclass(frozen=True, slots=True)
class CycleEnded(Event):
    kind: ClassVar[str] = "cycle_ended"
    cycle: int
    values: dict[str, int]

    @property
    def ended_cycle(self) -> int:
        return self.cycle


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """``reason``: "marseille" or "storage"; ``holdings`` is everyone's, revealed."""

    kind: ClassVar[str] = "game_ended"
    reason: str
    scores: tuple[int, ...]
    penalties: tuple[int, ...]
    holdings: tuple[dict[str, int], ...]
    winners: tuple[int, ...]
