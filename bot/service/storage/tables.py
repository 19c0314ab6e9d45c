"""Every table's raw rows, for copying one database into another (``copy_database``)."""

from __future__ import annotations

from typing import Any

from . import away, games, outbox, ratings, results, settings, snapshots, timers
from .sql import Database, marks

# Every table's columns and key, in the order ``copy_database`` moves them.
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **games.TABLES, **outbox.TABLES, **timers.TABLES, **results.TABLES, **settings.TABLES, **ratings.TABLES,
    **away.TABLES, **snapshots.TABLES}


def key_of(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    cols, key = TABLES[table]
    return tuple(row[cols.index(k)] for k in key)


class RawRows:
    """Reading and writing whole rows of any table."""

    database: Database

    async def page(self, table: str, after: tuple[Any, ...] | None, limit: int) -> list[tuple[Any, ...]]:
        """Up to ``limit`` raw rows of ``table`` (TABLES order) after the key ``after`` (keyset paging)."""
        cols, key = TABLES[table]
        where, params = "", ()
        if after is not None:
            where = f" WHERE ({', '.join(key)}) > ({marks(len(key))})"
            params = tuple(after)
        rows = await self.database.all(f"SELECT {', '.join(cols)} FROM {table}{where} ORDER BY {', '.join(key)} "
                                       f"LIMIT ?", (*params, limit))
        return [tuple(r) for r in rows]

    async def insert_rows(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        """Store raw rows as read by ``page`` (into an empty table) in one transaction."""
        await self.database.insert_rows(table, TABLES[table][0], rows)
