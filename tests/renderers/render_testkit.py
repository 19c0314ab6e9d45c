"""Pixel helpers for renderer tests."""

from __future__ import annotations

import io

from PIL import Image


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
