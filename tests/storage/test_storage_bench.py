"""The storage bench's made-up database is a database the storage can hold and copy."""

from __future__ import annotations

from bot.service.storage import copy_database, open_storage
from bot.service.storage.bench import make_sqlite


async def test_the_bench_database_is_made_and_copied(tmp_path, target):
    source = str(tmp_path / "bench.sqlite3")
    await make_sqlite(source, 20)
    counts = await copy_database(source, target)
    assert counts["games"] == 20 and counts["moves"] > 20 and counts["outbox"] == 200
    storage = await open_storage(target)
    try:
        assert len(await storage.load_games(list(range(1, 21)))) == 20
        assert await storage.new_game_id() == 21
        assert [o.state for o in await storage.outbox_rows(1)] == ["sent"] * 10
    finally:
        await storage.close()
