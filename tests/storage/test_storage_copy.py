"""copy_database: every row, the signing key and the id counter move to another backend."""

from __future__ import annotations

import shutil

import pytest
from storage_kit import V3_FIXTURE, message, playing, result, timer

from bot.service.game.model import Changes, Snapshot
from bot.service.storage import copy_database, open_storage
from bot.service.storage.tables import TABLES


async def everything(storage) -> dict[str, list[tuple]]:
    return {table: await storage.page(table, None, 1_000_000) for table in TABLES}


async def test_copy_to_another_backend_and_back_keeps_every_row(tmp_path, target):
    path = tmp_path / "src.sqlite3"
    shutil.copyfile(V3_FIXTURE, path)
    src = await open_storage(str(path))
    dst = await open_storage(target)
    back = await open_storage(str(tmp_path / "back.sqlite3"))
    try:
        # Besides the old games: a held and a pending message, a leased timer, another game kind, a person away,
        # a snapshot (bytes that are no text).
        gid = await src.new_game_id()
        held, pending = await src.commit(Changes(
            meta=playing(gid, "chat9", kind="paris-connection"), outbox=[message(gid, "u:ann"), message(gid)],
            timers=[timer(gid, due=5.0)], results=[result(gid, 0, "ann", kind="paris-connection")],
            away=("fake", "ann", 1e9), snapshots=[Snapshot(gid, 0, "1:stamp", bytes(range(256)))]), 2.0)
        await src.set_state(held, "held", "private chat closed")
        await src.claim_due_timers(6.0, "owner-1", 30.0)
        rows = await everything(src)
        assert all(rows.values())
        counts = await copy_database(src, dst, batch=7)            # small batches: many pages per table
        assert counts == {table: len(found) for table, found in rows.items()}
        assert await everything(dst) == rows
        assert await dst.secret() == await src.secret()
        assert await dst.max_game_id() == await src.max_game_id() == gid
        await copy_database(dst, back)
        assert await everything(back) == rows
        # The copy carries on where the original stopped.
        assert await dst.new_game_id() == gid + 1
        [new] = await dst.commit(Changes(outbox=[message(None)]), 9.0)
        assert new > max(r[0] for r in rows["outbox"])
        assert [o.id for o in await dst.held_for("fake", "u:ann")] == [held]
        assert pending in [o.id for o in await dst.unsent("fake")]
    finally:
        for storage in (src, dst, back):
            await storage.close()


async def test_copy_refuses_a_destination_with_games(tmp_path, storage):
    src = await open_storage(str(tmp_path / "src.sqlite3"))
    try:
        await storage.commit(Changes(meta=playing(await storage.new_game_id())), 0.0)
        with pytest.raises(ValueError, match="already holds games"):
            await copy_database(src, storage)
    finally:
        await src.close()


async def test_copy_between_a_path_and_a_url(tmp_path, target):
    path = tmp_path / "src.sqlite3"
    shutil.copyfile(V3_FIXTURE, path)
    counts = await copy_database(str(path), target)
    assert counts["games"] == 3 and counts["moves"] == 45
    copied = await open_storage(target)
    try:
        assert sorted(await copied.load_games([1, 2, 3])) == [1, 2, 3]
        assert await copied.chat_settings("fake", "chat4") == {"language": "de"}
    finally:
        await copied.close()
