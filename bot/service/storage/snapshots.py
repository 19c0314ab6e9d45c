"""Snapshots: each running game's match, packed (``bot/service/game/snapshots.py``), stored every few
moves (in the transaction of the move that made it), when its game goes idle and at a clean stop,
and read back with its game and the moves since instead of a replay of them all."""

from __future__ import annotations

from typing import Any

from ..game.model import ACTIVE, Changes, GameMeta, Resumable, Snapshot
from .games import GAME_COLS, LOAD_CHUNK, meta_from_row
from .sql import Connection, Database, marks

SNAPSHOT_COLS = ("game_id", "moves", "stamp", "data")
TABLES = {"snapshots": (SNAPSHOT_COLS, ("game_id",))}

# A snapshot lands only while its game's row holds its move count and is running, whoever writes
# it (the commit of the move, after the game row; or a process that has just replayed the game
# and may have been overtaken by another process's move): it never stands for another position.
UPSERT_SNAPSHOT = ("INSERT INTO snapshots (game_id, moves, stamp, data) SELECT ?, ?, ?, ? WHERE EXISTS "
                   "(SELECT 1 FROM games WHERE id = ? AND moves = ? AND status = 'playing') "
                   "ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves, stamp = excluded.stamp, "
                   "data = excluded.data")
DROP_SNAPSHOT = "DELETE FROM snapshots WHERE game_id = ?"
# Games with their snapshot, if any, and without their moves.
SELECT_SNAPSHOTTED = (f"SELECT {', '.join('g.' + c for c in GAME_COLS)}, s.moves, s.stamp, s.data "
                      "FROM games g LEFT JOIN snapshots s ON s.game_id = g.id")
# The moves stored after each game's snapshot (all its moves without one), in order. A move's
# ``n`` is the match's move count before it: a snapshot packed at ``moves`` holds moves 0..moves-1.
SELECT_SINCE = ("SELECT m.game_id, m.seat, m.pick FROM moves m LEFT JOIN snapshots s ON s.game_id = m.game_id "
                "WHERE m.game_id IN ({among}) AND m.n >= COALESCE(s.moves, 0) ORDER BY m.game_id, m.n")


async def store_snapshots(conn: Connection, changes: Changes) -> None:
    """``Changes.snapshots``, and no snapshot for a game that ended or was aborted. Run after the
    game row is written, in its transaction: the insert reads the game's move count and status."""
    for s in changes.snapshots:
        await conn.execute(UPSERT_SNAPSHOT, (s.game_id, s.moves, s.stamp, s.data, s.game_id, s.moves))
    if changes.meta is not None and changes.meta.status not in ACTIVE:
        await conn.execute(DROP_SNAPSHOT, (changes.meta.id,))


class StoredSnapshots:
    """Games read with their snapshots."""

    database: Database

    async def load_with_snapshots(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, Snapshot | None]]:
        """Many games without their moves, each with its stored snapshot (None: none stored), in
        few queries: a game whose snapshot is current needs no replay. Missing ids are left out."""
        async def load(conn: Connection) -> dict[int, tuple[GameMeta, Snapshot | None]]:
            out: dict[int, tuple[GameMeta, Snapshot | None]] = {}
            for start in range(0, len(game_ids), LOAD_CHUNK):
                chunk = tuple(game_ids[start:start + LOAD_CHUNK])
                for row in await conn.all(f"{SELECT_SNAPSHOTTED} WHERE g.id IN ({marks(len(chunk))})", chunk):
                    out[row[0]] = snapshotted_from_row(row)
            return out
        return await self.database.read(load)

    async def load_resumable(self, game_ids: list[int]) -> dict[int, Resumable]:
        """Many games as a restore reads them (``Resumable``): each with its stored snapshot and
        the moves stored after it, in two queries a chunk. Missing ids are left out."""
        async def load(conn: Connection) -> dict[int, Resumable]:
            out: dict[int, Resumable] = {}
            for start in range(0, len(game_ids), LOAD_CHUNK):
                chunk = tuple(game_ids[start:start + LOAD_CHUNK])
                among = marks(len(chunk))
                for row in await conn.all(f"{SELECT_SNAPSHOTTED} WHERE g.id IN ({among})", chunk):
                    meta, snapshot = snapshotted_from_row(row)
                    out[meta.id] = Resumable(meta, snapshot, [])
                for gid, seat, pick in await conn.all(SELECT_SINCE.format(among=among), chunk):
                    out[gid].since.append((seat, pick))
            return out
        return await self.database.read(load)


def snapshotted_from_row(row: Any) -> tuple[GameMeta, Snapshot | None]:
    """A ``SELECT_SNAPSHOTTED`` row: the game and its snapshot (None: none stored)."""
    values = tuple(row)
    n = len(GAME_COLS)
    meta = meta_from_row(values[:n])
    moves, stamp, data = values[n:]
    return meta, None if data is None else Snapshot(meta.id, moves, stamp, bytes(data))
