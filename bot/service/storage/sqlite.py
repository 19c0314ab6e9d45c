"""The SQLite backend: one file, WAL, one writer at a time (several processes may share it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosqlite

from ..model import Changes, GameMeta, RatingRow, ResultRow, Snapshot, StoredOut, TimerRow
from . import base
from .base import MIGRATIONS, SCHEMA_VERSION, Conflict, Storage

# The constraint failures that mean another writer got there first.
_CONFLICTS = ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY")
# How long start-up waits for other processes opening the same file, as the busy timeout.
OPEN_PATIENCE = 30.0


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
        self._db = await _connect(self.path)
        try:
            # Another process may hold the write lock: wait for it.
            await self.db.execute(f"PRAGMA busy_timeout={int(OPEN_PATIENCE * 1000)}")
            await self._with_patience(self._prepare)
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
        await self.db.execute(f"PRAGMA busy_timeout={int(OPEN_PATIENCE * 1000)}")

    async def _prepare(self) -> None:
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute(f"PRAGMA synchronous={self.synchronous}")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.migrate()

    async def _with_patience(self, step) -> None:
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
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this code ({SCHEMA_VERSION})")
        for step in range(version, target):
            def run(conn, step=step):
                # Another process may have taken this step while we waited for the lock.
                if conn.execute("PRAGMA user_version").fetchone()[0] != step:
                    return
                for sql in MIGRATIONS[step]:
                    conn.execute(sql)
                if step + 1 == base.RATE_STORED:
                    conn.executemany(base.INSERT_RATING, base.stored_ratings(*self._rating_rows(conn)))
                conn.execute(f"PRAGMA user_version={step + 1}")
            await self._transaction(run)
        return target

    @staticmethod
    def _rating_rows(conn) -> tuple[list, list, list]:
        return (conn.execute(base.FINISHED_GAMES).fetchall(), conn.execute(base.FINISHED_RESULTS).fetchall(),
                conn.execute(base.AI_MOVED).fetchall())

    async def secret(self) -> bytes:
        row = await self._one("SELECT value FROM meta WHERE key = 'payload_secret'")
        if row:
            return bytes.fromhex(row[0])
        key = secrets.token_hex(32)
        await self._tx([("INSERT OR IGNORE INTO meta(key, value) VALUES ('payload_secret', ?)", (key,))])
        row = await self._one("SELECT value FROM meta WHERE key = 'payload_secret'")
        return bytes.fromhex(row[0])

    # ---- games ---------------------------------------------------------------------------

    @staticmethod
    def _last_game_id(conn) -> int:
        row = conn.execute("SELECT value FROM meta WHERE key = 'last_game_id'").fetchone()
        stored = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        return max(int(row[0]) if row else 0, stored)

    @staticmethod
    def _set_last_game_id(conn, value: int) -> None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('last_game_id', ?) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (str(value),))

    async def new_game_id(self) -> int:
        # The counter is bumped under the write lock (BEGIN IMMEDIATE), so two processes on
        # one file never get the same id; it starts above every stored game.
        def run(conn):
            value = self._last_game_id(conn) + 1
            self._set_last_game_id(conn, value)
            return value
        return await self._transaction(run)

    async def max_game_id(self) -> int:
        return await self._call(lambda: self._last_game_id(self.db._conn))

    async def latest_started_game(self) -> int | None:
        row = await self._one("SELECT MAX(id) FROM games WHERE setup IS NOT NULL")
        return row[0] if row else None

    async def platform_games(self, platform: str, limit: int = 50) -> list[GameMeta]:
        return [base.meta_from_row(r) for r in await self._all(base.PLATFORM_GAMES, (platform, limit))]

    async def active_game_id(self, platform: str, chat_id: str) -> int | None:
        row = await self._one("SELECT id FROM games WHERE platform = ? AND chat_id = ? "
                              "AND status IN ('lobby', 'playing')", (platform, chat_id))
        return row[0] if row else None

    async def game_version(self, game_id: int) -> int | None:
        row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return row[0] if row else None

    async def load_game(self, game_id: int) -> tuple[GameMeta, list[tuple[int, str]]] | None:
        def run():
            conn = self.db._conn
            row = conn.execute(f"{base.SELECT_GAME} WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = conn.execute("SELECT seat, pick FROM moves WHERE game_id = ? ORDER BY n",
                                 (game_id,)).fetchall()
            return row, moves
        got = await self._call(run)
        if got is None:
            return None
        return base.meta_from_row(got[0]), [(seat, pick) for seat, pick in got[1]]

    async def load_games(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, list[tuple[int, str]]]]:
        out: dict[int, tuple[GameMeta, list[tuple[int, str]]]] = {}
        for start in range(0, len(game_ids), 500):
            chunk = tuple(game_ids[start:start + 500])
            marks = ",".join("?" * len(chunk))
            for row in await self._all(f"{base.SELECT_GAME} WHERE id IN ({marks})", chunk):
                out[row[0]] = (base.meta_from_row(row), [])
            for gid, seat, pick in await self._all(
                    f"SELECT game_id, seat, pick FROM moves WHERE game_id IN ({marks}) ORDER BY game_id, n",
                    chunk):
                out[gid][1].append((seat, pick))
        return out

    async def load_with_snapshots(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, Snapshot | None]]:
        out: dict[int, tuple[GameMeta, Snapshot | None]] = {}
        for start in range(0, len(game_ids), 500):
            chunk = tuple(game_ids[start:start + 500])
            rows = await self._all(f"{base.SELECT_SNAPSHOTTED} WHERE g.id IN ({','.join('?' * len(chunk))})", chunk)
            for row in rows:
                out[row[0]] = base.snapshotted_from_row(row)
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
            for (changes, _, future), result in zip(batch, results, strict=True):
                if isinstance(result, Exception):
                    if not future.done():
                        future.set_exception(result)
                    continue
                if changes.game is not None:
                    changes.game.version += 1   # stored: the row now holds the next version
                if not future.done():
                    future.set_result(result)

    def _commit_batch_sync(self, db, batch: list[tuple[Changes, float]]) -> list:
        if len(batch) == 1:
            return [self._commit_sync(db, *batch[0])]
        results: list = []
        # A game committed twice in one batch (the same in-memory meta) builds on the
        # version its earlier change in this transaction stored.
        bumped: dict[int, int] = {}
        for changes, now in batch:
            db.execute("SAVEPOINT change")
            game = changes.game
            try:
                if game is not None and id(game) in bumped:
                    results.append(self._commit_sync(db, changes, now, bumped[id(game)]))
                else:
                    results.append(self._commit_sync(db, changes, now))
                db.execute("RELEASE change")
                if game is not None:
                    bumped[id(game)] = bumped.get(id(game), game.version) + 1
            except Exception as exc:  # noqa: BLE001 - this change fails; the others still commit
                db.execute("ROLLBACK TO change")
                db.execute("RELEASE change")
                results.append(exc)
        return results

    def _commit_sync(self, db, changes: Changes, now: float, version: int | None = None) -> list[int]:
        try:
            return self._write(db, changes, now, version)
        except sqlite3.IntegrityError as exc:
            if getattr(exc, "sqlite_errorname", "") in _CONFLICTS:
                raise Conflict(f"stored meanwhile by another writer: {exc}") from exc
            raise

    def _write(self, db, changes: Changes, now: float, version: int | None) -> list[int]:
        ids: list[int] = []
        game = changes.game
        if game is not None:
            if version is not None and version != game.version:
                game = replace(game, version=version)   # the row a batch-mate stored just before
            if game.version == 0:
                stored = db.execute(base.INSERT_GAME, base.game_values(game)).rowcount
            else:
                stored = db.execute(base.UPDATE_GAME, base.update_params(game)).rowcount
            if stored != 1:
                raise Conflict(f"game {game.id} is no longer at version {game.version}")
        if changes.moves:
            db.executemany(base.INSERT_MOVE, [(m.game_id, m.n, m.pick, m.seat, m.actor, m.at)
                                              for m in changes.moves])
        for sql, params in base.snapshot_writes(changes):
            db.execute(sql, params)
        for out in changes.outbox:
            ids.append(self._enqueue(db, out, now))
        if changes.timers is not None and game is not None:
            db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
            if changes.timers:
                db.executemany(base.INSERT_TIMER, [(t.game_id, t.kind, t.due, t.move) for t in changes.timers])
        if changes.drop_timer is not None:
            db.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", changes.drop_timer)
        if changes.results:
            db.executemany(base.UPSERT_RESULT, [base.result_values(r) for r in changes.results])
        if changes.ratings:
            db.executemany(base.INSERT_RATING, [base.rating_values(r) for r in changes.ratings])
        if changes.chat_settings is not None:
            platform, chat_id, settings = changes.chat_settings
            db.execute(base.UPSERT_SETTINGS, (platform, chat_id, json.dumps(settings)))
        if changes.away is not None:
            db.execute(*base.away_change(changes.away))
        return ids

    @staticmethod
    def _enqueue(db, out, now: float) -> int:
        """Insert a message; an edit of a slot whose latest message is still pending replaces
        that message's content instead (coalescing several moves into one post)."""
        body = json.dumps(out.body, ensure_ascii=False)
        if out.slot is not None and out.mode == "edit":
            latest = db.execute(base.LATEST_IN_SLOT, (out.platform, out.slot)).fetchone()
            if (latest is not None and latest[1] == "pending"
                    and db.execute(base.COALESCE_EDIT, (body, out.priority, latest[0])).rowcount == 1):
                return latest[0]
        cur = db.execute(base.INSERT_OUT, (out.game_id, out.platform, out.dest, body, out.slot, out.mode, now, now,
                                           out.priority))
        return cur.lastrowid

    # ---- outbox --------------------------------------------------------------------------

    async def unsent(self, platform: str, limit: int = 500) -> list[StoredOut]:
        rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox WHERE platform = ? AND state IN "
                               f"('pending', 'sending') ORDER BY id LIMIT ?", (platform, limit))
        return [base.out_from_row(r) for r in rows]

    async def claim_unsent(self, platform: str, owner: str, now: float, lease_seconds: float,
                           limit: int = 100, skip: frozenset[str] = frozenset()) -> list[StoredOut]:
        # BEGIN IMMEDIATE: no other process can claim (or commit) between the choice and the mark.
        sql, params = base.claimable_out(platform, now, limit, skip)

        def run(conn):
            before = {out_id: (state, rank, turn) for out_id, state, rank, turn in conn.execute(sql, params).fetchall()}
            if not before:
                return [], before
            marks = ",".join("?" * len(before))
            conn.execute(f"UPDATE outbox SET state = 'sending', owner = ?, lease = ?, attempts = attempts + 1 "
                         f"WHERE id IN ({marks})", (owner, now + lease_seconds, *before))
            rows = conn.execute(f"SELECT {base.OUT_COLS} FROM outbox WHERE id IN ({marks})", tuple(before)).fetchall()
            return rows, before
        rows, before = await self._transaction(run)
        order = {out_id: i for i, out_id in enumerate(before)}      # the claim's order (rank, turn, id)
        return sorted((replace(base.out_from_row(r), taken_over=before[r[0]][0] == "sending",
                               rank=before[r[0]][1], turn=before[r[0]][2]) for r in rows),
                      key=lambda o: order[o.id])

    async def renew_lease(self, out_id: int, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        row = await self._transaction(
            lambda conn: conn.execute(base.RENEW_OUT, (now + lease_seconds, out_id, owner)).fetchone())
        return base.out_from_row(row) if row else None

    async def claim_next(self, out: StoredOut, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        row = await self._transaction(lambda conn: conn.execute(
            base.CLAIM_NEXT_OUT, (owner, now + lease_seconds, out.platform, out.dest, out.id)).fetchone())
        return base.out_from_row(row) if row else None

    async def set_body(self, out_id: int, body: dict) -> None:
        await self._tx([(base.SET_OUT_BODY, (json.dumps(body, ensure_ascii=False), out_id))])

    async def release_claim(self, out: StoredOut, owner: str) -> None:
        await self._tx([(base.RELEASE_OUT, ("sending" if out.taken_over else "pending", out.id, owner))])

    async def release_timer(self, timer: TimerRow, owner: str) -> None:
        await self._tx([(base.RELEASE_TIMER, (timer.game_id, timer.kind, owner))])

    async def release_owner(self, owner: str) -> None:
        await self._tx([(base.RELEASE_OWNER_OUT, (owner,)), (base.RELEASE_OWNER_TIMERS, (owner,))])

    async def next_due(self, platform: str) -> float | None:
        row = await self._one(base.NEXT_DUE, (platform,))
        return row[0] if row else None

    async def mark_sending(self, out_id: int) -> StoredOut | None:
        def run(conn):
            conn.execute("UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?", (out_id,))
            return conn.execute(f"SELECT {base.OUT_COLS} FROM outbox WHERE id = ?", (out_id,)).fetchone()
        row = await self._transaction(run)
        return base.out_from_row(row) if row else None

    async def mark_sent(self, out: StoredOut, message_id: str, now: float) -> None:
        def run(conn) -> None:
            if out.slot is None:
                conn.execute(base.MARK_SENT_TRIMMED, (message_id, now, base.delivered_body(out.body), out.id))
            else:
                conn.execute(base.MARK_SENT, (message_id, now, out.id))
                conn.execute(base.UPSERT_SLOT, (out.platform, out.slot, message_id))
                conn.execute(base.DROP_REPLACED, (out.platform, out.slot, out.id))
        await self._transaction(run)

    async def reschedule(self, out_id: int, due: float, attempts: int, error: str) -> None:
        await self._tx([(base.RESCHEDULE, (due, attempts, error[:500], out_id))])

    async def set_state(self, out_id: int, state: str, error: str = "") -> None:
        await self._tx([(base.SET_STATE, (state, error[:500], out_id))])

    async def held_for(self, platform: str, dest: str) -> list[StoredOut]:
        rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox WHERE platform = ? AND dest = ? "
                               f"AND state = 'held' ORDER BY id", (platform, dest))
        return [base.out_from_row(r) for r in rows]

    async def release_held(self, platform: str, dest: str, now: float) -> int:
        return await self._transaction(lambda conn: conn.execute(base.RELEASE_HELD, (now, platform, dest)).rowcount)

    async def prune_outbox(self, before: float) -> int:
        return await self._transaction(lambda conn: conn.execute(base.PRUNE, (before,)).rowcount)

    async def last_shown(self, platform: str, slot: str) -> dict | None:
        row = await self._one(base.LAST_SHOWN, (platform, slot))
        return json.loads(row[0]) if row else None

    async def slot_message(self, platform: str, slot: str) -> str | None:
        row = await self._one("SELECT message_id FROM slots WHERE platform = ? AND slot = ?", (platform, slot))
        return row[0] if row else None

    async def slot_messages(self, platform: str, slots: list[str]) -> dict[str, str]:
        if not slots:
            return {}
        rows = await self._all(base.slot_messages_query(slots), (platform, *slots))
        return {slot: message_id for slot, message_id in rows}

    async def outbox_rows(self, game_id: int | None = None) -> list[StoredOut]:
        if game_id is None:
            rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox ORDER BY id")
        else:
            rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [base.out_from_row(r) for r in rows]

    # ---- timers --------------------------------------------------------------------------

    async def due_timers(self, now: float, platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        where, params = base.platform_filter(platforms)
        rows = await self._all("SELECT game_id, kind, due, move FROM timers WHERE due <= ?" + where
                               + " ORDER BY due", (now, *params))
        return [TimerRow(*r) for r in rows]

    async def claim_due_timers(self, now: float, owner: str, lease_seconds: float,
                               platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        where, params = base.platform_filter(platforms)

        def run(conn):
            rows = conn.execute("SELECT game_id, kind, due, move FROM timers WHERE due <= ? "
                                "AND (lease IS NULL OR lease <= ?)" + where + " ORDER BY due",
                                (now, now, *params)).fetchall()
            conn.executemany("UPDATE timers SET owner = ?, lease = ? WHERE game_id = ? AND kind = ?",
                             [(owner, now + lease_seconds, r[0], r[1]) for r in rows])
            return rows
        return [TimerRow(*r) for r in await self._transaction(run)]

    async def next_timer(self, platforms: tuple[str, ...] | None = None) -> float | None:
        where, params = base.platform_filter(platforms)
        row = await self._one(base.NEXT_TIMER + where, params)
        return row[0] if row else None

    async def late_work(self, before: float, now: float) -> tuple[int, int]:
        out = (await self._one(base.LATE_OUT, (before, now)))[0]
        timers = (await self._one(base.LATE_TIMERS, (before, now)))[0]
        return out, timers

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        rows = await self._all("SELECT game_id, kind, due, move FROM timers WHERE game_id = ? ORDER BY kind",
                               (game_id,))
        return [TimerRow(*r) for r in rows]

    # ---- settings and stats --------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        row = await self._one("SELECT settings FROM chat_settings WHERE platform = ? AND chat_id = ?",
                              (platform, chat_id))
        return json.loads(row[0]) if row else {}

    async def away_until(self, platform: str, user_ids: list[str]) -> dict[str, float]:
        if not user_ids:
            return {}
        return dict(await self._all(base.away_query(user_ids), (platform, *user_ids)))

    async def chat_results(self, platform: str, chat_id: str | None, game: str | None = None) -> list[ResultRow]:
        where, params = base.game_filter(game)
        chat, chat_params = base.chat_filter(chat_id)
        rows = await self._all(f"SELECT {base.RESULT_COLS} FROM results WHERE platform = ?" + chat
                               + where, (platform, *chat_params, *params))
        return [base.result_from_row(r) for r in rows]

    async def user_results(self, platform: str, user_id: str, game: str | None = None) -> list[ResultRow]:
        where, params = base.game_filter(game)
        rows = await self._all(f"SELECT {base.RESULT_COLS} FROM results WHERE platform = ? AND user_id = ? "
                               "AND is_ai = 0" + where, (platform, user_id, *params))
        return [base.result_from_row(r) for r in rows]

    async def user_games(self, platform: str, user_id: str) -> list[int]:
        rows = await self._all("SELECT id, seats FROM games WHERE platform = ? AND status = 'playing'",
                               (platform,))
        return base.user_game_ids(rows, user_id)

    # ---- ratings -------------------------------------------------------------------------

    async def ai_moved(self, game_id: int) -> set[int]:
        return {r[0] for r in await self._all(base.AI_MOVED_IN, (game_id,))}

    async def latest_ratings(self, platform: str, game: str, *, chat_id: str | None = None,
                             players: list[str] | None = None) -> list[RatingRow]:
        sql, params = base.latest_ratings_query(platform, game, chat_id, players)
        return [base.rating_from_row(r) for r in await self._all(sql, params)]

    async def player_ratings(self, platform: str, player: str) -> list[RatingRow]:
        return [base.rating_from_row(r) for r in await self._all(base.LATEST_OF_PLAYER, (platform, player))]

    async def rating_history(self) -> list[RatingRow]:
        return [base.rating_from_row(r) for r in await self._all(base.RATING_HISTORY)]

    async def rating_inputs(self) -> list:
        return await self._call(lambda: base.rating_inputs(*self._rating_rows(self.db._conn)))

    async def seated_games(self, platform: str, user_id: str) -> list[GameMeta]:
        rows = await self._all(base.SEATED_GAMES, (platform, base.seated_pattern(user_id)))
        return base.seated(rows, user_id)

    # ---- copying -------------------------------------------------------------------------

    async def page(self, table: str, after: tuple | None, limit: int) -> list[tuple]:
        sql, params = base.page_query(table, after, limit)
        return [tuple(r) for r in await self._all(sql, params)]

    async def insert_rows(self, table: str, rows: list[tuple]) -> None:
        sql = base.insert_query(table)
        await self._transaction(lambda conn: conn.executemany(sql, rows))

    async def adopt(self, secret: bytes, last_game_id: int) -> None:
        def run(conn):
            conn.execute("INSERT INTO meta (key, value) VALUES ('payload_secret', ?) "
                         "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (secret.hex(),))
            self._set_last_game_id(conn, max(last_game_id, self._last_game_id(conn)))
        await self._transaction(run)
