"""The numbers of a seat's neighbourhood squares: the same on its buttons, its private picture
and its text grid, so each of them reads them here (not from the presenter, which draws on all three)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.papa_paolo.steps import Drop, From, OnSquare, Put, Square, Step, StepTo, parse

NUMBERED: tuple[type[OnSquare], ...] = (Square, Put, From, StepTo)     # steps on a square of the seat's neighbourhood


def numbered_kinds(steps: Sequence[Step]) -> tuple[type[OnSquare], ...]:
    """The kinds of steps whose squares carry numbers: a drop too where several squares may be
    served (an express delivery that ignores roads), not just the one the trip stands on."""
    return (*NUMBERED, Drop) if sum(isinstance(s, Drop) for s in steps) > 1 else NUMBERED


def square_keys(steps: Sequence[Any]) -> dict[tuple[int, int], int]:
    """The number of each neighbourhood square a legal step names, 1 up, in the steps' order:
    the buttons and the private picture both use these."""
    steps = [s if isinstance(s, Step) else parse(s) for s in steps]
    numbered = numbered_kinds(steps)
    keys: dict[tuple[int, int], int] = {}
    for step in steps:
        if isinstance(step, numbered) and step.square not in keys:
            keys[step.square] = len(keys) + 1
    return keys
