"""The colours of Paris Paris's map of the city (the shared ones are in renderers/style.py)."""

from __future__ import annotations

from ..style import RGB

BLOCK: RGB = (238, 232, 219)       # the city's blocks
PARK: RGB = (214, 230, 200)
WATER: RGB = (170, 206, 232)       # the Seine
WATER_EDGE: RGB = (140, 185, 220)
