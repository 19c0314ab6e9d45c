"""The SQLite backend: one file, WAL, one writer at a time (several processes may share it)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .base import Storage
from .sql import Connection, Database, Dialect, Row, Step

T = TypeVar("T")
# The constraint failures that mean another writer got there first.
_CONFLICTS = ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY")
# How long start-up waits for other processes opening the same file, as the busy timeout.
OPEN_PATIENCE = 30.0
# Works written in one transaction at most while another is being written (``grouped``).
GROUP_AT_MOST = 100

# The game-id counter is a row of ``meta``, bumped under the write lock (every write
# transaction here is BEGIN IMMEDIATE), so two processes on one file never get the same id; it
# starts above every stored game.
_LAST_GAME_ID = ("SELECT MAX(COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'last_game_id'), 0), "
                 "(SELECT COALESCE(MAX(id), 0) FROM games))")
_SET_LAST_GAME_ID = ("INSERT INTO meta (key, value) VALUES ('last_game_id', CAST({value} AS TEXT)) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value")

SQLITE = Dialect(
    name="sqlite", bigint="INTEGER", double="REAL", identity="INTEGER", blob="BLOB", without_rowid=" WITHOUT ROWID",
    create_game_ids=("""INSERT INTO meta (key, value) SELECT 'last_game_id', CAST(COALESCE(MAX(id), 0) AS TEXT)
            FROM games""",),
    last_game_id=_LAST_GAME_ID,
    next_game_id=_SET_LAST_GAME_ID.format(value=f"({_LAST_GAME_ID}) + 1") + " RETURNING CAST(value AS INTEGER)",
    continue_ids=_SET_LAST_GAME_ID.format(value=f"MAX(?, ({_LAST_GAME_ID}))"),
    row_locks=False, chained_writes=False, take_turns=None, announce_game=None, keep_packed=())


async def _connect(database: str, **kwargs: Any) -> aiosqlite.Connection:
    """An aiosqlite connection. When connecting fails, aiosqlite stops its thread without
    waiting for it; the thread then outlives the event loop and fails setting its result
    ("Event loop is closed"). So a failed connect waits here for the thread to end."""
    connection = aiosqlite.connect(database, isolation_level=None, **kwargs)
    try:
        return await connection
    except BaseException:
        thread = getattr(connection, "_thread", None)
        if thread is not None and thread.is_alive():
            with contextlib.suppress(BaseException):
                await asyncio.shield(asyncio.to_thread(thread.join, 5.0))
        raise


def _locked(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or \
        "database is locked" in str(exc)


def _finish(work: Awaitable[T]) -> T:
    """Run ``work`` to its end here, on the connection's thread. Its statements run at once (the
    file is local and this thread holds the connection), so it never waits: one ``send`` ends
    it. Anything else it might wait for would need the event loop, which is not here."""
    if not isinstance(work, Coroutine):       # storage work is an ``async def``'s coroutine
        raise TypeError(f"SQLite work must be a coroutine, not {type(work).__name__}")
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value     # the coroutine's return value
        return result
    work.close()
    raise RuntimeError("SQLite work waited on something other than its statements")


class _Connection(Connection):
    """The sqlite3 connection, on aiosqlite's thread: each call runs at once."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return max(self._conn.execute(sql, params).rowcount, 0)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self._conn.execute(sql, params).fetchone()
        return row

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(sql, params).fetchall()


class SqliteDatabase(Database):
    """SQLite through aiosqlite: one connection, WAL, one writer at a time.

    Each read and each transaction runs as one function on aiosqlite's connection thread: one
    hop per call instead of one per statement, and two transactions can never interleave on the
    shared connection. Transactions asked for with ``grouped`` while one is being written are
    written together in the next one (group commit)."""

    dialect = SQLITE

    def __init__(self, path: str, *, synchronous: str = "FULL") -> None:
        self.path = path
        # FULL: a commit is on disk (fsync) before any message about it can go out, even
        # across a power loss; NORMAL would only survive a process crash.
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"unsupported synchronous mode {synchronous!r}")
        self.synchronous = synchronous.upper()
        self._queue: list[tuple[Callable[[Connection], Awaitable[Any]], asyncio.Future[Any]]] = []
        self._writing = 0          # transactions of grouped work handed to the thread, not yet written
        self._last_written: asyncio.Future[list[Any]] | None = None
        self._db: aiosqlite.Connection | None = None

    @property
    def connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open(self, migrate: Callable[[], Awaitable[Any]]) -> None:
        self._db = await _connect(self.path)
        try:
            # Another process may hold the write lock: wait for it.
            await self.connection.execute(f"PRAGMA busy_timeout={int(OPEN_PATIENCE * 1000)}")

            async def prepare() -> None:
                await self.connection.execute("PRAGMA journal_mode=WAL")
                await self.connection.execute(f"PRAGMA synchronous={self.synchronous}")
                await self.connection.execute("PRAGMA foreign_keys=ON")
                await migrate()
            await self._with_patience(prepare)
        except BaseException:
            # aiosqlite's connection thread keeps a process alive until closed: a failed open
            # must close it, or the process hangs at exit instead of reporting the error.
            await self.close()
            raise

    async def open_existing(self) -> None:
        path = Path(self.path)
        if not path.is_file():          # sqlite3 would create it (or open ":memory:")
            raise FileNotFoundError(f"no database file at {self.path}")
        # mode=rw: the file must exist; nothing here switches the journal or migrates.
        self._db = await _connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
        await self.connection.execute(f"PRAGMA busy_timeout={int(OPEN_PATIENCE * 1000)}")

    async def _with_patience(self, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``step`` (idempotent), again after a short wait while the file is locked.

        Two processes opening one new file at once: switching it to WAL, and the first
        transactions while the other process switches it, can fail with "database is locked"
        at once, without waiting the busy timeout (SQLite skips the busy handler where waiting
        could deadlock). So start-up waits here instead, with backoff, up to OPEN_PATIENCE."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + OPEN_PATIENCE
        delay = 0.005
        while True:
            try:
                await step()
                return
            except sqlite3.OperationalError as exc:
                if not _locked(exc) or loop.time() + delay > deadline:
                    raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.25)

    async def close(self) -> None:
        while self._last_written is not None and not self._last_written.done():
            with contextlib.suppress(Exception):
                await self._last_written    # let commits already asked for finish (in order)
        if self._db is not None:
            await self._db.close()
            self._db = None

    # ---- running work on the connection's thread -----------------------------------------

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        result: T = await self.connection._execute(fn, *args)
        return result

    def _in_transaction(self, run: Callable[[sqlite3.Connection], T]) -> T:
        conn = self.connection._conn
        # IMMEDIATE: the write lock from the start, so a transaction that read first never
        # finds its snapshot stale when it comes to write (that fails at once, without waiting).
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = run(conn)
            conn.execute("COMMIT")
            return result
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    async def transaction(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        return await self._call(self._in_transaction, lambda conn: _finish(work(_Connection(conn))))

    async def read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        return await self._call(lambda: _finish(work(_Connection(self.connection._conn))))

    async def grouped(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Group commit: work that arrives while a transaction is being written is written
        together in the next one (each in its own savepoint, so one failing fails alone).
        Every caller returns only after the transaction holding its work is committed.

        A transaction is handed to the connection's thread at once, from here, rather than by a
        task of its own: a task would first run after every other task ready now, and with many
        actions ready together (1,000 presses at once, issue 44) the database would wait, idle,
        for all of them to be computed, then write them all in one transaction while the event
        loop waited. Here the first work goes at once and the rest follows in batches of up to
        ``GROUP_AT_MOST``, written on the thread while the loop computes the next ones."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append((work, future))
        if not self._writing or len(self._queue) >= GROUP_AT_MOST:
            self._write_queued()
        return await future             # the value ``work`` returned, set by ``_written``

    def _write_queued(self) -> None:
        """Hand the queued works to the connection's thread as one transaction (queued behind
        any transaction already handed over: they commit in the order asked for)."""
        batch, self._queue = self._queue, []
        works = [work for work, _ in batch]
        written: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        # What aiosqlite's ``_execute`` does, without the task hop of awaiting it first.
        connection = self._db
        if connection is None or not connection._running or connection._connection is None:
            for _, future in batch:     # every caller of the batch hears it, not only this one
                if not future.done():
                    future.set_exception(ValueError("storage is not open"))
            return
        connection._tx.put_nowait((written, partial(self._in_transaction, partial(_each, works))))
        self._writing += 1
        self._last_written = written
        written.add_done_callback(partial(self._written, batch))

    def _written(self, batch: list[tuple[Callable[[Connection], Awaitable[Any]], asyncio.Future[Any]]],
                 written: asyncio.Future[list[Any]]) -> None:
        self._writing -= 1
        if self._queue and not self._writing:
            self._write_queued()
        exc = written.exception()
        if exc is not None:             # the whole transaction failed: nothing of it is stored
            failure = exc if isinstance(exc, Exception) else RuntimeError(repr(exc))
            for _, future in batch:
                if not future.done():
                    future.set_exception(failure)
            return
        for (_, future), result in zip(batch, written.result(), strict=True):
            if future.done():
                continue
            if isinstance(result, _Failed):
                future.set_exception(result.exc)
            else:
                future.set_result(result)

    def is_conflict(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and getattr(exc, "sqlite_errorname", "") in _CONFLICTS

    # ---- the schema ----------------------------------------------------------------------

    async def schema_version(self) -> int:
        version: int = await self.value("PRAGMA user_version")
        return version

    async def migrate(self, steps: Sequence[Step], target: int) -> int:
        version = await self.schema_version()
        if version > len(steps):
            raise RuntimeError(f"database schema {version} is newer than this code ({len(steps)})")
        for step in range(version, target):
            async def take(conn: Connection, step: int = step) -> None:
                # Another process may have taken this step while we waited for the lock.
                if await conn.value("PRAGMA user_version") != step:
                    return
                await steps[step].apply(conn, self.dialect)
                await conn.execute(f"PRAGMA user_version={step + 1}")
            await self.transaction(take)
        return target


class _Failed:
    """One grouped work's exception, kept apart from the results of the others."""

    __slots__ = ("exc",)

    def __init__(self, exc: Exception) -> None:
        self.exc = exc


def _each(works: list[Callable[[Connection], Awaitable[Any]]], conn: sqlite3.Connection) -> list[Any]:
    """Run each of ``works`` in one transaction, each in its own savepoint."""
    if len(works) == 1:
        return [_finish(works[0](_Connection(conn)))]
    results: list[Any] = []
    for work in works:
        conn.execute("SAVEPOINT grouped")
        try:
            results.append(_finish(work(_Connection(conn))))
            conn.execute("RELEASE grouped")
        except Exception as exc:  # noqa: BLE001 - this work fails; the others still commit
            conn.execute("ROLLBACK TO grouped")
            conn.execute("RELEASE grouped")
            results.append(_Failed(exc))
    return results


class SqliteStorage(Storage):
    """The storage in a SQLite file (``path``)."""

    database: SqliteDatabase

    def __init__(self, path: str, *, synchronous: str = "FULL") -> None:
        super().__init__(SqliteDatabase(path, synchronous=synchronous))

    @property
    def path(self) -> str:
        return self.database.path

    @property
    def db(self) -> aiosqlite.Connection:
        """The aiosqlite connection itself (for tests and benchmarks reading rows directly)."""
        return self.database.connection
