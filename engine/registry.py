"""Every game the project plays, by id and by record format. The one place that names them."""

from __future__ import annotations

from .interface import GameDefinition
from .papa_paolo.definition import GAME as PAPA_PAOLO
from .paris_connection.definition import GAME as PARIS_CONNECTION
from .paris_paris.definition import GAME as PARIS_PARIS

GAMES: dict[str, GameDefinition] = {g.id: g for g in (PARIS_PARIS, PARIS_CONNECTION, PAPA_PAOLO)}
DEFAULT_GAME = PARIS_PARIS.id


def game(game_id: str) -> GameDefinition:
    """The game called ``game_id``; ``KeyError`` with the known ids otherwise."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise KeyError(f"no game {game_id!r}; known: {', '.join(GAMES)}") from None


def by_record_format(fmt: object) -> GameDefinition | None:
    for definition in GAMES.values():
        if definition.record_format == fmt:
            return definition
    return None
