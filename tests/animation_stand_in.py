"""A stand-in for the whole-game animation, for the tests that never look at it.

A finished game's end draws the whole game as an animation (bot/service/posts/animation.py: every
cycle's picture, then the encoder): seconds of CPU in every whole-game test, about half of some,
while most of them check the game, its messages and its pictures, not the animation. So by default
a test's service draws a stand-in instead: a real file of the platform's format (one blank frame,
encoded once per process), so the message, its delivery and the transports' handling of an
animation are as before. A test that looks at the animation itself (its frames, its size against
an upload limit, the same bytes sent again) is marked ``@pytest.mark.real_animation`` and gets the
real drawing. The drawing itself is tested for every game in tests/service/test_animation.py.

(Only a drawing in the test's own process is stood in for: a service drawing in processes of its
own, ``drawing_processes`` > 0, draws the real animation there. A test's worker process that never
shows its animation, such as the crash workers, calls ``use_in_this_process``.)
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache

from PIL import Image

from bot.service.posts import animation
from renderers.animation import Frame, encode


@cache
def stand_in(fmt: str) -> bytes:
    """One small blank frame as an animation in ``fmt``."""
    png = io.BytesIO()
    Image.new("RGB", (64, 48), "white").save(png, "PNG")
    return encode([Frame(png.getvalue(), "")], fmt)


def draw_stand_in(kind_id: str, setup: object, moves: Sequence, language: str, platform: str) -> bytes:
    """In place of ``animation.draw``: the stand-in in the format ``platform`` plays."""
    return stand_in(animation.spec(platform).format)


def use_in_this_process() -> None:
    """For a worker process of a test that never looks at the animation (crash_worker.py, ...)."""
    animation.draw = draw_stand_in
