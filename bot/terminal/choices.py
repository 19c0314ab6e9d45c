"""Understanding one line the player typed: a numbered choice, a command, or a mistake.

Pure functions, so every kind of input can be tested without a game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from renderers.i18n import t

# Command names in English work in every language; each catalog adds its own words
# ("terminal.alias.<command>", comma separated).
COMMANDS: dict[str, tuple[str, ...]] = {
    "board": ("board", "b"),
    "marker": ("marker", "m"),
    "map": ("map",),
    "rules": ("rules",),
    "help": ("help", "h", "?"),
    "quit": ("quit", "q", "exit"),
}


@dataclass(frozen=True, slots=True)
class Choice:
    """The player picked choice ``index`` (0-based) of the buttons shown."""

    index: int


@dataclass(frozen=True, slots=True)
class Command:
    name: str


@dataclass(frozen=True, slots=True)
class Invalid:
    """``reason``: "empty", "out_of_range", "no_choices", "ambiguous" or "unknown"."""

    reason: str
    value: str = ""


def fold(text: str) -> str:
    """Lower case without accents, so "opera" finds "Opéra"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def command_words(language: str) -> dict[str, str]:
    """Every word that names a command in ``language`` -> the command."""
    words: dict[str, str] = {}
    for name, english in COMMANDS.items():
        for word in english:
            words[fold(word)] = name
        local = t(language, f"terminal.alias.{name}")
        if local != f"terminal.alias.{name}":
            for word in local.split(","):
                if word.strip():
                    words.setdefault(fold(word), name)
    return words


def interpret(text: str, labels: Sequence[str], language: str = "en") -> Choice | Command | Invalid:
    """What one typed line means, given the labels of the choices on screen."""
    raw = text.strip()
    if not raw:
        return Invalid("empty")
    folded = fold(raw)
    number = folded.rstrip(".)")
    if number.isdigit():
        if not labels:
            return Invalid("no_choices", raw)
        index = int(number) - 1
        if 0 <= index < len(labels):
            return Choice(index)
        return Invalid("out_of_range", raw)
    command = command_words(language).get(folded)
    if command is not None:
        return Command(command)
    if labels:
        matches = [i for i, label in enumerate(labels) if fold(label) == folded]
        if not matches:
            matches = [i for i, label in enumerate(labels) if fold(label).startswith(folded)]
        if len(matches) == 1:
            return Choice(matches[0])
        if len(matches) > 1:
            return Invalid("ambiguous", raw)
    return Invalid("unknown", raw)
