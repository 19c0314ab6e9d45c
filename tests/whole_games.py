"""How many whole games the adapter and service tests play.

A whole game through an adapter or the service takes seconds; the conformance suite already plays
every player count of every game through the engine's interface. So by default a whole-game test
plays its first case (the lowest player count), and ``WHOLE_GAMES=all`` plays every case, as
``CONFORMANCE_GAMES`` sets how many random games the conformance suite plays::

    WHOLE_GAMES=all python -m pytest -n auto tests/telegram tests/discord tests/service
"""

from __future__ import annotations

import os

ALL = os.environ.get("WHOLE_GAMES", "").strip().lower() == "all"


def cases(first, *more) -> list:
    """``[first]``, or every case with ``WHOLE_GAMES=all``."""
    return [first, *more] if ALL else [first]


# Seconds an adapter's harness waits for the bot to settle after a press that ends a game: the end
# draws the whole game as an animation (every cycle's picture, then the encoder), a few seconds on a
# quiet core and several times that on a machine busy with other tests.
SETTLE_AT_THE_END = 40.0
