"""The final picture: each player's score in parts (pizzas delivered, experience under the lowest
track, tracks at the top, pizzas left over, money bonus), their Lire over the game (public at
the end, hidden money or not), their tracks, and every neighbourhood as it ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from engine.papa_paolo import components as C
from i18n import t

from .. import draw, style
from ..players import initials
from . import pieces
from .board import WIDTHS, Block, _hood_blocks, flow
from .scoring import score_parts

PARTS = ("delivered", "experience", "maxed", "left", "bonus")


def render_final(view, *, events: Sequence[Any] = (), language: str = "en", layout: str = "landscape") -> bytes:
    width = WIDTHS.get(layout, WIDTHS["landscape"])
    marks = initials(view.players)
    blocks = [_scores_block(view, marks, language, width - 48),
              *([_money_block(view, marks, language, width - 48)] if view.money_history else []),
              *(_tracks_block(view, seat, marks, language) for seat in _ranking(view) if view.track_history),
              *_hood_blocks(view, marks, language)]
    return pieces.png(flow(blocks, width, t(language, "papa.img.final")))


def _scores_block(view, marks, language: str, width: int) -> Block:
    line = 78
    order = _ranking(view)
    h = 40 + line * len(order)
    col = (width - 260) // (len(PARTS) + 1)

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        for i, part in enumerate(PARTS):
            draw.text(d, (x + 250 + i * col, y), t(language, "papa.img.part." + part), 15, bold=True,
                      max_width=col - 6)
        draw.text(d, (x + 250 + len(PARTS) * col, y), t(language, "papa.img.total"), 15, bold=True)
        for row, seat in enumerate(order):
            top = y + 30 + row * line
            won = seat in view.winners
            d.rectangle((x, top, x + width, top + line - 8), fill=style.HIGHLIGHT if won else style.PANEL,
                        outline=style.PANEL_EDGE)
            pieces.marker(d, x + 22, top + 22, 15, seat, marks[seat])
            draw.text(d, (x + 44, top + 10), view.players[seat], 19, bold=True, max_width=190)
            pieces.tracks_row(d, x + 10, top + 44, view.tracks[seat], 18)
            parts = score_parts(view, seat)
            for i, part in enumerate(PARTS):
                value = -parts[part] if part == "left" else parts[part]
                draw.text(d, (x + 250 + i * col, top + 22), f"{value:+d}" if value else "0", 20)
            total = view.scores[seat] if view.scores else 0
            draw.text(d, (x + 250 + len(PARTS) * col, top + 22), str(total), 22, bold=True)
            lire = view.lire[seat]
            if lire is not None:
                draw.text(d, (x + width - 10, top + 50), f"{lire} L", 15, fill=style.MUTED, anchor="ra")

    return width, h, paint


def _ranking(view) -> list[int]:
    return sorted(range(view.num_players), key=lambda s: -(view.scores or [0] * view.num_players)[s])


def _tracks_block(view, seat: int, marks, language: str) -> Block:
    """One player's four tracks round by round: a line per colour, its letter at the end."""
    history = view.track_history[seat]
    w, h, left, top = 270, 190, 28, 34
    step_x = (w - left - 30) / max(1, len(history) - 1)
    step_y = (h - top - 26) / C.TRACK_TOP

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        pieces.marker(d, x + 11, y + 11, 11, seat, marks[seat])
        draw.text(d, (x + 28, y), t(language, "papa.img.tracks_of", player=view.players[seat]), 16, bold=True,
                  max_width=w - 30)
        x0, y0 = x + left, y + h - 20
        d.rectangle((x0, y0 - C.TRACK_TOP * step_y, x0 + step_x * (len(history) - 1), y0), outline=style.PANEL_EDGE)
        for level in range(C.TRACK_TOP + 1):
            draw.text(d, (x0 - 6, y0 - level * step_y), str(level), 11, fill=style.MUTED, anchor="rm")
        for r in range(len(history)):
            draw.text(d, (x0 + r * step_x, y0 + 4), str(r), 11, fill=style.MUTED, anchor="ma")
        for i, colour in enumerate(C.COLOURS):
            shift = (i - 1.5) * 2          # lines on the same level stay apart
            points = [(x0 + r * step_x, y0 - tracks[colour] * step_y + shift) for r, tracks in enumerate(history)]
            d.line(points, fill=pieces.TILE_RGB[colour], width=3)
            end = points[-1]
            draw.text(d, (end[0] + 4 + 8 * i, end[1]), pieces.LETTER[colour], 12, bold=True,
                      fill=pieces.TILE_RGB[colour] if colour != "yellow" else style.INK, anchor="lm")

    return w, h, paint


def _money_block(view, marks, language: str, width: int) -> Block:
    """Every player's Lire after each round, one line each: player colour, and at every point the
    player's marker with their initial (the lines stay apart for colour-blind eyes too)."""
    history = view.money_history
    rounds = len(history[0])
    most = max(1, max(max(h) for h in history))
    h, left, top, right = 230, 44, 34, 150
    step_x = (width - left - right) / max(1, rounds - 1)
    step_y = (h - top - 30) / most

    def paint(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw.text(d, (x, y), t(language, "papa.img.money_history"), 16, bold=True)
        x0, y0 = x + left, y + h - 22
        d.rectangle((x0, y0 - most * step_y, x0 + step_x * (rounds - 1), y0), outline=style.PANEL_EDGE)
        for level in _levels(most):
            yy = y0 - level * step_y
            d.line((x0, yy, x0 + step_x * (rounds - 1), yy), fill=style.PANEL_EDGE)
            draw.text(d, (x0 - 6, yy), str(level), 12, fill=style.MUTED, anchor="rm")
        for r in range(rounds):
            draw.text(d, (x0 + r * step_x, y0 + 5), str(r), 12, fill=style.MUTED, anchor="ma")
        ends = []
        for seat in _ranking(view):
            shift = (seat - (view.num_players - 1) / 2) * 3       # equal amounts stay apart
            points = [(x0 + r * step_x, y0 - lire * step_y + shift) for r, lire in enumerate(history[seat])]
            d.line(points, fill=pieces.player_colour(seat).rgb, width=3)
            for px, py in points:
                pieces.marker(d, px, py, 8, seat, marks[seat])
            ends.append((points[-1][1], seat))
        label_y = -1e9
        for end_y, seat in sorted(ends):                 # names at the right, never on top of each other
            label_y = max(end_y, label_y + 16)
            draw.text(d, (x0 + step_x * (rounds - 1) + 14, label_y), f"{view.players[seat]} {history[seat][-1]} L",
                      13, bold=True, anchor="lm", max_width=right - 16)

    return width, h, paint


def _levels(most: int) -> list[int]:
    """A few round amounts for the scale: 0 and every 5, 10 or 20 Lire up to ``most``."""
    step = next(s for s in (5, 10, 20, 50, 100) if most / s <= 6)
    return list(range(0, most + 1, step))
