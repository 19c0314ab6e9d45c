"""Paris Paris's own sprites: the ring round a station, the pill of a points tag, the bus."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from ..draw import SUPER


@lru_cache(maxsize=1024)
def ring(colour: tuple, size: int, thickness: float, colour2: tuple | None = None,
         dashed: bool = False) -> Image.Image:
    """A ring (halo) around a station; two colours split it in halves (RGBA sprite)."""
    big = size * SUPER
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    w = max(1, round(thickness * SUPER))
    box = (w / 2, w / 2, big - 1 - w / 2, big - 1 - w / 2)
    if dashed:
        for start in range(0, 360, 30):
            d.arc(box, start, start + 18, fill=colour + (255,), width=w)
    elif colour2 is None:
        d.ellipse(box, outline=colour + (255,), width=w)
    else:
        d.arc(box, 90, 270, fill=colour + (255,), width=w)
        d.arc(box, 270, 90, fill=colour2 + (255,), width=w)
    return im.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def pill(width: int, height: int, fill: tuple, outline: tuple | None = None, border: int = 0) -> Image.Image:
    """A rounded rectangle (RGBA sprite)."""
    bw, bh = width * SUPER, height * SUPER
    im = Image.new("RGBA", (bw, bh), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    radius = bh // 2
    if outline and border:
        d.rounded_rectangle((0, 0, bw - 1, bh - 1), radius, fill=outline + (255,))
        b = border * SUPER
        d.rounded_rectangle((b, b, bw - 1 - b, bh - 1 - b), max(1, radius - b), fill=fill + (255,))
    else:
        d.rounded_rectangle((0, 0, bw - 1, bh - 1), radius, fill=fill + (255,))
    return im.resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def bus_icon(size: int) -> Image.Image:
    """A little bus, the first player's token."""
    big = size * SUPER
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    s = big / 16
    d.rounded_rectangle((1 * s, 3 * s, 15 * s, 13 * s), radius=2.5 * s, fill=(40, 40, 48, 255))
    d.rounded_rectangle((2.5 * s, 4.5 * s, 13.5 * s, 8.5 * s), radius=1 * s, fill=(200, 225, 245, 255))
    d.line((8 * s, 4.5 * s, 8 * s, 8.5 * s), fill=(40, 40, 48, 255), width=round(s))
    d.ellipse((3 * s, 11 * s, 6.5 * s, 14.5 * s), fill=(20, 20, 20, 255), outline=(240, 240, 240, 255),
              width=round(s * 0.7))
    d.ellipse((9.5 * s, 11 * s, 13 * s, 14.5 * s), fill=(20, 20, 20, 255), outline=(240, 240, 240, 255),
              width=round(s * 0.7))
    return im.resize((size, size), Image.Resampling.LANCZOS)
