"""Choices: one step of a decision, a small frozen value that prints as text and parses back.

Text forms: ``place 1,2`` (a grid space, row,col), ``take``, ``sponsor``, ``buy``, ``express``,
``build``, ``nothing``, ``square 1,-1`` (a neighbourhood square, x,y), ``rotate 2``,
``pizzas 3``, ``put 0,0``, ``pizzeria P4-1``, ``from 0,0``, ``step 1,0``, ``drop 1,0``,
``end-trip``, ``undo-trip``, ``done``, ``best-plan``, ``stairs 2,1`` (row,column), ``invest IY3``,
``late IB2``, ``decline``, ``track``, ``action``, ``best-trip``, ``split 0,0=2;1,-1=1`` (a buy's
pizzas per pizzeria, squares in reading order).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import MalformedInput
from engine.interface import BoardPlace, Label

BARE = ("take", "sponsor", "buy", "express", "build", "nothing", "end-trip", "undo-trip", "done", "best-plan",
        "decline", "track", "action", "best-trip")
PAIRS = ("place", "square", "put", "from", "step", "drop", "stairs")
NUMBERS = ("rotate", "pizzas")
IDS = ("pizzeria", "invest", "late")
# Where a step's argument is a place on the board: the part of the board it names.
AREAS = {"place": "grid", "stairs": "stairs", "invest": "investments", "late": "investments",
         "square": "neighbourhood", "put": "neighbourhood", "from": "neighbourhood", "step": "neighbourhood",
         "drop": "neighbourhood", "rotate": "rotations"}


@dataclass(frozen=True, slots=True)
class Step:
    verb: str
    arg: tuple[int, int] | int | str | None = None

    def __str__(self) -> str:
        if self.arg is None:
            return self.verb
        if isinstance(self.arg, tuple):
            return f"{self.verb} {self.arg[0]},{self.arg[1]}"
        return f"{self.verb} {self.arg}"

    def label(self) -> Label:
        return Label(self.verb, {} if self.arg is None else {"arg": self.arg})

    def place(self) -> BoardPlace | None:
        """A grid space, a staircase space, an investment tile on offer, a square of the seat's
        neighbourhood, or one turn of the tile being rotated; None for the other verbs."""
        area = AREAS.get(self.verb)
        return None if area is None or self.arg is None else BoardPlace(area, self.arg)


def _int(text: str, whole: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise MalformedInput(f"not a whole number: {text!r} in {whole!r}", value=whole[:40]) from None


def _split(text: str, whole: str) -> str:
    """A distribution in its one written form (so a step parsed back equals the one offered)."""
    parts = []
    for part in text.split(";"):
        square, eq, k = part.partition("=")
        if not eq or square.count(",") != 1:
            raise MalformedInput(f"a split is x,y=pizzas;...: {whole[:40]!r}", value=whole[:40])
        x, y = square.split(",")
        parts.append(((_int(x, whole), _int(y, whole)), _int(k, whole)))
    parts.sort(key=lambda item: (item[0][1], item[0][0]))
    return ";".join(f"{x},{y}={k}" for (x, y), k in parts)


def parse(text: str) -> Step:
    """The step ``text`` names; ``MalformedInput`` when it names none."""
    if not isinstance(text, str):
        raise MalformedInput(f"a choice is text, not {type(text).__name__}", value=str(text)[:40])
    whole = " ".join(text.split())
    verb, _, rest = whole.partition(" ")
    verb = verb.lower()
    if verb in BARE and not rest:
        return Step(verb)
    if verb in PAIRS and rest.count(",") == 1:
        a, b = rest.split(",")
        return Step(verb, (_int(a.strip(), whole), _int(b.strip(), whole)))
    if verb in NUMBERS and rest:
        return Step(verb, _int(rest, whole))
    if verb == "split" and rest:
        return Step(verb, _split(rest.replace(" ", ""), whole))
    if verb in IDS and rest and " " not in rest:
        return Step(verb, rest.upper())
    raise MalformedInput(f"not a Papà Paolo choice: {whole[:40]!r}", value=whole[:40])
