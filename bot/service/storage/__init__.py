"""Durable storage: the games' cache and commits over the Storage interface, and its backends.

The interface the service talks to (``Storage``), its SQLite and
PostgreSQL databases, and ``open_storage`` choosing one by a URL or path."""

from __future__ import annotations

from ..game.model import ACTIVE
from .base import Storage
from .copy import copy_database
from .factory import is_postgres_url, open_storage, storage_for
from .postgres import PostgresStorage
from .schema import SCHEMA_VERSION, STEPS
from .sql import Conflict
from .sqlite import SqliteStorage

__all__ = ["ACTIVE", "SCHEMA_VERSION", "STEPS", "Conflict", "PostgresStorage", "SqliteStorage", "Storage",
           "copy_database", "is_postgres_url", "open_storage", "storage_for"]
