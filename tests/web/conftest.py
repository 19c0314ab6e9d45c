"""Fixtures of the web board's tests: a served board over a started game (SQLite), and
PostgreSQL schemas of their own (skipped without a server, except under CI=true)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from storage.storage_kit import POSTGRES, admin
from web_kit import PLAYERS, new_schema_url, serve  # noqa: F401


@pytest.fixture
def postgres_url():
    """A URL whose search_path is a new, empty schema (dropped afterwards)."""
    schema, url = new_schema_url()
    yield url
    asyncio.run(admin(POSTGRES, f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
def other_postgres_url():
    schema, url = new_schema_url()
    yield url
    asyncio.run(admin(POSTGRES, f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
async def served(tmp_path):
    got = await serve(str(tmp_path / "games.sqlite3"))
    yield got
    await got.board.stop()
    await got.service.close()


@pytest.fixture
async def session():
    async with aiohttp.ClientSession() as client:
        yield client
