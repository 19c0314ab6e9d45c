"""A database written by the code before the storage package (schema 3) opens and upgrades."""

from __future__ import annotations

import copy
import shutil

import pytest
from storage_kit import V3_FIXTURE, V4_FIXTURE

from bot.games import kind
from bot.service.game.model import Changes
from bot.service.storage import SCHEMA_VERSION, Conflict, open_storage


async def test_a_version_3_database_upgrades_with_everything_intact(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(V3_FIXTURE, path)                  # never the fixture itself: opening migrates it
    storage = await open_storage(str(path))
    try:
        assert await storage.schema_version() == SCHEMA_VERSION
        games = await storage.load_games([1, 2, 3])
        assert {gid: (meta.status, meta.kind, meta.version, len(moves), meta.moves)
                for gid, (meta, moves) in games.items()} == {
            1: ("lobby", "paris-paris", 0, 0, 0),
            2: ("playing", "paris-paris", 0, 5, 5),
            3: ("finished", "paris-paris", 0, 40, 40)}
        assert [s.user_id for s in games[1][0].seats] == ["ann", "bob"]
        for meta, moves in (games[2], games[3]):
            match = kind(meta.kind).definition.resume(meta.setup, moves)   # the stored records still replay
            assert match.is_terminal() == (meta.status == "finished")
        assert sorted(await storage.active_games()) == [(1, "fake", "chat1"), (2, "fake", "chat2")]
        assert await storage.chat_settings("fake", "chat4") == {"language": "de"}
        results = await storage.chat_results("fake", "chat3", "paris-paris")
        assert len(results) == 2 and {r.kind for r in results} == {"paris-paris"}
        assert [r.user_id for r in await storage.user_results("fake", "eve")] == ["eve"]
        assert all(o.state == "sent" for o in await storage.outbox_rows())
        # The upgrade rated the finished game: Eve against the normal AI, one row each.
        rated = await storage.rating_history()
        assert {(r.game_id, r.player, r.games) for r in rated} == {(3, "eve", 1), (3, "ai:normal", 1)}
        assert await storage.new_game_id() == 4                   # the counter starts above the old games
        # An upgraded game commits at version 0 once; a second writer of that version loses.
        meta, stale = games[1][0], copy.deepcopy(games[1][0])
        meta.chat_title = "renamed"
        await storage.commit(Changes(meta=meta), 1.0)
        assert meta.version == 1 == await storage.game_version(1)
        with pytest.raises(Conflict):
            await storage.commit(Changes(meta=stale), 1.0)
    finally:
        await storage.close()


async def test_a_game_in_progress_goes_on_after_the_upgrade(tmp_path):
    """Through the service: the upgraded game in progress is played to its end by its players."""
    from bot.contract import Chat, User
    from bot.service import GameService, ManualClock

    path = tmp_path / "old.sqlite3"
    shutil.copyfile(V3_FIXTURE, path)
    service = await GameService.open(str(path), clock=ManualClock(1_000_000.0))
    try:
        room = Chat("fake", "chat2")
        info = await service.game_info(room)
        assert info.status == "playing" and info.moves == 5 and info.game == "paris-paris"
        users = {s.user_id: User("fake", s.user_id, s.name) for s in info.seats if s.user_id}
        for _ in range(200):
            info = await service.game_info(game_id=info.game_id)
            if info.status != "playing":
                break
            mover = users[info.seats[info.to_move].user_id]
            # the first tile on offer, by the number it carries (the map's and the buttons')
            first = (await service.board(room, mover)).buttons[0][0].label
            reply = await service.move(room, mover, first.split("·")[0].split()[-1])
            assert reply.ok, reply.text
            if reply.buttons:                    # a full crossing: whose shop goes is a second step
                reply = await service.press(room, mover, reply.buttons[0][0].payload)
                assert reply.ok, reply.text
        assert info.status == "finished" and info.winners
        assert await service.new_game(Chat("fake", "chat9"), users[next(iter(users))]) is not None
        assert (await service.game_info(Chat("fake", "chat9"))).game_id == 4   # ids go on above the old ones
    finally:
        await service.close()


async def play_on_by_typing(service, room, users) -> dict:
    """Each seat to act types the choice the easy AI would make for it (its written form), to the end."""
    from bot.games import kind

    info = await service.game_info(room)
    for _ in range(2000):
        info = await service.game_info(game_id=info.game_id)
        if info.status != "playing":
            return info
        loaded = await service.store.load(info.game_id)
        seat = info.to_act[0]
        choice = kind(info.game).definition.choose(loaded.match, seat, seed=info.moves, level="easy")
        reply = await service.move(room, users[info.seats[seat].user_id], str(choice))
        assert reply.ok, reply.text
    raise AssertionError("the game never ended")


async def test_games_in_progress_of_both_games_written_before_seats_play_to_the_end(tmp_path):
    """A database written by the code before moves were resumed with their seats (commit 528e0f1): a
    Paris Paris game and a Paris Connection game in progress, the latter in the middle of a build
    with a deadline the old code armed. Moves load with their seats, the old deadline fires and
    the AI finishes the build once, and both games are played to their ends."""
    from bot.contract import Chat, User
    from bot.service import GameService, ManualClock

    path = tmp_path / "old.sqlite3"
    shutil.copyfile(V4_FIXTURE, path)
    clock = ManualClock(1_700_003_000.0)
    service = await GameService.open(str(path), clock=clock)
    try:
        _, moves = await service.storage.load_game(2)
        assert moves == [(0, "build:red"), (0, "place:L5"), (0, "place:K4"), (0, "place:K3")]
        _, picks = await service.storage.load_game(1)
        assert len(picks) == 5 and len({seat for seat, _ in picks}) == 2
        pc, pp = Chat("fake", "chat2"), Chat("fake", "chat1")
        loaded = await service.store.load(2)
        assert loaded.match.rhythm.in_decision(0) and loaded.match.moves_by(0) == 4

        clock.advance(minutes=30)                         # past the deadline the old code armed
        assert await service.fire_due_timers() == 1
        record = await service.record(2)
        first = record["moves"][0]
        assert first["player"] == "Cy" and "build" in first and not first.get("unfinished")
        assert [m["actor"] for m in await moves_of(service, 2)][4:5] == ["deadline"]

        users = {u: User("fake", u, u.title()) for u in ("ann", "bob", "cy", "dee")}
        for room in (pp, pc):
            info = await play_on_by_typing(service, room, users)
            assert info.status == "finished" and info.winners, info
        record = await service.record(2)
        assert {m["player"] for m in record["moves"]} == {"Cy", "Dee", "Bot Ada"}
    finally:
        await service.close()


async def moves_of(service, game_id: int) -> list[dict]:
    db = service.storage.db
    async with db.execute("SELECT n, seat, actor FROM moves WHERE game_id = ? ORDER BY n", (game_id,)) as cur:
        return [{"n": n, "seat": seat, "actor": actor} for n, seat, actor in await cur.fetchall()]
