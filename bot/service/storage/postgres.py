"""The PostgreSQL backend (asyncpg): the same behaviour as SQLite for many processes at once.

Game ids come from a sequence; commits are plain transactions from a connection pool
(no group commit: the server handles concurrent writers); claims of outbox rows are
serialized per platform by an advisory lock so a destination's messages go to one owner
in order, and timers are claimed with ``FOR UPDATE SKIP LOCKED``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import weakref
from dataclasses import replace
from typing import Any

import asyncpg

from ..model import Changes, GameMeta, RatingRow, ResultRow, Snapshot, StoredOut, TimerRow
from . import base
from .base import PG_MIGRATIONS, SCHEMA_VERSION, Conflict, Storage

MIGRATION_LOCK = 0x70617269   # advisory lock key: one process migrates at a time
# The channel a commit of a game is announced on (to the web board's pages in other processes).
# Channels are the database's, not the schema's: the payload names the schema too.
GAMES_CHANNEL = "boardchat_games"


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """The shared ``?`` SQL with PostgreSQL's numbered placeholders."""
    first, *rest = sql.split("?")
    return first + "".join(f"${n}{part}" for n, part in enumerate(rest, 1))


class PostgresStorage(Storage):
    """PostgreSQL through an asyncpg connection pool. ``url`` is a libpq-style URL; its query
    may set server settings such as ``search_path`` (a schema per bot or per test)."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.min_size, self.max_size = min_size, max_size
        self._pool: asyncpg.Pool | None = None
        self._game_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listener: asyncpg.Connection | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("storage is not open")
        return self._pool

    async def open(self) -> None:
        self._pool = await asyncpg.create_pool(self.url, min_size=self.min_size, max_size=self.max_size,
                                               reset=_keep_session)
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def open_existing(self) -> None:
        # The server must have the database already (asyncpg fails otherwise); no migration.
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=1, reset=_keep_session)

    async def watch_games(self, changed) -> None:
        # A connection of its own: a pooled one would be handed to a transaction with the
        # listener still on it. NOTIFY is delivered at commit, so a page never sees a move that
        # was rolled back.
        conn = await asyncpg.connect(self.url)
        schema = await conn.fetchval("SELECT current_schema()")

        def heard(_conn, _pid, _channel, payload: str) -> None:
            where, _, game_id = payload.rpartition(":")
            if where == schema and game_id.isdigit():
                changed(int(game_id))

        await conn.add_listener(GAMES_CHANNEL, heard)
        self._listener = conn

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def _one(self, sql: str, *params: Any) -> Any:
        return await self.pool.fetchrow(numbered(sql), *params)

    async def _all(self, sql: str, *params: Any) -> list[Any]:
        return await self.pool.fetch(numbered(sql), *params)

    async def _execute(self, sql: str, *params: Any) -> str:
        return await self.pool.execute(numbered(sql), *params)

    @staticmethod
    async def _version_in(conn: asyncpg.Connection) -> int:
        if await conn.fetchval("SELECT to_regclass('meta')") is None:
            return 0
        value = await conn.fetchval("SELECT value FROM meta WHERE key = 'schema_version'")
        return int(value) if value is not None else 0

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await self._version_in(conn)

    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        async with self.pool.acquire() as conn:
            # One process migrates at a time; the others find the work done once they get the
            # lock (read in a transaction started after it, so it sees the new tables).
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                version = await self._version_in(conn)
                if version > SCHEMA_VERSION:
                    raise RuntimeError(f"database schema {version} is newer than this code ({SCHEMA_VERSION})")
                for step in range(version, target):
                    async with conn.transaction():
                        for sql in PG_MIGRATIONS[step]:
                            await conn.execute(sql)
                        if step + 1 == base.RATE_STORED:
                            await conn.executemany(numbered(base.INSERT_RATING), base.stored_ratings(
                                *await self._rating_rows(conn)))
                        await conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', $1) ON CONFLICT "
                                           "(key) DO UPDATE SET value = excluded.value", str(step + 1))
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return target

    @staticmethod
    async def _rating_rows(conn: asyncpg.Connection) -> tuple[list, list, list]:
        return (await conn.fetch(base.FINISHED_GAMES), await conn.fetch(base.FINISHED_RESULTS),
                await conn.fetch(base.AI_MOVED))

    async def secret(self) -> bytes:
        await self._execute("INSERT INTO meta (key, value) VALUES ('payload_secret', ?) ON CONFLICT DO NOTHING",
                            secrets.token_hex(32))
        row = await self._one("SELECT value FROM meta WHERE key = 'payload_secret'")
        return bytes.fromhex(row[0])

    # ---- games ---------------------------------------------------------------------------

    async def new_game_id(self) -> int:
        return await self.pool.fetchval("SELECT nextval('game_ids')")

    async def max_game_id(self) -> int:
        return await self.pool.fetchval(
            "SELECT GREATEST((SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM game_ids), "
            "(SELECT COALESCE(MAX(id), 0) FROM games))")

    async def latest_started_game(self) -> int | None:
        return await self.pool.fetchval("SELECT MAX(id) FROM games WHERE setup IS NOT NULL")

    async def platform_games(self, platform: str, limit: int = 50) -> list[GameMeta]:
        return [base.meta_from_row(r) for r in await self._all(base.PLATFORM_GAMES, platform, limit)]

    async def active_game_id(self, platform: str, chat_id: str) -> int | None:
        row = await self._one("SELECT id FROM games WHERE platform = ? AND chat_id = ? "
                              "AND status IN ('lobby', 'playing')", platform, chat_id)
        return row[0] if row else None

    async def game_version(self, game_id: int) -> int | None:
        return await self.pool.fetchval("SELECT version FROM games WHERE id = $1", game_id)

    async def load_game(self, game_id: int) -> tuple[GameMeta, list[tuple[int, str]]] | None:
        got = await self.load_games([game_id])
        return got.get(game_id)

    async def load_games(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, list[tuple[int, str]]]]:
        out: dict[int, tuple[GameMeta, list[tuple[int, str]]]] = {}
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            for row in await conn.fetch(f"{base.SELECT_GAME} WHERE id = ANY($1::bigint[])", game_ids):
                out[row[0]] = (base.meta_from_row(row), [])
            for gid, seat, pick in await conn.fetch("SELECT game_id, seat, pick FROM moves "
                                                    "WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, n",
                                                    game_ids):
                out[gid][1].append((seat, pick))
        return out

    async def load_with_snapshots(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, Snapshot | None]]:
        rows = await self.pool.fetch(f"{base.SELECT_SNAPSHOTTED} WHERE g.id = ANY($1::bigint[])", game_ids)
        return {row[0]: base.snapshotted_from_row(row) for row in rows}

    async def active_games(self) -> list[tuple[int, str, str]]:
        return [tuple(r) for r in await self._all(
            "SELECT id, platform, chat_id FROM games WHERE status IN ('lobby', 'playing')")]

    async def commit(self, changes: Changes, now: float) -> list[int]:
        if changes.game is None:
            return await self._commit(changes, now)
        # Commits of one game from this process take turns, so each builds on the version
        # the one before stored (as SQLite's group commit does within a batch).
        lock = self._game_locks.setdefault(changes.game.id, asyncio.Lock())
        async with lock:
            return await self._commit(changes, now)

    async def _commit(self, changes: Changes, now: float) -> list[int]:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                ids = await self._write(conn, changes, now)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(f"stored meanwhile by another writer: {exc}") from exc
        if changes.game is not None:
            changes.game.version += 1   # stored: the row now holds the next version
        return ids

    async def _write(self, conn: asyncpg.Connection, changes: Changes, now: float) -> list[int]:
        ids: list[int] = []
        game = changes.game
        if game is not None:
            if game.version == 0:
                status = await conn.execute(numbered(base.INSERT_GAME), *base.game_values(game))
            else:
                status = await conn.execute(numbered(base.UPDATE_GAME), *base.update_params(game))
            if _count(status) != 1:
                raise Conflict(f"game {game.id} is no longer at version {game.version}")
            await conn.execute("SELECT pg_notify($1, current_schema() || ':' || $2)", GAMES_CHANNEL, str(game.id))
        if changes.moves:
            await conn.executemany(numbered(base.INSERT_MOVE), [(m.game_id, m.n, m.pick, m.seat, m.actor, m.at)
                                                                for m in changes.moves])
        for sql, params in base.snapshot_writes(changes):
            await conn.execute(numbered(sql), *params)
        for out in changes.outbox:
            ids.append(await self._enqueue(conn, out, now))
        if changes.timers is not None and game is not None:
            await conn.execute("DELETE FROM timers WHERE game_id = $1", game.id)
            if changes.timers:
                await conn.executemany(numbered(base.INSERT_TIMER),
                                       [(t.game_id, t.kind, t.due, t.move) for t in changes.timers])
        if changes.drop_timer is not None:
            await conn.execute("DELETE FROM timers WHERE game_id = $1 AND kind = $2", *changes.drop_timer)
        if changes.results:
            await conn.executemany(numbered(base.UPSERT_RESULT), [base.result_values(r) for r in changes.results])
        if changes.ratings:
            await conn.executemany(numbered(base.INSERT_RATING), [base.rating_values(r) for r in changes.ratings])
        if changes.chat_settings is not None:
            platform, chat_id, settings = changes.chat_settings
            await conn.execute(numbered(base.UPSERT_SETTINGS), platform, chat_id, json.dumps(settings))
        if changes.away is not None:
            sql, params = base.away_change(changes.away)
            await conn.execute(numbered(sql), *params)
        return ids

    @staticmethod
    async def _enqueue(conn: asyncpg.Connection, out, now: float) -> int:
        """Insert a message; an edit of a slot whose latest message is still pending replaces
        that message's content instead (coalescing several moves into one post)."""
        body = json.dumps(out.body, ensure_ascii=False)
        if out.slot is not None and out.mode == "edit":
            latest = await conn.fetchrow(numbered(base.LATEST_IN_SLOT), out.platform, out.slot)
            if (latest is not None and latest[1] == "pending"
                    and await conn.execute(numbered(base.COALESCE_EDIT), body, out.priority,
                                           latest[0]) == "UPDATE 1"):
                return latest[0]
        return await conn.fetchval(numbered(base.INSERT_OUT) + " RETURNING id", out.game_id, out.platform,
                                   out.dest, body, out.slot, out.mode, now, now, out.priority)

    # ---- outbox --------------------------------------------------------------------------

    async def unsent(self, platform: str, limit: int = 500) -> list[StoredOut]:
        rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox WHERE platform = ? AND state IN "
                               f"('pending', 'sending') ORDER BY id LIMIT ?", platform, limit)
        return [base.out_from_row(r) for r in rows]

    async def claim_unsent(self, platform: str, owner: str, now: float, lease_seconds: float,
                           limit: int = 100, skip: frozenset[str] = frozenset()) -> list[StoredOut]:
        # Claims of one platform take turns (advisory lock): a claim must see the claims
        # before it, or two owners could split one destination's messages. Rows are locked
        # with a waiting FOR UPDATE, not SKIP LOCKED: a row locked by a commit coalescing an
        # edit into it must not be skipped while the messages after it are handed out.
        claim, params = base.claimable_out(platform, now, limit, skip)
        n = len(params)
        sql = (f"WITH c AS ({numbered(claim)} FOR UPDATE OF o) "
               f"UPDATE outbox SET state = 'sending', owner = ${n + 1}, lease = ${n + 2}, "
               f"attempts = outbox.attempts + 1 FROM c WHERE outbox.id = c.id "
               f"RETURNING {', '.join('outbox.' + c for c in base.OUT_COLS.split(', '))}, c.state, "
               f"c.rank, c.turn")
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('outbox claim ' || $1))", platform)
            rows = await conn.fetch(sql, *params, owner, now + lease_seconds)
        claimed = sorted(rows, key=lambda r: (r[-2], r[-1], r[0]))     # the claim's order: rank, turn, id
        return [replace(base.out_from_row(r[:-3]), taken_over=r[-3] == "sending", rank=r[-2], turn=float(r[-1]))
                for r in claimed]

    async def renew_lease(self, out_id: int, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        row = await self._one(base.RENEW_OUT, now + lease_seconds, out_id, owner)
        return base.out_from_row(row) if row else None

    async def claim_next(self, out: StoredOut, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        row = await self._one(base.CLAIM_NEXT_OUT, owner, now + lease_seconds, out.platform, out.dest, out.id)
        return base.out_from_row(row) if row else None

    async def set_body(self, out_id: int, body: dict) -> None:
        await self._execute(base.SET_OUT_BODY, json.dumps(body, ensure_ascii=False), out_id)

    async def release_claim(self, out: StoredOut, owner: str) -> None:
        await self._execute(base.RELEASE_OUT, "sending" if out.taken_over else "pending", out.id, owner)

    async def release_timer(self, timer: TimerRow, owner: str) -> None:
        await self._execute(base.RELEASE_TIMER, timer.game_id, timer.kind, owner)

    async def release_owner(self, owner: str) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(numbered(base.RELEASE_OWNER_OUT), owner)
            await conn.execute(numbered(base.RELEASE_OWNER_TIMERS), owner)

    async def next_due(self, platform: str) -> float | None:
        row = await self._one(base.NEXT_DUE, platform)
        return row[0] if row else None

    async def mark_sending(self, out_id: int) -> StoredOut | None:
        row = await self._one(f"UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ? "
                              f"RETURNING {base.OUT_COLS}", out_id)
        return base.out_from_row(row) if row else None

    async def mark_sent(self, out: StoredOut, message_id: str, now: float) -> None:
        if out.slot is None:
            await self._execute(base.MARK_SENT_TRIMMED, message_id, now, base.delivered_body(out.body), out.id)
            return
        # One statement (so one round trip), atomic like a transaction.
        await self.pool.execute(
            f"WITH sent AS ({numbered(base.MARK_SENT)}), "
            "dropped AS (DELETE FROM outbox WHERE platform = $4 AND slot = $5 AND state = 'sent' AND id < $3) "
            "INSERT INTO slots (platform, slot, message_id) VALUES ($4, $5, $1) "
            "ON CONFLICT (platform, slot) DO UPDATE SET message_id = excluded.message_id",
            message_id, now, out.id, out.platform, out.slot)

    async def reschedule(self, out_id: int, due: float, attempts: int, error: str) -> None:
        await self._execute(base.RESCHEDULE, due, attempts, error[:500], out_id)

    async def set_state(self, out_id: int, state: str, error: str = "") -> None:
        await self._execute(base.SET_STATE, state, error[:500], out_id)

    async def held_for(self, platform: str, dest: str) -> list[StoredOut]:
        rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox WHERE platform = ? AND dest = ? "
                               f"AND state = 'held' ORDER BY id", platform, dest)
        return [base.out_from_row(r) for r in rows]

    async def release_held(self, platform: str, dest: str, now: float) -> int:
        return _count(await self._execute(base.RELEASE_HELD, now, platform, dest))

    async def prune_outbox(self, before: float) -> int:
        return _count(await self._execute(base.PRUNE, before))

    async def last_shown(self, platform: str, slot: str) -> dict | None:
        row = await self._one(base.LAST_SHOWN, platform, slot)
        return json.loads(row[0]) if row else None

    async def slot_message(self, platform: str, slot: str) -> str | None:
        row = await self._one("SELECT message_id FROM slots WHERE platform = ? AND slot = ?", platform, slot)
        return row[0] if row else None

    async def slot_messages(self, platform: str, slots: list[str]) -> dict[str, str]:
        if not slots:
            return {}
        rows = await self._all(base.slot_messages_query(slots), platform, *slots)
        return {slot: message_id for slot, message_id in rows}

    async def outbox_rows(self, game_id: int | None = None) -> list[StoredOut]:
        if game_id is None:
            rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox ORDER BY id")
        else:
            rows = await self._all(f"SELECT {base.OUT_COLS} FROM outbox WHERE game_id = ? ORDER BY id", game_id)
        return [base.out_from_row(r) for r in rows]

    # ---- timers --------------------------------------------------------------------------

    async def due_timers(self, now: float, platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        where, params = base.platform_filter(platforms)
        rows = await self._all("SELECT game_id, kind, due, move FROM timers WHERE due <= ?" + where
                               + " ORDER BY due", now, *params)
        return [TimerRow(*r) for r in rows]

    async def claim_due_timers(self, now: float, owner: str, lease_seconds: float,
                               platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        where, params = base.platform_filter(platforms)
        n = 2 + len(params)
        sql = (numbered("SELECT game_id, kind FROM timers WHERE due <= ? AND (lease IS NULL OR lease <= ?)" + where)
               + " FOR UPDATE SKIP LOCKED")
        rows = await self.pool.fetch(
            f"WITH c AS ({sql}) UPDATE timers t SET owner = ${n + 1}, lease = ${n + 2} FROM c "
            f"WHERE t.game_id = c.game_id AND t.kind = c.kind RETURNING t.game_id, t.kind, t.due, t.move",
            now, now, *params, owner, now + lease_seconds)
        return sorted((TimerRow(*r) for r in rows), key=lambda t: (t.due, t.game_id, t.kind))

    async def next_timer(self, platforms: tuple[str, ...] | None = None) -> float | None:
        where, params = base.platform_filter(platforms)
        row = await self._one(base.NEXT_TIMER + where, *params)
        return row[0] if row else None

    async def late_work(self, before: float, now: float) -> tuple[int, int]:
        out = (await self._one(base.LATE_OUT, before, now))[0]
        timers = (await self._one(base.LATE_TIMERS, before, now))[0]
        return out, timers

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        rows = await self._all("SELECT game_id, kind, due, move FROM timers WHERE game_id = ? ORDER BY kind",
                               game_id)
        return [TimerRow(*r) for r in rows]

    # ---- settings and stats --------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        row = await self._one("SELECT settings FROM chat_settings WHERE platform = ? AND chat_id = ?",
                              platform, chat_id)
        return json.loads(row[0]) if row else {}

    async def away_until(self, platform: str, user_ids: list[str]) -> dict[str, float]:
        if not user_ids:
            return {}
        return {r[0]: r[1] for r in await self._all(base.away_query(user_ids), platform, *user_ids)}

    async def chat_results(self, platform: str, chat_id: str | None, game: str | None = None) -> list[ResultRow]:
        where, params = base.game_filter(game)
        chat, chat_params = base.chat_filter(chat_id)
        rows = await self._all(f"SELECT {base.RESULT_COLS} FROM results WHERE platform = ?" + chat
                               + where, platform, *chat_params, *params)
        return [base.result_from_row(r) for r in rows]

    async def user_results(self, platform: str, user_id: str, game: str | None = None) -> list[ResultRow]:
        where, params = base.game_filter(game)
        rows = await self._all(f"SELECT {base.RESULT_COLS} FROM results WHERE platform = ? AND user_id = ? "
                               "AND is_ai = 0" + where, platform, user_id, *params)
        return [base.result_from_row(r) for r in rows]

    async def user_games(self, platform: str, user_id: str) -> list[int]:
        rows = await self._all("SELECT id, seats FROM games WHERE platform = ? AND status = 'playing'", platform)
        return base.user_game_ids(rows, user_id)

    # ---- ratings -------------------------------------------------------------------------

    async def ai_moved(self, game_id: int) -> set[int]:
        return {r[0] for r in await self._all(base.AI_MOVED_IN, game_id)}

    async def latest_ratings(self, platform: str, game: str, *, chat_id: str | None = None,
                             players: list[str] | None = None) -> list[RatingRow]:
        sql, params = base.latest_ratings_query(platform, game, chat_id, players)
        return [base.rating_from_row(r) for r in await self._all(sql, *params)]

    async def player_ratings(self, platform: str, player: str) -> list[RatingRow]:
        return [base.rating_from_row(r) for r in await self._all(base.LATEST_OF_PLAYER, platform, player)]

    async def rating_history(self) -> list[RatingRow]:
        return [base.rating_from_row(r) for r in await self._all(base.RATING_HISTORY)]

    async def rating_inputs(self) -> list:
        async with self.pool.acquire() as conn:
            return base.rating_inputs(*await self._rating_rows(conn))

    async def seated_games(self, platform: str, user_id: str) -> list[GameMeta]:
        rows = await self._all(base.SEATED_GAMES, platform, base.seated_pattern(user_id))
        return base.seated(rows, user_id)

    # ---- copying -------------------------------------------------------------------------

    async def page(self, table: str, after: tuple | None, limit: int) -> list[tuple]:
        sql, params = base.page_query(table, after, limit)
        return [tuple(r) for r in await self._all(sql, *params)]

    async def insert_rows(self, table: str, rows: list[tuple]) -> None:
        async with self.pool.acquire() as conn:
            await conn.copy_records_to_table(table, records=rows, columns=list(base.TABLES[table][0]))

    async def adopt(self, secret: bytes, last_game_id: int) -> None:
        top = max(last_game_id, await self.max_game_id())
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("INSERT INTO meta (key, value) VALUES ('payload_secret', $1) "
                               "ON CONFLICT (key) DO UPDATE SET value = excluded.value", secret.hex())
            await conn.execute("SELECT setval('game_ids', $1::bigint + 1, false)", top)
            # Copied outbox rows kept their ids: new ones continue after them.
            await conn.execute("SELECT setval(pg_get_serial_sequence('outbox', 'id'), "
                               "COALESCE(MAX(id), 0) + 1, false) FROM outbox")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: nothing here changes session state (advisory
    locks are per transaction, the migration's session lock is released where it is taken),
    and asyncpg rolls back a transaction left open anyway. asyncpg's default reset would cost a
    round trip to the server on every query."""


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 3``."""
    return int(status.rsplit(" ", 1)[-1])
