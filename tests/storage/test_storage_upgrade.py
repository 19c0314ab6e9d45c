"""A database written by the code before the storage package (schema 3) opens and upgrades."""

from __future__ import annotations

import shutil

from storage_kit import V3_FIXTURE

from bot.service import records
from bot.service.model import Changes
from bot.service.storage import SCHEMA_VERSION, open_storage


async def test_a_version_3_database_upgrades_with_everything_intact(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(V3_FIXTURE, path)                  # never the fixture itself: opening migrates it
    storage = await open_storage(str(path))
    try:
        assert await storage.schema_version() == SCHEMA_VERSION
        games = await storage.load_games([1, 2, 3])
        assert {gid: (meta.status, meta.game, meta.version, len(moves), meta.moves)
                for gid, (meta, moves) in games.items()} == {
            1: ("lobby", "paris-paris", 1, 0, 0),
            2: ("playing", "paris-paris", 1, 5, 5),
            3: ("finished", "paris-paris", 1, 40, 40)}
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
        # The upgraded games commit like new ones: the next version builds on 1.
        meta = games[1][0]
        meta.chat_title = "renamed"
        await storage.commit(Changes(game=meta), 1.0)
        assert await storage.game_version(1) == 2
    finally:
        await storage.close()
