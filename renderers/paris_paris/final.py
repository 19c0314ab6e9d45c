"""The final standings: ranking, what decided it (special routes, bag), score by round."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from engine.paris_paris import events as E
from i18n import t

from .. import draw as D
from .. import style
from ..fonts import font
from ..players import colour as player_colour
from ..players import initials
from . import buslines, mapimage

BASE_W, BASE_H = 1280, 800
CHART_SHAPES = ("circle", "square", "triangle", "diamond")
ROW_TOP = 120                      # design y of the first ranking row
CHART_BOX = (650, 40, 1250, 770)   # design box of the score chart


def row_height(players: int) -> int:
    return 100 if players <= 3 else 88


def house_centre(place: int, players: int) -> tuple[int, int]:
    """Design position of the house on ranking row ``place`` (0-based), for tests."""
    row = row_height(players)
    return 112, round(ROW_TOP + place * row + (row - 10) / 2)


def _ranking(view) -> list[int]:
    on_board = _on_board(view)
    return sorted(range(view.num_players), key=lambda s: (-view.scores[s], on_board[s], s))


def _on_board(view) -> list[int]:
    counts = [0] * view.num_players
    for owners in view.board.values():
        for owner in owners:
            counts[owner] += 1
    return counts


class _Canvas:
    """The picture drawn at twice its size (scaled down at the end for smooth lines), with
    design coordinates (a 1280 x 800 layout) turned into pixels."""

    def __init__(self, width: int) -> None:
        self.scale = width / BASE_W
        self.k = 2 * self.scale
        self.img = Image.new("RGB", (round(BASE_W * self.k), round(BASE_H * self.k)), style.PAPER)
        self.d = ImageDraw.Draw(self.img)

    def n(self, v: float) -> int:
        return round(v * self.k)

    def P(self, x: float, y: float) -> tuple[int, int]:
        return self.n(x), self.n(y)

    def text(self, x, y, value, size, **kw) -> int:
        if kw.get("max_width"):
            kw["max_width"] = self.n(kw["max_width"])
        return D.text(self.d, self.P(x, y), value, self.n(size), **kw)

    def png(self) -> bytes:
        out = io.BytesIO()
        img = self.img.resize((round(BASE_W * self.scale), round(BASE_H * self.scale)), Image.Resampling.LANCZOS)
        img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            out, format="PNG", compress_level=6)
        return out.getvalue()


def render_final(view, *, events: Iterable[E.Event] = (), language: str = "en", width: int = 1280) -> bytes:
    """PNG of the final standings for a finished ``view``: the ranking, what decided it (special
    routes, the bag), the final board where there is room, and the score by round."""
    events = [e for e in events if e.visible_to(view.viewer)]
    c = _Canvas(width)
    marks = initials(view.players)
    _title(c, language)
    y = _ranking_rows(c, view, marks, language)
    y = _special_routes(c, events, marks, language, y + 10)
    _final_board(c, view, y)
    _chart(c.img, c.d, view, marks, language, c.k, CHART_BOX)
    return c.png()


def _title(c: _Canvas, lang: str) -> None:
    c.text(40, 22, "Paris Paris", 38, bold=True)
    c.text(40, 72, t(lang, "final_title"), 26, fill=style.MUTED)
    for shape_i, colour in enumerate(buslines.COLOURS):
        D.draw_shape(c.d, buslines.SHAPES[colour], c.n(325 + shape_i * 32), c.n(45), c.n(11),
                     fill=buslines.COLOURS[colour])


def _ranking_rows(c: _Canvas, view, marks: Sequence[str], lang: str) -> float:
    """One row a seat, best first, shared places marked "=2"; the design y below them."""
    on_board = _on_board(view)
    order = _ranking(view)
    winners = set(view.winners)
    tie_broken = len({view.scores[s] for s in order[:2]}) == 1 and len(winners) < sum(
        1 for s in order if view.scores[s] == view.scores[order[0]])
    y = ROW_TOP
    row = row_height(view.num_players)
    place = 0
    for i, seat in enumerate(order):
        if i == 0 or (view.scores[seat], on_board[seat]) != (view.scores[order[i - 1]], on_board[order[i - 1]]):
            place = i + 1
        key = (view.scores[seat], on_board[seat])
        tied = sum(1 for s in order if (view.scores[s], on_board[s]) == key) > 1      # "=2": a shared place
        _ranking_row(c, view, seat, marks[seat], f"={place}" if tied else str(place), on_board[seat],
                     winners, y, row, lang)
        y += row
    if tie_broken:
        c.text(40, y, t(lang, "final_tiebreak"), 18, fill=style.MUTED, max_width=560)
        y += 30
    return y


def _ranking_row(c: _Canvas, view, seat: int, mark: str, place: str, on_board: int, winners: set[int],
                 y: float, row: int, lang: str) -> None:
    pc = player_colour(seat)
    win = seat in winners
    box = (*c.P(30, y), *c.P(600, y + row - 10))
    c.d.rounded_rectangle(box, radius=c.n(14), fill=style.HIGHLIGHT if win else style.PANEL,
                          outline=(225, 190, 70) if win else style.PANEL_EDGE, width=c.n(3 if win else 2))
    mid = y + (row - 10) / 2
    tied = place.startswith("=")
    c.text(62, mid, place, 36 if not tied else 30, bold=True, anchor="mm", fill=(170, 120, 0) if win else style.MUTED)
    D.paste(c.img, D.house(pc.rgb, pc.ink, mark, c.n(46)), c.n(112), c.n(mid))
    c.text(146, mid - 15, view.players[seat], 30, bold=True, anchor="lm", max_width=330)
    sub = t(lang, "final_on_board", count=on_board)
    if win:
        sub = (t(lang, "final_shared") if len(winners) > 1 else t(lang, "final_winner")) + " · " + sub
    c.text(146, mid + 19, sub, 19, fill=style.MUTED, anchor="lm", max_width=350)
    c.text(582, mid, str(view.scores[seat]), 50, bold=True, anchor="rm")


def _special_routes(c: _Canvas, events: Sequence[E.Event], marks: Sequence[str], lang: str, y: float) -> float:
    """The special routes (big tours) and the bag, a line each; the design y below them."""
    c.text(40, y, t(lang, "final_tours"), 22, bold=True, fill=style.MUTED)
    y += 36
    for event in events:
        if isinstance(event, E.BigTour) and event.reason != "discard":
            _big_tour_line(c, event, marks, lang, y)
            y += 36
        elif isinstance(event, E.BagScored):
            counts = ", ".join(f"{marks[seat]} {n}" for seat, n in enumerate(event.counts))
            result = (f"{marks[event.seat]} +{event.points}" if event.seat is not None
                      else t(lang, "final_bag_none"))
            D.paste(c.img, D.disc((120, 100, 80), c.n(26), text="●", ink=(240, 230, 210)), c.n(54), c.n(y + 14))
            c.text(74, y + 14, f"{t(lang, 'final_bag', counts=counts)} → {result}", 21, anchor="lm",
                   max_width=536)
            y += 36
    return y


def _big_tour_line(c: _Canvas, event: E.BigTour, marks: Sequence[str], lang: str, y: float) -> None:
    D.paste(c.img, buslines.icon(event.colour, c.n(26)), c.n(54), c.n(y + 14))
    who, indent = "", 0
    if event.reason == "marker" and event.seat is not None:
        pc = player_colour(event.seat)
        D.paste(c.img, D.house(pc.rgb, pc.ink, marks[event.seat], c.n(26)), c.n(84), c.n(y + 13))
        indent = 30
    elif event.reason == "open_marker":
        who = t(lang, "label_value", label=t(lang, "map_open_marker"), value="")
    label = who + t(lang, "map_big_tour", colour=t(lang, "colour_" + event.colour))
    pts = ", ".join(f"{marks[seat]} +{p}" for seat, p in enumerate(event.points) if p) or t(lang, "map_nobody")
    c.text(74 + indent, y + 14, t(lang, "label_value", label=label, value=pts), 21, anchor="lm",
           max_width=536 - indent)


def _final_board(c: _Canvas, view, y: float) -> None:
    """The final board below the lines, if there is room for it."""
    room = BASE_H - 20 - (y + 16)
    if room < 200:
        return
    thumb_w = min(560, room * mapimage.MAP_ASPECT)
    board = mapimage.board_image(view, round(thumb_w * c.k))
    bw, bh = board.size
    top = c.n(y + 16)
    left = c.n(40) + (c.n(560) - bw) // 2
    c.d.rounded_rectangle((left - c.n(3), top - c.n(3), left + bw + c.n(3), top + bh + c.n(3)), radius=c.n(8),
                          fill=style.PANEL_EDGE)
    c.img.paste(board, (left, top))


def _chart(img, d, view, marks: Sequence[str], lang: str, k: float, box) -> None:
    x0, y0, x1, y1 = box

    def n(v: float) -> int:
        return round(v * k)

    d.rounded_rectangle((n(x0), n(y0), n(x1), n(y1)), radius=n(14), fill=style.PANEL, outline=style.PANEL_EDGE,
                        width=n(2))
    D.text(d, (n(x0 + 20), n(y0 + 14)), t(lang, "final_chart"), n(24), bold=True, fill=style.MUTED)
    history = [tuple(0 for _ in view.players), *view.score_history]
    top = max(1, max(max(row) for row in history))
    step = next(v for v in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if top / v <= 8)
    top = ((top + step - 1) // step) * step
    cx0, cy0, cx1, cy1 = x0 + 60, y0 + 64, x1 - 54, y1 - 62
    small = font(n(19))
    for v in range(0, top + 1, step):
        yy = cy1 - (cy1 - cy0) * v / top
        d.line((n(cx0), n(yy), n(cx1), n(yy)), fill=(228, 222, 210), width=n(1))
        d.text((n(cx0 - 8), n(yy)), str(v), font=small, fill=style.MUTED, anchor="rm")
    count = len(history) - 1
    for r in range(count + 1):
        if count <= 15 or r % 2 == 0 or r == count:
            xx = cx0 + (cx1 - cx0) * r / max(1, count)
            if r == count - 1 and count > 15:
                continue  # leave room for the "end" label
            label = t(lang, "final_end") if r == count and view.finished else str(r)
            d.text((n(xx), n(cy1 + 9)), label, font=small, fill=style.MUTED, anchor="ma")
    d.text((n((cx0 + cx1) / 2), n(cy1 + 33)), t(lang, "final_round"), font=small, fill=style.MUTED, anchor="ma")
    d.line((n(cx0), n(cy1), n(cx1), n(cy1)), fill=style.MUTED, width=n(2))
    ends = []
    for seat in range(view.num_players):
        pc = player_colour(seat)
        pts = [(n(cx0 + (cx1 - cx0) * r / max(1, count)), n(cy1 - (cy1 - cy0) * row[seat] / top))
               for r, row in enumerate(history)]
        d.line(pts, fill=(30, 30, 35), width=n(8), joint="curve")
        d.line(pts, fill=pc.rgb, width=n(5.5), joint="curve")
        shape = CHART_SHAPES[seat % 4]
        for i, (px, py) in enumerate(pts):
            if i % max(1, count // 10) == 0 or i == len(pts) - 1:
                D.draw_shape(d, shape, px, py, n(6.5), fill=pc.rgb, outline=(30, 30, 35), width=n(1.5))
        ends.append([pts[-1][1], seat, pts[-1][0]])
    # End labels (initials), nudged apart vertically.
    ends.sort()
    for i in range(1, len(ends)):
        if ends[i][0] - ends[i - 1][0] < n(32):
            ends[i][0] = ends[i - 1][0] + n(32)
    for yy, seat, xx in ends:
        pc = player_colour(seat)
        D.paste(img, D.disc(pc.rgb, n(32), outline=(30, 30, 35), text=marks[seat][:2], ink=pc.ink, border=0.08),
                xx + n(26), yy)
