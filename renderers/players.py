"""How players appear in pictures: colour and a one- or two-letter mark."""

from __future__ import annotations

from collections.abc import Sequence

from . import style
from .fonts import drawable


def initials(players: Sequence[str]) -> tuple[str, ...]:
    """A short, distinct mark per player: the first drawable letter; where two players share it,
    a second letter that tells them apart ("Ann", "Ada": "An", "Ad"; "Bot Ada", "Bot Blaise": "BA",
    "BB"), and only when none does, the seat number after the letter."""
    letters = [[c for c in drawable(name, empty="") if c.isalnum()] for name in players]
    words = [[w[0] for w in (["".join(c for c in word if c.isalnum()) for word in drawable(name, empty="").split()])
              if w] for name in players]
    firsts = [ls[0].upper() if ls else "" for ls in letters]
    marks = list(firsts)
    for first in {f for f in firsts if f and firsts.count(f) > 1}:
        seats = [s for s, f in enumerate(firsts) if f == first]
        for second in (lambda s: "".join(words[s][:2]).upper() if len(words[s]) > 1 else "",
                       lambda s: firsts[s] + letters[s][1].lower() if len(letters[s]) > 1 else ""):
            tried = [second(s) for s in seats]
            if all(len(m) == 2 for m in tried) and len(set(tried)) == len(seats) \
                    and not set(tried) & set(firsts):
                for s, m in zip(seats, tried, strict=True):
                    marks[s] = m
                break
        else:
            for s in seats:
                marks[s] = f"{first}{s + 1}"
    return tuple(m or str(seat + 1) for seat, m in enumerate(marks))


def colour(seat: int) -> style.PlayerColour:
    return style.PLAYER_COLOURS[seat % len(style.PLAYER_COLOURS)]
