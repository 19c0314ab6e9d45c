"""Results of finished games, one row per seat (stats)."""

from __future__ import annotations

from typing import Any

from ..game.model import ResultRow
from .sql import Connection, Database, marks

RESULT_COLS = "game_id, seat, platform, chat_id, user_id, name, is_ai, points, won, ended, game"
TABLES = {"results": (tuple(RESULT_COLS.split(", ")), ("game_id", "seat"))}
UPSERT_RESULT = (f"INSERT INTO results ({RESULT_COLS}) VALUES ({marks(11)}) "
                 "ON CONFLICT (game_id, seat) DO UPDATE SET platform = excluded.platform, "
                 "chat_id = excluded.chat_id, user_id = excluded.user_id, name = excluded.name, "
                 "is_ai = excluded.is_ai, points = excluded.points, won = excluded.won, "
                 "ended = excluded.ended, game = excluded.game")


async def store_results(conn: Connection, results: list[ResultRow]) -> None:
    await conn.executemany(UPSERT_RESULT, [result_values(r) for r in results])


class StoredResults:
    """Results."""

    database: Database

    async def chat_results(self, platform: str, chat_id: str | None, kind: str | None = None) -> list[ResultRow]:
        """Results in a chat (None: every chat of the platform); only of that game kind when
        ``kind`` is given."""
        where, params = _only("chat_id", chat_id)
        of_kind, kind_params = _only("game", kind)
        rows = await self.database.all(f"SELECT {RESULT_COLS} FROM results WHERE platform = ?{where}{of_kind}",
                                       (platform, *params, *kind_params))
        return [result_from_row(r) for r in rows]

    async def user_results(self, platform: str, user_id: str, kind: str | None = None) -> list[ResultRow]:
        """A human's results; only of that game kind when ``kind`` is given."""
        of_kind, kind_params = _only("game", kind)
        rows = await self.database.all(f"SELECT {RESULT_COLS} FROM results WHERE platform = ? AND user_id = ? "
                                       f"AND is_ai = 0{of_kind}", (platform, user_id, *kind_params))
        return [result_from_row(r) for r in rows]


def _only(column: str, value: str | None) -> tuple[str, tuple[str, ...]]:
    """SQL keeping the rows whose ``column`` is ``value`` (None: every row)."""
    return ("", ()) if value is None else (f" AND {column} = ?", (value,))


def result_values(r: ResultRow) -> tuple[Any, ...]:
    return (r.game_id, r.seat, r.platform, r.chat_id, r.user_id, r.name, int(r.is_ai), r.points,
            int(r.won), r.ended, r.kind)


def result_from_row(r: Any) -> ResultRow:
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], bool(r[8]), r[9], r[10])
