"""The Paris Connection map: hexes of France, locomotives, the build under way, and a side panel.

The static part (sea, hexes, cities and their values, ids, Paris, start hexes, barriers) is
drawn once per size and cached; a render copies it and adds the locomotives, highlights and
the panel. Landscape puts the panel right of the map; portrait (phones) puts it below.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.paris_connection.board import BARRIERS, COMPANIES, HEX_KM, HEXES, OUTLINE, hex_centre, project
from engine.paris_connection.events import BuildCompleted, Traded
from engine.paris_connection.view import ConnectionView, Draft
from i18n import t

from .. import style
from ..draw import paste
from ..draw import text as draw_text
from ..fonts import font, wrap
from ..scene import Recorder
from . import palette as P
from .text import colour_word, draft_text, event_line

_SQRT3 = math.sqrt(3.0)
_CENTRES = {h: hex_centre(c.q, c.r) for h, c in HEXES.items()}
_X0 = min(x for x, _ in _CENTRES.values()) - _SQRT3 / 2
_X1 = max(x for x, _ in _CENTRES.values()) + _SQRT3 / 2
_Y0 = min(y for _, y in _CENTRES.values()) - 1
_Y1 = max(y for _, y in _CENTRES.values()) + 1
MARGIN = 10
PANEL_LANDSCAPE = 470      # panel width beside the map
PANEL_PORTRAIT = 520       # panel height under the map
ID_SIZE = 0.58           # a hex id's height, in hex radii
ID_Y = 0.45              # how far above the hex's centre it sits
NEWS_LINES = 4           # a news line wraps over up to this many lines rather than being cut
PNG_LEVEL = 3           # zlib level: 4 and above cost 3-4x the time for 10-20 % smaller files


@dataclass(frozen=True, slots=True)
class Geometry:
    width: int
    height: int
    size: float            # hex circumradius in pixels
    ox: float              # pixel of hex-unit (0, 0)
    oy: float
    panel: tuple[int, int, int, int]

    def xy(self, hex_id: str) -> tuple[float, float]:
        x, y = _CENTRES[hex_id]
        return self.ox + x * self.size, self.oy + y * self.size


@lru_cache(maxsize=8)
def geometry(width: int = 1280, layout: str = "landscape") -> Geometry:
    span_x, span_y = _X1 - _X0, _Y1 - _Y0
    if layout == "portrait":
        size = (width - 2 * MARGIN) / span_x
        map_h = round(span_y * size + 2 * MARGIN)
        return Geometry(width, map_h + PANEL_PORTRAIT, size, MARGIN - _X0 * size, MARGIN - _Y0 * size,
                        (0, map_h, width, map_h + PANEL_PORTRAIT))
    panel = round(PANEL_LANDSCAPE * width / 1280)
    map_w = width - panel
    size = (map_w - 2 * MARGIN) / span_x
    height = round(span_y * size + 2 * MARGIN)
    return Geometry(width, height, size, MARGIN - _X0 * size, MARGIN - _Y0 * size, (map_w, 0, width, height))


def hex_xy(hex_id: str, width: int = 1280, layout: str = "landscape") -> tuple[int, int]:
    """The pixel centre of a hex in a picture of ``width`` (for tests and overlays)."""
    x, y = geometry(width, layout).xy(hex_id)
    return round(x), round(y)


def token_xy(view, hex_id: str, colour: str, width: int = 1280, layout: str = "landscape") -> tuple[int, int]:
    """Where the ``colour`` locomotive on ``hex_id`` is drawn (a rural hex's two sit side by side)."""
    g = geometry(width, layout)
    x, y = g.xy(hex_id)
    here = _colours_at(view).get(hex_id, ())
    slots = _slots(len(here), HEXES[hex_id].kind)
    dx = slots[here.index(colour)] if colour in here else 0
    return round(x + dx * g.size), round(y + 0.26 * g.size)


def _slots(count: int, kind: str) -> tuple[float, ...]:
    if kind == "city":
        return (-0.3,)
    return (0.0,) if count <= 1 else (-0.4, 0.4)


def _corners(g: Geometry, hex_id: str, shrink: float = 1.0) -> list[tuple[float, float]]:
    cx, cy = g.xy(hex_id)
    r = g.size * shrink
    return [(cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


@lru_cache(maxsize=4)
def background(width: int, layout: str) -> Image.Image:
    """The map without pieces: sea, hexes, city values, ids, Paris, start hexes, barriers."""
    g = geometry(width, layout)
    img = Image.new("RGB", (g.width, g.height), P.SEA)
    d = ImageDraw.Draw(img)
    coast = [_pixel(g, lat, lon) for lat, lon in OUTLINE]
    d.polygon(coast, fill=P.COAST_LAND)            # France itself under the hexes, so its shape shows
    for hex_id, cell in HEXES.items():
        fill = {"city": P.CITY_FILL.get(cell.value, P.LAND), "start": P.START, "tower": P.TOWER}.get(cell.kind, P.LAND)
        d.polygon(_corners(g, hex_id), fill=fill, outline=P.HEX_EDGE)
    d.line([*coast, coast[0]], fill=P.COAST, width=max(1, round(g.size * 0.08)), joint="curve")
    # Ids a little larger than half the hex, with a light halo: they stay readable at full size on
    # the dark city fills and where a rim or a locomotive passes close (11 px at 1280 px wide).
    id_size = max(10, round(g.size * ID_SIZE))
    for hex_id, cell in HEXES.items():
        cx, cy = g.xy(hex_id)
        if cell.kind == "tower":
            _tower(d, cx, cy, g.size)
            continue
        ink = style.INK if cell.kind != "start" else style.MUTED
        draw_text(d, (cx, cy - g.size * ID_Y), hex_id, id_size, bold=True, fill=ink, anchor="mm", stroke=1,
                  stroke_fill=P.LAND)
        if cell.kind == "city":
            r = g.size * 0.3
            bx, by = cx + g.size * 0.42, cy + g.size * 0.24
            d.ellipse((bx - r, by - r, bx + r, by + r), fill=style.WHITE, outline=style.INK, width=1)
            draw_text(d, (bx, by + 1), str(cell.value), max(8, round(g.size * 0.46)), bold=True, anchor="mm")
    dash = max(2.0, g.size * 0.25)
    for edge in BARRIERS:
        a, b = sorted(edge)
        (ax, ay), (bx, by) = g.xy(a), g.xy(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay)
        ux, uy = -(by - ay) / length, (bx - ax) / length          # along the shared edge
        half = g.size / 2
        steps = max(2, round(2 * half / dash))
        for i in range(0, steps, 2):
            s0, s1 = -half + i * 2 * half / steps, -half + (i + 1) * 2 * half / steps
            d.line((mx + ux * s0, my + uy * s0, mx + ux * s1, my + uy * s1), fill=P.BARRIER,
                   width=max(3, round(g.size * 0.2)))
    return img


def _pixel(g: Geometry, lat: float, lon: float) -> tuple[float, float]:
    """A place on the ground as a pixel of the map."""
    x, y = project(lat, lon)
    return g.ox + x / HEX_KM * g.size, g.oy + y / HEX_KM * g.size


def city_name_box(hex_id: str, width: int = 1280, layout: str = "landscape") -> tuple[float, float, float, float]:
    """The white tag under a city's name, in pixels (drawn over locomotives and highlights)."""
    return _name_tags(width, layout)[hex_id]


@lru_cache(maxsize=4)
def _name_tags(width: int, layout: str) -> dict[str, tuple[float, float, float, float]]:
    g = geometry(width, layout)
    size = _name_size(g)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    tags = {}
    for hex_id, cell in HEXES.items():
        if cell.kind == "city" and cell.city:
            cx, cy = g.xy(hex_id)
            box = probe.textbbox((cx, cy + g.size * 0.78), cell.city, font=font(size, False), anchor="mm")
            tags[hex_id] = (box[0] - 2, box[1] - 1, box[2] + 2, box[3] + 1)
    return tags


def _name_size(g: Geometry) -> int:
    return max(8, round(g.size * 0.42))


def city_names(d: Any, g: Geometry, width: int, layout: str) -> None:
    """Each city's name under its hex, on a white tag that keeps it readable: drawn after the
    locomotives, which would otherwise hide it (Auxerre, Besançon, Mulhouse)."""
    size = _name_size(g)
    for hex_id, box in _name_tags(width, layout).items():
        cx, cy = g.xy(hex_id)
        d.rounded_rectangle(box, radius=2, fill=P.NAME_TAG)
        draw_text(d, (cx, cy + g.size * 0.78), HEXES[hex_id].city or "", size, fill=style.INK, anchor="mm")


def _tower(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """The Eiffel Tower, a little white A-frame on the dark Paris hex."""
    top, foot, w = cy - s * 0.7, cy + s * 0.6, s * 0.45
    white = style.WHITE
    d.line((cx, top, cx - w, foot), fill=white, width=max(2, round(s * 0.1)))
    d.line((cx, top, cx + w, foot), fill=white, width=max(2, round(s * 0.1)))
    for k in (0.45, 0.75):
        y = top + (foot - top) * k
        d.line((cx - w * k, y, cx + w * k, y), fill=white, width=max(1, round(s * 0.08)))


def _colours_at(view) -> dict[str, tuple[str, ...]]:
    """Every locomotive standing on the map, the build under way's included (drawn last)."""
    here = {h: tuple(cs) for h, cs in view.board.items()}
    if view.draft is not None:
        for h in view.draft.hexes:
            here[h] = here.get(h, ()) + (view.draft.colour,)
    return here


def recent_hexes(events: Sequence) -> set[str]:
    """Hexes where the events passed in put locomotives (finished builds and placements)."""
    hexes: set[str] = set()
    for e in events:
        if e.kind == "build_completed":
            hexes.update(e.hexes)
        elif e.kind == "locomotive_placed":
            hexes.add(e.hex)
        elif e.kind == "placement_undone":
            hexes.discard(e.hex)
    return hexes


def hex_box(hex_id: str, width: int = 1280, layout: str = "landscape") -> tuple[int, int, int, int]:
    """The pixel box round a hex's outline in a picture of ``width``."""
    corners = _corners(geometry(width, layout), hex_id)
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys))


def hex_outline(hex_id: str, width: int = 1280, layout: str = "landscape") -> tuple[tuple[int, int], ...]:
    """A hex's corners in a picture of ``width`` (what a board that lights the hex outlines)."""
    return tuple((round(x), round(y)) for x, y in _corners(geometry(width, layout), hex_id))


def _rim(d: Any, g: Geometry, hex_id: str, colour, width: float) -> None:
    corners = _corners(g, hex_id, 0.9)
    d.line(corners + corners[:1], fill=colour, width=max(2, round(width)), joint="curve")


def rims(d: Any, g: Geometry, view, events: Sequence) -> None:
    """The rims under the locomotives, on ``d`` (an ImageDraw, or a scene's ``Recorder``): the hexes a
    locomotive may go to, what ``events`` built, the build under way."""
    for hex_id in view.legal_hexes:
        _rim(d, g, hex_id, P.LEGAL, g.size * 0.07)
    for hex_id in recent_hexes(events):
        _rim(d, g, hex_id, P.RECENT, g.size * 0.22)
    if view.draft is not None:
        for hex_id in view.draft.hexes:
            _rim(d, g, hex_id, P.DRAFT, g.size * 0.24)


@dataclass(frozen=True, slots=True)
class Locomotive:
    """A locomotive as drawn: ``key`` names it from one state to the next (its colour, its hex and
    which of that colour's there it is), at the pixel (x, y) of its token, ``size`` pixels square."""

    key: str
    colour: str
    x: int
    y: int
    size: int


def locomotives(view, width: int = 1280, layout: str = "landscape") -> list[Locomotive]:
    """Every locomotive on the map, the build under way's last, where the picture draws each."""
    size = max(10, round(geometry(width, layout).size * 0.9))
    out = []
    for hex_id, colours in _colours_at(view).items():
        for index, colour in enumerate(colours):
            key = f"{colour}@{hex_id}#{colours[:index].count(colour)}"
            out.append(Locomotive(key, colour, *token_xy(view, hex_id, colour, width, layout), size))
    return out


# The lines above the companies, (size, gap): the title, the round, who is to move; then their heading.
HEAD_LINES = ((24, 6), (17, 4), (17, 12))
COMPANIES_HEAD = (17, 8)
COMPANY_ROW = 27            # one company's row, top to top
COMPANY_H = 24              # the part of it its token and bar fill


def _panel_scale(g: Geometry, portrait: bool) -> float:
    return g.width / 1280 * (1.25 if portrait else 1.0)


def _column_boxes(g: Geometry, portrait: bool) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The panel's left and right columns (one and the same beside a landscape map)."""
    x0, y0, x1, y1 = g.panel
    if portrait:          # two columns: the game on the left, the players and the news on the right
        return (x0, y0, (x0 + x1) // 2, y1), ((x0 + x1) // 2, y0, x1, y1)
    return g.panel, g.panel


def _inner(box: tuple[int, int, int, int], k: float) -> tuple[int, int, int, int]:
    """A column's writing area: (left, first line's top, right, bottom)."""
    return box[0] + round(16 * k), box[1] + round(14 * k), box[2] - round(14 * k), box[3] - 8


def company_rows(width: int = 1280, layout: str = "landscape") -> dict[str, tuple[int, int, int, int]]:
    """Each company's row in the panel (token, word, value bar, storage), as a pixel box."""
    g = geometry(width, layout)
    k = _panel_scale(g, layout == "portrait")
    x0, y, x1, _ = _inner(_column_boxes(g, layout == "portrait")[0], k)
    for size, gap in (*HEAD_LINES, COMPANIES_HEAD):
        y += round((size + gap) * k)
    return {c: (x0, y + i * round(COMPANY_ROW * k), x1, y + i * round(COMPANY_ROW * k) + round(COMPANY_H * k))
            for i, c in enumerate(COMPANIES)}


class PictureInk:
    """Where a panel is drawn: into a picture (its tokens pasted)."""

    def __init__(self, img: Image.Image) -> None:
        self.d: Any = ImageDraw.Draw(img)
        self.img = img

    def token(self, colour: str, size: int, cx: float, cy: float) -> None:
        paste(self.img, P.token(colour, size), cx, cy)


class SceneInk:
    """Where a panel is drawn: into a page's scene (``renderers/scene.py``), its tokens as sprites."""

    def __init__(self, recorder: Recorder) -> None:
        self.d: Any = recorder
        self.recorder = recorder

    def token(self, colour: str, size: int, cx: float, cy: float) -> None:
        self.recorder.sprite(f"panel-{colour}", token_sprite(colour), cx, cy, size)


Ink = PictureInk | SceneInk


def token_sprite(colour: str) -> str:
    """The art name of a ``colour`` locomotive (``art.py``)."""
    return f"loco-{colour}"


class _Panel:
    """A column of text and small pictures, top to bottom, at scale ``k``."""

    def __init__(self, ink: Ink, box: tuple[int, int, int, int], language: str, k: float) -> None:
        self.ink, self.d, self.language, self.k = ink, ink.d, language, k
        self.x0, self.y, self.x1, self.y1 = _inner(box, k)

    def n(self, v: float) -> int:
        return round(v * self.k)

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    def line(self, value: str, size: int = 17, *, bold: bool = False, fill=style.INK, gap: int = 6) -> None:
        draw_text(self.d, (self.x0, self.y), value, self.n(size), bold=bold, fill=fill, max_width=self.width)
        self.y += self.n(size + gap)

    def wrapped(self, value: str, size: int = 15, *, lines: int = 2, fill=style.INK) -> None:
        for part in wrap(value, self.width, self.n(size), max_lines=lines):
            draw_text(self.d, (self.x0, self.y), part, self.n(size), fill=fill)
            self.y += self.n(size + 4)
        self.y += self.n(2)

    def lines_of(self, value: str, size: int = 15) -> int:
        """How many lines ``value`` takes whole at ``size`` (so it is shown whole or not at all)."""
        return len(wrap(value, self.width, self.n(size), max_lines=NEWS_LINES))

    def room(self, height: int) -> bool:
        return self.y + self.n(height) <= self.y1


def _panel(ink: Ink, g: Geometry, view, events: Sequence, language: str, portrait: bool) -> None:
    d = ink.d
    x0, y0, x1, y1 = g.panel
    d.rectangle(g.panel, fill=style.PANEL)
    d.line((x0, y0, x1, y0) if portrait else (x0, y0, x0, y1), fill=style.PANEL_EDGE, width=2)
    k = _panel_scale(g, portrait)
    left_box, right_box = _column_boxes(g, portrait)
    left = _Panel(ink, left_box, language, k)
    right = _Panel(ink, right_box, language, k) if portrait else left
    state = (t(language, "pc.img.to_move", player=view.players[view.to_move]) if view.to_move is not None
             else t(language, "pc.img.game_over"))
    # a picture that closes a round says so, as its caption does ("Round 6 is over.")
    closed = [e.cycle for e in events if e.kind == "cycle_ended"]
    round_line = (t(language, "pc.img.round_over", cycle=closed[-1]) if closed and not view.finished
                  else t(language, "pc.img.round", cycle=view.cycle))
    heads = (t(language, "pc.img.title"), round_line, state)
    for value, (size, gap), fill in zip(heads, HEAD_LINES, (style.INK, style.INK, (0, 110, 70)), strict=True):
        left.line(value, size, bold=True, fill=fill, gap=gap)
    _companies(left, view)
    _screens(right, view)
    if view.draft is not None:
        right.y += right.n(4)
        right.wrapped(draft_text(view, language), 16, fill=(0, 110, 70))
    shown = [event_line(e, view.players, language) for e in events
             if e.visible_to(None) and e.kind in _NEWS]
    if shown and right.room(40):
        right.y += right.n(4)
        right.line(t(language, "pc.img.recent"), 17, bold=True, fill=(190, 95, 0))
        for line in shown[-6:]:
            count = right.lines_of(line)
            if not right.room(count * 19 + 2 + 60):        # whole lines only, above the legend
                break
            right.wrapped(line, 15, lines=count)
    _legend(right, g)


def _legend(p: _Panel, g: Geometry) -> None:
    """What the marks on the map mean, at the foot of the panel, two to a line."""
    s = g.size * 0.5
    items = ("city", "barrier", "draft", "recent")
    row_h, col_w = p.n(26), p.width // 2
    top = p.y1 - row_h * 2
    for index, item in enumerate(items):
        x, y = p.x0 + (index % 2) * col_w, top + (index // 2) * row_h + row_h // 2
        if item == "city":
            p.d.ellipse((x, y - s * 0.6, x + s * 1.2, y + s * 0.6), fill=style.WHITE, outline=style.INK)
            draw_text(p.d, (x + s * 0.6, y + 1), "2", p.n(13), bold=True, anchor="mm")
        elif item == "barrier":
            for dx in (0, s * 0.9):
                p.d.line((x + dx, y, x + dx + s * 0.5, y), fill=P.BARRIER, width=max(3, round(s * 0.35)))
        else:
            colour = P.DRAFT if item == "draft" else P.RECENT
            p.d.rounded_rectangle((x, y - s * 0.6, x + s * 1.4, y + s * 0.6), radius=3, outline=colour,
                                  width=max(2, round(s * 0.3)))
        draw_text(p.d, (x + s * 1.4 + p.n(8), y), t(p.language, f"pc.img.legend_{item}"), p.n(14), anchor="lm",
                  fill=style.MUTED, max_width=col_w - round(s * 1.4) - p.n(12))


# Events the panel's "just now" lists (placements show on the map; a finished build says where).
_NEWS = frozenset({"build_completed", "traded", "build_cancelled", "turn_skipped", "game_ended"})


def _companies(p: _Panel, view) -> None:
    """Value track and storage boards: one row per company, its token, word, value bar, storage."""
    p.line(t(p.language, "pc.img.companies"), COMPANIES_HEAD[0], bold=True, gap=COMPANIES_HEAD[1])
    top = max(10, *view.values.values())
    word_w = p.n(118)
    bar_x = p.x0 + p.n(30) + word_w
    bar_w = p.width - (bar_x - p.x0) - p.n(100)
    for c in COMPANIES:
        cy = p.y + p.n(COMPANY_H / 2)
        p.ink.token(c, p.n(24), p.x0 + p.n(12), cy)
        draw_text(p.d, (p.x0 + p.n(30), cy), colour_word(c, p.language), p.n(16), anchor="lm", max_width=word_w)
        p.d.rectangle((bar_x, cy - p.n(8), bar_x + bar_w, cy + p.n(8)), fill=style.PAPER_DARK)
        filled = round(bar_w * view.values[c] / top)
        if filled:
            p.d.rectangle((bar_x, cy - p.n(8), bar_x + filled, cy + p.n(8)), fill=P.COMPANY_RGB[c])
        draw_text(p.d, (bar_x + bar_w + p.n(8), cy), str(view.values[c]), p.n(17), bold=True, anchor="lm")
        draw_text(p.d, (p.x1, cy), f"▣ {view.storage[c]}", p.n(16), fill=style.MUTED, anchor="rm")
        p.y += p.n(COMPANY_ROW)
    draw_text(p.d, (bar_x, p.y), t(p.language, "pc.img.value"), p.n(13), fill=style.MUTED)
    draw_text(p.d, (p.x1, p.y), f"▣ {t(p.language, 'pc.img.storage')}", p.n(13), fill=style.MUTED, anchor="ra")
    p.y += p.n(26)


def _screens(p: _Panel, view) -> None:
    """The number behind every screen; the player to move marked."""
    p.line(t(p.language, "pc.img.players"), 17, bold=True, gap=8)
    for seat, name in enumerate(view.players):
        bold = seat == view.to_move
        count = t(p.language, "pc.img.screen", count=view.screens[seat])
        count_w = draw_text(p.d, (p.x1, p.y), count, p.n(16), bold=bold, anchor="ra")
        draw_text(p.d, (p.x0, p.y), f"{'▶ ' if bold else ''}{name}", p.n(16), bold=bold,
                  max_width=p.width - count_w - p.n(10))
        p.y += p.n(22)
    p.y += p.n(6)


def board_image(view, events: Sequence = (), language: str = "en", *, width: int = 1280,
                layout: str = "landscape") -> Image.Image:
    g = geometry(width, layout)
    img = background(width, layout).copy()
    d = ImageDraw.Draw(img)
    rims(d, g, view, events)
    for loco in locomotives(view, width, layout):
        paste(img, P.token(loco.colour, loco.size), loco.x, loco.y)
    city_names(d, g, width, layout)
    _panel(PictureInk(img), g, view, events, language, layout == "portrait")
    return img


def png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of ``img`` in 256 colours: its own (octree), or ``palette``'s (several times faster)."""
    if palette is None:
        small = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    else:
        small = img.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=4)
def map_palette(width: int, layout: str) -> Image.Image:
    """The 256 colours of every map picture of a size, taken once from a sample board that shows
    every kind of mark (all six companies, a build under way, legal hexes, a finished build)."""
    starts = dict(zip(COMPANIES, sorted(h for h, c in HEXES.items() if c.kind == "start"), strict=True))
    rural = [h for h, c in HEXES.items() if c.kind == "rural"]
    cities = [h for h, c in HEXES.items() if c.kind == "city"]
    board: dict[str, tuple[str, ...]] = {h: (c,) for c, h in starts.items()}
    for i, c in enumerate(COMPANIES):
        board[cities[i]] = (c,)
        board[rural[i]] = (c, COMPANIES[i - 1])
    values = {c: 3 * i for i, c in enumerate(COMPANIES)}
    sample = ConnectionView(
        viewer=None, players=tuple(f"Player {i}" for i in range(6)), first_player=0, to_move=0, cycle=9,
        holding_limit=10, start_hexes=starts, board=board, values=values, storage=dict.fromkeys(COMPANIES, 9),
        screens=(5,) * 6, holdings=None, draft=Draft("red", (rural[10], rural[11]), 2), legal_hexes=tuple(rural[12:16]),
        pending_trade=None, value_history=(values,), finished=False, end_reason=None, scores=None, penalties=None,
        all_holdings=None, winners=())
    events = (BuildCompleted(1, "blue", (rural[20], cities[8]), 2, 5), Traded(2, "red", "blue", 2))
    return board_image(sample, events, "en", width=width, layout=layout).quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def render_map(view, *, events: Sequence = (), language: str = "en", width: int = 1280,
               layout: str = "landscape") -> bytes:
    """The board for ``view`` (a public ``ConnectionView``) with what ``events`` changed highlighted."""
    return png(board_image(view, events, language, width=width, layout=layout), map_palette(width, layout))
