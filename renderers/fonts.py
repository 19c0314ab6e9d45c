"""Fonts shipped with the package, and text that they can draw.

We ship DejaVu Sans Condensed (regular and bold; Bitstream Vera licence, see
fonts/LICENSE-DejaVu.txt): about 1.3 MB, it covers Latin, Greek, Cyrillic, Armenian,
Georgian, Hebrew, basic Arabic and many symbols, including monochrome emoticons. For
characters it cannot draw (CJK, most colour emoji) we degrade gracefully: such a
character is dropped from the image text, and a name left with nothing drawable shows
as "?". The text renderer always keeps the real name.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_FOLDER = Path(__file__).with_name("fonts")
_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
ELLIPSIS = "…"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels (cached)."""
    path = _FOLDER / _FILES[bold]
    try:
        return ImageFont.truetype(str(path), max(6, size), layout_engine=ImageFont.Layout.BASIC)
    except OSError:  # a broken install: fall back to Pillow's own scalable font
        fallback = ImageFont.load_default(size=max(6, size))
        if not isinstance(fallback, ImageFont.FreeTypeFont):     # Pillow without FreeType: no fonts at all
            raise
        return fallback


@lru_cache(maxsize=1)
def _notdef_mask() -> bytes:
    probe = font(20)
    return bytes(probe.getmask("\U0010fffd"))


@lru_cache(maxsize=16384)
def can_draw(char: str) -> bool:
    """True when the shipped font has a glyph for ``char``."""
    if char.isspace():
        return True
    if unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return False  # combining marks and format controls (ZWJ, variation selectors): drop
    probe = font(20)
    mask = probe.getmask(char)
    return bytes(mask) != _notdef_mask() or mask.size != probe.getmask("\U0010fffd").size


def drawable(text: str, *, empty: str = "?") -> str:
    """``text`` with characters the font cannot draw removed (``empty`` if nothing is left)."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(c for c in text if can_draw(c))
    kept = " ".join(kept.split())
    return kept or empty


def fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text`` (drawable) truncated with an ellipsis to fit ``width`` pixels."""
    face = font(size, bold)
    text = drawable(text)
    if face.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def wrap(text: str, width: int, size: int, bold: bool = False, max_lines: int = 2) -> list[str]:
    """``text`` (drawable) broken into at most ``max_lines`` lines of ``width`` pixels."""
    face = font(size, bold)
    words = drawable(text).split(" ")
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        candidate = f"{current} {word}".strip()
        if face.getlength(candidate) <= width or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[i:])
            break
    lines.append(current)
    return [fit(line, width, size, bold) for line in lines[:max_lines]]
