"""The shared board after a round, from the public view only: the city grid (tiles with roads,
houses and colour letters, markers, row and column actions and coins), the staircase (costs,
markers, the delivery tile of each column), the investment tiles on offer, the players in turn
order (money or "hidden", tracks, pizzas, houses served) and every neighbourhood side by side.

Blocks flow left to right and wrap, so the same code draws a landscape picture (Discord, the
terminal) and a portrait one (Telegram, read on phones).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.papa_paolo import components as C

from .. import draw, style
from ..i18n import t
from ..players import initials
from . import pieces
from . import text as words

GAP = 24
WIDTHS = {"landscape": 1280, "portrait": 900}
GRID_CELL = 104
STAIR_CELL = (92, 44)
HOOD_CELL = 52

Block = tuple[int, int, Callable[[ImageDraw.ImageDraw, int, int], None]]


def render_board(view, *, events: Sequence[Any] = (), language: str = "en", layout: str = "landscape") -> bytes:
    width = WIDTHS.get(layout, WIDTHS["landscape"])
    marks = initials(view.players)
    blocks = [_grid_block(view, marks, language), _stairs_block(view, marks, language),
              _players_block(view, marks, language), *_hood_blocks(view, marks, language, trips_of(events))]
    title = words.status_line(view, language)
    closed = [e for e in events if e.kind == "phase_ended"]
    if closed and not view.finished:     # drawn as the next phase begins: say which one it closes
        title = t(language, "papa.stretch_over." + closed[-1].phase, round=closed[-1].round, of=C.ROUNDS)
    return pieces.png(flow(blocks, width, title))


def flow(blocks: list[Block], width: int, title: str) -> Image.Image:
    """Place blocks left to right, wrapping; the picture is as tall as they need."""
    places, x, y, row_h = [], GAP, 60, 0
    for w, h, fn in blocks:
        if x > GAP and x + w > width - GAP:
            x, y, row_h = GAP, y + row_h + GAP, 0
        places.append((x, y, fn))
        x, row_h = x + w + GAP, max(row_h, h)
    img = Image.new("RGB", (width, y + row_h + GAP), style.PAPER)
    d = ImageDraw.Draw(img)
    draw.text(d, (GAP, 16), title, 28, bold=True, max_width=width - 2 * GAP)
    for x, y, fn in places:
        fn(d, x, y)
    return img


def _grid_block(view, marks, language: str) -> Block:
    rows, cols = view.grid_size
    head, coin = 70, 46
    w, h = head + cols * GRID_CELL + coin, 30 + head + rows * GRID_CELL + coin

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.grid"), 20, bold=True)
        top, left = y + 30 + head, x + head
        for c in range(cols):
            acts = C.BOARDS[view.num_players].col_actions[c]
            cx = left + c * GRID_CELL + GRID_CELL / 2
            draw.text(d, (cx, top - head + 4), str(c + 1), 20, bold=True, anchor="ma")
            for i, a in enumerate(acts):
                draw.text(d, (cx, top - head + 30 + i * 18), t(language, "papa.img.act." + a), 14, anchor="ma",
                          max_width=GRID_CELL - 6)
            _coin(d, cx, top + rows * GRID_CELL + coin / 2, view.coins[rows + c])
        for r in range(rows):
            acts = C.BOARDS[view.num_players].row_actions[r]
            cy = top + r * GRID_CELL + GRID_CELL / 2
            draw.text(d, (x + 4, cy - 28), "ABCDEFGH"[r], 20, bold=True)
            for i, a in enumerate(acts):
                draw.text(d, (x + 4, cy - 4 + i * 18), t(language, "papa.img.act." + a), 14, max_width=head - 8)
            _coin(d, left + cols * GRID_CELL + coin / 2, cy, view.coins[r])
            for c in range(cols):
                _space(d, view, marks, r, c, left + c * GRID_CELL, top + r * GRID_CELL)

    return w, h, paint


def _space(d: ImageDraw.ImageDraw, view, marks, r: int, c: int, x: int, y: int) -> None:
    tile = view.grid[r * view.grid_size[1] + c]
    size = GRID_CELL - 8
    if tile is None:
        d.rectangle((x + 4, y + 4, x + 4 + size, y + 4 + size), fill=style.PAPER_DARK, outline=style.PANEL_EDGE)
    else:
        info = C.CITY_TILES[tile]
        pieces.city_square(d, x + 4, y + 4, size, info.colour, sorted(info.roads), info.houses, name=tile)
    draw.text(d, (x + 8, y + size - 14), words.space_name((r, c)), 13, fill=style.MUTED)
    seat = view.markers.get((r, c))
    if seat is not None:
        pieces.marker(d, x + GRID_CELL / 2, y + GRID_CELL / 2, 20, seat, marks[seat])


def _coin(d: ImageDraw.ImageDraw, cx: float, cy: float, value: int | None) -> None:
    r = 17
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 196, 90), outline=style.INK, width=2)
    draw.text(d, (cx, cy), "?" if value is None else str(value), 17, bold=True, anchor="mm")


def _stairs_block(view, marks, language: str) -> Block:
    cols, rows = view.stair_columns, C.STAIR_ROWS
    cw, ch = STAIR_CELL
    offer = len(view.investment_open)
    w, h = 40 + cols * cw, 30 + 50 + rows * ch + 34 + 26 * max(1, offer)

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.stairs"), 20, bold=True)
        top = y + 30
        for c in range(1, cols + 1):
            cx = x + 40 + (c - 1) * cw
            tile = view.delivery_tiles[c - 1] if c - 1 < len(view.delivery_tiles) else None
            if tile:
                info = C.DELIVERY_TILES[tile]
                draw.text(d, (cx + cw / 2, top), f"{c}: {tile}", 16, bold=True, anchor="ma")
                draw.text(d, (cx + cw / 2, top + 20), t(language, "papa.img.delivery", pizzas=info.max_pizzas,
                                                        distance=info.max_distance), 13, anchor="ma",
                          max_width=cw - 4)
            for r in range(rows):
                cy = top + 50 + (rows - 1 - r) * ch
                d.rectangle((cx + 2, cy + 2, cx + cw - 2, cy + ch - 2), fill=style.PANEL, outline=style.PANEL_EDGE)
                draw.text(d, (cx + 8, cy + ch / 2), f"{C.stair_cost(r, c)} L", 14, fill=style.MUTED, anchor="lm")
        for r in range(rows):
            draw.text(d, (x + 4, top + 50 + (rows - 1 - r) * ch + ch / 2), str(r + 1), 16, bold=True, anchor="lm")
        for seat, (r, c) in view.staircase.items():
            cx = x + 40 + (c - 1) * cw + cw - 22
            cy = top + 50 + (rows - 1 - r) * ch + ch / 2
            pieces.marker(d, cx, cy, 16, seat, marks[seat])
        iy = top + 50 + rows * ch + 8
        draw.text(d, (x, iy), t(language, "papa.img.investments"), 18, bold=True)
        for i, tile in enumerate(view.investment_open):
            info = C.INVESTMENT_TILES[tile]
            d.rectangle((x, iy + 30 + i * 26, x + 18, iy + 48 + i * 26), fill=pieces.TILE_RGB[info.colour],
                        outline=style.INK)
            draw.text(d, (x + 9, iy + 39 + i * 26), pieces.LETTER[info.colour], 13, bold=True, anchor="mm")
            draw.text(d, (x + 26, iy + 30 + i * 26), t(language, "papa.img.investment", tile=tile,
                                                       action=words.action_word(info.action, language),
                                                       bonus=info.bonus), 15, max_width=w - 30)

    return w, h, paint


def _players_block(view, marks, language: str) -> Block:
    w, line = 420, 84
    h = 30 + line * view.num_players

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.order"), 20, bold=True)
        for i, seat in enumerate(view.order):
            top = y + 30 + i * line
            d.rectangle((x, top, x + w, top + line - 6), fill=style.PANEL, outline=style.PANEL_EDGE)
            pieces.marker(d, x + 24, top + 22, 16, seat, marks[seat])
            draw.text(d, (x + 48, top + 10), f"{i + 1}. {view.players[seat]}", 18, bold=True, max_width=200)
            draw.text(d, (x + w - 10, top + 10), words.money(view, seat, language), 18, bold=True, anchor="ra")
            pieces.tracks_row(d, x + 10, top + 46, view.tracks[seat], 20)
            hood = view.neighbourhoods[seat]
            stock = sum(q.pizzas for q in hood)
            served = sum(q.served for q in hood)
            stock_text = t(language, "papa.img.stock", pizzas=stock, served=served)
            if view.delivery_held[seat]:
                stock_text += f" · {view.delivery_held[seat]}"
            draw.text(d, (x + w - 10, top + 48), stock_text, 15, anchor="ra", max_width=170)

    return w, h, paint


def trips_of(events: Sequence[Any]) -> dict[int, list[dict]]:
    """Each seat's delivery trips of the round (revealed together), to draw on its neighbourhood."""
    trips: dict[int, list[dict]] = {}
    for e in events:
        if e.kind == "deliveries_made":
            trips.setdefault(e.seat, []).extend(e.trips)
    return trips


def _hood_blocks(view, marks, language: str, trips: dict[int, list[dict]] | None = None) -> list[Block]:
    trips = trips or {}
    out = []
    for seat in view.order:
        squares = view.neighbourhoods[seat]
        hw, hh = pieces.hood_size(squares, HOOD_CELL)
        w, h = max(hw, 160), 30 + hh

        def paint(d: ImageDraw.ImageDraw, x: int, y: int, seat=seat, squares=squares, w=w) -> None:
            pieces.marker(d, x + 12, y + 11, 11, seat, marks[seat])
            draw.text(d, (x + 28, y), view.players[seat], 18, bold=True, max_width=w - 30)
            pieces.draw_hood(d, squares, x, y + 30, HOOD_CELL, trips=trips.get(seat, ()))

        out.append((w, h, paint))
    return out
