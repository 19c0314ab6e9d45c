"""Every small picture the Paris Paris map pastes, by name: a closed set a page can fetch once.

The map picture (``mapimage``) pastes shops, badges, rings and icons; each has a name here, and
``picture`` draws it exactly as the map always has (the same calls, the same arguments), so the
chat's pictures do not change. What varies within a name is its size, the scale of its lines
(``k``, pixels per design unit) and its label (a player's initial, a slot's number): a page draws
the letterless picture and the label as text over it, so initials never make a new picture.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .. import draw as D
from .. import style
from ..fonts import font
from ..scene import Words
from . import buslines, sprites

SEAT_COLOURS = {pc.name: pc for pc in style.PLAYER_COLOURS}
LINE_COLOURS = tuple(buslines.COLOURS)
HOUSE_RINGS = {"plain": None, "white": style.WHITE, "alert": style.ALERT}
MARK_EDGE = (30, 30, 35)

# Labelled pictures: the share of their size the label's font takes, and how far below the
# centre the label sits (a share of the picture's width), as ``draw.house`` and ``draw.disc`` place it.
LABELLED = {"house": (0.62, 0.155), "badge": (0.62, 0.02), "mark": (0.62, 0.02), "slot": (0.62, 0.02)}


def names() -> frozenset[str]:
    """The closed set of names ``picture`` draws."""
    out = {"bus", "cross", "evicted", "slot-taken"}
    for seat in SEAT_COLOURS:
        out |= {f"house-{seat}-{ring}" for ring in HOUSE_RINGS} | {f"mark-{seat}"}
    for colour in LINE_COLOURS:
        out |= {f"badge-{colour}", f"slot-{colour}", f"line-{colour}", f"line-{colour}-faded",
                f"dash-{colour}", f"ring-{colour}", f"glow-{colour}"}
        out |= {f"ring-{colour}-{other}" for other in LINE_COLOURS if other != colour}
    return frozenset(out | {"dash-alert"})


def picture(name: str, size: int, k: float, label: str = "") -> Image.Image:
    """The picture ``name`` (one of ``names()`` but the glows), ``size`` pixels, lines at scale ``k``,
    ``label`` written on it (where it has one)."""
    kind, _, rest = name.partition("-")
    if kind == "house":
        seat, ring = rest.split("-")
        pc = SEAT_COLOURS[seat]
        return D.house(pc.rgb, pc.ink, label, size, HOUSE_RINGS[ring])
    if kind == "mark":
        pc = SEAT_COLOURS[rest]
        return D.disc(pc.rgb, size, outline=MARK_EDGE, text=label, ink=pc.ink, border=0.08)
    if kind == "badge":
        return D.disc(buslines.COLOURS[rest], size, outline=style.WHITE, text=label, ink=buslines.INK[rest],
                      border=0.1)
    if name == "slot-taken":
        return D.disc(style.PANEL, size, outline=style.MUTED, text=label, ink=style.MUTED, border=0.06)
    if kind == "slot":
        return D.disc(buslines.COLOURS[rest], size, text=label, ink=buslines.INK[rest])
    if name == "cross":
        return D.disc(style.ALERT, size, outline=style.WHITE, text="✕", ink=style.WHITE, border=0.1)
    if name == "evicted":
        return D.disc(style.ALERT, size, text="✕", ink=style.WHITE)
    if name == "bus":
        return sprites.bus_icon(size)
    if kind == "line":
        colour, _, faded = rest.partition("-")
        return _faded(colour, size) if faded else buslines.icon(colour, size)
    if name == "dash-alert":
        return sprites.ring(style.ALERT, size, 5 * k, dashed=True)
    if kind == "dash":
        return sprites.ring(buslines.COLOURS[rest], size, 4.5 * k, dashed=True)
    if kind == "ring":
        first, _, second = rest.partition("-")
        return sprites.ring(buslines.COLOURS[first], size, 7 * k, buslines.COLOURS[second] if second else None)
    raise KeyError(name)


@lru_cache(maxsize=64)
def _faded(colour: str, size: int) -> Image.Image:
    """A discard slot's empty mark: the line's shape, without its rim, at 45 % opacity."""
    icon = buslines.icon(colour, size, outline=False).copy()
    icon.putalpha(icon.getchannel("A").point(lambda a: a * 45 // 100))
    return icon


def label_ink(name: str) -> tuple[int, int, int]:
    """The colour of the label ``picture`` writes on ``name``."""
    kind, _, rest = name.partition("-")
    if kind in ("house", "mark"):
        return SEAT_COLOURS[rest.split("-")[0]].ink
    if name == "slot-taken":
        return style.MUTED
    return buslines.INK[rest]


def label_words(name: str, label: str, size: int, x: float, y: float, width: int) -> Words:
    """The label ``picture`` writes on ``name`` (``size`` pixels, centred on (x, y), ``width`` wide as
    drawn), as words a page writes over the letterless picture."""
    share, below = LABELLED[name.partition("-")[0]]
    if len(label) > 1 and name.partition("-")[0] != "house":
        share = 0.5
    face = font(round(size * share), bold=True)
    return Words(label, x, y + width * below, int(face.size), True, "#{:02x}{:02x}{:02x}".format(*label_ink(name)),
                 "mm", face.getlength(label))
