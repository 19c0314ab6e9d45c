"""Colours shared by every game's image and text renderers (a game's own colours, such as
Paris Paris's bus lines, live in its package).

Player colours come from the Okabe-Ito palette (Okabe & Ito, 2008), chosen to stay
distinct under protanopia, deuteranopia and tritanopia, for up to six players; they are
never the only cue: every player's pieces also carry their initial (``players.initials``).
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PlayerColour:
    name: str     # catalog key suffix: ``colour_<name>``
    rgb: RGB      # house fill
    ink: RGB      # text drawn on the fill (initials)


# Seat order: seat 0 gets the first colour, and so on.
PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    PlayerColour("orange", (230, 159, 0), (20, 20, 20)),
    PlayerColour("sky", (86, 180, 233), (20, 20, 20)),
    PlayerColour("pink", (204, 121, 167), (20, 20, 20)),
    PlayerColour("black", (0, 0, 0), (255, 255, 255)),
    PlayerColour("vermillion", (213, 94, 0), (20, 20, 20)),
    PlayerColour("blue", (0, 114, 178), (255, 255, 255)),
)

# Map palette.
PAPER: RGB = (246, 241, 230)
PAPER_DARK: RGB = (236, 229, 214)
INK: RGB = (33, 33, 40)
MUTED: RGB = (110, 108, 104)
PANEL: RGB = (255, 253, 248)
PANEL_EDGE: RGB = (214, 206, 190)
HIGHLIGHT: RGB = (255, 246, 200)
WHITE: RGB = (255, 255, 255)
ALERT: RGB = (200, 30, 30)          # what goes wrong: an evicted shop, a penalty
