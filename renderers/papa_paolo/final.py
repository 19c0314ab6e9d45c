"""The final picture: each player's score in parts (pizzas delivered, experience under the lowest
track, tracks at the top, pizzas left over, money bonus), their tracks, money, and every
neighbourhood as it ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from .. import draw, style
from ..i18n import t
from ..players import initials
from . import pieces
from .board import WIDTHS, Block, _hood_blocks, flow

PARTS = ("delivered", "experience", "maxed", "left", "bonus")


def render_final(view, *, events: Sequence[Any] = (), language: str = "en", layout: str = "landscape") -> bytes:
    width = WIDTHS.get(layout, WIDTHS["landscape"])
    marks = initials(view.players)
    blocks = [_scores_block(view, marks, language, width - 48), *_hood_blocks(view, marks, language)]
    return pieces.png(flow(blocks, width, t(language, "papa.img.final")))


def _scores_block(view, marks, language: str, width: int) -> Block:
    from .presenter import score_parts

    line = 78
    order = sorted(range(view.num_players), key=lambda s: -(view.scores or [0] * view.num_players)[s])
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
