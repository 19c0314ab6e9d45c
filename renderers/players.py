"""How players appear in pictures: colour and a one- or two-letter mark."""

from __future__ import annotations

from collections.abc import Sequence

from . import style
from .fonts import drawable


def initials(players: Sequence[str]) -> tuple[str, ...]:
    """A short, distinct mark per player: the first drawable letter, or seat digits on clashes."""
    firsts = []
    for name in players:
        text = drawable(name, empty="")
        letter = next((c for c in text if c.isalnum()), "")
        firsts.append(letter.upper()[:1] if letter else "")
    marks = []
    for seat, first in enumerate(firsts):
        clash = not first or firsts.count(first) > 1
        marks.append(f"{first}{seat + 1}" if clash and first else (str(seat + 1) if clash else first))
    return tuple(marks)


def colour(seat: int) -> style.PlayerColour:
    return style.PLAYER_COLOURS[seat % len(style.PLAYER_COLOURS)]
