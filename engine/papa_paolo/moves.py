"""Whole moves (PAPA_PAOLO.md §12): what ``Game.play`` takes, one frozen class per kind.

A record writes each as a JSON object (``as_record``); record.py reads them back and checks their
shape (``parse_move``), the rules (game.py) check what they do. Steps (steps.py) end in these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import action_json
from .hood import Pos
from .trips import Trip, trip_json


@dataclass(frozen=True, slots=True)
class TakeTile:
    """Phase 1: a marker on grid ``space``, its tile to ``square`` turned ``rotation`` quarters."""

    space: Pos
    square: Pos
    rotation: int

    def as_record(self) -> dict[str, Any]:
        return {"place": list(self.space), "take": {"square": list(self.square), "rotation": self.rotation}}


@dataclass(frozen=True, slots=True)
class PlaceAction:
    """Phase 1: a marker on grid ``space`` and its action (``name``: sponsor, buy, express, build,
    none; ``body`` as actions.py reads it)."""

    space: Pos
    name: str
    body: Any

    def as_record(self) -> dict[str, Any]:
        return {"place": list(self.space), "action": action_json(self.name, self.body)}


@dataclass(frozen=True, slots=True)
class Bid:
    """Phase 3: a staircase space, (row, column)."""

    space: Pos

    def as_record(self) -> dict[str, Any]:
        return {"stairs": list(self.space)}


@dataclass(frozen=True, slots=True)
class Settle:
    """Phase 3, settling the staircase: the investment tile taken (the rules check it is open)."""

    tile: Any

    def as_record(self) -> dict[str, Any]:
        return {"invest": self.tile}


@dataclass(frozen=True, slots=True)
class LateInvest:
    """Phase 3, off the staircase: an investment tile bought late, or None."""

    tile: Any

    def as_record(self) -> dict[str, Any]:
        return {"late": self.tile}


@dataclass(frozen=True, slots=True)
class ResolveTrack:
    """Phase 4: the investment tile moves its colour's track."""

    def as_record(self) -> dict[str, Any]:
        return {"resolve": "track"}


@dataclass(frozen=True, slots=True)
class ResolveAction:
    """Phase 4: the investment tile's action (``name`` and ``body`` as ``PlaceAction``'s)."""

    name: str
    body: Any

    def as_record(self) -> dict[str, Any]:
        return {"resolve": action_json(self.name, self.body)}


@dataclass(frozen=True, slots=True)
class Deliver:
    """Phase 5: a seat's delivery plan."""

    trips: tuple[Trip, ...]

    def as_record(self) -> dict[str, Any]:
        return {"deliver": [trip_json(t) for t in self.trips]}


Move = TakeTile | PlaceAction | Bid | Settle | LateInvest | ResolveTrack | ResolveAction | Deliver
