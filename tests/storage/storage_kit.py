"""Small builders for storage tests: games, moves, messages, timers, results."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import asyncpg
import pytest

from bot.service.game.model import Changes, GameMeta, MoveRow, OutRow, ResultRow, Seat, TimerRow
from bot.service.game.outmessage import MessageBody

PLATFORM = "fake"
# A database made by the code before the storage package (schema 3): see make_v3_fixture.py.
POSTGRES = os.environ.get("PARIS_PARIS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
V3_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "paris-paris-v3.sqlite3"
# Written by the code before moves were resumed with their seats (tests/fixtures/make_v4_fixture.py).
V4_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "games-v4.sqlite3"


def lobby(gid: int, chat_id: str = "chat1", *, kind: str = "paris-paris", users=("ann",)) -> GameMeta:
    return GameMeta(id=gid, platform=PLATFORM, chat_id=chat_id, chat_title=f"Chat {chat_id}", status="lobby",
                    host_id=users[0], options={"language": "en"}, seed=(1 << 62) + gid,
                    seats=[Seat(u.title(), PLATFORM, u) for u in users], created=1.5, updated=1.5, kind=kind)


def playing(gid: int, chat_id: str = "chat1", **kw) -> GameMeta:
    meta = lobby(gid, chat_id, users=("ann", "bob"), **kw)
    meta.status = "playing"
    meta.setup = {"players": ["Ann", "Bob"], "seed": meta.seed}
    return meta


def move(gid: int, n: int, pick: str = "a1") -> MoveRow:
    return MoveRow(gid, n, pick, n % 2, "human", 10.0 + n)


def message(gid: int | None, dest: str = "c:chat1", text: str = "hi", *, slot: str | None = None,
            mode: str = "new") -> OutRow:
    return OutRow(gid, PLATFORM, dest, MessageBody(text), slot=slot, mode=mode)


def timer(gid: int, kind: str = "reminder", due: float = 100.0, at_move: int = 0) -> TimerRow:
    return TimerRow(gid, kind, due, at_move)


def result(gid: int, seat: int, user_id: str | None, *, won: bool = False, kind: str = "paris-paris",
           chat_id: str = "chat1") -> ResultRow:
    return ResultRow(gid, seat, PLATFORM, chat_id, user_id, (user_id or "AI").title(), user_id is None,
                     10 + seat, won, 50.0, kind)


async def a_move(storage, meta: GameMeta, pick: str = "a1", now: float = 20.0, **extra) -> list[int]:
    """Commit the next move of ``meta`` with a message, as the service does."""
    meta.moves += 1
    return await storage.commit(Changes(meta=meta, moves=[move(meta.id, meta.moves, pick)],
                                        outbox=[message(meta.id, text=f"move {meta.moves}")], **extra), now)


async def admin(server: str, sql: str) -> None:
    conn = await asyncpg.connect(server, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def create_schema_or_skip(server: str, schema: str) -> None:
    """Make ``schema`` on ``server``; without a server skip the test, or fail it under CI=true."""
    try:
        asyncio.run(admin(server, f"CREATE SCHEMA {schema}"))
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        reason = f"no PostgreSQL server at {server} ({exc!r}); set PARIS_PARIS_TEST_POSTGRES"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true needs PostgreSQL: {reason}")
        pytest.skip(reason)
