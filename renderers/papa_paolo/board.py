"""The shared board after a round, from the public view only: the city grid (tiles with roads,
houses and colour letters, markers, row and column actions and coins), the staircase (costs,
markers, the delivery tile of each column), the investment tiles on offer, the players in turn
order (money or "hidden", tracks, pizzas, houses served) and every neighbourhood side by side.

Blocks flow left to right and wrap, so the same code draws a landscape picture (Discord, the
terminal) and a portrait one (Telegram, read on phones). The portrait one is drawn a quarter larger
(``SCALE``), its neighbourhoods larger still, so that every text is at least 16 px in a picture 900 px
wide: 7 px when a phone shows it 400 px wide (tests/renderers/papa_paolo/test_pp_pictures.py).

After placing, the markers are gone from the game (the coins paid out); the picture puts them back
from the stretch's events, and each coin carries the mark of the player it went to. After the
deliveries the next round is already laid out: the title says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.papa_paolo import components as C
from i18n import t

from .. import draw, style
from ..fonts import wrap
from ..players import initials
from . import pieces
from . import text as words

GAP = 24
WIDTHS = {"landscape": 1280, "portrait": 900}
SCALE = {"landscape": 1.0, "portrait": 1.25}       # sizes of the blocks, for phones
HOOD_CELLS = {"landscape": 52, "portrait": 80}
GRID_CELL = 104
STAIR_CELL = (92, 44)
STAIR_HEAD = 64         # above the staircase: each column's tile and its limits, on up to two lines
HOOD_CELL = HOOD_CELLS["landscape"]

Block = tuple[int, int, Callable[[ImageDraw.ImageDraw, int, int], None]]


def render_board(view, *, events: Sequence[Any] = (), language: str = "en", layout: str = "landscape") -> bytes:
    layout = layout if layout in WIDTHS else "landscape"
    blocks = _blocks(view, events, language, layout)
    return pieces.png(flow(blocks, WIDTHS[layout], title(view, events, language), SCALE[layout]))


def board_drawing(view, events: Sequence[Any], language: str, layout: str, d: Any) -> tuple[int, int]:
    """What ``render_board`` draws on its paper, drawn on ``d`` (a scene's ``Recorder``): the
    picture's width and height."""
    layout = layout if layout in WIDTHS else "landscape"
    blocks = _blocks(view, events, language, layout)
    places, width, height = flow_places([(w, h) for w, h, _ in blocks], WIDTHS[layout], SCALE[layout])
    paint_flow(d, blocks, places, width, title(view, events, language), SCALE[layout])
    return width, height


def _blocks(view, events: Sequence[Any], language: str, layout: str) -> list[Block]:
    """The board's blocks in the order they flow: the grid, the staircase, the players, the neighbourhoods."""
    k = SCALE[layout]
    marks = initials(view.players)
    return [_grid_block(view, marks, language, events, k), _stairs_block(view, marks, language, k),
            _players_block(view, marks, language, k),
            *_hood_blocks(view, marks, language, trips_of(events), k, HOOD_CELLS[layout])]


def block_places(view, layout: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where the grid and the staircase blocks are drawn (their top left corners). They come first,
    so no language moves them: only the widths of the blocks and the heights of those above count."""
    layout = layout if layout in WIDTHS else "landscape"
    blocks = _blocks(view, (), "en", layout)
    places, _, _ = flow_places([(w, h) for w, h, _ in blocks], WIDTHS[layout], SCALE[layout])
    return places[0], places[1]


def title(view, events: Sequence[Any], language: str) -> str:
    """The board picture's title: the state it shows. Drawn as the next phase begins, it names the
    phase just closed; after the deliveries, the next round is already laid out (new tiles, an
    empty staircase), and the title names that round too."""
    closed = [e for e in events if e.kind == "phase_ended"]
    if not closed or view.finished:
        return words.status_line(view, language)
    last = closed[-1]
    if view.round > last.round:
        return t(language, "papa.img.next_round", round=last.round, next=view.round, of=C.ROUNDS)
    return t(language, "papa.stretch_over." + last.phase, round=last.round, of=C.ROUNDS)


def flow(blocks: list[Block], width: int, title: str, k: float = 1.0) -> Image.Image:
    """Place blocks left to right, wrapping; the picture is as tall as they need."""
    places, width, height = flow_places([(w, h) for w, h, _ in blocks], width, k)
    img = Image.new("RGB", (width, height), style.PAPER)
    paint_flow(ImageDraw.Draw(img), blocks, places, width, title, k)
    return img


def paint_flow(d: Any, blocks: list[Block], places: list[tuple[int, int]], width: int, title: str, k: float) -> None:
    """The title and the blocks at their ``places`` (``flow_places``), on ``d``."""
    gap = round(GAP * k)
    draw.text(d, (gap, round(16 * k)), title, round(28 * k), bold=True, max_width=width - 2 * gap)
    for (x, y), (_, _, fn) in zip(places, blocks, strict=True):
        fn(d, x, y)


def flow_places(sizes: Sequence[tuple[int, int]], width: int, k: float = 1.0,
                ) -> tuple[list[tuple[int, int]], int, int]:
    """(each block's top left corner, the picture's width, its height) for blocks of ``sizes``."""
    gap, top = round(GAP * k), round(60 * k)
    width = max(width, max((w for w, _ in sizes), default=0) + 2 * gap)
    places, x, y, row_h = [], gap, top, 0
    for w, h in sizes:
        if x > gap and x + w > width - gap:
            x, y, row_h = gap, y + row_h + gap, 0
        places.append((x, y))
        x, row_h = x + w + gap, max(row_h, h)
    return places, width, y + row_h + gap


def placed_markers(view, events: Sequence[Any]) -> dict[tuple[int, int], int]:
    """Whose marker stands on each grid space: the game's while placing; after it (the markers
    are lifted as the coins pay out) the ones the stretch's events placed this round."""
    if view.markers:
        return dict(view.markers)
    placed: dict[tuple[int, int], int] = {}
    for e in events:
        if e.kind == "round_started":
            placed = {}
        elif e.kind == "marker_placed":
            placed[tuple(e.space)] = e.seat
    return placed


def coin_winners(events: Sequence[Any]) -> dict[tuple[str, int], int | None]:
    """Which seat each coin went to, by ('row' | 'col', index) as the events name lines, from the
    stretch's events; empty before the coins are paid."""
    won: dict[tuple[str, int], int | None] = {}
    for e in events:
        if e.kind == "round_started":
            won = {}
        elif e.kind == "coin_awarded":
            won[(e.line, e.index)] = e.seat
    return won


def _grid_block(view, marks, language: str, events: Sequence[Any] = (), k: float = 1.0) -> Block:
    """The grid with its row and column actions, and each line's coin where the rules put it: a
    row's on its left, a column's above it (a tie goes to the marker nearest the coin)."""
    def n(v: float) -> int:
        return round(v * k)

    rows, cols = view.grid_size
    cell, head, coin = n(GRID_CELL), n(70), n(76)
    w, h = head + coin + cols * cell, n(30) + head + coin + rows * cell
    markers = placed_markers(view, events)
    won = coin_winners(events)

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.grid"), n(20), bold=True)
        left, top = _grid_origin(x, y, k)
        for c in range(cols):
            acts = C.BOARDS[view.num_players].col_actions[c]
            cx = left + c * cell + cell / 2
            draw.text(d, (cx, top - coin - head + n(4)), str(c + 1), n(20), bold=True, anchor="ma")
            for i, a in enumerate(acts):
                draw.text(d, (cx, top - coin - head + n(30 + i * 18)), t(language, "papa.img.act." + a), n(14),
                          anchor="ma", max_width=cell - 6)
            _coin(d, cx, top - n(21), view.coins[rows + c], k, won, ("col", c), marks)
        for r in range(rows):
            acts = C.BOARDS[view.num_players].row_actions[r]
            cy = top + r * cell + cell / 2
            draw.text(d, (x + 4, cy - n(28)), "ABCDEFGH"[r], n(20), bold=True)
            ty = cy - n(4)
            for a in acts:        # over two lines rather than shrunk ("Livr. express")
                lines, size = draw.fit_lines(t(language, "papa.img.act." + a), head - 8, n(14), max_lines=2)
                for part in lines:
                    draw.text(d, (x + 4, ty), part, size)
                    ty += size + 2
            _coin(d, left - n(21), cy, view.coins[r], k, won, ("row", r), marks)
            for c in range(cols):
                _space(d, view, marks, markers, r, c, space_box(x, y, r, c, k), k)

    return w, h, paint


def _grid_origin(x: int, y: int, k: float) -> tuple[int, int]:
    """The top left corner of the first space of a grid block drawn at (x, y): under the title, the
    column actions and the coins, right of the row actions and the coins."""
    head, coin = round(70 * k), round(76 * k)
    return x + head + coin, y + round(30 * k) + head + coin


def space_box(x: int, y: int, r: int, c: int, k: float) -> tuple[int, int, int, int]:
    """The square drawn for grid space (r, c) of a grid block drawn at (x, y)."""
    cell = round(GRID_CELL * k)
    left, top = _grid_origin(x, y, k)
    x0, y0 = left + c * cell + 4, top + r * cell + 4
    return x0, y0, x0 + cell - 8, y0 + cell - 8


def _space(d: ImageDraw.ImageDraw, view, marks, markers, r: int, c: int, box: tuple[int, int, int, int],
           k: float) -> None:
    tile = view.grid[r * view.grid_size[1] + c]
    x, y = box[0] - 4, box[1] - 4           # the space's cell, its square 4 px inside
    size = box[2] - box[0]
    cell = size + 8
    if tile is None:
        d.rectangle((x + 4, y + 4, x + 4 + size, y + 4 + size), fill=style.PAPER_DARK, outline=style.PANEL_EDGE)
    else:
        info = C.CITY_TILES[tile]
        pieces.city_square(d, x + 4, y + 4, size, info.colour, sorted(info.roads), info.houses, name=tile)
    draw.text(d, (x + 8, y + size - round(14 * k)), words.space_name((r, c)), round(13 * k), fill=style.MUTED)
    seat = markers.get((r, c))
    if seat is not None:
        pieces.marker(d, x + cell / 2, y + cell / 2, round(20 * k), seat, marks[seat])


def _coin(d: ImageDraw.ImageDraw, cx: float, cy: float, value: int | None, k: float, won, line, marks) -> None:
    """A row's or column's coin; once paid, the mark of the player it went to on its far side from
    the grid (a dash where nobody had a marker in the line and the bank kept it)."""
    r = round(17 * k)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pieces.COIN, outline=style.INK, width=2)
    draw.text(d, (cx, cy), "?" if value is None else str(value), round(17 * k), bold=True, anchor="mm")
    if line not in won:
        return
    seat = won[line]
    away = r + round(16 * k)
    mx, my = (cx, cy - away) if line[0] == "col" else (cx - away, cy)
    if seat is None:
        draw.text(d, (mx, my), "–", round(17 * k), fill=style.MUTED, anchor="mm")
    else:
        pieces.marker(d, mx, my, round(13 * k), seat, marks[seat])


def _stairs_block(view, marks, language: str, k: float = 1.0) -> Block:
    def n(v: float) -> int:
        return round(v * k)

    cols, rows = view.stair_columns, C.STAIR_ROWS
    cw, ch = n(STAIR_CELL[0]), n(STAIR_CELL[1])
    offer = len(view.investment_open)
    head = n(STAIR_HEAD)
    w, h = _stairs_width(view, k), n(30) + head + rows * ch + n(34 + 26 * max(1, offer))

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.stairs"), n(20), bold=True)
        top = y + n(30)
        for c in range(1, cols + 1):
            cx = x + n(40) + (c - 1) * cw
            tile = view.delivery_tiles[c - 1] if c - 1 < len(view.delivery_tiles) else None
            if tile:
                info = C.DELIVERY_TILES[tile]
                draw.text(d, (cx + cw / 2, top), words.delivery_name(tile), n(16), bold=True, anchor="ma")
                limits = t(language, "papa.img.delivery", pizzas=info.max_pizzas, distance=info.max_distance)
                lines, size = draw.fit_lines(limits, cw - 6, n(13), max_lines=2)     # whole, over two lines
                for j, part in enumerate(lines):
                    draw.text(d, (cx + cw / 2, top + n(20) + j * (size + 2)), part, size, anchor="ma")
            for r in range(rows):
                d.rectangle(stair_box(x, y, r, c, k), fill=style.PANEL, outline=style.PANEL_EDGE)
                cy = _stair_cell(x, y, r, c, k)[1]
                draw.text(d, (cx + n(8), cy + ch / 2), f"{C.stair_cost(r, c)} L", n(14), fill=style.MUTED,
                          anchor="lm")
        for r in range(rows):
            draw.text(d, (x + 4, top + head + (rows - 1 - r) * ch + ch / 2), str(r + 1), n(16), bold=True,
                      anchor="lm")
        for seat, (r, c) in view.staircase.items():
            x0, y0, x1, _ = _stair_cell(x, y, r, c, k)
            pieces.marker(d, x1 - n(22), y0 + ch / 2, n(16), seat, marks[seat])
        draw.text(d, (x, _investments_top(y, k)), t(language, "papa.img.investments"), n(18), bold=True)
        for i, tile in enumerate(view.investment_open):
            invest = C.INVESTMENT_TILES[tile]
            ty = investment_box(view, x, y, i, k)[1]
            d.rectangle((x, ty, x + n(18), ty + n(18)), fill=pieces.TILE_RGB[invest.colour], outline=style.INK)
            draw.text(d, (x + n(9), ty + n(9)), pieces.LETTER[invest.colour], n(13), bold=True, anchor="mm")
            draw.text(d, (x + n(26), ty), t(language, "papa.img.investment", tile=tile,
                                            action=words.action_word(invest.action, language),
                                            bonus=invest.bonus), n(15), max_width=w - n(30))

    return w, h, paint


def _stair_cell(x: int, y: int, r: int, c: int, k: float) -> tuple[int, int, int, int]:
    """Staircase space (row r from the bottom, column c from 1) of a staircase block drawn at (x, y):
    under the title and the columns' delivery tiles, right of the row numbers."""
    cw, ch = round(STAIR_CELL[0] * k), round(STAIR_CELL[1] * k)
    left = x + round(40 * k) + (c - 1) * cw
    top = y + round(30 * k) + round(STAIR_HEAD * k) + (C.STAIR_ROWS - 1 - r) * ch
    return left, top, left + cw, top + ch


def stair_box(x: int, y: int, r: int, c: int, k: float) -> tuple[int, int, int, int]:
    """The box drawn for staircase space (r, c) of a staircase block drawn at (x, y)."""
    x0, y0, x1, y1 = _stair_cell(x, y, r, c, k)
    return x0 + 2, y0 + 2, x1 - 2, y1 - 2


def _investments_top(y: int, k: float) -> int:
    """The heading of the investment tiles on offer, under the staircase."""
    return _stair_cell(0, y, 0, 1, k)[3] + round(8 * k)


def investment_box(view, x: int, y: int, i: int, k: float) -> tuple[int, int, int, int]:
    """The row of investment tile ``i`` on offer (its coloured square and its words)."""
    top = _investments_top(y, k) + round((30 + i * 26) * k)
    return x, top, x + _stairs_width(view, k), top + round(22 * k)


def _stairs_width(view, k: float) -> int:
    return round(40 * k) + view.stair_columns * round(STAIR_CELL[0] * k)


def _players_block(view, marks, language: str, k: float = 1.0) -> Block:
    """The players in turn order: money, tracks, pizzas, and the score so far in its parts, with
    the rule under them: why a score is negative (pizzas bought count −1 until delivered)."""
    def n(v: float) -> int:
        return round(v * k)

    w, line = n(420), n(108)
    rule = words.score_rule(view, language)
    rule_lines = wrap(rule, w, n(14), max_lines=4)
    h = n(30) + line * view.num_players + n(4) + n(18) * len(rule_lines)

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.order"), n(20), bold=True)
        for i, seat in enumerate(view.order):
            top = y + n(30) + i * line
            d.rectangle((x, top, x + w, top + line - n(6)), fill=style.PANEL, outline=style.PANEL_EDGE)
            pieces.marker(d, x + n(24), top + n(22), n(16), seat, marks[seat])
            draw.text(d, (x + n(48), top + n(10)), f"{i + 1}. {view.players[seat]}", n(18), bold=True,
                      max_width=n(200))
            draw.text(d, (x + w - n(10), top + n(10)), words.money(view, seat, language), n(18), bold=True,
                      anchor="ra")
            pieces.tracks_row(d, x + n(10), top + n(44), view.tracks[seat], n(20))
            hood = view.neighbourhoods[seat]
            stock = sum(q.pizzas for q in hood)
            served = sum(q.served for q in hood)
            stock_text = t(language, "papa.img.stock", pizzas=stock, served=served)
            if view.delivery_held[seat]:
                stock_text += f" · {view.delivery_held[seat]}"
            draw.text(d, (x + w - n(10), top + n(48)), stock_text, n(15), anchor="ra", max_width=n(170))
            total, parts = words.score_text(view, seat, language)
            used = draw.text(d, (x + n(10), top + n(74)), total, n(16), bold=True, max_width=n(120))
            draw.text(d, (x + n(18) + used, top + n(75)), parts, n(15), max_width=w - n(28) - used)
        ry = y + n(30) + line * view.num_players + n(4)
        for j, part in enumerate(rule_lines):
            draw.text(d, (x, ry + j * n(18)), part, n(14), fill=style.MUTED)

    return w, h, paint


def trips_of(events: Sequence[Any]) -> dict[int, list[dict]]:
    """Each seat's delivery trips of the round (revealed together), to draw on its neighbourhood."""
    trips: dict[int, list[dict]] = {}
    for e in events:
        if e.kind == "deliveries_made":
            trips.setdefault(e.seat, []).extend(e.trips)
    return trips


def _hood_blocks(view, marks, language: str, trips: dict[int, list[dict]] | None = None, k: float = 1.0,
                 cell: int = HOOD_CELL) -> list[Block]:
    trips = trips or {}
    out: list[Block] = []
    head = round(30 * k)
    for seat in view.order:
        squares = view.neighbourhoods[seat]
        hw, hh = pieces.hood_size(squares, cell)
        w, h = max(hw, round(160 * k)), head + hh

        def paint(d: ImageDraw.ImageDraw, x: int, y: int, seat=seat, squares=squares, w=w) -> None:
            pieces.marker(d, x + round(13 * k), y + round(12 * k), round(13 * k), seat, marks[seat])
            draw.text(d, (x + round(32 * k), y), view.players[seat], round(18 * k), bold=True,
                      max_width=w - round(34 * k))
            pieces.draw_hood(d, squares, x, y + head, cell, trips=trips.get(seat, ()))

        out.append((w, h, paint))
    return out
