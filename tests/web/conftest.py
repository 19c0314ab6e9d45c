"""Fixtures of the web board's tests: a served board over a started game (SQLite), and
PostgreSQL schemas of their own (skipped without a server, except under CI=true)."""

from __future__ import annotations

import asyncio
import uuid

import aiohttp
import pytest
from service.service_helpers import chat, start_game, user
from storage.storage_kit import POSTGRES, admin, create_schema_or_skip

from bot.service import GameService
from bot.web.server import WebBoard, WebSettings

PLAYERS = ("Ann", "Bob", "Cid")


def new_schema_url() -> tuple[str, str]:
    schema = f"test_{uuid.uuid4().hex[:16]}"
    create_schema_or_skip(POSTGRES, schema)
    return schema, f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}search_path={schema}"


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


class Served:
    """A service with a started game of three humans, and its board."""

    def __init__(self, service: GameService, board: WebBoard, game_id: int) -> None:
        self.service, self.board, self.game_id = service, board, game_id
        self.users = {u.id: u for u in (user(name) for name in PLAYERS)}

    def seat_user(self, seat: int):
        return list(self.users.values())[seat]


async def serve(database: str, *, settings: WebSettings | None = None, chat_n: int = 1) -> Served:
    service = await GameService.open(database)
    users = [user(name) for name in PLAYERS]
    game_id = await start_game(service, chat(chat_n), users, options={"seed": 3})
    board = await WebBoard.start(service, settings or WebSettings(port=0))
    return Served(service, board, game_id)


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
