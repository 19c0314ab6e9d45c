"""Durable storage: an interface the service talks to, and its SQLite implementation.

Everything one action changes (game metadata, the move, outbox messages, timers, results)
arrives as one ``Changes`` value and is committed in one transaction, so a message about a
move can never exist without the move, nor the move without its messages. The game itself
is stored as its record (RULES.md: setup + moves) and rebuilt by replaying it.

A PostgreSQL backend implements the same ``Storage`` methods.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from abc import ABC, abstractmethod
from typing import Any

import aiosqlite

from .model import (
    ACTIVE,
    Changes,
    GameMeta,
    ResultRow,
    Seat,
    StoredOut,
    TimerRow,
)

# Versioned schema: each entry upgrades the database from version i to i + 1.
# Never edit a released step; append a new one.
MIGRATIONS: list[list[str]] = [
    [  # 1: games, moves, outbox, timers
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY, platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            chat_title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL, host_id TEXT NOT NULL,
            options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, setup TEXT,
            moves INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL)""",
        """CREATE UNIQUE INDEX games_active_chat ON games(platform, chat_id)
            WHERE status IN ('lobby', 'playing')""",
        """CREATE TABLE moves (
            game_id INTEGER NOT NULL, n INTEGER NOT NULL, pick TEXT NOT NULL, seat INTEGER NOT NULL,
            actor TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID""",
        """CREATE TABLE outbox (
            id INTEGER PRIMARY KEY, game_id INTEGER, platform TEXT NOT NULL, dest TEXT NOT NULL,
            state TEXT NOT NULL, body TEXT NOT NULL, slot TEXT, mode TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, due REAL NOT NULL, message_id TEXT,
            created REAL NOT NULL, sent_at REAL, error TEXT)""",
        """CREATE INDEX outbox_unsent ON outbox(platform, id) WHERE state IN ('pending', 'sending')""",
        """CREATE INDEX outbox_slot ON outbox(platform, slot, id) WHERE slot IS NOT NULL""",
        """CREATE TABLE slots (platform TEXT NOT NULL, slot TEXT NOT NULL, message_id TEXT NOT NULL,
            PRIMARY KEY (platform, slot)) WITHOUT ROWID""",
        """CREATE TABLE timers (game_id INTEGER NOT NULL, kind TEXT NOT NULL, due REAL NOT NULL,
            move INTEGER NOT NULL, PRIMARY KEY (game_id, kind)) WITHOUT ROWID""",
        """CREATE INDEX timers_due ON timers(due)""",
    ],
    [  # 2: results for stats, per-chat settings, held private messages by user
        """CREATE TABLE results (
            game_id INTEGER NOT NULL, seat INTEGER NOT NULL, platform TEXT NOT NULL,
            chat_id TEXT NOT NULL, user_id TEXT, name TEXT NOT NULL, is_ai INTEGER NOT NULL,
            points INTEGER NOT NULL, won INTEGER NOT NULL, ended REAL NOT NULL,
            PRIMARY KEY (game_id, seat))""",
        """CREATE INDEX results_chat ON results(platform, chat_id)""",
        """CREATE INDEX results_user ON results(platform, user_id)""",
        """CREATE TABLE chat_settings (platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            settings TEXT NOT NULL, PRIMARY KEY (platform, chat_id)) WITHOUT ROWID""",
        """CREATE INDEX outbox_held ON outbox(platform, dest) WHERE state = 'held'""",
    ],
    [  # 3: per-game bookkeeping (players without a private chat, reminders sent)
        """ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
UNSENT = ("pending", "sending")


class Conflict(Exception):
    """The game changed in the database since it was read (another process or task moved it)."""


class Storage(ABC):
    """What the service needs from a database."""

    @abstractmethod
    async def open(self) -> None: ...
    @abstractmethod
    async def close(self) -> None: ...
    @abstractmethod
    async def secret(self) -> bytes:
        """The payload-signing key, created on first use and kept."""
    @abstractmethod
    async def max_game_id(self) -> int: ...
    @abstractmethod
    async def active_game_id(self, platform: str, chat_id: str) -> int | None: ...
    @abstractmethod
    async def load_game(self, game_id: int) -> tuple[GameMeta, list[str]] | None:
        """The metadata and the stored moves (text form, in order)."""
    @abstractmethod
    async def active_games(self) -> list[tuple[int, str, str]]:
        """(id, platform, chat id) of every lobby and running game."""
    @abstractmethod
    async def commit(self, changes: Changes, now: float) -> list[int]:
        """Apply everything in one transaction; return the new outbox ids."""
    # outbox
    @abstractmethod
    async def unsent(self, platform: str, limit: int = 500) -> list[StoredOut]: ...
    @abstractmethod
    async def next_due(self, platform: str) -> float | None: ...
    @abstractmethod
    async def mark_sending(self, out_id: int) -> StoredOut | None:
        """Mark a message as being sent (no edit can be coalesced into it any more) and
        return it as stored now: an edit may have been merged in since it was read."""
    @abstractmethod
    async def mark_sent(self, out: StoredOut, message_id: str, now: float) -> None: ...
    @abstractmethod
    async def reschedule(self, out_id: int, due: float, attempts: int, error: str) -> None: ...
    @abstractmethod
    async def set_state(self, out_id: int, state: str, error: str = "") -> None: ...
    @abstractmethod
    async def held_for(self, platform: str, dest: str) -> list[StoredOut]: ...
    @abstractmethod
    async def release_held(self, platform: str, dest: str, now: float) -> int: ...
    @abstractmethod
    async def slot_message(self, platform: str, slot: str) -> str | None: ...
    @abstractmethod
    async def outbox_rows(self, game_id: int | None = None) -> list[StoredOut]: ...
    @abstractmethod
    async def prune_outbox(self, before: float) -> int:
        """Forget sent (or failed) messages older than ``before``; return how many."""
    # timers
    @abstractmethod
    async def due_timers(self, now: float, platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        """Timers due by ``now``; only those of games on ``platforms`` when given."""
    @abstractmethod
    async def next_timer(self, platforms: tuple[str, ...] | None = None) -> float | None: ...
    @abstractmethod
    async def timers_of(self, game_id: int) -> list[TimerRow]: ...
    # settings and stats
    @abstractmethod
    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]: ...
    @abstractmethod
    async def chat_results(self, platform: str, chat_id: str) -> list[ResultRow]: ...
    @abstractmethod
    async def user_results(self, platform: str, user_id: str) -> list[ResultRow]: ...
    @abstractmethod
    async def user_games(self, platform: str, user_id: str) -> list[int]:
        """Ids of the running games where the user holds a seat."""


def _platform_filter(platforms: tuple[str, ...] | None) -> tuple[str, tuple[str, ...]]:
    """SQL restricting timers to games on ``platforms``: each bot process fires only its own
    platform's timers, so a Telegram and a Discord process may share one database."""
    if platforms is None:
        return "", ()
    marks = ", ".join("?" * len(platforms))
    return f" AND game_id IN (SELECT id FROM games WHERE platform IN ({marks}))", tuple(platforms)


def _meta_from_row(row: Any) -> GameMeta:
    (gid, platform, chat_id, title, status, host, options, seed, seats, setup, moves, created,
     updated, extra) = row
    return GameMeta(
        id=gid, platform=platform, chat_id=chat_id, chat_title=title, status=status, host_id=host,
        options=json.loads(options), seed=seed, seats=[Seat(**s) for s in json.loads(seats)],
        setup=json.loads(setup) if setup else None, moves=moves, created=created, updated=updated,
        extra=json.loads(extra))


def _out_from_row(row: Any) -> StoredOut:
    oid, game_id, platform, dest, state, body, slot, mode, attempts, due = row
    return StoredOut(oid, game_id, platform, dest, state, json.loads(body), slot, mode, attempts, due)


_OUT_COLS = "id, game_id, platform, dest, state, body, slot, mode, attempts, due"
_GAME_COLS = ("id, platform, chat_id, chat_title, status, host_id, options, seed, seats, setup, moves, "
              "created, updated, extra")
# A plain upsert on the id: a second active game in a chat violates games_active_chat and
# fails, where INSERT OR REPLACE would silently delete the other game.
_GAME_UPDATE = ", ".join(f"{c.strip()} = excluded.{c.strip()}" for c in _GAME_COLS.split(",")[1:])


class SqliteStorage(Storage):
    """SQLite through aiosqlite: one connection, WAL, one writer at a time."""

    def __init__(self, path: str, *, synchronous: str = "FULL") -> None:
        self.path = path
        # FULL: a commit is on disk (fsync) before any message about it can go out, even
        # across a power loss; NORMAL would only survive a process crash.
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"unsupported synchronous mode {synchronous!r}")
        self.synchronous = synchronous.upper()
        self._queue: list[tuple[Changes, float, asyncio.Future]] = []
        self._flusher: asyncio.Task | None = None
        self._db: aiosqlite.Connection | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute(f"PRAGMA synchronous={self.synchronous}")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():
            with contextlib.suppress(Exception):
                await self._flusher     # let commits already asked for finish
        if self._db is not None:
            await self._db.close()
            self._db = None

    # Each read and each transaction runs as one function on aiosqlite's connection thread:
    # one hop per call instead of one per statement, and two transactions can never
    # interleave on the shared connection.

    async def _call(self, fn, *args):
        return await self.db._execute(fn, *args)

    def _sync_tx(self, fn, *args):
        conn = self.db._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn, *args)
            conn.execute("COMMIT")
            return result
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    async def _transaction(self, fn, *args):
        return await self._call(self._sync_tx, fn, *args)

    async def _one(self, sql: str, params: tuple = ()) -> Any:
        return await self._call(lambda: self.db._conn.execute(sql, params).fetchone())

    async def _all(self, sql: str, params: tuple = ()) -> list[Any]:
        return await self._call(lambda: self.db._conn.execute(sql, params).fetchall())

    async def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        def run(conn):
            for sql, params in statements:
                conn.execute(sql, params)
        await self._transaction(run)

    async def schema_version(self) -> int:
        return (await self._one("PRAGMA user_version"))[0]

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Upgrade the schema step by step, each step in its own transaction."""
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this code ({SCHEMA_VERSION})")
        for step in range(version, target):
            def run(conn, step=step):
                for sql in MIGRATIONS[step]:
                    conn.execute(sql)
                conn.execute(f"PRAGMA user_version={step + 1}")
            await self._transaction(run)
        return target

    async def secret(self) -> bytes:
        row = await self._one("SELECT value FROM meta WHERE key = 'payload_secret'")
        if row:
            return bytes.fromhex(row[0])
        key = secrets.token_hex(32)
        await self._tx([("INSERT OR IGNORE INTO meta(key, value) VALUES ('payload_secret', ?)", (key,))])
        row = await self._one("SELECT value FROM meta WHERE key = 'payload_secret'")
        return bytes.fromhex(row[0])

    async def max_game_id(self) -> int:
        row = await self._one("SELECT COALESCE(MAX(id), 0) FROM games")
        return row[0]

    async def new_game_id(self) -> int:
        self._last_id = max(getattr(self, "_last_id", 0), await self.max_game_id()) + 1
        return self._last_id

    async def game_version(self, game_id: int) -> int | None:
        return None

    async def active_game_id(self, platform: str, chat_id: str) -> int | None:
        row = await self._one("SELECT id FROM games WHERE platform = ? AND chat_id = ? "
                              "AND status IN ('lobby', 'playing')", (platform, chat_id))
        return row[0] if row else None

    async def load_game(self, game_id: int) -> tuple[GameMeta, list[str]] | None:
        def run():
            conn = self.db._conn
            row = conn.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = conn.execute("SELECT pick FROM moves WHERE game_id = ? ORDER BY n", (game_id,)).fetchall()
            return row, moves
        got = await self._call(run)
        if got is None:
            return None
        return _meta_from_row(got[0]), [m[0] for m in got[1]]

    async def load_games(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, list[str]]]:
        """Many games in few queries (for eager restore)."""
        out: dict[int, tuple[GameMeta, list[str]]] = {}
        for start in range(0, len(game_ids), 500):
            chunk = tuple(game_ids[start:start + 500])
            marks = ",".join("?" * len(chunk))
            for row in await self._all(f"SELECT {_GAME_COLS} FROM games WHERE id IN ({marks})", chunk):
                out[row[0]] = (_meta_from_row(row), [])
            for gid, pick in await self._all(
                    f"SELECT game_id, pick FROM moves WHERE game_id IN ({marks}) ORDER BY game_id, n", chunk):
                out[gid][1].append(pick)
        return out

    async def active_games(self) -> list[tuple[int, str, str]]:
        return [tuple(r) for r in await self._all(
            "SELECT id, platform, chat_id FROM games WHERE status IN ('lobby', 'playing')")]

    async def commit(self, changes: Changes, now: float) -> list[int]:
        """Group commit: changes that arrive while a transaction is being written are written
        together in the next one (each in its own savepoint, so one failing change fails alone).
        Every caller returns only after the transaction holding its changes is committed."""
        future = asyncio.get_running_loop().create_future()
        self._queue.append((changes, now, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                results = await self._transaction(self._commit_batch_sync, [(c, n) for c, n, _ in batch])
            except BaseException as exc:  # the whole transaction failed: nothing of it is stored
                for _, _, future in batch:
                    if not future.done():
                        future.set_exception(exc if isinstance(exc, Exception) else RuntimeError(repr(exc)))
                if not isinstance(exc, Exception):
                    raise
                continue
            for (_, _, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    def _commit_batch_sync(self, db, batch: list[tuple[Changes, float]]) -> list:
        if len(batch) == 1:
            return [self._commit_sync(db, *batch[0])]
        results: list = []
        for changes, now in batch:
            db.execute("SAVEPOINT change")
            try:
                results.append(self._commit_sync(db, changes, now))
                db.execute("RELEASE change")
            except Exception as exc:  # noqa: BLE001 - this change fails; the others still commit
                db.execute("ROLLBACK TO change")
                db.execute("RELEASE change")
                results.append(exc)
        return results

    def _commit_sync(self, db, changes: Changes, now: float) -> list[int]:
        ids: list[int] = []
        game = changes.game
        if game is not None:
            db.execute(
                f"INSERT INTO games ({_GAME_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
                f"ON CONFLICT(id) DO UPDATE SET {_GAME_UPDATE}",
                (game.id, game.platform, game.chat_id, game.chat_title, game.status, game.host_id,
                 json.dumps(game.options), game.seed, json.dumps([s.to_dict() for s in game.seats]),
                 json.dumps(game.setup) if game.setup is not None else None,
                 game.moves, game.created, game.updated, json.dumps(game.extra)))
        if changes.moves:
            db.executemany("INSERT INTO moves (game_id, n, pick, seat, actor, at) VALUES (?,?,?,?,?,?)",
                           [(m.game_id, m.n, m.pick, m.seat, m.actor, m.at) for m in changes.moves])
        for out in changes.outbox:
            ids.append(self._enqueue(db, out, now))
        if changes.timers is not None and game is not None:
            db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
            if changes.timers:
                db.executemany("INSERT INTO timers (game_id, kind, due, move) VALUES (?,?,?,?)",
                               [(t.game_id, t.kind, t.due, t.move) for t in changes.timers])
        if changes.drop_timer is not None:
            db.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", changes.drop_timer)
        if changes.results:
            db.executemany(
                "INSERT OR REPLACE INTO results (game_id, seat, platform, chat_id, user_id, name, "
                "is_ai, points, won, ended) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(r.game_id, r.seat, r.platform, r.chat_id, r.user_id, r.name, int(r.is_ai),
                  r.points, int(r.won), r.ended) for r in changes.results])
        if changes.chat_settings is not None:
            platform, chat_id, settings = changes.chat_settings
            db.execute("INSERT OR REPLACE INTO chat_settings VALUES (?,?,?)",
                       (platform, chat_id, json.dumps(settings)))
        return ids

    @staticmethod
    def _enqueue(db, out, now: float) -> int:
        """Insert a message; an edit of a slot whose latest message is still pending replaces
        that message's content instead (coalescing several moves into one post)."""
        body = json.dumps(out.body, ensure_ascii=False)
        if out.slot is not None and out.mode == "edit":
            latest = db.execute("SELECT id, state FROM outbox WHERE platform = ? AND slot = ? "
                                "ORDER BY id DESC LIMIT 1", (out.platform, out.slot)).fetchone()
            if latest is not None and latest[1] == "pending":
                db.execute("UPDATE outbox SET body = ? WHERE id = ?", (body, latest[0]))
                return latest[0]
        cur = db.execute(
            "INSERT INTO outbox (game_id, platform, dest, state, body, slot, mode, due, created) "
            "VALUES (?,?,?,'pending',?,?,?,?,?)",
            (out.game_id, out.platform, out.dest, body, out.slot, out.mode, now, now))
        return cur.lastrowid

    # ---- outbox --------------------------------------------------------------------------

    async def unsent(self, platform: str, limit: int = 500) -> list[StoredOut]:
        rows = await self._all(f"SELECT {_OUT_COLS} FROM outbox WHERE platform = ? AND state IN "
                               f"('pending', 'sending') ORDER BY id LIMIT ?", (platform, limit))
        return [_out_from_row(r) for r in rows]

    async def next_due(self, platform: str) -> float | None:
        row = await self._one("SELECT MIN(due) FROM outbox WHERE platform = ? AND state IN "
                              "('pending', 'sending')", (platform,))
        return row[0] if row else None

    async def mark_sending(self, out_id: int) -> StoredOut | None:
        def run(conn):
            conn.execute("UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?", (out_id,))
            return conn.execute(f"SELECT {_OUT_COLS} FROM outbox WHERE id = ?", (out_id,)).fetchone()
        row = await self._transaction(run)
        return _out_from_row(row) if row else None

    async def mark_sent(self, out: StoredOut, message_id: str, now: float) -> None:
        statements: list[tuple[str, tuple]] = [
            ("UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, error = NULL WHERE id = ?",
             (message_id, now, out.id))]
        if out.slot is not None:
            statements.append(("INSERT OR REPLACE INTO slots (platform, slot, message_id) VALUES (?,?,?)",
                               (out.platform, out.slot, message_id)))
        await self._tx(statements)

    async def reschedule(self, out_id: int, due: float, attempts: int, error: str) -> None:
        await self._tx([("UPDATE outbox SET state = 'pending', due = ?, attempts = ?, error = ? WHERE id = ?",
                         (due, attempts, error[:500], out_id))])

    async def set_state(self, out_id: int, state: str, error: str = "") -> None:
        await self._tx([("UPDATE outbox SET state = ?, error = ? WHERE id = ?", (state, error[:500], out_id))])

    async def held_for(self, platform: str, dest: str) -> list[StoredOut]:
        rows = await self._all(f"SELECT {_OUT_COLS} FROM outbox WHERE platform = ? AND dest = ? "
                               f"AND state = 'held' ORDER BY id", (platform, dest))
        return [_out_from_row(r) for r in rows]

    async def release_held(self, platform: str, dest: str, now: float) -> int:
        def run(conn):
            return conn.execute("UPDATE outbox SET state = 'pending', due = ? WHERE platform = ? AND dest = ? "
                                "AND state = 'held'", (now, platform, dest)).rowcount
        return await self._transaction(run)

    async def prune_outbox(self, before: float) -> int:
        def run(conn):
            return conn.execute("DELETE FROM outbox WHERE state IN ('sent', 'failed') "
                                "AND COALESCE(sent_at, created) < ?", (before,)).rowcount
        return await self._transaction(run)

    async def slot_message(self, platform: str, slot: str) -> str | None:
        row = await self._one("SELECT message_id FROM slots WHERE platform = ? AND slot = ?", (platform, slot))
        return row[0] if row else None

    async def outbox_rows(self, game_id: int | None = None) -> list[StoredOut]:
        if game_id is None:
            rows = await self._all(f"SELECT {_OUT_COLS} FROM outbox ORDER BY id")
        else:
            rows = await self._all(f"SELECT {_OUT_COLS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [_out_from_row(r) for r in rows]

    # ---- timers --------------------------------------------------------------------------

    async def due_timers(self, now: float, platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        where, params = _platform_filter(platforms)
        rows = await self._all("SELECT game_id, kind, due, move FROM timers WHERE due <= ?" + where
                               + " ORDER BY due", (now, *params))
        return [TimerRow(*r) for r in rows]

    async def next_timer(self, platforms: tuple[str, ...] | None = None) -> float | None:
        where, params = _platform_filter(platforms)
        row = await self._one("SELECT MIN(due) FROM timers WHERE 1" + where, params)
        return row[0] if row else None

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        rows = await self._all("SELECT game_id, kind, due, move FROM timers WHERE game_id = ? ORDER BY kind",
                               (game_id,))
        return [TimerRow(*r) for r in rows]

    # ---- settings and stats --------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        row = await self._one("SELECT settings FROM chat_settings WHERE platform = ? AND chat_id = ?",
                              (platform, chat_id))
        return json.loads(row[0]) if row else {}

    async def chat_results(self, platform: str, chat_id: str, game: str | None = None) -> list[ResultRow]:
        rows = await self._all("SELECT game_id, seat, platform, chat_id, user_id, name, is_ai, points, won, "
                               "ended FROM results WHERE platform = ? AND chat_id = ?", (platform, chat_id))
        return [_result(r) for r in rows]

    async def user_results(self, platform: str, user_id: str, game: str | None = None) -> list[ResultRow]:
        rows = await self._all("SELECT game_id, seat, platform, chat_id, user_id, name, is_ai, points, won, "
                               "ended FROM results WHERE platform = ? AND user_id = ? AND is_ai = 0",
                               (platform, user_id))
        return [_result(r) for r in rows]

    async def user_games(self, platform: str, user_id: str) -> list[int]:
        rows = await self._all("SELECT id, seats FROM games WHERE platform = ? AND status = 'playing'",
                               (platform,))
        out = []
        for gid, seats in rows:
            if any(s.get("user_id") == user_id and not s.get("is_ai") for s in json.loads(seats)):
                out.append(gid)
        return out


def _result(r: Any) -> ResultRow:
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], bool(r[8]), r[9])


__all__ = ["ACTIVE", "MIGRATIONS", "SCHEMA_VERSION", "SqliteStorage", "Storage"]
