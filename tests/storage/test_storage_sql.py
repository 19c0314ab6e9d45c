"""The SQL layer under the aggregates: transactions on both backends, and SQLite's rule that a
transaction runs to its end on the connection's thread without waiting on anything."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.storage import SqliteStorage


async def test_a_transaction_that_fails_stores_nothing(storage):
    async def half(conn):
        await conn.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        raise ValueError("stop")
    with pytest.raises(ValueError, match="stop"):
        await storage.database.transaction(half)
    assert await storage.database.value("SELECT value FROM meta WHERE key = 'a'") is None
    assert await storage.database.change("INSERT INTO meta (key, value) VALUES ('a', ?)", ("2",)) == 1
    assert await storage.database.value("SELECT value FROM meta WHERE key = ?", ("a",)) == "2"


async def test_sqlite_work_that_waits_on_something_else_fails_and_stores_nothing(tmp_path):
    storage = SqliteStorage(str(tmp_path / "g.sqlite3"))
    await storage.open()
    try:
        async def waits(conn):
            await conn.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
            await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="waited on something other than its statements"):
            await storage.database.transaction(waits)
        assert await storage.database.value("SELECT value FROM meta WHERE key = 'a'") is None
    finally:
        await storage.close()
