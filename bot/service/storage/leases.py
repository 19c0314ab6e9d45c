"""The leases on messages and timers, taken together: who holds work, giving all of an owner's
work back, and work nobody is doing (the health check)."""

from __future__ import annotations

from .sql import Connection, Database

# When there is work next: a leased message or timer comes back when its lease runs out.
WAKE = "MIN(CASE WHEN lease IS NOT NULL AND lease > due THEN lease ELSE due END)"
# A restarted process (same owner name) takes its work back at once; a message it was
# sending stays 'sending' (it may have gone out) and is checked when claimed again.
RELEASE_OWNER_OUT = "UPDATE outbox SET owner = NULL, lease = NULL WHERE owner = ? AND state IN ('pending', 'sending')"
RELEASE_OWNER_TIMERS = "UPDATE timers SET owner = NULL, lease = NULL WHERE owner = ?"
OWNERS = ("SELECT owner FROM outbox WHERE owner IS NOT NULL UNION "
          "SELECT owner FROM timers WHERE owner IS NOT NULL")
# Work that should have been done by ``before`` and is not (for the health check): unsent
# messages and unfired timers due then, not under a live lease.
LATE_OUT = ("SELECT COUNT(*) FROM outbox WHERE state IN ('pending', 'sending') AND due < ? "
            "AND (lease IS NULL OR lease < ?)")
LATE_TIMERS = "SELECT COUNT(*) FROM timers WHERE due < ? AND (lease IS NULL OR lease < ?)"


class Leases:
    """Owners of messages and timers."""

    database: Database

    async def release_owner(self, owner: str) -> None:
        """Free every message and timer leased to ``owner`` (a clean stop, or a restart of a
        process that keeps its name)."""
        async def run(conn: Connection) -> None:
            await conn.execute(RELEASE_OWNER_OUT, (owner,))
            await conn.execute(RELEASE_OWNER_TIMERS, (owner,))
        await self.database.transaction(run)

    async def owners(self) -> list[str]:
        """The names holding any message or timer now."""
        return sorted(row[0] for row in await self.database.all(OWNERS))

    async def late_work(self, before: float, now: float) -> tuple[int, int]:
        """(messages, timers) due before ``before`` and still waiting at ``now`` (no live lease):
        nonzero means no process is keeping up (the health check)."""
        return (await self.database.value(LATE_OUT, (before, now)),
                await self.database.value(LATE_TIMERS, (before, now)))
