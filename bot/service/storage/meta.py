"""What the database keeps about itself: the payload-signing key (in ``meta``) and the game-id
counter (``Dialect.next_game_id``)."""

from __future__ import annotations

import secrets

from .sql import Connection, Database

SECRET = "SELECT value FROM meta WHERE key = 'payload_secret'"
INSERT_SECRET = "INSERT INTO meta (key, value) VALUES ('payload_secret', ?) ON CONFLICT (key) DO NOTHING"
UPSERT_SECRET = ("INSERT INTO meta (key, value) VALUES ('payload_secret', ?) "
                 "ON CONFLICT (key) DO UPDATE SET value = excluded.value")


class StoredMeta:
    """The signing key and the game ids."""

    database: Database

    async def secret(self) -> bytes:
        """The payload-signing key, created on first use and kept (the first process to store
        one wins: every process signs with the same key)."""
        value = await self.database.value(SECRET)
        if value is None:
            await self.database.change(INSERT_SECRET, (secrets.token_hex(32),))
            value = await self.database.value(SECRET)
        return bytes.fromhex(value)

    async def new_game_id(self) -> int:
        """A game id no process sharing this database has had or will get."""
        row = await self.database.change_returning(self.database.dialect.next_game_id)
        if row is None:
            raise RuntimeError("the database gave no new game id")
        return int(row[0])

    async def max_game_id(self) -> int:
        """The highest game id handed out or stored (0 if none)."""
        return int(await self.database.value(self.database.dialect.last_game_id))

    async def adopt(self, secret: bytes, last_game_id: int) -> None:
        """Take over another database's signing key and game-id counter (after copying its rows)."""
        async def run(conn: Connection) -> None:
            await conn.execute(UPSERT_SECRET, (secret.hex(),))
            await conn.execute(self.database.dialect.continue_ids, (last_game_id,))
        await self.database.transaction(run)
