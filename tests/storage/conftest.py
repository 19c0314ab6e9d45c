"""Every storage test runs against SQLite and PostgreSQL.

PostgreSQL: the server at $PARIS_PARIS_TEST_POSTGRES (default the local test server); each
test gets a fresh schema (through the URL's search_path) dropped afterwards, so runs never
see each other's rows. Without a server the PostgreSQL cases skip, except under CI=true,
where a missing server fails them.
"""

from __future__ import annotations

import asyncio
import os
import uuid

import asyncpg
import pytest

from bot.service.storage import open_storage

POSTGRES = os.environ.get("PARIS_PARIS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(POSTGRES, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def postgres_url():
    """A URL whose search_path is a new, empty schema of its own (dropped afterwards)."""
    schema = f"test_{uuid.uuid4().hex[:16]}"
    try:
        asyncio.run(_admin(f"CREATE SCHEMA {schema}"))
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        reason = f"no PostgreSQL server at {POSTGRES} ({exc!r}); set PARIS_PARIS_TEST_POSTGRES"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true needs PostgreSQL: {reason}")
        pytest.skip(reason)
    sep = "&" if "?" in POSTGRES else "?"
    yield f"{POSTGRES}{sep}search_path={schema}"
    asyncio.run(_admin(f"DROP SCHEMA {schema} CASCADE"))


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
