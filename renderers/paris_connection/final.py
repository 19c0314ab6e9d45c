"""The final picture: screens lifted, each player's score by colour, the winners, and the
company values over the game as a chart (each line ends in its company's token shape)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.paris_connection.board import COMPANIES
from i18n import t

from .. import style
from ..draw import paste
from ..draw import text as draw_text
from ..ranking import places
from . import palette as P
from .mapimage import png
from .text import colour_word

ROW_H = 58
CHART_H = 300


def render_final(view, *, events: Sequence = (), language: str = "en", width: int = 1280) -> bytes:
    """Final standings of a finished game (``view.finished``): holdings, scores, value chart."""
    k = width / 1280

    def n(v: float) -> int:
        return round(v * k)

    order = sorted(range(view.num_players), key=lambda s: (-view.scores[s], s))
    height = n(130 + ROW_H * view.num_players + 40 + CHART_H + 30)
    img = Image.new("RGB", (width, height), style.PANEL)
    d = ImageDraw.Draw(img)
    draw_text(d, (n(30), n(22)), t(language, "pc.img.final_title"), n(30), bold=True)
    if view.end_reason:
        draw_text(d, (n(30), n(62)), t(language, f"pc.img.end_{view.end_reason}"), n(18), fill=style.MUTED)
    col_name, col_total, col_items = n(30), n(420), n(470)
    # The penalty column only where somebody held more than the limit: then every row has its
    # amount (0 too), as the engine scored it; otherwise it would be an empty column.
    penalised = any(view.penalties)
    item_w = (width - col_items - n(30)) / (len(COMPANIES) + (1 if penalised else 0))
    y = n(100)
    for colour_index, c in enumerate(COMPANIES):          # column heads: token, word, value
        x = col_items + colour_index * item_w
        paste(img, P.token(c, n(22)), x + n(11), y + n(8))
        draw_text(d, (x + n(26), y + n(8)), f"{colour_word(c, language)} {view.values[c]}", n(15), anchor="lm",
                  max_width=round(item_w) - n(30))
    if penalised:
        draw_text(d, (col_items + len(COMPANIES) * item_w, y + n(8)),
                  t(language, "pc.img.penalty"), n(15), anchor="lm", fill=style.ALERT,
                  max_width=round(item_w))
    draw_text(d, (col_total, y + n(8)), t(language, "pc.img.total"), n(15), anchor="rm", fill=style.MUTED)
    y += n(28)
    for place, seat in zip(places(order, view.scores), order, strict=True):
        winner = seat in view.winners
        if winner:
            d.rectangle((n(16), y, width - n(16), y + n(ROW_H) - n(6)), fill=style.HIGHLIGHT)
        mid = y + n(ROW_H) // 2 - n(3)
        name = f"{place} {view.players[seat]}" + (f" 🏆 {t(language, 'pc.img.winner')}" if winner else "")
        draw_text(d, (col_name, mid), name, n(20), bold=winner, anchor="lm", max_width=col_total - col_name - n(90))
        draw_text(d, (col_total, mid), str(view.scores[seat]), n(26), bold=True, anchor="rm")
        held = view.all_holdings[seat]
        for colour_index, c in enumerate(COMPANIES):
            count = held.get(c, 0)
            if count:
                x = col_items + colour_index * item_w
                draw_text(d, (x, mid), f"{count}×{view.values[c]} = {count * view.values[c]}", n(16), anchor="lm",
                          max_width=round(item_w) - n(4))
        if penalised:
            penalty = view.penalties[seat]
            draw_text(d, (col_items + len(COMPANIES) * item_w, mid), f"−{penalty}" if penalty else "0", n(18),
                      bold=bool(penalty), fill=style.ALERT if penalty else style.MUTED, anchor="lm")
        y += n(ROW_H)
    _chart(img, view, language, (n(30), y + n(20), width - n(30), y + n(20 + CHART_H)), k)
    return png(img)


def marker_rounds(points: int, offset: int, every: int = 0) -> list[int]:
    """The rounds at which a company's line carries its shape: about eight along the line,
    staggered by ``offset`` so that lines running together show each shape in turn (the
    last point has the end marker)."""
    every = every or max(len(COMPANIES), (points - 1) // 8 or 1)
    return [i for i in range(1, points - 1) if (i - 1 - offset) % every == 0]


def _chart(img: Image.Image, view, language: str, box: tuple[int, int, int, int], k: float) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    draw_text(d, (x0, y0), t(language, "pc.img.chart"), round(18 * k), bold=True)
    top_y, left, right = y0 + round(34 * k), x0 + round(40 * k), x1 - round(60 * k)
    history = [dict.fromkeys(COMPANIES, 0), *view.value_history]
    peak = max(5, *(v for point in history for v in point.values()))
    d.rectangle((left, top_y, right, y1), outline=style.PANEL_EDGE, fill=style.WHITE)
    for tick in range(0, peak + 1, max(1, peak // 5)):
        ty = y1 - (y1 - top_y) * tick / peak
        d.line((left, ty, right, ty), fill=style.PAPER_DARK)
        draw_text(d, (left - round(6 * k), ty), str(tick), round(13 * k), anchor="rm", fill=style.MUTED)
    steps = max(1, len(history) - 1)

    def xy(i: int, value: int) -> tuple[float, float]:
        return left + (right - left) * i / steps, y1 - (y1 - top_y) * value / peak

    for i in range(0, len(history), max(1, steps // 10)):       # rounds along the bottom
        draw_text(d, (xy(i, 0)[0], y1 + round(4 * k)), str(i), round(13 * k), anchor="ma", fill=style.MUTED)
    for offset, c in enumerate(COMPANIES):
        points = [xy(i, point[c]) for i, point in enumerate(history)]
        d.line(points, fill=P.COMPANY_RGB[c], width=max(2, round(3 * k)), joint="curve")
        for i in marker_rounds(len(history), offset):      # the company's shape along its line, not only colour
            paste(img, P.token(c, round(16 * k)), *points[i])
    for offset, c in enumerate(COMPANIES):            # end markers side by side where lines end together
        x, y = xy(len(history) - 1, history[-1][c])
        paste(img, P.token(c, round(22 * k)), x + round((6 + offset * 8) * k), y)
