"""The numbers of a seat's neighbourhood squares: the same on its buttons, its private picture
and its text grid, so each of them reads them here (not from the presenter, which draws on all three)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.papa_paolo.steps import Step, parse

NUMBERED = ("square", "put", "from", "step")     # steps on a square of the seat's neighbourhood


def numbered_verbs(steps: Sequence[Step]) -> tuple[str, ...]:
    """The verbs whose squares carry numbers: a drop too where several squares may be served
    (an express delivery that ignores roads), not just the one the trip stands on."""
    return NUMBERED + ("drop",) if sum(s.verb == "drop" for s in steps) > 1 else NUMBERED


def square_keys(steps: Sequence[Any]) -> dict[tuple[int, int], int]:
    """The number of each neighbourhood square a legal step names, 1 up, in the steps' order:
    the buttons and the private picture both use these."""
    steps = [s if isinstance(s, Step) else parse(s) for s in steps]
    numbered = numbered_verbs(steps)
    keys: dict[tuple[int, int], int] = {}
    for step in steps:
        if step.verb in numbered and isinstance(step.arg, tuple) and step.arg not in keys:
            keys[step.arg] = len(keys) + 1
    return keys
