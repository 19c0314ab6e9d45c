"""What the service needs from a database: ``Storage``, made of one class per aggregate
(games, outbox, timers, results, ratings, ...) over one ``Database`` (SQLite or PostgreSQL).

Everything one action changes (game metadata, the move, outbox messages, timers, results)
arrives as one ``Changes`` value and is committed in one transaction, so a message about a
move can never exist without the move, nor the move without its messages. The game itself
is stored as its record (RULES.md: setup + moves); while it runs, its match is stored packed
too (``snapshots``, in the transaction of each move), and read back instead of a replay.

Several processes may share one database: game ids come from the database
(``new_game_id``), a game row is only overwritten by a writer that read its current
``version`` (otherwise ``Conflict``), and outbox messages and timers are handed out under
time-limited leases (``claim_unsent``, ``claim_due_timers``) so no two processes work on the
same one, while a dead process's work is taken over once its lease expires.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable

from ..game.model import Changes
from .away import StoredAway, store_away
from .games import StoredGames, store_game, store_moves
from .leases import Leases
from .meta import StoredMeta
from .outbox import StoredOutbox, enqueue
from .ratings import StoredRatings, store_ratings
from .results import StoredResults, store_results
from .schema import SCHEMA_VERSION, STEPS
from .settings import StoredSettings, store_settings
from .snapshots import StoredSnapshots, store_snapshots
from .sql import Conflict, Connection, Database
from .tables import RawRows
from .timers import StoredTimers, store_timers


class Storage(StoredMeta, StoredGames, StoredSnapshots, StoredOutbox, StoredTimers, Leases, StoredResults,
              StoredRatings, StoredSettings, StoredAway, RawRows):
    """The storage over ``database``; each aggregate's reads and writes come from its class."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._game_turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        await self.database.open(self.migrate)

    async def open_existing(self) -> None:
        """Open for reading what is there (the health check): never creates a database nor
        changes one (no migration); fails when there is no database at all."""
        await self.database.open_existing()

    async def close(self) -> None:
        await self.database.close()

    async def watch_games(self, changed: Callable[[int], None]) -> None:
        """Call ``changed(game_id)`` whenever another process commits a change to a game, where the
        database can tell (PostgreSQL's LISTEN/NOTIFY), until ``close``. SQLite cannot: it is one
        process's file, whose own commits the service reports itself."""
        await self.database.watch_games(changed)

    async def schema_version(self) -> int:
        return await self.database.schema_version()

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Upgrade the schema step by step, each step in its own transaction."""
        return await self.database.migrate(STEPS, target)

    async def commit(self, changes: Changes, now: float) -> list[int]:
        """Apply everything in one transaction; return the new outbox ids.

        ``changes.meta`` with version 0 is inserted (or replaces a row at version 0);
        otherwise its row is updated only if it still holds ``changes.meta.version``, which becomes version + 1 on success.
        Raises ``Conflict`` (and stores nothing of ``changes``) when the row moved on, the
        id is taken, a move number is stored already or the chat has another active game."""
        if changes.meta is None:
            return await self._commit(changes, now)
        # Commits of one game from this process take turns, so each builds on the version
        # the one before stored.
        turn = self._game_turns.setdefault(changes.meta.id, asyncio.Lock())
        async with turn:
            return await self._commit(changes, now)

    async def _commit(self, changes: Changes, now: float) -> list[int]:
        try:
            ids = await self.database.grouped(lambda conn: self._write(conn, changes, now))
        except Exception as exc:
            if self.database.is_conflict(exc):
                raise Conflict(f"stored meanwhile by another writer: {exc}") from exc
            raise
        if changes.meta is not None:
            changes.meta.version += 1   # stored: the row now holds the next version
        return ids

    async def _write(self, conn: Connection, changes: Changes, now: float) -> list[int]:
        meta = changes.meta
        if meta is not None:
            await store_game(conn, meta)
            if self.database.dialect.announce_game is not None:
                await conn.execute(self.database.dialect.announce_game, (str(meta.id),))
        if changes.moves:
            await store_moves(conn, changes.moves)
        # After the game row: a snapshot lands only if that row holds its move count.
        await store_snapshots(conn, changes)
        ids = [await enqueue(conn, out, now) for out in changes.outbox]
        await store_timers(conn, changes)
        if changes.results:
            await store_results(conn, changes.results)
        if changes.ratings:
            await store_ratings(conn, changes.ratings)
        if changes.chat_settings is not None:
            await store_settings(conn, changes.chat_settings)
        if changes.away is not None:
            await store_away(conn, changes.away)
        return ids
