from __future__ import annotations

import asyncio
import uuid

import pytest
from service_helpers import FakeTransport
from storage.storage_kit import POSTGRES, admin, create_schema_or_skip

from bot.service import GameService, ManualClock


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
async def service(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    yield svc
    await svc.close()


@pytest.fixture
def transport():
    return FakeTransport()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """A database to open, SQLite and PostgreSQL in turn (a schema of its own: tests/storage/conftest.py)."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
        return
    schema = f"test_{uuid.uuid4().hex[:16]}"
    create_schema_or_skip(POSTGRES, schema)
    yield f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}search_path={schema}"
    asyncio.run(admin(POSTGRES, f"DROP SCHEMA {schema} CASCADE"))
