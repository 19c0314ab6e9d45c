"""The Papà Paolo board as a page draws it (``renderers/scene.py``): its shapes and words.

The board has no static part to fetch once: its blocks (the grid, the staircase, the players, the
neighbourhoods) flow and grow with the game, and each is drawn with plain shapes and words. So the
board's own drawing (``board.board_drawing``) runs against a ``Recorder`` and the whole of it is the
scene's marks and words, over a plain paper of the picture's colour: no picture per move.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from .. import style
from ..scene import Recorder, Scene
from . import board

ART_NAMES = frozenset({"paper"})


def map_scene(view: Any, events: Sequence[Any], language: str, layout: str = "landscape") -> Scene:
    """``board.render_board(view, events=events, language=language, layout=layout)`` as a scene."""
    recorder = Recorder()
    width, height = board.board_drawing(view, events, language, layout, recorder)
    return Scene("paper", width, height, above=tuple(recorder.drawn))


def board_art(layout: str, language: str) -> tuple[str, ...]:
    """The art in every scene: the paper (whatever the layout and language)."""
    return ("paper",)


@lru_cache(maxsize=1)
def art(name: str) -> bytes:
    """The paper under the board (the page stretches it to the board's size)."""
    if name not in ART_NAMES:
        raise KeyError(name)
    out = io.BytesIO()
    Image.new("RGB", (8, 8), style.PAPER).save(out, format="WEBP", lossless=True)
    return out.getvalue()
