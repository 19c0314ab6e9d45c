"""Group commit on SQLite (``SqliteDatabase.grouped``): many works asked for at once are handed to
the connection's thread in batches, the first at once, in the order asked for (issue 44)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service.storage.sql import Connection
from bot.service.storage.sqlite import GROUP_AT_MOST, SqliteDatabase


async def _no_migration() -> None:
    return None


async def _opened(path: Path) -> SqliteDatabase:
    """A new database at ``path`` with one table, ``rows``."""
    db = SqliteDatabase(str(path))
    await db.open(_no_migration)

    async def create(conn: Connection) -> None:
        await conn.execute("CREATE TABLE rows (n INTEGER PRIMARY KEY)")
    await db.transaction(create)
    return db


@pytest.fixture
async def database(tmp_path: Path) -> Any:
    db = await _opened(tmp_path / "grouped.db")
    yield db
    await db.close()


def _counting_batches(db: SqliteDatabase) -> list[int]:
    """The number of works in each transaction of grouped work, in the order written."""
    sizes: list[int] = []
    in_transaction = db._in_transaction

    def counted(run: Callable[[Any], Any]) -> Any:
        sizes.append(len(run.args[0]))      # type: ignore[attr-defined]  # partial(_each, works)
        return in_transaction(run)
    db._in_transaction = counted            # type: ignore[method-assign]
    return sizes


def _insert(n: int) -> Callable[[Connection], Any]:
    async def work(conn: Connection) -> int:
        await conn.execute("INSERT INTO rows (n) VALUES (?)", (n,))
        return n
    return work


async def test_works_asked_for_together_are_written_in_batches_the_first_at_once(database: SqliteDatabase) -> None:
    sizes = _counting_batches(database)
    count = 1 + 2 * GROUP_AT_MOST + 49
    # All asked for in one turn of the event loop: the first goes at once, then a batch each time
    # GROUP_AT_MOST are waiting, the rest when a transaction is written.
    results = await asyncio.gather(*(database.grouped(_insert(n)) for n in range(count)))
    assert results == list(range(count))
    assert sizes == [1, GROUP_AT_MOST, GROUP_AT_MOST, 49]

    async def stored(conn: Connection) -> list[Any]:
        return await conn.all("SELECT n FROM rows ORDER BY rowid")
    assert [row[0] for row in await database.read(stored)] == list(range(count))


async def test_a_failing_work_fails_alone(database: SqliteDatabase) -> None:
    async def duplicate(conn: Connection) -> None:
        await conn.execute("INSERT INTO rows (n) VALUES (1)")
    outcomes = await asyncio.gather(database.grouped(_insert(1)), database.grouped(_insert(2)),
                                    database.grouped(duplicate), database.grouped(_insert(3)),
                                    return_exceptions=True)
    assert outcomes[:2] == [1, 2] and outcomes[3] == 3
    failure = outcomes[2]
    assert isinstance(failure, BaseException) and database.is_conflict(failure)


async def test_close_waits_for_the_works_asked_for(tmp_path: Path) -> None:
    db = await _opened(tmp_path / "closing.db")
    pending = [asyncio.ensure_future(db.grouped(_insert(n))) for n in range(GROUP_AT_MOST + 5)]
    await asyncio.sleep(0)          # every one of them asked for
    await db.close()
    assert [task.result() for task in pending] == list(range(GROUP_AT_MOST + 5))


async def test_work_asked_for_after_close_fails(tmp_path: Path) -> None:
    db = await _opened(tmp_path / "closed.db")
    await db.close()
    with pytest.raises(ValueError, match="not open"):
        await db.grouped(_insert(1))
