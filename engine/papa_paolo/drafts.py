"""Decisions under way (``Game.drafts``): frozen values a step replaces, never changes.

An action's (phase 1, or an investment tile's in phase 4) goes through modes, each asking
for one kind of step; a delivery plan (phase 5) is the trips planned and the one under way.
``as_dict`` is what a view shows of them (the keys as set so far, in the order they were set).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from .hood import Pos

# What an action's draft asks for next: an action (after a grid space or for a tile), the tile's
# square then rotation, how many pizzas then where to put them, which pizzeria then where,
# an express trip's pizzeria then its steps.
Mode = Literal["choose", "square", "rotate", "pizzas", "put", "which", "where", "from", "trip"]


@dataclass(frozen=True, slots=True)
class TripDraft:
    """A trip being drawn: its pizzeria, the squares gone through, the squares dropped at."""

    start: Pos
    path: tuple[Pos, ...] = ()
    drops: tuple[Pos, ...] = ()

    def stepped(self, square: Pos) -> TripDraft:
        return TripDraft(self.start, (*self.path, square), self.drops)

    def dropped(self, square: Pos) -> TripDraft:
        return TripDraft(self.start, self.path, (*self.drops, square))

    @property
    def whole(self) -> tuple[Pos, tuple[Pos, ...], tuple[Pos, ...]]:
        """As trips.py takes a trip: (start, path, drops)."""
        return self.start, self.path, self.drops

    def as_dict(self) -> dict[str, Any]:
        return {"from": self.start, "path": list(self.path), "drops": list(self.drops)}


T = TypeVar("T")


def chosen(value: T | None, what: str) -> T:
    """A part of a draft that its mode has chosen already (``ValueError``, a bug, if not)."""
    if value is None:
        raise ValueError(f"the draft has no {what} yet")
    return value


@dataclass(frozen=True, slots=True)
class ActionDraft:
    """An action under way for ``seat``: at grid ``space`` (None: an investment tile's action)."""

    seat: int
    space: Pos | None
    mode: Mode = "choose"
    action: str | None = None               # once chosen: take, sponsor, buy, express, build, nothing
    square: Pos | None = None               # take: where the tile goes
    n: int | None = None                    # buy: the pizzas bought ...
    to: tuple[tuple[Pos, int], ...] | None = None   # ... put so far per pizzeria, in the order first put
    left: int | None = None                 # ... and how many are still to put
    pizzeria: str | None = None             # build: the pizzeria tile
    trip: TripDraft | None = None           # express: the trip under way

    def but(self, **changes: Any) -> ActionDraft:
        """This draft with ``changes``: ``dataclasses.replace`` without its generic work (a draft
        changes at almost every step)."""
        get = changes.get
        return ActionDraft(self.seat, self.space, get("mode", self.mode), get("action", self.action),
                           get("square", self.square), get("n", self.n), get("to", self.to),
                           get("left", self.left), get("pizzeria", self.pizzeria), get("trip", self.trip))

    def put(self, square: Pos, k: int) -> ActionDraft:
        """``k`` more pizzas put into the pizzeria on ``square``."""
        to = dict(self.to or ())
        to[square] = to.get(square, 0) + k
        assert self.left is not None, "pizzas are put while some are left to put (mode \"put\")"
        return self.but(to=tuple(to.items()), left=self.left - k)

    def room_left(self, square: Pos, room: int) -> int:
        """What a pizzeria with ``room`` can still take after the pizzas put there so far."""
        return room - dict(self.to or ()).get(square, 0)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "space": self.space, "mode": self.mode}
        if self.action is not None:
            out["action"] = self.action
        if self.square is not None:
            out["square"] = self.square
        if self.n is not None:
            out["n"], out["to"], out["left"] = self.n, dict(self.to or ()), self.left
        if self.pizzeria is not None:
            out["pizzeria"] = self.pizzeria
        if self.trip is not None:
            out["trip"] = self.trip.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class PlanDraft:
    """A delivery plan under way: the trips planned, and the one being drawn (if any)."""

    trips: tuple[TripDraft, ...] = ()
    cur: TripDraft | None = None

    def taken(self) -> tuple[dict[Pos, int], dict[Pos, int], int]:
        """What the planned trips take: pizzas per pizzeria, pizzas per city square, in all."""
        stock: dict[Pos, int] = {}
        open_: dict[Pos, int] = {}
        for t in self.trips:
            stock[t.start] = stock.get(t.start, 0) + len(t.drops)
            for q in t.drops:
                open_[q] = open_.get(q, 0) + 1
        return stock, open_, sum(len(t.drops) for t in self.trips)

    def as_dict(self) -> dict[str, Any]:
        return {"trips": [t.as_dict() for t in self.trips], "cur": None if self.cur is None else self.cur.as_dict()}


NO_PLAN = PlanDraft()
