"""Choices: one step of a decision, a small frozen value that prints as text and parses back.

Each kind of step is a class; ``str(step)`` is its text (stored in databases and records, so it
never changes) and ``parse(text)`` the step back, of the right class:

* a board space, row,col: ``place 1,2`` (the grid), ``stairs 2,1`` (the staircase);
* a neighbourhood square, x,y: ``square 1,-1``, ``put 0,0``, ``from 0,0``, ``step 1,0``, ``drop 1,0``;
* a tile by its id: ``pizzeria P4-1``, ``invest IY3``, ``late IB2``;
* a number: ``rotate 2``, ``pizzas 3``;
* an action chosen, its details next: ``take``, ``sponsor``, ``buy``, ``express``, ``build``, ``nothing``;
* a buy's pizzas per pizzeria, squares in reading order: ``split 0,0=2;1,-1=1``;
* one word: ``end-trip``, ``undo-trip``, ``done``, ``best-plan``, ``decline``, ``track``, ``action``,
  ``best-trip``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeVar

from engine.errors import MalformedInput
from engine.interface import BoardPlace, Label

Pos = tuple[int, int]


S = TypeVar("S", bound="Step")


def as_kind(step: Step, kind: type[S]) -> S:
    """``step`` as the kind of step its phase or mode offers (a menu there lists only those);
    ``TypeError`` for another kind."""
    if not isinstance(step, kind):
        raise TypeError(f"{step} is not a {kind.__name__} step")
    return step


class Step:
    """One step of a decision; ``verb`` is its text's first word. ``label()`` names its button
    (the verb, and its argument as ``arg``); ``place()`` is where it sits on the board, if anywhere."""

    __slots__ = ()
    verb: ClassVar[str]

    def label(self) -> Label:
        return Label(self.verb)

    def place(self) -> BoardPlace | None:
        return None


# --- Board spaces (row, column) ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class OnBoard(Step):
    """A space of the board, (row, column), in one of its areas (each kind says which)."""

    area: ClassVar[str]
    space: Pos

    def __str__(self) -> str:
        return f"{self.verb} {self.space[0]},{self.space[1]}"

    def label(self) -> Label:
        return Label(self.verb, {"arg": self.space})

    def place(self) -> BoardPlace:
        return BoardPlace(self.area, self.space)


@dataclass(frozen=True, slots=True)
class Place(OnBoard):
    """A marker on a grid space (phase 1); the tile or an action comes next."""

    verb: ClassVar[str] = "place"
    area: ClassVar[str] = "grid"


@dataclass(frozen=True, slots=True)
class Stairs(OnBoard):
    """A staircase space bid on (phase 3), (row, column from 1)."""

    verb: ClassVar[str] = "stairs"
    area: ClassVar[str] = "stairs"


# --- Neighbourhood squares (x, y) ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class OnSquare(Step):
    """A square of the seat's neighbourhood, (x, y)."""

    square: Pos

    def __str__(self) -> str:
        return f"{self.verb} {self.square[0]},{self.square[1]}"

    def label(self) -> Label:
        return Label(self.verb, {"arg": self.square})

    def place(self) -> BoardPlace:
        return BoardPlace("neighbourhood", self.square)


@dataclass(frozen=True, slots=True)
class Square(OnSquare):
    """Where the tile taken goes (its rotation next unless one fits), or a pizzeria built."""

    verb: ClassVar[str] = "square"


@dataclass(frozen=True, slots=True)
class Put(OnSquare):
    """One pizza bought put into the pizzeria on this square."""

    verb: ClassVar[str] = "put"


@dataclass(frozen=True, slots=True)
class From(OnSquare):
    """A trip starts at the pizzeria on this square."""

    verb: ClassVar[str] = "from"


@dataclass(frozen=True, slots=True)
class StepTo(OnSquare):
    """A trip goes on to this square."""

    verb: ClassVar[str] = "step"


@dataclass(frozen=True, slots=True)
class Drop(OnSquare):
    """A trip drops a pizza at this square."""

    verb: ClassVar[str] = "drop"


# --- Tiles by id ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class OnTile(Step):
    """A tile named by its id (upper case)."""

    tile: str

    def __str__(self) -> str:
        return f"{self.verb} {self.tile}"

    def label(self) -> Label:
        return Label(self.verb, {"arg": self.tile})


@dataclass(frozen=True, slots=True)
class Pizzeria(OnTile):
    """The pizzeria tile to build."""

    verb: ClassVar[str] = "pizzeria"


@dataclass(frozen=True, slots=True)
class Invest(OnTile):
    """The investment tile taken when settling the staircase."""

    verb: ClassVar[str] = "invest"

    def place(self) -> BoardPlace:
        return BoardPlace("investments", self.tile)


@dataclass(frozen=True, slots=True)
class Late(OnTile):
    """The investment tile bought late, off the staircase."""

    verb: ClassVar[str] = "late"

    def place(self) -> BoardPlace:
        return BoardPlace("investments", self.tile)


# --- Numbers -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Rotate(Step):
    """The rotation (0-3, quarter turns) of the tile taken."""

    verb: ClassVar[str] = "rotate"
    rotation: int

    def __str__(self) -> str:
        return f"rotate {self.rotation}"

    def label(self) -> Label:
        return Label(self.verb, {"arg": self.rotation})

    def place(self) -> BoardPlace:
        return BoardPlace("rotations", self.rotation)


@dataclass(frozen=True, slots=True)
class Pizzas(Step):
    """How many pizzas to buy."""

    verb: ClassVar[str] = "pizzas"
    count: int

    def __str__(self) -> str:
        return f"pizzas {self.count}"

    def label(self) -> Label:
        return Label(self.verb, {"arg": self.count})


# --- A buy's whole distribution ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Split(Step):
    """The pizzas still to put, per pizzeria square: ``parts`` in reading order (y, then x), as
    parsed (a step parsed back equals the one offered)."""

    verb: ClassVar[str] = "split"
    parts: tuple[tuple[Pos, int], ...]

    def __str__(self) -> str:
        return "split " + self.text()

    def text(self) -> str:
        """The parts as the step's text writes them: ``0,0=2;1,-1=1``."""
        return ";".join(f"{x},{y}={k}" for (x, y), k in self.parts)

    def label(self) -> Label:
        return Label(self.verb, {"arg": self.text(), "parts": self.parts})

    @classmethod
    def of(cls, parts) -> Split:
        """The split of ``parts`` ((square, pizzas) pairs) in its one order."""
        return cls(tuple(sorted(parts, key=lambda item: (item[0][1], item[0][0]))))


# --- An action chosen ----------------------------------------------------------------------------

ACTIONS = ("take", "sponsor", "buy", "express", "build", "nothing")


@dataclass(frozen=True, slots=True)
class Act(Step):
    """An action chosen (at a grid space, or for an investment tile), its details one step at a
    time next; "nothing" passes the space's action."""

    action: str

    @property
    def verb(self) -> str:  # type: ignore[override]  # an Act's text begins with its action's name
        return self.action

    def __str__(self) -> str:
        return self.action


# --- One word ------------------------------------------------------------------------------------

class Word(Step):
    """A step with no argument: its text is its verb."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.verb

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__

    def __hash__(self) -> int:
        return hash(self.verb)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class EndTrip(Word):
    """The trip under way ends (an express delivery is then made)."""

    __slots__ = ()
    verb = "end-trip"


class UndoTrip(Word):
    """The trip under way is dropped, or else the last trip planned."""

    __slots__ = ()
    verb = "undo-trip"


class Done(Word):
    """The delivery plan is sent as it stands."""

    __slots__ = ()
    verb = "done"


class BestPlan(Word):
    """The best delivery plan, computed for the seat, is sent."""

    __slots__ = ()
    verb = "best-plan"


class BestTrip(Word):
    """The express delivery's best trip, at once."""

    __slots__ = ()
    verb = "best-trip"


class Decline(Word):
    """No late investment."""

    __slots__ = ()
    verb = "decline"


class Track(Word):
    """The investment tile moves its colour's track."""

    __slots__ = ()
    verb = "track"


class TileAction(Word):
    """The investment tile's action, its details one step at a time next."""

    __slots__ = ()
    verb = "action"


WORDS: dict[str, type[Word]] = {k.verb: k for k in (EndTrip, UndoTrip, Done, BestPlan, BestTrip, Decline, Track,
                                                     TileAction)}
ON_BOARD: dict[str, type[OnBoard]] = {k.verb: k for k in (Place, Stairs)}
ON_SQUARE: dict[str, type[OnSquare]] = {k.verb: k for k in (Square, Put, From, StepTo, Drop)}
ON_TILE: dict[str, type[OnTile]] = {k.verb: k for k in (Pizzeria, Invest, Late)}
NUMBERS: dict[str, type[Rotate | Pizzas]] = {k.verb: k for k in (Rotate, Pizzas)}
VERBS = (*ACTIONS, *WORDS, *ON_BOARD, *ON_SQUARE, *NUMBERS, *ON_TILE, Split.verb)


# --- Parsing ---------------------------------------------------------------------------------------

def _int(text: str, whole: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise MalformedInput(f"not a whole number: {text!r} in {whole!r}", value=whole[:40]) from None


def _split(text: str, whole: str) -> Split:
    parts = []
    for part in text.split(";"):
        square, eq, k = part.partition("=")
        if not eq or square.count(",") != 1:
            raise MalformedInput(f"a split is x,y=pizzas;...: {whole[:40]!r}", value=whole[:40])
        x, y = square.split(",")
        parts.append(((_int(x, whole), _int(y, whole)), _int(k, whole)))
    return Split.of(parts)


def parse(text: str) -> Step:
    """The step ``text`` names; ``MalformedInput`` when it names none."""
    if not isinstance(text, str):
        raise MalformedInput(f"a choice is text, not {type(text).__name__}", value=str(text)[:40])
    whole = " ".join(text.split())
    verb, _, rest = whole.partition(" ")
    verb = verb.lower()
    if not rest:
        if verb in WORDS:
            return WORDS[verb]()
        if verb in ACTIONS:
            return Act(verb)
    elif verb in ON_BOARD or verb in ON_SQUARE:
        if rest.count(",") == 1:
            a, b = rest.split(",")
            pair = (_int(a.strip(), whole), _int(b.strip(), whole))
            return ON_BOARD[verb](pair) if verb in ON_BOARD else ON_SQUARE[verb](pair)
    elif verb in NUMBERS:
        return NUMBERS[verb](_int(rest, whole))
    elif verb == Split.verb:
        return _split(rest.replace(" ", ""), whole)
    elif verb in ON_TILE and " " not in rest:
        return ON_TILE[verb](rest.upper())
    raise MalformedInput(f"not a Papà Paolo choice: {whole[:40]!r}", value=whole[:40])
