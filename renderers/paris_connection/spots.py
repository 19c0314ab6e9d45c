"""Where Paris Connection's legal choices sit on the map picture (``Presenter.spots``).

Each choice's place is the engine's (``choice.place()``): a locomotive's next hex ("hexes") sits on
that hex; a build's storage board ("storage") on its company's row in the panel. Trades, undo and
done are no places: the menu offers them. Positions
come from the functions the drawing uses (``mapimage.hex_box``, ``mapimage.company_rows``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..presenter import Spot
from . import mapimage

WIDTH = 1280        # the width the presenter draws its maps at


def map_spots(choices: Sequence[Any], layout: str = "landscape") -> list[Spot]:
    layout = "portrait" if layout == "portrait" else "landscape"
    rows = mapimage.company_rows(WIDTH, layout)
    spots = []
    for choice in choices:
        place = choice.place()
        if place is None:
            continue
        if place.area == "hexes":
            spots.append(Spot(choice, mapimage.hex_box(place.at, WIDTH, layout),
                              outline=mapimage.hex_outline(place.at, WIDTH, layout)))
        elif place.area == "storage":
            spots.append(Spot(choice, rows[place.at]))
    return spots
