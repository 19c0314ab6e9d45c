"""Copying one database into another (SQLite -> PostgreSQL, or any backend to any)."""

from __future__ import annotations

import asyncio

from .base import TABLES, Storage, key_of

BATCH = 5000


async def copy_database(src: Storage, dst: Storage, *, batch: int = BATCH) -> dict[str, int]:
    """Move every row of ``src`` (open) into ``dst`` (open, migrated, empty): games, moves,
    outbox, slots, timers, results, chat settings, then the signing key and the game-id
    counter, so links signed before keep working and no id is handed out twice.
    Reads and writes ``batch`` rows at a time; returns how many rows each table held."""
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
