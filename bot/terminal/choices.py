"""Understanding one line the player typed: a numbered choice, a command, or a mistake.

Pure functions, so every kind of input can be tested without a game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from i18n import t

# Command names in English work in every language; each catalog adds its own words
# ("terminal.alias.<command>", comma separated).
COMMANDS: dict[str, tuple[str, ...]] = {
    "board": ("board", "b"),
    "secret": ("secret", "s", "marker", "m"),      # "marker": its name before the games had others
    "rules": ("rules",),
    "stats": ("stats", "scores"),
    "rating": ("rating", "ratings"),
    "help": ("help", "h", "?"),
    "quit": ("quit", "q", "exit"),
    "abandon": ("abandon",),
}


def numbering(keys: Sequence[int | None]) -> list[int]:
    """The number to show for each choice: one that carries a key (the number its game shows
    for it, as on the board) keeps it, every other choice takes the next free number."""
    keys = list(keys)
    if len({k for k in keys if k is not None}) != sum(k is not None for k in keys):
        keys = [None] * len(keys)      # repeated keys: fall back to plain counting
    taken = {k for k in keys if k is not None}
    numbers, next_free = [], max(taken, default=0) + 1
    for key in keys:
        if key is None:
            while next_free in taken:
                next_free += 1
            key = next_free
            taken.add(key)
        numbers.append(key)
    return numbers


def _decoration(ch: str) -> bool:
    """Spaces, symbols (a game's colour emoji) and punctuation around a label's words."""
    return ch.isspace() or unicodedata.category(ch)[0] in "SPZ" or unicodedata.category(ch) in ("Mn", "Cf")


def label_words(label: str, number: int | str | None = None) -> str:
    """The words of a label, for matching what was typed: without its symbols, and without
    ``number`` where the label starts with the number shown for it."""
    words = label.lstrip()
    while words and _decoration(words[0]):
        words = words[1:]
    if number is not None and words.startswith(str(number)):
        rest = words[len(str(number)):]
        if not rest or _decoration(rest[0]):
            words = rest
    while words and _decoration(words[0]):
        words = words[1:]
    return words


@dataclass(frozen=True, slots=True)
class Choice:
    """The player picked choice ``index`` (0-based) of the buttons shown."""

    index: int


@dataclass(frozen=True, slots=True)
class Command:
    name: str


@dataclass(frozen=True, slots=True)
class Invalid:
    """``reason``: "empty", "out_of_range", "no_choices", "ambiguous" or "unknown";
    ``matches``: the choices (0-based) an ambiguous word fits."""

    reason: str
    value: str = ""
    matches: tuple[int, ...] = ()


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


def interpret(text: str, labels: Sequence[str], language: str = "en",
              numbers: Sequence[int | str] | None = None) -> Choice | Command | Invalid:
    """What one typed line means, given the labels of the choices on screen.

    ``numbers`` are the numbers shown next to the labels (default 1, 2, 3, ...).
    """
    raw = text.strip()
    if not raw:
        return Invalid("empty")
    folded = fold(raw)
    number = folded.rstrip(".)")
    if number.isdigit():
        if not labels:
            return Invalid("no_choices", raw)
        shown = list(numbers) if numbers is not None else list(range(1, len(labels) + 1))
        if int(number) in shown:
            return Choice(shown.index(int(number)))
        return Invalid("out_of_range", raw)
    shown_keys = [str(n).casefold() for n in numbers] if numbers is not None else []
    if labels and folded in shown_keys and not folded.isdigit():     # a fixed letter (Undo: u)
        return Choice(shown_keys.index(folded))
    command = command_words(language).get(folded)
    if command is not None:
        return Command(command)
    if labels:
        marks: list[int | str | None] = list(numbers) if numbers is not None else [None] * len(labels)
        names = [fold(label_words(label, number)) for label, number in zip(labels, marks, strict=True)]
        matches = [i for i, name in enumerate(names) if name == folded]
        if not matches:
            matches = [i for i, name in enumerate(names) if name.startswith(folded)]
        if not matches:     # any word of it: "yel" for "Return 1 yellow", "pomp" for "Centre Pompidou"
            matches = [i for i, name in enumerate(names) if any(w.startswith(folded) for w in name.split())]
        if len(matches) == 1:
            return Choice(matches[0])
        if len(matches) > 1:
            return Invalid("ambiguous", raw, tuple(matches))
    return Invalid("unknown", raw)
