"""Paris Paris's five bus lines as drawn: a colour, a readable ink on it and a shape twin, so
that colour is never the only cue (offer badges, discard slots, line start badges)."""

from __future__ import annotations

from PIL import Image

from .. import draw as D
from ..style import RGB

# The five bus lines (tile colours), keyed by the engine's colour ids.
COLOURS: dict[str, RGB] = {
    "green": (0, 150, 90),
    "red": (215, 45, 40),
    "blue": (20, 95, 200),
    "purple": (140, 70, 170),
    "yellow": (240, 190, 0),
}

# Readable ink on each line colour (badges with numbers).
INK: dict[str, RGB] = {
    "green": (255, 255, 255),
    "red": (255, 255, 255),
    "blue": (255, 255, 255),
    "purple": (255, 255, 255),
    "yellow": (20, 20, 20),
}

# A shape for each line colour.
SHAPES: dict[str, str] = {
    "green": "circle",
    "red": "square",
    "blue": "triangle",
    "purple": "diamond",
    "yellow": "star",
}


def icon(colour: str, size: int, outline: bool = True) -> Image.Image:
    """The line's shape in its colour (RGBA, ``size`` square)."""
    return D.shape_icon(SHAPES[colour], COLOURS[colour], size, outline)
