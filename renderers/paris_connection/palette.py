"""Paris Connection's colours and token shapes, shared by the map and the final picture.

Six company colours cannot all stay apart for colour-blind eyes (red/brown and blue/purple
merge under deuteranopia), so every company also has its own shape: a locomotive token is
the shape filled with the colour, with a white rim and a dark outline so it stands out on
any hex. The panel's legend pairs each shape with the colour's word.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from ..draw import SUPER, shape_points

RGB = tuple[int, int, int]

COMPANY_RGB: dict[str, RGB] = {
    "red": (214, 39, 40),
    "blue": (31, 104, 210),
    "black": (25, 25, 30),
    "brown": (140, 86, 45),
    "yellow": (245, 200, 20),
    "purple": (150, 60, 190),
}
COMPANY_SHAPE: dict[str, str] = {
    "red": "square", "blue": "triangle", "black": "circle", "brown": "diamond", "yellow": "star",
    "purple": "hexagon",
}

SEA: RGB = (200, 222, 238)
COAST: RGB = (70, 110, 150)          # France's coast and borders, over the hexes
COAST_LAND: RGB = (226, 232, 208)    # the land outside the hexes, so the country's shape shows
NAME_TAG: RGB = (255, 255, 255)      # under a city's name
LAND: RGB = (244, 238, 222)
HEX_EDGE: RGB = (196, 186, 164)
START: RGB = (214, 208, 196)
TOWER: RGB = (120, 116, 110)
BARRIER: RGB = (220, 30, 30)
# City fills by value 1..4: darker is worth more, and the value is written on the hex too.
CITY_FILL: dict[int, RGB] = {1: (255, 236, 190), 2: (250, 205, 140), 3: (240, 165, 95), 4: (225, 120, 70)}
DRAFT: RGB = (0, 200, 120)        # the build under way: a thick green rim
RECENT: RGB = (255, 140, 0)       # what just happened: an orange rim
LEGAL: RGB = (0, 150, 90)


def _points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if shape == "hexagon":
        return [(cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i))) for i in range(6)]
    return shape_points(shape, cx, cy, r)


@lru_cache(maxsize=64)
def token(colour: str, size: int) -> Image.Image:
    """A locomotive of ``colour``: its shape, filled, rimmed white and outlined dark (RGBA, ``size`` square)."""
    big = size * SUPER
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c, r = big / 2, big / 2 - SUPER
    shape = COMPANY_SHAPE[colour]
    for radius, fill in ((r, (20, 20, 20, 255)), (r - 1.2 * SUPER, (255, 255, 255, 255)),
                         (r - 2.4 * SUPER, COMPANY_RGB[colour] + (255,))):
        if shape == "circle":
            d.ellipse((c - radius * 0.85, c - radius * 0.85, c + radius * 0.85, c + radius * 0.85), fill=fill)
        else:
            d.polygon(_points(shape, c, c, radius), fill=fill)
    return im.resize((size, size), Image.Resampling.LANCZOS)
