"""Where Papà Paolo's legal steps sit on its pictures (``Presenter.spots``).

Each step's place is the engine's (``Choice.place()``). On the board ("map"): a grid space to place
a marker on ("grid"), a staircase space ("stairs"), an investment tile on offer, taken now or late
("investments"). On the seat's own picture ("seat"): every neighbourhood square a step names
("neighbourhood": where a tile goes, a pizzeria to fill, a trip's start, next square or drop) and
each rotation of the tile being turned ("rotations"). Amounts, actions and "done" are no places:
the menu offers them. Positions come from the functions the drawing uses (``board``, ``hoodimage``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine.interface import BoardPlace
from engine.papa_paolo.steps import Step, parse

from ..presenter import Spot
from . import board, hoodimage

BOARD_AREAS = frozenset({"grid", "stairs", "investments"})


def board_spots(view, choices: Sequence[Any], layout: str = "landscape") -> list[Spot]:
    k = board.SCALE.get(layout, board.SCALE["landscape"])
    placed = [(choice, place) for choice, place in _places(choices) if place.area in BOARD_AREAS]
    if not placed:
        return []
    grid, stairs = board.block_places(view, layout)
    spots = []
    for choice, place in placed:
        if place.area == "grid":
            spots.append(Spot(choice, board.space_box(*grid, *_cell(place), k)))
        elif place.area == "stairs":
            spots.append(Spot(choice, board.stair_box(*stairs, *_cell(place), k)))
        elif place.at in view.investment_open:
            spots.append(Spot(choice, board.investment_box(view, *stairs, view.investment_open.index(place.at), k)))
    return spots


def seat_spots(view, choices: Sequence[Any]) -> list[Spot]:
    spots = []
    for choice, place in _places(choices):
        if place.area == "neighbourhood":
            spots.append(Spot(choice, hoodimage.square_box(view, _cell(place)), "seat"))
        elif place.area == "rotations":
            spots.append(Spot(choice, hoodimage.rotation_box(view, cast(int, place.at)), "seat"))
    return spots


def _cell(place: BoardPlace) -> tuple[int, int]:
    """A place's (row, column) on the board, or (x, y) square in a neighbourhood (steps.py)."""
    return cast(tuple[int, int], place.at)


def _places(choices: Sequence[Any]) -> list[tuple[Any, BoardPlace]]:
    """Each choice that is a place, with its place (a choice given as text is read first)."""
    out = []
    for choice in choices:
        place = (choice if isinstance(choice, Step) else parse(choice)).place()
        if place is not None:
            out.append((choice, place))
    return out
