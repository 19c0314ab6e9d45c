"""Tiny Hands, the test-only game (game.py: rules; presenter.py: words and pictures).

``registered()`` lists it in the engine's, the renderers' and the bot's registries for as long as
the ``with`` block lasts (tests/conftest.py's ``tiny_game`` fixture wraps it; worker processes
call it themselves). Nothing outside tests/ knows the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .game import GAME
from .presenter import PRESENTER

__all__ = ["GAME", "PRESENTER", "registered"]


@contextmanager
def registered() -> Iterator[None]:
    from bot import games
    from engine import registry as engines
    from renderers import registry as presenters

    tables = [(engines.GAMES, GAME), (presenters.PRESENTERS, PRESENTER),
              (games.KINDS, games.GameKind(GAME, PRESENTER))]
    for table, entry in tables:
        assert GAME.id not in table, f"{GAME.id} is registered already"
        table[GAME.id] = entry
    try:
        yield
    finally:
        for table, _ in tables:
            table.pop(GAME.id, None)
