"""A database written by the code before the storage package (schema 3) opens and upgrades."""

from __future__ import annotations

import copy
import shutil

import pytest
from storage_kit import V3_FIXTURE

from bot.service import records
from bot.service.model import Changes
from bot.service.storage import SCHEMA_VERSION, Conflict, open_storage


async def test_a_version_3_database_upgrades_with_everything_intact(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(V3_FIXTURE, path)                  # never the fixture itself: opening migrates it
    storage = await open_storage(str(path))
    try:
        assert await storage.schema_version() == SCHEMA_VERSION
        games = await storage.load_games([1, 2, 3])
        assert {gid: (meta.status, meta.game, meta.version, len(moves), meta.moves)
                for gid, (meta, moves) in games.items()} == {
            1: ("lobby", "paris-paris", 0, 0, 0),
            2: ("playing", "paris-paris", 0, 5, 5),
            3: ("finished", "paris-paris", 0, 40, 40)}
        assert [s.user_id for s in games[1][0].seats] == ["ann", "bob"]
        for meta, moves in (games[2], games[3]):
            game = records.replay(meta.setup, moves)         # the stored records still replay
            assert game.finished == (meta.status == "finished")
        assert sorted(await storage.active_games()) == [(1, "fake", "chat1"), (2, "fake", "chat2")]
        assert await storage.chat_settings("fake", "chat4") == {"language": "de"}
        results = await storage.chat_results("fake", "chat3", "paris-paris")
        assert len(results) == 2 and {r.game for r in results} == {"paris-paris"}
        assert [r.user_id for r in await storage.user_results("fake", "eve")] == ["eve"]
        assert all(o.state == "sent" for o in await storage.outbox_rows())
        assert await storage.new_game_id() == 4                   # the counter starts above the old games
        # An upgraded game commits at version 0 once; a second writer of that version loses.
        meta, stale = games[1][0], copy.deepcopy(games[1][0])
        meta.chat_title = "renamed"
        await storage.commit(Changes(game=meta), 1.0)
        assert meta.version == 1 == await storage.game_version(1)
        with pytest.raises(Conflict):
            await storage.commit(Changes(game=stale), 1.0)
    finally:
        await storage.close()
