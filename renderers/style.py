"""Colours and shapes shared by the image and text renderers.

Player colours come from the Okabe-Ito palette (Okabe & Ito, 2008), chosen to stay
distinct under protanopia, deuteranopia and tritanopia; they are never the only cue:
every shop also carries its owner's initial, and every line colour has a shape twin
(used on offer badges, discard slots and line start badges) and an emoji twin.
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
)

# The five bus lines (tile colours), keyed by the engine's colour ids.
LINE_COLOURS: dict[str, RGB] = {
    "green": (0, 150, 90),
    "red": (215, 45, 40),
    "blue": (20, 95, 200),
    "purple": (140, 70, 170),
    "yellow": (240, 190, 0),
}

# Readable ink on each line colour (badges with numbers).
LINE_INK: dict[str, RGB] = {
    "green": (255, 255, 255),
    "red": (255, 255, 255),
    "blue": (255, 255, 255),
    "purple": (255, 255, 255),
    "yellow": (20, 20, 20),
}

# A shape for each line colour so that colour is never the only cue.
LINE_SHAPES: dict[str, str] = {
    "green": "circle",
    "red": "square",
    "blue": "triangle",
    "purple": "diamond",
    "yellow": "star",
}

# Map palette.
PAPER: RGB = (246, 241, 230)
PAPER_DARK: RGB = (236, 229, 214)
BLOCK: RGB = (238, 232, 219)
PARK: RGB = (214, 230, 200)
WATER: RGB = (170, 206, 232)
WATER_EDGE: RGB = (140, 185, 220)
INK: RGB = (33, 33, 40)
MUTED: RGB = (110, 108, 104)
PANEL: RGB = (255, 253, 248)
PANEL_EDGE: RGB = (214, 206, 190)
HIGHLIGHT: RGB = (255, 246, 200)
WHITE: RGB = (255, 255, 255)
EVICT: RGB = (200, 30, 30)
