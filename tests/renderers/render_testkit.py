"""Pixel helpers for renderer tests."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from renderers.scene import Shape


def load(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a, b, tolerance: int = 40) -> bool:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 <= tolerance


def near_colour(img: Image.Image, xy, rgb, radius: int = 2, tolerance: int = 40) -> bool:
    """True when some pixel within ``radius`` of ``xy`` is close to ``rgb``."""
    x0, y0 = xy
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            x, y = x0 + dx, y0 + dy
            if 0 <= x < img.width and 0 <= y < img.height and close(img.getpixel((x, y)), rgb, tolerance):
                return True
    return False


def count_colour(img: Image.Image, box, rgb, tolerance: int = 30) -> int:
    colours = img.crop(box).getcolors(maxcolors=1 << 24)
    return sum(count for count, px in colours if close(px, rgb, tolerance))


def badge_number(img: Image.Image, offer, index: int, width: int = 1280, most: int = 6) -> int:
    """The number printed on the map's badge of ``offer[index]`` (``offer``: the tiles the map
    was drawn with, in offer order), read by comparing the badge's inside with badges drawn
    with each number 1..``most``. Fails when no number matches (the badge is covered or missing)."""
    from renderers import draw, style
    from renderers.paris_paris import buslines, layout

    tile = offer[index]
    bx, by = layout.offer_badge_xy(offer, index, width)
    size = round(2 * layout.BADGE_RADIUS * layout.scale(width))
    r = int(size * 0.3)
    scores = {}
    for number in range(1, most + 1):
        sprite = draw.disc(buslines.COLOURS[tile.colour], size, outline=style.WHITE, text=str(number),
                           ink=buslines.INK[tile.colour], border=0.1).convert("RGB")
        x0, y0 = round(bx - sprite.width / 2), round(by - sprite.height / 2)
        scores[number] = sum(
            sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), sprite.getpixel((x - x0, y - y0)), strict=True))
            for x in range(bx - r, bx + r + 1) for y in range(by - r, by + r + 1))
    best = min(scores, key=scores.get)
    ranked = sorted(scores.values())
    assert ranked[0] * 3 < ranked[1], f"badge {index} of {tile} shows no clear number: {scores}"
    return best


def scene_rgb(colour: str | None) -> tuple[int, int, int] | None:
    """A scene's "#rrggbb" as PIL's colour (None: none)."""
    return None if colour is None else (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def lay_shape(d: ImageDraw.ImageDraw, shape: Shape) -> None:
    """A scene's shape drawn by PIL as the page draws it in SVG: a box (rounded where it says), an
    ellipse, a line, or a polygon."""
    fill, stroke, width = scene_rgb(shape.fill), scene_rgb(shape.stroke), round(shape.width) or 1
    box = [c for point in shape.points for c in point]
    if shape.kind == "rect" and shape.radius:
        d.rounded_rectangle(box, radius=shape.radius, fill=fill, outline=stroke, width=width)
    elif shape.kind == "rect":
        d.rectangle(box, fill=fill, outline=stroke, width=width)
    elif shape.kind == "ellipse":
        d.ellipse(box, fill=fill, outline=stroke, width=width)
    elif shape.kind == "line":
        d.line(list(shape.points), fill=stroke, width=round(shape.width), joint="curve")
    else:
        d.polygon(list(shape.points), fill=fill, outline=stroke, width=width)
