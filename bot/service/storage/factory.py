"""Choosing a backend: a ``postgresql://`` URL means PostgreSQL, anything else a SQLite file."""

from __future__ import annotations

from .base import Storage
from .postgres import PostgresStorage
from .sqlite import SqliteStorage

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


def storage_for(target: str) -> Storage:
    """The storage for a database URL or a SQLite path, not opened yet (``GameService.open``
    takes it as ``storage=`` and opens it)."""
    target = str(target)
    if is_postgres_url(target):
        return PostgresStorage(target)
    return SqliteStorage(target)


async def open_storage(target: str) -> Storage:
    """The storage for a database URL or a SQLite path, opened and migrated."""
    storage = storage_for(target)
    await storage.open()
    return storage
