"""Where Paris Paris's legal picks sit on the map picture (``Presenter.spots``).

Each pick's place is the engine's (``Choice.place()``). A pick without an eviction ("offer", the
tile's text) sits on its tile's numbered badge beside the station (both badges of twin tiles) and
on its row in the panel's offer list; a pick that evicts ("shop", the station and the evicted
seat) sits on that owner's shops at the full crossing, unless another pick has the same place
(two tiles of one crossing): the menu asks which then. Positions come from the functions the
drawing uses (``layout`` for the map, ``mapimage.offer_list`` and ``offer_rows`` for the panel).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.paris_paris.actions import Pick

from ..presenter import Spot
from . import layout as L
from . import mapimage

WIDTH = L.BASE_WIDTH        # the width the presenter draws its maps at


def map_width(layout: str) -> int:
    """The width of the map the geometry is computed for: a portrait picture crops a wider one."""
    return mapimage.portrait_virtual_width(WIDTH) if layout == "portrait" else WIDTH


def map_spots(view, choices: Sequence[Pick], layout: str = "landscape") -> list[Spot]:
    spots: list[Spot] = []
    width = map_width(layout)
    offer = view.offer
    rows = _panel_rows(view, layout)
    places = [pick.place() for pick in choices]
    for pick, place in zip(choices, places, strict=True):
        if place.area == "offer":
            spots += [Spot(pick, L.pixel_box(L.badge_box(offer, i), width), round=True)
                      for i, tile in enumerate(offer) if str(tile) == place.at]
            spots += [Spot(pick, box) for text, box in rows if text == place.at]
        elif places.count(place) == 1:
            station, evicted = cast(tuple[str, int], place.at)        # (Pick.place: the shop's)
            owners = view.board.get(station, ())
            spots += [Spot(pick, L.pixel_box(L.house_box(station, slot, len(owners)), width))
                      for slot, owner in enumerate(owners) if owner == evicted]
    return spots


def _panel_rows(view, layout: str) -> list[tuple[str, tuple[int, int, int, int]]]:
    """(tile text, pixel box) of each offered tile's row in the panel's offer list."""
    k, x, w, top = mapimage.offer_list(view, WIDTH, layout)
    return [(str(tile), (round(x * k), round(y * k), round((x + w) * k), round((y + mapimage.OFFER_DISC) * k)))
            for _slot, tile, y in mapimage.offer_rows(view, top) if tile is not None]
