"""Games on both backends: atomic commits, versions, conflicts, ids, loading, stats."""

from __future__ import annotations

import asyncio

import pytest
from storage_kit import PLATFORM, a_move, lobby, message, move, playing, result, timer

from bot.service.game.model import Changes
from bot.service.game.outmessage import MessageBody
from bot.service.storage import SCHEMA_VERSION, Conflict, open_storage


async def everything(storage) -> tuple:
    """What a refused commit must leave as it was."""
    return (await storage.load_games([1, 2, 3]), await storage.outbox_rows(), await storage.timers_of(1),
            await storage.chat_results(PLATFORM, "chat1"), await storage.chat_settings(PLATFORM, "chat1"))


async def test_a_new_database_is_at_the_latest_schema(storage):
    assert await storage.schema_version() == SCHEMA_VERSION


async def test_one_commit_stores_everything_together(storage):
    meta = playing(1)
    ids = await storage.commit(Changes(
        meta=meta, moves=[move(1, 1, "b2"), move(1, 2, "c3")], outbox=[message(1), message(1, "u:bob", "psst")],
        timers=[timer(1, "reminder", 100.0, 2), timer(1, "deadline", 200.0, 2)],
        results=[result(1, 0, "ann", won=True), result(1, 1, "bob")],
        chat_settings=(PLATFORM, "chat1", {"language": "de"})), 5.0)
    assert len(ids) == 2 and ids[0] < ids[1]
    got, moves = await storage.load_game(1)
    assert moves == [(1, "b2"), (0, "c3")]
    assert got == meta and got.version == meta.version == 1
    assert [(o.id, o.dest, o.state, o.body) for o in await storage.outbox_rows(1)] == [
        (ids[0], "c:chat1", "pending", MessageBody("hi")), (ids[1], "u:bob", "pending", MessageBody("psst"))]
    assert [(t.kind, t.due, t.move) for t in await storage.timers_of(1)] == [
        ("deadline", 200.0, 2), ("reminder", 100.0, 2)]
    assert {r.user_id: r.won for r in await storage.chat_results(PLATFORM, "chat1")} == {"ann": True, "bob": False}
    assert await storage.chat_settings(PLATFORM, "chat1") == {"language": "de"}


async def test_stored_setups_share_their_texts(storage):
    """Issue 31: the bot keeps every running game's setup in memory, and setups name the same
    tiles: read back, equal texts are one object, whichever game they come from."""
    for gid, chat in ((1, "chat1"), (2, "chat2")):
        meta = playing(gid, chat)
        meta.setup = {"city_stack": [f"tile {n}" for n in range(30)], "players": ["Ann", "Bob"]}
        await storage.commit(Changes(meta=meta), 1.0)
    games = await storage.load_games([1, 2])
    first, second = (games[gid][0].setup for gid in (1, 2))
    assert first == second
    assert all(a is b for a, b in zip(first["city_stack"], second["city_stack"], strict=True))


async def test_a_setup_replaced_is_stored_anew(storage):
    """Issue 44: a game's setup is written out once and that text kept for its next commits; a
    setup the game is given anew (a new dict) is what the next commit stores."""
    meta = playing(1)
    meta.setup = {"players": ["Ann", "Bob"], "deal": "0102"}
    await storage.commit(Changes(meta=meta), 1.0)
    await a_move(storage, meta)
    assert (await storage.load_game(1))[0].setup == {"players": ["Ann", "Bob"], "deal": "0102"}
    meta.setup = {"players": ["Ann", "Bob"], "deal": "0201"}
    await a_move(storage, meta, "d4")
    assert (await storage.load_game(1))[0].setup == {"players": ["Ann", "Bob"], "deal": "0201"}


async def test_versions_count_commits_and_a_stale_writer_gets_conflict(storage):
    meta = playing(1)
    await storage.commit(Changes(meta=meta), 1.0)
    assert meta.version == 1 and await storage.game_version(1) == 1
    stale, _ = await storage.load_game(1)
    await a_move(storage, meta)
    assert meta.version == 2 and await storage.game_version(1) == 2
    before = await everything(storage)
    with pytest.raises(Conflict):
        await a_move(storage, stale, "z9", timers=[timer(1)], results=[result(1, 0, "ann")],
                     chat_settings=(PLATFORM, "chat1", {"x": 1}))
    assert stale.version == 1                      # unchanged: nothing was stored
    assert await everything(storage) == before
    fresh, moves = await storage.load_game(1)
    assert fresh.version == 2 and moves == [(1, "a1")]     # each move with the seat that made it
    await a_move(storage, fresh, "d4")             # the loser reloads and retries
    assert (await storage.load_game(1))[1] == [(1, "a1"), (0, "d4")]
    assert (await storage.load_games([1]))[1][1] == [(1, "a1"), (0, "d4")]


async def test_a_duplicate_move_is_a_conflict_and_stores_nothing(storage):
    meta = playing(1)
    await a_move(storage, meta)
    before = await everything(storage)
    with pytest.raises(Conflict):
        await storage.commit(Changes(moves=[move(1, 1, "x")], outbox=[message(1)], timers=[timer(1)]), 2.0)
    assert await everything(storage) == before


async def test_a_second_active_game_in_a_chat_is_a_conflict(storage):
    await storage.commit(Changes(meta=lobby(1, "a")), 1.0)
    with pytest.raises(Conflict):
        await storage.commit(Changes(meta=lobby(2, "a"), outbox=[message(2)]), 1.0)
    assert await storage.load_game(2) is None and await storage.outbox_rows() == []
    assert await storage.active_game_id(PLATFORM, "a") == 1
    finished = lobby(3, "b")
    finished.status = "finished"
    await storage.commit(Changes(meta=finished), 1.0)
    await storage.commit(Changes(meta=lobby(4, "b")), 1.0)       # a finished game does not count
    assert await storage.active_game_id(PLATFORM, "b") == 4


async def test_inserting_a_taken_id_is_a_conflict(storage):
    await storage.commit(Changes(meta=lobby(1, "a")), 1.0)
    with pytest.raises(Conflict):
        await storage.commit(Changes(meta=lobby(1, "b")), 1.0)
    assert (await storage.load_game(1))[0].chat_id == "a"


async def test_group_of_commits_one_failing_alone(storage):
    results = await asyncio.gather(
        storage.commit(Changes(meta=lobby(1, "a"), outbox=[message(1)]), 0.0),
        storage.commit(Changes(meta=lobby(2, "a"), outbox=[message(2)]), 0.0),
        storage.commit(Changes(meta=lobby(3, "b"), outbox=[message(3)]), 0.0),
        return_exceptions=True)
    # Games 1 and 2 want the same chat: one of them loses (on PostgreSQL either may commit
    # first); the others are stored with their messages. (In what order the two winners took
    # their outbox ids is up to PostgreSQL's scheduling: they go to different chats.)
    lost = [i for i, r in enumerate(results) if isinstance(r, Conflict)]
    assert len(lost) == 1 and lost[0] in (0, 1)
    assert sorted(o.game_id for o in await storage.outbox_rows()) == [2 - lost[0], 3]


async def test_one_meta_committed_twice_at_once_builds_on_itself(storage):
    meta = playing(1)
    await storage.commit(Changes(meta=meta), 0.0)
    meta.moves = 1
    first = storage.commit(Changes(meta=meta, moves=[move(1, 1)]), 0.0)
    second = storage.commit(Changes(meta=meta, outbox=[message(1)]), 0.0)
    await asyncio.gather(first, second)
    assert meta.version == 3 == await storage.game_version(1)


async def test_new_game_ids_count_up_and_never_repeat(storage):
    assert await storage.max_game_id() == 0
    first = await storage.new_game_id()
    await storage.commit(Changes(meta=lobby(first, "a")), 0.0)
    ids = [await storage.new_game_id() for _ in range(5)]
    assert [first, *ids] == list(range(1, 7))
    assert await storage.max_game_id() == 6


async def test_game_kind_and_results_filter(storage):
    await storage.commit(Changes(meta=lobby(1, "a", kind="paris-connection")), 0.0)
    assert (await storage.load_game(1))[0].kind == "paris-connection"
    await storage.commit(Changes(results=[result(1, 0, "ann", won=True, kind="paris-connection"),
                                          result(2, 0, "ann", kind="paris-paris"),
                                          result(2, 1, None, kind="paris-paris")]), 0.0)
    assert [r.game_id for r in await storage.user_results(PLATFORM, "ann")] == [1, 2]
    assert [r.game_id for r in await storage.user_results(PLATFORM, "ann", "paris-connection")] == [1]
    assert [(r.game_id, r.seat) for r in await storage.chat_results(PLATFORM, "chat1", "paris-paris")] == [
        (2, 0), (2, 1)]
    assert (await storage.chat_results(PLATFORM, "chat1", "paris-connection"))[0].won is True


async def test_active_games_user_games_and_load_games(storage):
    a, b, c = playing(1, "a"), lobby(2, "b", users=("bob",)), playing(3, "c")
    c.status = "finished"
    for meta in (a, b, c):
        await storage.commit(Changes(meta=meta), 0.0)
    await a_move(storage, a, "e5")
    assert sorted(await storage.active_games()) == [(1, PLATFORM, "a"), (2, PLATFORM, "b")]
    assert await storage.user_games(PLATFORM, "bob") == [1]
    loaded = await storage.load_games([1, 2, 3, 99])
    assert sorted(loaded) == [1, 2, 3]
    assert loaded[1] == (a, [(1, "e5")]) and loaded[2] == (b, [])


async def test_settings_replace_and_secret_is_kept(target):
    storage = await open_storage(target)
    try:
        await storage.commit(Changes(chat_settings=(PLATFORM, "c", {"language": "fr"})), 0.0)
        await storage.commit(Changes(chat_settings=(PLATFORM, "c", {"deadline_minutes": 5})), 0.0)
        assert await storage.chat_settings(PLATFORM, "c") == {"deadline_minutes": 5}
        assert await storage.chat_settings(PLATFORM, "other") == {}
        key = await storage.secret()
        assert len(key) == 32 and await storage.secret() == key
    finally:
        await storage.close()
    again = await open_storage(target)
    try:
        assert await again.secret() == key
    finally:
        await again.close()
