"""Where Paris Paris's legal picks sit on the map picture (``Presenter.spots``).

A pick without an eviction sits on its tile's numbered badge beside the station (both badges of
twin tiles) and on its row in the panel's offer list; a pick that evicts sits on the shop it
evicts at the full crossing (every shop of that owner there). Positions come from the functions the
drawing uses (``layout`` for the map, ``mapimage.offer_list`` and ``offer_rows`` for the panel).
"""

from __future__ import annotations

from collections.abc import Sequence

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
    evicting: dict[str, set[int]] = {}      # station -> the tiles there whose picks evict
    for pick in choices:
        if pick.evict is not None:
            evicting.setdefault(pick.tile.station, set()).add(pick.tile.code)
    for pick in choices:
        if pick.evict is None:
            spots += [Spot(pick, L.pixel_box(L.badge_box(offer, i), width), round=True)
                      for i, tile in enumerate(offer) if tile.code == pick.tile.code]
            spots += [Spot(pick, box) for code, box in rows if code == pick.tile.code]
        elif len(evicting[pick.tile.station]) == 1:
            # Two tiles of one full crossing would share its shops: the menu asks which then.
            owners = view.board.get(pick.tile.station, ())
            spots += [Spot(pick, L.pixel_box(L.house_box(pick.tile.station, slot, len(owners)), width))
                      for slot, owner in enumerate(owners) if owner == pick.evict]
    return spots


def _panel_rows(view, layout: str) -> list[tuple[int, tuple[int, int, int, int]]]:
    """(tile code, pixel box) of each offered tile's row in the panel's offer list."""
    k, x, w, top = mapimage.offer_list(view, WIDTH, layout)
    return [(tile.code, (round(x * k), round(y * k), round((x + w) * k), round((y + mapimage.OFFER_DISC) * k)))
            for _slot, tile, y in mapimage.offer_rows(view, top) if tile is not None]
