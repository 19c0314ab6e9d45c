"""Timers of games (reminders, deadlines, time banks), handed out under leases like messages.

A timer leaves when its game's commit replaces the game's timers or drops it; until then it
is handed out again once its lease expires.
"""

from __future__ import annotations

from ..game.model import Changes, TimerRow
from .leases import WAKE
from .sql import Connection, Database, marks

TABLES = {"timers": (("game_id", "kind", "due", "move", "owner", "lease"), ("game_id", "kind"))}
TIMER_COLS = "game_id, kind, due, move"
INSERT_TIMER = "INSERT INTO timers (game_id, kind, due, move) VALUES (?,?,?,?)"
RELEASE_TIMER = "UPDATE timers SET owner = NULL, lease = NULL WHERE game_id = ? AND kind = ? AND owner = ?"
# When a timer is due next: a leased one comes back when its lease runs out.
NEXT_TIMER = f"SELECT {WAKE} FROM timers WHERE TRUE"


async def store_timers(conn: Connection, changes: Changes) -> None:
    """``Changes.timers`` (all of the game's timers, replacing the stored ones) and ``drop_timer``."""
    if changes.timers is not None and changes.meta is not None:
        await conn.execute("DELETE FROM timers WHERE game_id = ?", (changes.meta.id,))
        if changes.timers:
            await conn.executemany(INSERT_TIMER, [(t.game_id, t.kind, t.due, t.move) for t in changes.timers])
    if changes.drop_timer is not None:
        await conn.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", changes.drop_timer)


def platform_filter(platforms: tuple[str, ...] | None) -> tuple[str, tuple[str, ...]]:
    """SQL restricting timers to games on ``platforms``: each bot process fires only its own
    platform's timers, so a Telegram and a Discord process may share one database."""
    if platforms is None:
        return "", ()
    return f" AND game_id IN (SELECT id FROM games WHERE platform IN ({marks(len(platforms))}))", tuple(platforms)


class StoredTimers:
    """The timers."""

    database: Database

    async def due_timers(self, now: float, platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        """Timers due by ``now``; only those of games on ``platforms`` when given."""
        where, params = platform_filter(platforms)
        rows = await self.database.all(f"SELECT {TIMER_COLS} FROM timers WHERE due <= ?{where} ORDER BY due",
                                       (now, *params))
        return [TimerRow(*r) for r in rows]

    async def claim_due_timers(self, now: float, owner: str, lease_seconds: float,
                               platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        """Due timers nobody holds a live lease on, leased to ``owner`` until
        ``now + lease_seconds``. A timer leaves when its game's commit replaces the game's
        timers or drops it; until then it is handed out again once its lease expires."""
        where, params = platform_filter(platforms)
        # One statement (one round trip on PostgreSQL, as before the storage split). Timers
        # another claim holds locked are left to it (PostgreSQL): each goes to one owner.
        due = (f"SELECT game_id, kind FROM timers WHERE due <= ? AND (lease IS NULL OR lease <= ?){where}"
               + self.database.dialect.for_update(skip_locked=True))
        rows = await self.database.change_returning_all(
            f"UPDATE timers SET owner = ?, lease = ? WHERE (game_id, kind) IN ({due}) RETURNING {TIMER_COLS}",
            (owner, now + lease_seconds, now, now, *params))
        return sorted((TimerRow(*r) for r in rows), key=lambda t: (t.due, t.game_id, t.kind))

    async def release_timer(self, timer: TimerRow, owner: str) -> None:
        """Give back a claimed timer that did not fire: any owner may claim it again at once."""
        await self.database.change(RELEASE_TIMER, (timer.game_id, timer.kind, owner))

    async def next_timer(self, platforms: tuple[str, ...] | None = None) -> float | None:
        where, params = platform_filter(platforms)
        due: float | None = await self.database.value(NEXT_TIMER + where, params)
        return due

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        rows = await self.database.all(f"SELECT {TIMER_COLS} FROM timers WHERE game_id = ? ORDER BY kind", (game_id,))
        return [TimerRow(*r) for r in rows]
