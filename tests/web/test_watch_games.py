"""``watch_games`` on PostgreSQL: a storage hears the commits of games in its own schema, and
none of another schema's (NOTIFY's channel is the database's, shared by every schema)."""

from __future__ import annotations

import asyncio

from storage.storage_kit import lobby

from bot.service.game.model import Changes
from bot.service.storage import open_storage


async def test_each_schema_hears_only_its_own_games(postgres_url, other_postgres_url):
    mine, theirs = await open_storage(postgres_url), await open_storage(other_postgres_url)
    heard: dict[str, list[int]] = {"mine": [], "theirs": []}
    try:
        await mine.watch_games(heard["mine"].append)
        await theirs.watch_games(heard["theirs"].append)
        first, second = lobby(1), lobby(2, "chat2")
        await mine.commit(Changes(meta=first), 10.0)         # one NOTIFY each
        await theirs.commit(Changes(meta=second), 10.0)
        await mine.commit(Changes(meta=first), 11.0)         # and a second one: notices come in
        await theirs.commit(Changes(meta=second), 11.0)      # commit order, so the first were heard
        async with asyncio.timeout(10):
            while len(heard["mine"]) < 2 or len(heard["theirs"]) < 2:
                await asyncio.sleep(0.01)
        assert heard == {"mine": [1, 1], "theirs": [2, 2]}
    finally:
        await mine.close()
        await theirs.close()
