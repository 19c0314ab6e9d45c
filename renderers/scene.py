"""A board as a page draws it: a static picture fetched once, and a scene of what is on it now.

A game's renderer may describe its map picture as a **scene** (``Presenter.scene``) instead of a
picture per move: the static board (what never changes in a game: the map and its labels) is one
named picture, drawn once and fetched once; pieces are small named pictures (sprites) placed at
points of the board; marks (a rim, a bar) and words are simple shapes. Every position comes from
the functions the game's own picture is drawn with, so the page and the chat show the same board.

The pictures a scene names are a closed set per game (``Presenter.art_names``): a name outside it
is refused before anything is drawn. ``Recorder`` stands in for a ``PIL.ImageDraw.ImageDraw``: a
picture's drawing code run against it leaves the shapes and words it would have drawn, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from PIL import ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]
ShapeKind = Literal["rect", "ellipse", "line", "polygon"]


def _rgb(colour: Any) -> str | None:
    """A PIL fill as "#rrggbb" (None: no fill)."""
    if colour is None:
        return None
    return "#{:02x}{:02x}{:02x}".format(*tuple(colour)[:3])


def _n(value: float) -> float:
    """A coordinate as sent: a tenth of a pixel is finer than any screen shows the board."""
    return round(float(value), 1)


@dataclass(frozen=True, slots=True)
class Piece:
    """A sprite (a name of the game's art) centred on (x, y), ``size`` pixels wide and ``height``
    high (0: square). ``key`` is the piece's identity from one scene to the next: a piece whose key
    moved slides to its new place."""

    key: str
    sprite: str
    x: float
    y: float
    size: float
    height: float = 0.0

    def wire(self) -> list[Any]:
        out = [self.key, self.sprite, _n(self.x), _n(self.y), _n(self.size)]
        if self.height and self.height != self.size:
            out.append(_n(self.height))
        return out


@dataclass(frozen=True, slots=True)
class Shape:
    """A rectangle or ellipse (two corners), a line through ``points`` or a filled polygon."""

    kind: ShapeKind
    points: tuple[Point, ...]
    fill: str | None = None            # "#rrggbb"
    stroke: str | None = None
    width: float = 0.0
    radius: float = 0.0                # a rounded rectangle's corners

    def wire(self) -> list[Any]:
        out: list[Any] = [self.kind, [_n(c) for point in self.points for c in point], self.fill, self.stroke,
                          _n(self.width)]
        if self.radius:
            out.append(_n(self.radius))
        return out


@dataclass(frozen=True, slots=True)
class Words:
    """A line of text as the picture draws it: at (x, y) by ``anchor`` (PIL's: "la", "lm", "mm",
    "ra" ...), ``size`` pixels, and ``length`` wide in the picture's font (the page fits it to that).
    Several lines (``text`` with newlines, as PIL's ``multiline_text`` with no spacing) are centred
    on one another, and ``length`` is the widest's. ``halo``: a rim that wide round the letters, in
    ``halo_fill`` (PIL's stroke), keeping them readable over lines."""

    text: str
    x: float
    y: float
    size: int
    bold: bool
    fill: str
    anchor: str
    length: float
    halo: float = 0.0
    halo_fill: str | None = None

    def wire(self) -> list[Any]:
        out = [self.text, _n(self.x), _n(self.y), self.size, int(self.bold), self.fill, self.anchor, _n(self.length)]
        if self.halo:
            out += [_n(self.halo), self.halo_fill]
        return out


Drawn = Piece | Shape | Words


@dataclass(frozen=True, slots=True)
class Scene:
    """What a page draws for one picture: ``board`` (a static picture of the game's art, ``width``
    by ``height``), then ``below`` (marks under the pieces), the pieces, ``over`` (static art laid
    over the pieces: names that must stay readable, or None), then ``above`` (marks and words on
    top). Everything in the board's pixels."""

    board: str
    width: int
    height: int
    pieces: tuple[Piece, ...] = ()
    below: tuple[Shape, ...] = ()
    over: str | None = None
    above: tuple[Shape | Words | Piece, ...] = ()
    board_height: int | None = None     # the static board's (and ``over``'s) height, when not ``height``

    def art(self) -> frozenset[str]:
        """Every name of the game's art this scene shows."""
        names = {self.board, *(p.sprite for p in self.pieces), *(p.sprite for p in self.above if isinstance(p, Piece))}
        if self.over is not None:
            names.add(self.over)
        return frozenset(names)

    def wire(self, url: Any) -> dict[str, Any]:
        """The scene as JSON-ready values, each art name as ``url(name)`` gives its address."""
        return {"board": url(self.board), "w": self.width, "h": self.height,
                "over": None if self.over is None else url(self.over),
                "sprites": {name: url(name) for name in sorted(self.art())},
                "below": [s.wire() for s in self.below],
                "pieces": [p.wire() for p in self.pieces],
                "above": [[type(d).__name__.lower(), *d.wire()] for d in self.above],
                **({} if self.board_height is None else {"bh": self.board_height})}


@dataclass
class Recorder:
    """The part of ``PIL.ImageDraw.ImageDraw`` a picture's panels use, keeping what is drawn
    (``drawn``) instead of drawing it; ``sprite`` places a named piece the same way."""

    drawn: list[Drawn] = field(default_factory=list)

    def rectangle(self, box: Sequence[float], fill: Any = None, outline: Any = None, width: float = 1) -> None:
        self.drawn.append(Shape("rect", _corners(box), _rgb(fill), _rgb(outline), width if outline else 0))

    def rounded_rectangle(self, box: Sequence[float], radius: float = 0, fill: Any = None, outline: Any = None,
                          width: float = 1) -> None:
        self.drawn.append(Shape("rect", _corners(box), _rgb(fill), _rgb(outline), width if outline else 0,
                                radius=radius))

    def ellipse(self, box: Sequence[float], fill: Any = None, outline: Any = None, width: float = 1) -> None:
        self.drawn.append(Shape("ellipse", _corners(box), _rgb(fill), _rgb(outline), width if outline else 0))

    def line(self, xy: Sequence[Any], fill: Any = None, width: float = 1, joint: str | None = None) -> None:
        self.drawn.append(Shape("line", _points(xy), None, _rgb(fill), width))

    def polygon(self, xy: Sequence[Any], fill: Any = None, outline: Any = None, width: float = 1) -> None:
        self.drawn.append(Shape("polygon", _points(xy), _rgb(fill), _rgb(outline), width if outline else 0))

    def text(self, xy: Point, text: str, fill: Any = None, font: ImageFont.FreeTypeFont | None = None,
             anchor: str | None = None, stroke_width: float = 0, stroke_fill: Any = None) -> None:
        assert font is not None, "the pictures always name their font"
        bold = "Bold" in str(getattr(font, "path", ""))
        self.drawn.append(Words(text, xy[0], xy[1], int(font.size), bold, _rgb(fill) or "#000000", anchor or "la",
                                font.getlength(text), stroke_width, _rgb(stroke_fill) if stroke_width else None))

    def multiline_text(self, xy: Point, text: str, fill: Any = None, font: ImageFont.FreeTypeFont | None = None,
                       anchor: str | None = None, align: str = "left", spacing: float = 0) -> None:
        assert font is not None and spacing == 0 and align == "center", "the lines the pictures draw"
        self.drawn.append(Words(text, xy[0], xy[1], int(font.size), "Bold" in str(getattr(font, "path", "")),
                                _rgb(fill) or "#000000", anchor or "la",
                                max(font.getlength(line) for line in text.split("\n"))))

    def sprite(self, key: str, name: str, cx: float, cy: float, size: float, height: float = 0.0) -> None:
        self.drawn.append(Piece(key, name, cx, cy, size, height))


def _corners(box: Sequence[float]) -> tuple[Point, ...]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return ((x0, y0), (x1, y1))


def _points(xy: Sequence[Any]) -> tuple[Point, ...]:
    """PIL's point lists: pairs, or flat numbers."""
    if xy and not isinstance(xy[0], (tuple, list)):
        flat = [float(v) for v in xy]
        return tuple(zip(flat[0::2], flat[1::2], strict=True))
    return tuple((float(x), float(y)) for x, y in xy)
