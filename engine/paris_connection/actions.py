"""Choices: small frozen values that print as text and parse back (``parse``).

A turn is either a trade (one choice) or a build, which is a step decision: ``Build`` picks
the storage board, each ``Place`` puts the next locomotive, ``Undo`` takes the last one back
(or, with none placed, cancels the build), ``Done`` ends it.

Text forms: ``build:red``, ``place:F7``, ``undo``, ``done``, ``trade:red:blue:2`` (give one
red back, take two blue).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import MalformedInput
from engine.interface import BoardPlace, Label

from .board import COMPANIES, HEXES


def _colour(text: str, whole: str) -> str:
    if text not in COMPANIES:
        raise MalformedInput(f"no company {text!r} in {whole!r}; the companies are {', '.join(COMPANIES)}",
                             value=whole)
    return text


@dataclass(frozen=True, slots=True)
class Build:
    """Start a build from the ``colour`` storage board."""

    colour: str

    def __str__(self) -> str:
        return f"build:{self.colour}"

    def label(self) -> Label:
        return Label("build", {"colour": self.colour})

    def place(self) -> BoardPlace:
        return BoardPlace("storage", self.colour)          # the company's storage board


@dataclass(frozen=True, slots=True)
class Place:
    """Put the next locomotive of the build under way on hex ``hex``."""

    hex: str

    def __str__(self) -> str:
        return f"place:{self.hex}"

    def label(self) -> Label:
        return Label("place", {"hex": self.hex})

    def place(self) -> BoardPlace:
        return BoardPlace("hexes", self.hex)


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last locomotive placed in this build (with none placed: cancel the build)."""

    def __str__(self) -> str:
        return "undo"

    def label(self) -> Label:
        return Label("undo")

    def place(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Done:
    """End the build under way: its locomotives are committed."""

    def __str__(self) -> str:
        return "done"

    def label(self) -> Label:
        return Label("done")

    def place(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Trade:
    """Put one ``give`` locomotive back on its storage board and take ``count`` (1 or 2) ``take``."""

    give: str
    take: str
    count: int

    def __str__(self) -> str:
        return f"trade:{self.give}:{self.take}:{self.count}"

    def label(self) -> Label:
        return Label("trade", {"give": self.give, "take": self.take, "count": self.count})

    def place(self) -> None:
        return None


Choice = Build | Place | Undo | Done | Trade

UNDO = Undo()
DONE = Done()


def parse(text: str) -> Choice:
    """The choice ``text`` names; ``MalformedInput`` when it names none."""
    if not isinstance(text, str):
        raise MalformedInput(f"a choice is text, not {type(text).__name__}", value=str(text)[:40])
    whole = text.strip().lower()
    word, _, rest = whole.partition(":")
    parts = rest.split(":") if rest else []
    if word in ("undo", "done") and not parts:
        return UNDO if word == "undo" else DONE
    if word == "build" and len(parts) == 1:
        return Build(_colour(parts[0], whole))
    if word == "place" and len(parts) == 1:
        hex_id = parts[0].upper()
        if hex_id not in HEXES:
            raise MalformedInput(f"no hex {parts[0]!r} on the map", value=whole)
        return Place(hex_id)
    if word == "trade" and len(parts) == 3:
        if parts[2] not in ("1", "2"):
            raise MalformedInput(f"a trade takes 1 or 2 locomotives, not {parts[2]!r}", value=whole)
        return Trade(_colour(parts[0], whole), _colour(parts[1], whole), int(parts[2]))
    raise MalformedInput(
        f"not a choice: {text.strip()[:40]!r} (build:COLOUR, place:HEX, undo, done, trade:GIVE:TAKE:1|2)",
        value=text[:40])
