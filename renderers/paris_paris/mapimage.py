"""The map of Paris: a static background (cached per width) and the game drawn on a copy."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.paris_paris import events as E
from engine.paris_paris.actions import Tile
from engine.paris_paris.board import COLOURS, CROSSINGS, DISPLAY_NAMES, LINES
from i18n import t

from .. import draw as D
from .. import style
from ..fonts import drawable, fit, font
from ..players import colour as player_colour
from ..players import initials
from ..scene import Recorder
from . import buslines, palette, pieces, sprites
from . import layout as L
from .names import short_name

BG_SUPER = 2          # supersampling of the static background
LINE_WIDTH = 11
PANEL_X = 912         # design x where the side panel starts
PNG_LEVEL = 6


# ---- static background -------------------------------------------------------------------

@lru_cache(maxsize=4)
def background(width: int) -> Image.Image:
    """The map without the game: paper, the Seine, parks, lines, stations, names, empty panel."""
    w, h = L.canvas_size(width)
    k = L.scale(width) * BG_SUPER
    img = Image.new("RGB", (w * BG_SUPER, h * BG_SUPER), style.PAPER)
    d = ImageDraw.Draw(img)

    def P(x, y):
        return (x * k, y * k)

    # The city inside its boulevard ring, with a few parks.
    d.ellipse((*P(-60, 20), *P(940, 790)), fill=palette.BLOCK, outline=style.PAPER_DARK, width=round(10 * k))
    for x0, y0, x1, y1 in L.PARKS:
        d.ellipse((*P(x0, y0), *P(x1, y1)), fill=palette.PARK)
    river = [P(x, y) for x, y in L.SEINE]
    d.line(river, fill=palette.WATER_EDGE, width=round(30 * k), joint="curve")
    d.line(river, fill=palette.WATER, width=round(24 * k), joint="curve")
    for x, y in L.SEINE[1:-1]:
        d.ellipse((*P(x - 12, y - 12), *P(x + 12, y + 12)), fill=palette.WATER)
    d.polygon([P(x, y) for x, y in L.ILE], fill=palette.BLOCK, outline=palette.WATER_EDGE, width=round(2 * k))

    # Line casings, then the lines, then the start arrows.
    for colour in COLOURS:
        pts = [P(*L.STATION_LAYOUT[s][:2]) for s in LINES[colour]]
        d.line(pts, fill=style.WHITE, width=round((LINE_WIDTH + 6) * k), joint="curve")
    for colour in COLOURS:
        rgb = buslines.COLOURS[colour]
        pts = [P(*L.STATION_LAYOUT[s][:2]) for s in LINES[colour]]
        d.line(pts, fill=rgb, width=round(LINE_WIDTH * k), joint="curve")
        (sx, sy), (ux, uy) = L.start_stub(colour)
        x0, y0 = L.STATION_LAYOUT[LINES[colour][0]][:2]
        d.line([P(sx, sy), P(x0, y0)], fill=rgb, width=round(LINE_WIDTH * k))
        # Arrowhead pointing along the line, halfway down the stub.
        ax, ay = sx + ux * 30, sy + uy * 30
        nx, ny = -uy, ux
        head = [P(ax + ux * 10, ay + uy * 10), P(ax - ux * 8 + nx * 13, ay - uy * 8 + ny * 13),
                P(ax - ux * 8 - nx * 13, ay - uy * 8 - ny * 13)]
        d.polygon(head, fill=rgb, outline=style.WHITE, width=round(2 * k))
        # A start badge with the line's shape.
        d.ellipse((*P(sx - 15, sy - 15), *P(sx + 15, sy + 15)), fill=style.WHITE, outline=rgb, width=round(4 * k))
        D.draw_shape(d, buslines.SHAPES[colour], sx * k, sy * k, 8.5 * k, fill=rgb)

    # Stations: crossings as white interchange discs with a heavy rim, stops as small rings.
    for station, (x, y, _) in L.STATION_LAYOUT.items():
        if station in CROSSINGS:
            d.ellipse((*P(x - 19, y - 19), *P(x + 19, y + 19)), fill=style.WHITE, outline=style.INK,
                      width=round(4.5 * k))
            d.ellipse((*P(x - 5, y - 5), *P(x + 5, y + 5)), fill=style.INK)
        else:
            colour = next(c for c in COLOURS if station in LINES[c])
            d.ellipse((*P(x - 10, y - 10), *P(x + 10, y + 10)), fill=style.WHITE, outline=buslines.COLOURS[colour],
                      width=round(4 * k))

    # Station names with a paper halo.
    f = font(round(L.LABEL_SIZE * k), bold=True)
    for station, label in L.labels().items():
        x, y, _ = L.STATION_LAYOUT[station]
        dx, dy, anchor = L.label_anchor(label.side, station in CROSSINGS)
        d.multiline_text(P(x + dx, y + dy), "\n".join(label.lines), font=f, fill=style.INK, anchor=anchor,
                         align=L.align(anchor), spacing=0, stroke_width=round(L.LABEL_HALO * k), stroke_fill=palette.BLOCK)

    # The side panel.
    d.rounded_rectangle((*P(PANEL_X - 4, 8), *P(1272, 792)), radius=round(14 * k), fill=style.PANEL,
                        outline=style.PANEL_EDGE, width=round(2 * k))
    d.text(P(PANEL_X + 14, 18), "Paris Paris", font=font(round(30 * k), bold=True), fill=style.INK, anchor="la")
    img = img.resize((w, h), Image.Resampling.LANCZOS)
    return img


@lru_cache(maxsize=40)
def glow(colour: str, width: int) -> tuple[Image.Image, tuple[int, int]]:
    """A translucent band along a line (for big tours): sprite and its top-left corner."""
    s = L.scale(width)
    pts = L.line_points(colour, width)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    pad = round(24 * s)
    x0, y0 = min(xs) - pad, min(ys) - pad
    im = Image.new("RGBA", (max(xs) - x0 + pad, max(ys) - y0 + pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    shifted = [(x - x0, y - y0) for x, y in pts]
    d.line(shifted, fill=buslines.COLOURS[colour] + (90,), width=round(34 * s), joint="curve")
    for x, y in shifted:
        r = 17 * s
        d.ellipse((x - r, y - r, x + r, y + r), fill=buslines.COLOURS[colour] + (90,))
    return im, (x0, y0)


@lru_cache(maxsize=16)
def legend(width: int, language: str) -> Image.Image:
    """A small key to the map's symbols (RGBA sprite, cached per width and language)."""
    s = L.scale(width) * 2   # drawn at twice the size for smooth shapes
    x0, y0, x1, y1 = L.LEGEND_BOX
    w, h = round((x1 - x0) * s), round((y1 - y0) * s)
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=round(10 * s), fill=style.PANEL + (235,),
                        outline=style.PANEL_EDGE + (255,), width=max(1, round(1.5 * s)))
    rows = ["legend_shop", "legend_offer", "legend_small_tour", "legend_big_tour", "legend_evicted"]
    for i, key in enumerate(rows):
        cy = (8 + 10 + i * 19.5) * s
        cx = 18 * s
        if key == "legend_shop":
            pc = style.PLAYER_COLOURS[0]
            icon = D.house(pc.rgb, pc.ink, "A", round(16 * s))
        elif key == "legend_offer":
            icon = D.disc(buslines.COLOURS["green"], round(17 * s), outline=style.WHITE, text="1", border=0.1)
        elif key == "legend_small_tour":
            icon = sprites.bus_icon(round(17 * s))
        elif key == "legend_big_tour":
            icon = sprites.pill(round(24 * s), round(13 * s), buslines.COLOURS["yellow"], style.WHITE, round(2.5 * s))
        else:
            icon = D.disc(style.ALERT, round(15 * s), text="✕", ink=style.WHITE)
        im.alpha_composite(icon, (round(cx - icon.width / 2), round(cy - icon.height / 2)))
        # A long text shrinks (a little) rather than being cut.
        (label,), size = D.fit_lines(t(language, key), round((x1 - x0 - 40) * s), round(12 * s), min_size=round(9 * s))
        d.text((34 * s, cy), label, font=font(size), fill=style.INK + (255,), anchor="lm")
    return im.resize((round((x1 - x0) * L.scale(width)), round((y1 - y0) * L.scale(width))), Image.Resampling.LANCZOS)


# ---- the game layer ----------------------------------------------------------------------

class _Canvas:
    """An image to draw on in design units; by default the landscape map with its side panel.

    With a ``recorder`` (``renderers/scene.py``) nothing is drawn: what would be is recorded for a
    page's scene instead, each pasted picture by its name in ``pieces`` and its label as words."""

    def __init__(self, width: int, language: str, players: Sequence[str], *, img: Image.Image | None = None,
                 scale: float | None = None, recorder: Recorder | None = None):
        self.width = width
        self.recorder = recorder
        self.names_at: int | None = None    # how much was recorded when the names were laid back on top
        self.s = L.scale(width) if scale is None else scale
        self.language = language
        self.players = tuple(drawable(p) for p in players)  # names as the font can draw them
        self.marks = initials(players)
        self.img = background(width).copy() if img is None else img
        self.d: Any = ImageDraw.Draw(self.img) if recorder is None else recorder
        # The panel column the _panel_* functions fill (design units) and its lowest usable y.
        self.px: float = PX           # the panel's left and width, in design units
        self.pw: float = PW
        self.bottom: float = 788

    def n(self, v: float) -> int:
        return round(v * self.s)

    def P(self, x: float, y: float) -> tuple[int, int]:
        return self.n(x), self.n(y)

    def t(self, key: str, **params) -> str:
        return t(self.language, key, **params)

    def text(self, x, y, value, size, **kw) -> int:
        if "max_width" in kw and kw["max_width"] is not None:
            kw["max_width"] = self.n(kw["max_width"])
        return round(D.text(self.d, self.P(x, y), value, self.n(size), **kw) / self.s)

    def house(self, seat: int, x: float, y: float, size: float = L.HOUSE_SIZE, ring: str = "plain", *,
              pixels: bool = False, key: str = "") -> None:
        """A shop centred on (x, y): design units, or pixels when ``pixels``; ``ring`` one of
        ``pieces.HOUSE_RINGS``."""
        if not pixels:
            x, y = x * self.s, y * self.s
        self.paste(f"house-{player_colour(seat).name}-{ring}", self.n(size), x, y, self.marks[seat], key=key)

    def mark(self, seat: int, size: int, x: float, y: float) -> None:
        """A player's initial on a disc in their colour, ``size`` pixels, centred on the pixel (x, y)."""
        self.paste(f"mark-{player_colour(seat).name}", size, x, y, self.marks[seat])

    def paste(self, name: str, size: int, x: float, y: float, label: str = "", *, key: str = "") -> None:
        """The picture ``name`` of ``pieces``, ``size`` pixels, centred on the pixel (x, y), ``label``
        on it; recorded as a piece keyed ``key`` (its name by default) and words for its label."""
        if self.recorder is None:
            D.paste(self.img, pieces.picture(name, size, self.s, label), x, y)
            return
        sprite = pieces.picture(name, size, self.s)
        self.recorder.sprite(key or name, name, x, y, sprite.width, sprite.height)
        if label:
            self.recorder.drawn.append(pieces.label_words(name, label, size, x, y, sprite.width))

    def legend(self) -> None:
        """The key to the map's symbols, in its box at the bottom left of the map."""
        key = legend(self.width, self.language)
        x, y = self.P(L.LEGEND_BOX[0], L.LEGEND_BOX[1])
        if self.recorder is None:
            self.img.paste(key, (x, y), key)
        else:
            self.recorder.sprite("legend", f"legend-{self.language}", x + key.width / 2, y + key.height / 2,
                                 key.width, key.height)

    def glow(self, colour: str) -> None:
        """A big tour's translucent band along its line."""
        band, (x0, y0) = glow(colour, self.width)
        if self.recorder is None:
            self.img.paste(band, (x0, y0), band)
        else:
            self.recorder.sprite(f"glow-{colour}", f"glow-{colour}", x0 + band.width / 2, y0 + band.height / 2,
                                 band.width, band.height)

    def png(self) -> bytes:
        out = io.BytesIO()
        # 256 colours without dithering: a third of the bytes, indistinguishable on a map.
        image = self.img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        image.save(out, format="PNG", compress_level=PNG_LEVEL)
        return out.getvalue()


def _shops(c: _Canvas, board: dict[str, tuple[int, ...]], pending=None) -> None:
    for station, owners in board.items():
        for slot, owner in enumerate(owners):
            x, y = L.house_xy(station, slot, len(owners), c.width)
            # A white halo keeps every shop apart from its station's rim (a black shop vanished
            # into a black crossing); the shops an eviction may remove get a red one instead.
            ring = "white"
            if pending is not None and station == pending.station:
                ring = "alert"
            c.house(owner, x, y, ring=ring, pixels=True, key=f"shop@{station}#{slot}")


OFFER_RING = 56   # diameter of the ring around an offered station, design units


def _offer(c: _Canvas, offer) -> None:
    by_station: dict[str, list[str]] = {}
    for tile in offer:
        by_station.setdefault(tile.station, []).append(tile.colour)
    size = c.n(OFFER_RING)
    for station, colours in by_station.items():
        x, y = L.station_xy(station, c.width)
        second = colours[1] if len(colours) > 1 and colours[1] != colours[0] else None
        c.paste("-".join(["ring", colours[0], *([second] if second else [])]), size, x, y, key=f"offer@{station}")


def _names_on_top(c: _Canvas) -> None:
    """Station names back over the rings and glows drawn since the background: a highlight
    marks its station without hiding its name (Madeleine's ring covered "Madeleine"). A page lays
    the names (``mapscene``) over what was recorded so far."""
    if c.recorder is not None:
        c.names_at = len(c.recorder.drawn)
        return
    plain = background(c.width)
    for box in name_boxes(c.width):
        if before := plain.crop(box):
            c.img.paste(before, box[:2])


def name_boxes(width: int) -> list[tuple[int, int, int, int]]:
    """The pixel box of each station's name on the map ``width`` wide."""
    s = L.scale(width)
    return [(round(x0 * s), round(y0 * s), round(x1 * s), round(y1 * s))
            for x0, y0, x1, y1 in (label.box for label in L.labels().values())]


def _offer_badges(c: _Canvas, view) -> None:
    offer = view.offer
    for i, (slot, tile) in enumerate(view.offer_numbered()):
        bx, by = L.offer_badge_xy(offer, i, c.width)
        c.paste(f"badge-{tile.colour}", c.n(2 * L.BADGE_RADIUS), bx, by, str(slot))


def _tags(c: _Canvas, view, events: Sequence[E.Event]) -> None:
    f = font(c.n(L.TAG_FONT), bold=True)
    for tag, (x0, y0, x1, y1) in L.place_tags(view, events):
        items, colour = tag.items, tag.colour
        cy = (y0 + y1) / 2
        if tag.key[0] == "bus":   # the small tour's station
            c.paste("bus", c.n(L.BUS_SIZE), c.n((x0 + x1) / 2), c.n(cy))
            continue
        if colour is None:   # an eviction: the owner's mark crossed out
            c.mark(items[0][0], c.n(24), c.n(x0 + 12), c.n(cy))
            c.paste("cross", c.n(27), c.n(x1 - 14), c.n(cy))
            continue
        _pill(c, c.n(x1 - x0), c.n(L.TAG_H), colour, c.n((x0 + x1) / 2), c.n(cy))
        # The small tour's tags carry the bus, a big tour's the line's shape (as in the panel).
        if tag.key[1] == "small":
            c.paste("bus", c.n(21), c.n(x0 + 16), c.n(cy))
        else:
            c.paste(f"line-{colour}", c.n(19), c.n(x0 + 16), c.n(cy))
        cx = x0 + 28
        for seat, points in items:
            c.mark(seat, c.n(L.TAG_MARK), c.n(cx + L.TAG_MARK / 2), c.n(cy))
            cx += L.TAG_MARK + 2
            txt = f"+{points}"
            c.d.text(c.P(cx, cy), txt, font=f, fill=style.INK, anchor="lm")
            cx += f.getlength(txt) / c.s + 6


def _pill(c: _Canvas, width: int, height: int, colour: str, x: float, y: float) -> None:
    """A points tag's white pill with a rim in the line's colour, centred on the pixel (x, y): in a
    scene, a rounded rectangle (its width varies with the tag)."""
    border = max(1, c.n(2))
    if c.recorder is None:
        D.paste(c.img, sprites.pill(width, height, style.WHITE, buslines.COLOURS[colour], border), x, y)
        return
    x0, y0 = round(x - width / 2), round(y - height / 2)
    c.recorder.rounded_rectangle((x0, y0, x0 + width - 1, y0 + height - 1), radius=height // 2, fill=style.WHITE,
                                 outline=buslines.COLOURS[colour], width=border)


def _highlights(c: _Canvas, events: Sequence[E.Event]) -> None:
    for event in events:
        if isinstance(event, E.BigTour):
            c.glow(event.colour)
    for event in events:
        if isinstance(event, E.SmallTour):
            x, y = L.station_xy(event.tile.station, c.width)
            big = event.tile.station in CROSSINGS
            c.paste(f"dash-{event.tile.colour}", c.n(72 if big else 52), x, y, key=f"tour@{event.tile.station}")


# ---- the side panel ----------------------------------------------------------------------

PX = PANEL_X + 14
PW = 1272 - 14 - PX

HEADER_H = 34         # the panel's round line
PANEL_TOP = 58        # where the landscape panel's round line starts (under the title)
OFFER_HEAD = 27       # the offer's heading, above its rows
OFFER_ROW = 35        # one offered tile's row
OFFER_DISC = 30       # the slot number's disc at the start of a row


def closed_round(view, events: Iterable[E.Event]) -> int | None:
    """The round whose end the picture shows (its events end with the next round's start), so
    that its header agrees with the caption "Round 6/15 is over"; None: a round under way."""
    events = list(events)
    started = [e for e in events if isinstance(e, E.RoundStarted)]
    if view.finished or not started or started[-1].round != view.round or len(events) < 2:
        return None
    before = events[:events.index(started[-1])]
    return view.round - 1 if any(isinstance(e, E.TileDiscarded) for e in before) else None


def _panel_header(c: _Canvas, view, y: float = PANEL_TOP, closed: int | None = None) -> float:
    if view.finished:
        c.text(c.px, y, c.t("map_game_over"), 22, bold=True, fill=style.MUTED)
    elif closed is not None:
        c.text(c.px, y, c.t("map_round_over", round=closed, rounds=view.rounds), 22, bold=True, fill=style.MUTED)
    else:
        c.text(c.px, y, c.t("map_round", round=view.round, rounds=view.rounds), 22, bold=True, fill=style.MUTED)
        c.text(c.px + c.pw, y, c.t("map_stacks_left", count=view.stacks_left), 20, fill=style.MUTED, anchor="ra")
    return y + HEADER_H


def _player_row(view) -> int:
    return 66 if view.num_players <= 3 else 60


def _players_height(view) -> int:
    return _player_row(view) * view.num_players + 8


def _panel_players(c: _Canvas, view, y: float, *, pending=None) -> float:
    row = _player_row(view)
    choose = set(view.eviction_options(pending)) if pending is not None else set()
    for seat, name in enumerate(view.players):
        top = y + seat * row
        turn = not view.finished and seat == view.to_move
        won = view.finished and seat in view.winners
        if turn or won:
            c.d.rounded_rectangle((*c.P(c.px - 6, top), *c.P(c.px + c.pw + 6, top + row - 6)), radius=c.n(10),
                                  fill=style.HIGHLIGHT, outline=(230, 200, 90), width=max(1, c.n(2)))
        ring = "alert" if seat in choose else "plain"
        c.house(seat, c.px + 19, top + (row - 6) / 2, size=36, ring=ring)
        name_w = c.pw - 146
        c.text(c.px + 46, top + 4, name, 25, bold=True, max_width=name_w)
        info = c.t("map_supply", count=view.supply[seat])
        if turn:
            info += " · " + c.t("map_to_move")
        if won:
            info = c.t("final_shared" if len(view.winners) > 1 else "final_winner") + " · " + info
        c.text(c.px + 46, top + 33, info, 17, fill=style.MUTED, max_width=name_w + 40)
        if seat == view.bus and not view.finished:
            c.paste("bus", c.n(28), c.n(c.px + c.pw - 78), c.n(top + (row - 6) / 2))
        c.text(c.px + c.pw, top + (row - 6) / 2, str(view.scores[seat]), 36, bold=True, anchor="rm")
    return y + _players_height(view)


def _panel_offer(c: _Canvas, view, y: float) -> float:
    if not view.offer:
        return y
    c.text(c.px, y, c.t("map_offer"), 19, bold=True, fill=style.MUTED)
    rows = offer_rows(view, y)
    for slot, tile, top in rows:
        if tile is None:
            # a slot whose tile was taken this round: its number stays, so the others keep theirs
            c.paste("slot-taken", c.n(OFFER_DISC), c.n(c.px + OFFER_DISC / 2), c.n(top + OFFER_DISC / 2), str(slot))
            c.text(c.px + 43, top + 15, "—", 21, fill=style.MUTED, anchor="lm")
            continue
        c.paste(f"slot-{tile.colour}", c.n(OFFER_DISC), c.n(c.px + OFFER_DISC / 2), c.n(top + OFFER_DISC / 2),
                str(slot))
        c.paste(f"line-{tile.colour}", c.n(19), c.n(c.px + 43), c.n(top + 15))
        name, colour_word = DISPLAY_NAMES[tile.station], c.t("colour_" + tile.colour)
        if font(c.n(21), True).getlength(name) + font(c.n(16)).getlength(colour_word) > c.n(c.pw - 66):
            name = short_name(tile.station)
        w = c.text(c.px + 59, top + 15, name, 21, bold=True, anchor="lm", max_width=c.pw - 59)
        c.text(c.px + 59 + w + 7, top + 16, colour_word, 16, fill=style.MUTED, anchor="lm", max_width=c.pw - 66 - w)
    return rows[-1][2] + OFFER_ROW + 4


def offer_rows(view, y: float) -> list[tuple[int, Tile | None, float]]:
    """Each slot of the panel's offer list under its heading at ``y``: (slot, tile or None, row top)."""
    return [(slot, tile, y + OFFER_HEAD + i * OFFER_ROW) for i, (slot, tile) in enumerate(_offer_rows(view))]


def offer_list(view, width: int, layout: str) -> tuple[float, float, float, float]:
    """Where the panel's offer list is drawn in a picture ``width`` wide: (pixels per design unit, its left,
    its width, its heading's top), the last three in design units of that scale."""
    if layout == "portrait":
        k = portrait_map_scale(width)
        top = L.canvas_size(portrait_virtual_width(width))[1] / k
        return k, _portrait_left() + PORTRAIT_COLUMN_W + PORTRAIT_GAP, PORTRAIT_COLUMN_W, top + PORTRAIT_PAD
    return L.scale(width), PX, PW, PANEL_TOP + HEADER_H + _players_height(view)


def _offer_rows(view) -> list[tuple[int, Tile | None]]:
    """Every slot of the round's offer in order, with its tile or None once taken."""
    by_slot = dict(view.offer_numbered())
    return [(slot, by_slot.get(slot)) for slot in range(1, max([view.slots, *by_slot]) + 1)]


def _panel_discard(c: _Canvas, view, y: float) -> float:
    c.text(c.px, y, c.t("map_discard"), 19, bold=True, fill=style.MUTED)
    y += 27
    slot_w, gap = (c.pw - 4 * 4) / 5, 4
    for i, colour in enumerate(COLOURS):
        x0 = c.px + i * (slot_w + gap)
        tile = view.discard.get(colour)
        rgb = buslines.COLOURS[colour]
        if tile is not None:
            tint = tuple(round(v * 0.25 + 255 * 0.75) for v in rgb)
            c.d.rounded_rectangle((*c.P(x0, y), *c.P(x0 + slot_w, y + 52)), radius=c.n(8), fill=tint,
                                  outline=rgb, width=max(1, c.n(3)))
            c.paste(f"line-{colour}", c.n(18), c.n(x0 + slot_w / 2), c.n(y + 12))
            # The short name, on two lines if need be, shrunk rather than cut.
            lines, size = D.fit_lines(short_name(tile.station), c.n(slot_w - 4), c.n(13), True, max_lines=2,
                                      min_size=c.n(9))
            c.d.multiline_text(c.P(x0 + slot_w / 2, y + 36), "\n".join(lines), font=font(size, True), fill=style.INK,
                               anchor="mm", align="center", spacing=0)
        else:
            c.d.rounded_rectangle((*c.P(x0, y), *c.P(x0 + slot_w, y + 52)), radius=c.n(8), fill=style.PANEL,
                                  outline=(205, 200, 190), width=max(1, c.n(2)))
            c.paste(f"line-{colour}-faded", c.n(18), c.n(x0 + slot_w / 2), c.n(y + 26))
    return y + 62


def _panel_markers(c: _Canvas, view, y: float) -> float:
    rows = []
    if view.open_marker:
        rows.append(("map_open_marker", view.open_marker))
    if view.marker and not view.finished:
        rows.append(("map_your_marker", view.marker))
    for key, colour in rows:
        c.paste(f"line-{colour}", c.n(22), c.n(c.px + 11), c.n(y + 13))
        c.text(c.px + 28, y + 13, c.t("label_value", label=c.t(key), value=c.t("colour_" + colour)), 19, anchor="lm",
               max_width=c.pw - 28)
        y += 31
    return y + (4 if rows else 0)


def _panel_events(c: _Canvas, view, events: Sequence[E.Event], y: float, pending=None) -> float:
    lines: list[tuple[str | None, str]] = []   # (line colour for an icon, text)
    for event in events:
        if isinstance(event, E.SmallTour):
            text = c.t("map_small_tour", station=DISPLAY_NAMES[event.tile.station])
            lines.append(("bus", c.t("label_value", label=text, value=_points_text(c, event.points))))
        elif isinstance(event, E.BigTour):
            text = c.t("map_big_tour", colour=c.t("colour_" + event.colour))
            lines.append((event.colour, c.t("label_value", label=text, value=_points_text(c, event.points))))
        elif isinstance(event, E.ShopEvicted):
            # who evicted whom, never just the evicted owner (it would read as if they did it)
            if event.owner == event.by:
                said = c.t("map_evicted_own", by=c.players[event.by], station=DISPLAY_NAMES[event.station])
            else:
                said = c.t("map_evicted", by=c.players[event.by], owner=c.players[event.owner],
                           station=DISPLAY_NAMES[event.station])
            lines.append(("evict", said))
    if pending is not None and view.to_move is not None:
        # Only players' names may be shortened (with an ellipsis), never the words around them.
        names = [fit(name, c.n(c.pw * 0.45), c.n(18), True) for name in c.players]
        owners = " / ".join(names[o] for o in view.eviction_options(pending))
        prompt = c.t("map_evict_choose", player=names[view.to_move], station=DISPLAY_NAMES[pending.station],
                     owners=owners)
        rows, size = _prompt_rows(c, prompt, DISPLAY_NAMES[pending.station])
        height = 12 + 23 * len(rows)
        c.d.rounded_rectangle((*c.P(c.px - 6, y), *c.P(c.px + c.pw + 6, y + height)), radius=c.n(8),
                              fill=(253, 228, 226), outline=style.ALERT, width=max(1, c.n(2)))
        for i, row in enumerate(rows):
            c.d.text(c.P(c.px + 4, y + 17 + 23 * i), row, font=font(size, True), fill=style.ALERT, anchor="lm")
        y += height + 10
    if not lines or y + 27 + 22 > c.bottom:   # no heading without room for a line under it
        return y
    c.text(c.px, y, c.t("map_last_round"), 19, bold=True, fill=style.MUTED)
    y += 27
    for colour, text in lines[-6:]:
        rows, size = D.fit_lines(text, c.n(c.pw - 26), c.n(18), max_lines=3, keep=STATION_NAMES)
        if y + 22 * len(rows) > c.bottom:
            break
        if colour:
            icon = {"bus": "bus", "evict": "evicted"}.get(colour, f"line-{colour}")
            c.paste(icon, c.n(21 if colour == "bus" else 19), c.n(c.px + 10), c.n(y + 11))
        for i, row in enumerate(rows):
            c.d.text(c.P(c.px + 26, y + 11 + 22 * i), row, font=font(size), fill=style.INK, anchor="lm")
        y += 22 * len(rows) + 5
    return y


def _prompt_rows(c: _Canvas, prompt: str, station: str) -> tuple[tuple[str, ...], int]:
    """The eviction prompt in at most four lines, shrunk rather than cut, the station's name whole."""
    return D.fit_lines(prompt, c.n(c.pw - 8), c.n(18), True, max_lines=4, keep=(station,))


def _points_text(c: _Canvas, points: Sequence[int]) -> str:
    parts = [f"{c.marks[seat]} +{p}" for seat, p in enumerate(points) if p]
    return ", ".join(parts) if parts else c.t("map_nobody")


STATION_NAMES = tuple(DISPLAY_NAMES.values())   # phrases a line never breaks
MAP_ASPECT = L.MAP_WIDTH / L.BASE_HEIGHT


def board_image(view, width: int) -> Image.Image:
    """Just the map part (no panel) with the shops, ``width`` pixels wide, as an image."""
    full = round(width * L.BASE_WIDTH / L.MAP_WIDTH)
    c = _Canvas(full, "en", view.players)
    _shops(c, view.board)
    return c.img.crop((0, 0, c.n(L.MAP_WIDTH), c.img.height))


# ---- public ------------------------------------------------------------------------------

def _map_layer(c: _Canvas, view, events: Sequence[E.Event], pending_tile) -> None:
    """Everything drawn on the map itself: legend, highlights, offer, shops, badges and tags."""
    c.legend()
    _highlights(c, events)
    _offer(c, view.offer)
    if pending_tile is not None:
        x, y = L.station_xy(pending_tile.station, c.width)
        c.paste("dash-alert", c.n(80), x, y, key=f"pending@{pending_tile.station}")
    _names_on_top(c)
    _shops(c, view.board, pending_tile)
    _offer_badges(c, view)
    _tags(c, view, events)


def render_map(view, *, events: Iterable[E.Event] = (), language: str = "en", pending_tile=None,
               width: int = 1280, layout: str = "landscape") -> bytes:
    """PNG of the board for ``view``; ``events`` (since the previous map) are highlighted.

    ``layout="landscape"`` (default, 1280 x 800): the map with the panel beside it, for desktop
    previews. ``layout="portrait"``: the map across the whole width with the panel under it, so
    the map is 1.4 times larger on a phone (``width`` x about 1.37 ``width``).
    """
    return draw_map(view, events, language, pending_tile, width, layout).png()


def draw_map(view, events: Iterable[E.Event], language: str, pending_tile, width: int, layout: str,
             recorder: Recorder | None = None) -> _Canvas:
    """The canvas ``render_map`` draws (or, with a ``recorder``, records: ``mapscene``)."""
    events = list(events)
    closed = closed_round(view, events)
    events = L.shown_events(view, events)
    if layout == "portrait":
        return _render_portrait(view, events, language, pending_tile, width, closed, recorder)
    if layout != "landscape":
        raise ValueError(f"layout must be 'landscape' or 'portrait', not {layout!r}")
    c = _Canvas(width, language, view.players, recorder=recorder)
    _map_layer(c, view, events, pending_tile)
    y = _panel_header(c, view, closed=closed)
    y = _panel_players(c, view, y, pending=pending_tile)
    _, c.px, c.pw, y = offer_list(view, width, "landscape")
    y = _panel_offer(c, view, y)
    y = _panel_discard(c, view, y)
    y = _panel_markers(c, view, y)
    _panel_events(c, view, events, y, pending_tile)
    return c


def render_lobby(players: Sequence[str], *, language: str = "en", width: int = 1280, title: str = "") -> bytes:
    """PNG of the empty board with the players who joined so far."""
    players = tuple(players)[:4]
    c = _Canvas(width, language, players)
    y = 60
    if title:
        c.text(PX, y, title, 21, bold=True, fill=style.MUTED, max_width=PW)
        y += 34
    c.text(PX, y, c.t("lobby_title"), 25, bold=True, max_width=PW)
    y += 48
    c.text(PX, y, c.t("lobby_players", count=len(players)), 19, bold=True, fill=style.MUTED)
    y += 32
    if not players:
        c.text(PX, y, c.t("lobby_empty"), 19, fill=style.MUTED, max_width=PW)
        y += 34
    for seat, name in enumerate(players):
        c.house(seat, PX + 19, y + 22, size=36)
        c.text(PX + 48, y + 22, name, 25, bold=True, anchor="lm", max_width=PW - 48)
        y += 58
    c.text(PX, y + 10, c.t("lobby_hint"), 18, fill=style.MUTED, max_width=PW)
    return c.png()


# ---- portrait (phones) ---------------------------------------------------------------------

PORTRAIT_DESIGN_W = L.MAP_WIDTH   # the portrait image is MAP_WIDTH design units wide
PORTRAIT_COLUMN_W = 420           # two panel columns under the map
PORTRAIT_GAP = 28
PORTRAIT_PAD = 18                 # the panel's first line under its top


def _portrait_left() -> float:
    """The left panel column's x (design units): the two columns centred."""
    return (PORTRAIT_DESIGN_W - 2 * PORTRAIT_COLUMN_W - PORTRAIT_GAP) / 2


def portrait_map_scale(width: int) -> float:
    """Pixels per design unit of the map in a portrait image ``width`` wide (for tests)."""
    return width / L.MAP_WIDTH


def portrait_virtual_width(width: int) -> int:
    """The landscape width whose map part is ``width`` pixels wide (station_xy etc. take it)."""
    return round(width * L.BASE_WIDTH / L.MAP_WIDTH)


def _portrait_panel_height(view, events: Sequence[E.Event], pending_tile) -> float:
    """Design height of the panel: the taller of its two columns (estimated, not drawn)."""
    left = 20 + HEADER_H + _players_height(view)
    if pending_tile is not None:
        left += 12 + 23 * 4 + 10
    told = sum(isinstance(e, (E.SmallTour, E.BigTour, E.ShopEvicted)) for e in events)
    if told:
        left += 27 + 32 * min(6, told)   # a line (or two) for each of the last round's events
    right = 20 + (OFFER_HEAD + OFFER_ROW * len(_offer_rows(view)) + 4 if view.offer else 0) + 27 + 62
    right += 31 * (bool(view.open_marker) + bool(view.marker and not view.finished)) + 4
    return max(left, right) + 14


def _render_portrait(view, events: Sequence[E.Event], language: str, pending_tile, width: int,
                     closed: int | None = None, recorder: Recorder | None = None) -> _Canvas:
    virtual = portrait_virtual_width(width)
    board = _Canvas(virtual, language, view.players, recorder=recorder)
    _map_layer(board, view, events, pending_tile)
    map_img = board.img.crop((0, 0, width, board.img.height))
    k = portrait_map_scale(width)
    panel_h = _portrait_panel_height(view, events, pending_tile)
    img = Image.new("RGB", (width, map_img.height + round(panel_h * k)), style.PAPER)
    img.paste(map_img, (0, 0))
    c = _Canvas(width, language, view.players, img=img, scale=k, recorder=recorder)
    c.names_at = board.names_at
    if recorder is not None:    # the paper under the panel (the static board is the map's alone)
        recorder.rectangle((0, map_img.height, width - 1, img.height - 1), fill=style.PAPER)
    top = map_img.height / k
    c.d.rounded_rectangle((*c.P(6, top + 2), *c.P(PORTRAIT_DESIGN_W - 6, top + panel_h - 6)), radius=c.n(14),
                          fill=style.PANEL, outline=style.PANEL_EDGE, width=max(1, c.n(2)))
    c.bottom = top + panel_h - 12
    c.px, c.pw = _portrait_left(), PORTRAIT_COLUMN_W
    y = _panel_header(c, view, top + PORTRAIT_PAD, closed)
    y = _panel_players(c, view, y, pending=pending_tile)
    _panel_events(c, view, events, y, pending_tile)
    _, c.px, c.pw, y = offer_list(view, width, "portrait")
    y = _panel_offer(c, view, y)
    y = _panel_discard(c, view, y)
    _panel_markers(c, view, y)
    return c
