"""Every game the project plays, by id and by record format. The one place that names them.

A game's engine is imported when its definition is first read (``GAMES[id]``): a command that
reads one game's record (``python -m engine replay``) imports that game only, and one that names
the record formats imports none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping

from .interface import GameDefinition


def _paris_paris() -> GameDefinition:
    from .paris_paris.definition import GAME
    return GAME


def _paris_connection() -> GameDefinition:
    from .paris_connection.definition import GAME
    return GAME


def _papa_paolo() -> GameDefinition:
    from .papa_paolo.definition import GAME
    return GAME


class Games(MutableMapping[str, GameDefinition]):
    """The games by id, in their declared order; each definition imported on first read. A game
    registered at run time (tests register their own) is held as it is given."""

    def __init__(self, declared: dict[str, tuple[str, Callable[[], GameDefinition]]]) -> None:
        self._declared = dict(declared)       # id -> (its record format, how to import its definition)
        self._loaded: dict[str, GameDefinition] = {}

    def __getitem__(self, game_id: str) -> GameDefinition:
        found = self._loaded.get(game_id)
        if found is None:
            if game_id not in self._declared:
                raise KeyError(game_id)
            found = self._loaded[game_id] = self._declared[game_id][1]()
        return found

    def __setitem__(self, game_id: str, definition: GameDefinition) -> None:
        self._loaded[game_id] = definition

    def __delitem__(self, game_id: str) -> None:
        if game_id not in self:
            raise KeyError(game_id)
        self._loaded.pop(game_id, None)
        self._declared.pop(game_id, None)

    def __iter__(self) -> Iterator[str]:
        yield from self._declared
        yield from (game_id for game_id in self._loaded if game_id not in self._declared)

    def __len__(self) -> int:
        return len(self._declared.keys() | self._loaded.keys())

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._declared or game_id in self._loaded

    def record_format(self, game_id: str) -> str:
        """The record format of game ``game_id``, without importing its engine when it is declared."""
        if game_id in self._declared:
            return self._declared[game_id][0]
        return self[game_id].record_format


GAMES = Games({
    "paris-paris": ("paris-paris-record/1", _paris_paris),
    "paris-connection": ("paris-connection-record/1", _paris_connection),
    "papa-paolo": ("papa-paolo-record/1", _papa_paolo),
})
DEFAULT_GAME = "paris-paris"


def game(game_id: str) -> GameDefinition:
    """The game called ``game_id``; ``KeyError`` with the known ids otherwise."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise KeyError(f"no game {game_id!r}; known: {', '.join(GAMES)}") from None


def by_record_format(fmt: object) -> GameDefinition | None:
    """The game whose records carry format ``fmt`` (only its engine is imported); None if none."""
    for game_id in GAMES:
        if GAMES.record_format(game_id) == fmt:
            return GAMES[game_id]
    return None
