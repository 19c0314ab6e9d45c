"""Whole moves (PAPA_PAOLO.md §12): what ``Game.play`` takes, one frozen class per kind.

A record writes each as a JSON object (``as_record``) and each phase's reader below reads it back,
checking its shape (a phase's record, phases.py, names its reader; record.py's ``parse_move`` asks
it); the rules (phases.py, game.py) check what they do. Steps (steps.py) end in these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import action_json, parse_action
from .errors import BadRotation, MalformedInput
from .hood import Pos
from .trips import Trip, parse_trip, trip_json


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


# --- Reading a record's moves, phase by phase --------------------------------------------------

# The keys each move's object holds. (A mapping's keys compare with a set as ``set(keys)`` would,
# without building one: every move of a replay asks.)
_TAKE_KEYS, _ACTION_KEYS = frozenset({"place", "take"}), frozenset({"place", "action"})
_TAKE_BODY_KEYS = frozenset({"square", "rotation"})
_STAIRS_KEYS, _INVEST_KEYS, _LATE_KEYS = frozenset({"stairs"}), frozenset({"invest"}), frozenset({"late"})
_RESOLVE_KEYS, _DELIVER_KEYS = frozenset({"resolve"}), frozenset({"deliver"})


def _expect(move: Mapping[str, Any], keys: frozenset[str], what: str) -> None:
    if move.keys() != keys:
        raise MalformedInput(f"expected {what} now, not a move with {', '.join(sorted(move))}")


def _pair(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int or type(value[1]) is not int:
        raise MalformedInput(what)
    return value[0], value[1]


def read_place(move: Mapping[str, Any]) -> TakeTile | PlaceAction:
    """Phase 1's move as a record's JSON object (without "player") writes it."""
    keys = move.keys()
    if keys != _TAKE_KEYS and keys != _ACTION_KEYS:
        raise MalformedInput('a phase-1 move is {"place": [row, col]} with "take" or "action"')
    space = _pair(move["place"], "place is [row, col]")
    if "take" in move:
        data = move["take"]
        if not (type(data) is dict or isinstance(data, Mapping)) or data.keys() != _TAKE_BODY_KEYS:
            raise MalformedInput('take is {"square": [x, y], "rotation": 0-3}')
        square = _pair(data["square"], "a square is [x, y]")
        rot = data["rotation"]
        if type(rot) is not int or not 0 <= rot <= 3:
            raise BadRotation(f"a rotation is 0 to 3, not {rot!r}"[:60])
        return TakeTile(space, square, rot)
    return PlaceAction(space, *parse_action(move["action"]))


def read_bid(move: Mapping[str, Any]) -> Bid:
    _expect(move, _STAIRS_KEYS, "a staircase space")
    return Bid(_pair(move["stairs"], "stairs is [row, column]"))


def read_settle(move: Mapping[str, Any]) -> Settle:
    _expect(move, _INVEST_KEYS, "an investment tile")
    return Settle(move["invest"])


def read_late(move: Mapping[str, Any]) -> LateInvest:
    _expect(move, _LATE_KEYS, "a late investment tile or null")
    return LateInvest(move["late"])


def read_resolve(move: Mapping[str, Any]) -> ResolveTrack | ResolveAction:
    _expect(move, _RESOLVE_KEYS, "an investment resolved")
    how = move["resolve"]
    return ResolveTrack() if how == "track" else ResolveAction(*parse_action(how))


def read_deliver(move: Mapping[str, Any]) -> Deliver:
    _expect(move, _DELIVER_KEYS, "a delivery plan")
    trips = move["deliver"]
    if not isinstance(trips, list):
        raise MalformedInput("deliver is a list of trips")
    return Deliver(tuple(parse_trip(t) for t in trips))


def read_none(move: Mapping[str, Any]) -> Move:
    raise MalformedInput("no move is made in phase over")
