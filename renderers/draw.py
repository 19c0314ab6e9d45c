"""Drawing helpers: antialiased sprites (drawn large, scaled down, cached) and text."""

from __future__ import annotations

import itertools
import math
import re
from functools import lru_cache

from PIL import Image, ImageDraw

from . import style
from .fonts import drawable, fit, font

SUPER = 4  # supersampling factor for sprites


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Polygon for a line-colour shape (not for circles)."""
    if shape == "square":
        k = r * 0.82
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "triangle":
        return [(cx + r * math.cos(a), cy + r * math.sin(a) + r * 0.15)
                for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "star":
        points = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            points.append((cx + rr * math.cos(a), cy + rr * math.sin(a) + r * 0.05))
        return points
    raise ValueError(shape)


def draw_shape(d: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill, outline=None,
               width: int = 1) -> None:
    if shape == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    else:
        d.polygon(shape_points(shape, cx, cy, r), fill=fill, outline=outline, width=width)


@lru_cache(maxsize=1024)
def shape_icon(shape: str, rgb: tuple, size: int, outline: bool = True) -> Image.Image:
    """A small antialiased ``shape`` in colour ``rgb`` (RGBA, ``size`` square)."""
    big = size * SUPER
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    r = big / 2 - SUPER * 1.5
    draw_shape(d, shape, big / 2, big / 2, r, tuple(rgb) + (255,),
               outline=(40, 40, 40, 255) if outline else None, width=max(1, SUPER))
    return im.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def house(fill: tuple, ink: tuple, letter: str, size: int, ring: tuple | None = None) -> Image.Image:
    """A shop: a little house in the owner's colour with their initial (RGBA sprite)."""
    pad = 3 if ring else 1
    total = size + 2 * pad
    big = total * SUPER
    im = Image.new("RGBA", (big, round(big * 1.05)), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    s = SUPER
    o = pad * s
    w = size * s
    roof = w * 0.42
    body = [(o, o + roof), (o + w / 2, o), (o + w, o + roof), (o + w, o + w * 1.05), (o, o + w * 1.05)]
    if ring:
        g = pad * s
        glow = [(o - g, o + roof), (o + w / 2, o - g * 1.3), (o + w + g, o + roof), (o + w + g, o + w * 1.05 + g),
                (o - g, o + w * 1.05 + g)]
        d.polygon(glow, fill=ring + (255,))
    inset = 1.6 * s
    inner = [(o + inset, o + roof + inset * 0.3), (o + w / 2, o + inset * 1.2), (o + w - inset, o + roof + inset * 0.3),
             (o + w - inset, o + w * 1.05 - inset), (o + inset, o + w * 1.05 - inset)]
    d.polygon(body, fill=(30, 30, 35, 255))
    d.polygon(inner, fill=fill + (255,))
    f = font(round(size * 0.62 * s), bold=True)
    d.text((o + w / 2, o + w * 0.68), letter, font=f, fill=ink + (255,), anchor="mm")
    return im.resize((total, round(total * 1.05)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def disc(fill: tuple, size: int, outline: tuple | None = None, text: str = "", ink: tuple = (255, 255, 255),
         border: float = 0.12) -> Image.Image:
    """A round badge with optional text (RGBA sprite)."""
    big = size * SUPER
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    if outline:
        d.ellipse((0, 0, big - 1, big - 1), fill=outline + (255,))
        b = big * border
        d.ellipse((b, b, big - 1 - b, big - 1 - b), fill=fill + (255,))
    else:
        d.ellipse((0, 0, big - 1, big - 1), fill=fill + (255,))
    if text:
        f = font(round(big * (0.62 if len(text) == 1 else 0.5)), bold=True)
        d.text((big / 2, big / 2 + big * 0.02), text, font=f, fill=ink + (255,), anchor="mm")
    return im.resize((size, size), Image.Resampling.LANCZOS)


def paste(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste ``sprite`` centred on (cx, cy)."""
    img.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)


SHRINK = 0.72   # texts that do not fit shrink down to this share of their size before anything else


KEEP = "\x00"   # stands for a space where a line must not break (inside a kept phrase)
KEEP_HYPHEN = "\x01"   # and for a hyphen there ("Saint-Nicolas" stays whole, not "Saint- / Nicolas")


def line_pieces(value: str) -> list[str]:
    """``value`` cut where a line may break: after a space (kept on the left) or a hyphen."""
    return re.findall(r"[^ -]*(?:-| +|$)", value)[:-1] or [value]


@lru_cache(maxsize=4096)
def fit_lines(value: str, width: int, size: int, bold: bool = False, max_lines: int = 1,
              min_size: int | None = None, keep: tuple[str, ...] = ()) -> tuple[tuple[str, ...], int]:
    """``value`` (drawable) as at most ``max_lines`` lines no wider than ``width`` pixels, and the size.

    Tries ``size`` first, then smaller sizes down to ``min_size`` (default ``SHRINK`` of it); at each
    size, one line, then the most even break into two lines, and so on. Nothing is ever cut: when
    no size fits, the text comes back at the smallest size on as few lines as it can (callers that
    must never overflow, such as player names, cut it themselves with ``fonts.fit``). Phrases in
    ``keep`` (a station's name in a sentence) are never broken.
    """
    value = drawable(value, empty="")
    for phrase in keep:
        value = value.replace(phrase, phrase.replace(" ", KEEP).replace("-", KEEP_HYPHEN))
    pieces = [piece.replace(KEEP_HYPHEN, "-").replace(KEEP, " ") for piece in line_pieces(value)]
    smallest = max(6, min_size if min_size is not None else round(size * SHRINK))
    fallback = None
    for s in range(size, smallest - 1, -1):
        face = font(s, bold)
        for count in range(1, min(max_lines, len(pieces)) + 1):
            best = None
            for cuts in itertools.combinations(range(1, len(pieces)), count - 1):
                bounds = (0, *cuts, len(pieces))
                lines = tuple("".join(pieces[a:b]).strip() for a, b in itertools.pairwise(bounds))
                widest = max(face.getlength(line) for line in lines)
                if best is None or widest < best[0]:
                    best = (widest, lines)
            assert best is not None, "one line at least is always tried"
            if best[0] <= width:
                return best[1], s
            if s == smallest and (fallback is None or best[0] < fallback[0]):
                fallback = best
    assert fallback is not None, "the smallest size keeps its best try"
    return fallback[1], smallest


def text(d: ImageDraw.ImageDraw, xy, value: str, size: int, *, bold: bool = False, fill=style.INK,
         anchor: str = "la", max_width: int | None = None, stroke: int = 0, stroke_fill=style.WHITE) -> int:
    """Draw ``value`` (made drawable) on one line; returns the drawn width.

    Too wide for ``max_width``, it shrinks (down to ``SHRINK`` of ``size``); only text that still
    does not fit, such as a very long player name, is shortened with an ellipsis.
    """
    value = drawable(value, empty="")
    if max_width:
        (value,), size = fit_lines(value, max_width, size, bold)
        value = fit(value, max_width, size, bold)
    f = font(size, bold)
    d.text(xy, value, font=f, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
    return round(f.getlength(value))
