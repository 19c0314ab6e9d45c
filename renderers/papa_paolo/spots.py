"""Where Papà Paolo's legal steps sit on its pictures (``Presenter.spots``).

On the board ("map"): a grid space to place a marker on, a staircase space, an investment tile on
offer (taken now or late). On the seat's own picture ("seat"): every neighbourhood square a step
names (where a tile goes, a pizzeria to fill, a trip's start, next square or drop) and each rotation
of the tile being turned. Amounts, actions and "done" are no places: the menu offers them.
Positions come from the functions the drawing uses (``board``, ``hoodimage``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.papa_paolo.steps import Invest, Late, OnSquare, Place, Rotate, Stairs, Step, parse

from ..presenter import Spot
from . import board, hoodimage


def board_spots(view, choices: Sequence[Any], layout: str = "landscape") -> list[Spot]:
    k = board.SCALE.get(layout, board.SCALE["landscape"])
    steps = [(choice, _step(choice)) for choice in choices]
    if not any(isinstance(step, Place | Stairs | Invest | Late) for _, step in steps):
        return []
    grid, stairs = board.block_places(view, layout)
    spots = []
    for choice, step in steps:
        if isinstance(step, Place):
            spots.append(Spot(choice, board.space_box(*grid, *step.space, k)))
        elif isinstance(step, Stairs):
            spots.append(Spot(choice, board.stair_box(*stairs, *step.space, k)))
        elif isinstance(step, Invest | Late) and step.tile in view.investment_open:
            spots.append(Spot(choice, board.investment_box(view, *stairs, view.investment_open.index(step.tile), k)))
    return spots


def seat_spots(view, choices: Sequence[Any]) -> list[Spot]:
    spots = []
    for choice in choices:
        step = _step(choice)
        if isinstance(step, OnSquare):
            spots.append(Spot(choice, hoodimage.square_box(view, step.square), "seat"))
        elif isinstance(step, Rotate):
            spots.append(Spot(choice, hoodimage.rotation_box(view, step.rotation), "seat"))
    return spots


def _step(choice: Any) -> Step:
    return choice if isinstance(choice, Step) else parse(choice)
