"""Every storage test runs against SQLite and PostgreSQL.

PostgreSQL: the server at $PARIS_PARIS_TEST_POSTGRES (default the local test server); each
test gets a fresh schema (through the URL's search_path) dropped afterwards, so runs never
see each other's rows. Without a server the PostgreSQL cases skip, except under CI=true,
where a missing server fails them.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from storage_kit import POSTGRES, admin, create_schema_or_skip

from bot.service.storage import open_storage


@pytest.fixture
def postgres_url():
    """A URL whose search_path is a new, empty schema of its own (dropped afterwards)."""
    schema = f"test_{uuid.uuid4().hex[:16]}"
    create_schema_or_skip(POSTGRES, schema)
    sep = "&" if "?" in POSTGRES else "?"
    yield f"{POSTGRES}{sep}search_path={schema}"
    asyncio.run(admin(POSTGRES, f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture(params=["sqlite", "postgres"])
def target(request, tmp_path):
    """A database to open: a SQLite path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def storage(target):
    store = await open_storage(target)
    yield store
    await store.close()
