"""People away (``/away``), per platform, until a moment."""

from __future__ import annotations

from .sql import Connection, Database, marks

TABLES = {"away": (("platform", "user_id", "until"), ("platform", "user_id"))}
UPSERT_AWAY = ("INSERT INTO away (platform, user_id, until) VALUES (?,?,?) "
               "ON CONFLICT (platform, user_id) DO UPDATE SET until = excluded.until")
DELETE_AWAY = "DELETE FROM away WHERE platform = ? AND user_id = ?"


async def store_away(conn: Connection, away: tuple[str, str, float | None]) -> None:
    """``Changes.away``: (platform, user id, until when; None: back)."""
    platform, user_id, until = away
    if until is None:
        await conn.execute(DELETE_AWAY, (platform, user_id))
    else:
        await conn.execute(UPSERT_AWAY, (platform, user_id, until))


class StoredAway:
    """Who is away."""

    database: Database

    async def away_until(self, platform: str, user_ids: list[str]) -> dict[str, float]:
        """When each of ``user_ids`` who said they are away (``/away``) is back (a past moment: back already)."""
        if not user_ids:
            return {}
        rows = await self.database.all(f"SELECT user_id, until FROM away WHERE platform = ? "
                                       f"AND user_id IN ({marks(len(user_ids))})", (platform, *user_ids))
        return {user_id: until for user_id, until in rows}
