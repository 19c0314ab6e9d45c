"""Who wants to know that a game changed: the web board's open pages.

The service tells it after each commit of a game in this process; where the database can tell
of other processes' commits (PostgreSQL's LISTEN/NOTIFY, ``Storage.watch_games``), of theirs
too. A listener is called on the event loop and must not block: it only notes the game id.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)


class GameWatch:
    def __init__(self) -> None:
        self._listeners: list[Callable[[int], None]] = []

    def add(self, listener: Callable[[int], None]) -> Callable[[], None]:
        """Call ``listener(game_id)`` on every change; returns what removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def changed(self, game_id: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id)
            except Exception:  # noqa: BLE001 - one page's trouble must not stop a commit's news
                log.exception("a game watcher failed on game %s", game_id)
