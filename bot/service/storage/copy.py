"""Copying one database into another (SQLite -> PostgreSQL, or any backend to any)."""

from __future__ import annotations

import asyncio
import contextlib

from .base import Storage
from .factory import open_storage
from .tables import TABLES, key_of

BATCH = 5000


async def copy_database(src: Storage | str, dst: Storage | str, *, batch: int = BATCH) -> dict[str, int]:
    """Move every row of ``src`` into ``dst`` (which must hold no games): games, moves,
    outbox, slots, timers, results, chat settings, then the signing key and the game-id
    counter, so buttons signed before keep working and no id is handed out twice.
    Each may be an open storage or a database URL / SQLite path (opened, migrated and closed
    here). Reads and writes ``batch`` rows at a time; returns how many rows each table held."""
    async with contextlib.AsyncExitStack() as stack:
        source = await _opened(src, stack)
        target = await _opened(dst, stack)
        return await _copy(source, target, batch)


async def _opened(db: Storage | str, stack: contextlib.AsyncExitStack) -> Storage:
    if isinstance(db, Storage):
        return db
    storage = await open_storage(db)
    stack.push_async_callback(storage.close)
    return storage


async def _copy(src: Storage, dst: Storage, batch: int) -> dict[str, int]:
    if await dst.max_game_id() or await dst.page("games", None, 1):
        raise ValueError("the destination database already holds games")
    counts: dict[str, int] = {}
    for table in TABLES:
        counts[table] = 0
        # The next batch is read while this one is written.
        reading = asyncio.ensure_future(src.page(table, None, batch))
        try:
            while rows := await reading:
                reading = asyncio.ensure_future(src.page(table, key_of(table, rows[-1]), batch))
                await dst.insert_rows(table, rows)
                counts[table] += len(rows)
        finally:
            reading.cancel()
    await dst.adopt(await src.secret(), await src.max_game_id())
    return counts
