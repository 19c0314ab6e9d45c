from __future__ import annotations

import pytest
from conformance_kit import player_counts
from tinygame import GAME as TINY
from tinygame import registered

from engine.registry import GAMES

# Every registered game, and the test-only one; each at its fewest and most players.
CASES = [(game_id, n) for game_id, definition in [*GAMES.items(), (TINY.id, TINY)]
         for n in player_counts(definition)]


@pytest.fixture(params=CASES, ids=[f"{game_id}-{n}p" for game_id, n in CASES])
def case(request):
    """(the game's definition, as the registry gives it; a player count)."""
    game_id, n = request.param
    with registered():
        yield GAMES[game_id], n
