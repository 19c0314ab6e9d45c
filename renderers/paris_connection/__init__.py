"""Pictures and words for a game of Paris Connection.

Pictures (PNG bytes, pure functions of a public ``ConnectionView`` and public events):
    render_map(view, *, events=(), language="en", width=1280, layout="landscape")   (mapimage.py)
    render_final(view, *, events=(), language="en", width=1280)                     (final.py)
Words: text.py; the bot's interface: presenter.py (``PRESENTER``); seeded positions: scenes.py.
The image modules import Pillow on first use, so importing the words stays cheap.
"""

from __future__ import annotations


def render_map(view, *, events=(), language: str = "en", width: int = 1280, layout: str = "landscape") -> bytes:
    from .mapimage import render_map as _render

    return _render(view, events=events, language=language, width=width, layout=layout)


def render_final(view, *, events=(), language: str = "en", width: int = 1280) -> bytes:
    from .final import render_final as _render

    return _render(view, events=events, language=language, width=width)


__all__ = ["render_final", "render_map"]
