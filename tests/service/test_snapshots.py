"""A running game read back from its snapshot instead of replaying its moves (bot/service/game/snapshots.py),
on SQLite and PostgreSQL: the same game as the replay, for every game the bot hosts; a stale or
foreign snapshot ignored and replaced; idle games packed, a bounded number live."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
from pathlib import Path

import pytest
from service_helpers import chat, start_game, user
from storage.storage_kit import POSTGRES, admin

from bot.games import KINDS, kind
from bot.service import GameService
from bot.service.game.model import PLAYING
from bot.service.game.snapshots import stamp, unpack
from bot.service.posts.seatmenu import private_choices
from bot.service.storage.store import IDLE_AFTER, SNAPSHOT_EVERY

PHASES_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "phases-before-31.sqlite3"


async def press_random(service, c, users: dict, rng: random.Random) -> tuple[int, int]:
    """One acting seat presses a random legal choice's button (the payload it carries); (seat, index)."""
    loaded = await service.store.chat_game(c)
    meta, match = loaded.meta, loaded.match
    acting = match.to_act()
    seat = acting[rng.randrange(len(acting))]
    index = rng.randrange(len(match.legal_choices(seat)))
    payload = service.codec.encode("c", meta.id, seat, match.moves_by(seat), meta.turn.acting_since(seat), index)
    reply = await service.press(None if private_choices(loaded.kind, match) else c,
                                users[meta.seats[seat].user_id], payload)
    assert reply.ok, reply.text
    return seat, index


def replays(service) -> list[int]:
    """The ids of the games ``service`` replays from here on (it reads their moves only to replay them)."""
    replayed: list[int] = []
    load_games = service.storage.load_games

    async def counted(game_ids):
        replayed.extend(game_ids)
        return await load_games(game_ids)
    service.storage.load_games = counted
    return replayed


def same_game(a, b) -> None:
    """``a`` and ``b`` are the same position to everything the bot reads of a match."""
    assert a.to_record() == b.to_record()
    assert (a.move_count, a.to_act(), a.rhythm.cycle, a.is_terminal()) == (b.move_count, b.to_act(), b.rhythm.cycle, b.is_terminal())
    for seat in (None, *range(len(a.players))):
        assert a.view(seat) == b.view(seat)
        assert a.log_for(seat) == b.log_for(seat)
    for seat in range(len(a.players)):
        assert a.moves_by(seat) == b.moves_by(seat) and a.rhythm.in_decision(seat) == b.rhythm.in_decision(seat)
        assert [str(c) for c in a.legal_choices(seat)] == [str(c) for c in b.legal_choices(seat)]


async def started(service, game: str, seed: int) -> tuple:
    definition = kind(game).definition
    people = [user(name) for name in ("Ann", "Bob", "Cy")[:max(2, min(3, definition.max_players))]]
    gid = await start_game(service, chat(1), people, options={"game": game, "seed": seed})
    return gid, {u.id: u for u in people}


@pytest.fixture(params=[*KINDS, "tiny-hands"])
def game(request):
    if request.param == "tiny-hands":
        request.getfixturevalue("tiny_game")
    return request.param


async def test_a_game_read_back_from_its_snapshot_plays_on_as_the_replayed_one(database, clock, game):
    rng = random.Random(7)
    service = await GameService.open(database, clock=clock)
    try:
        gid, users = await started(service, game, seed=11)
        for _ in range(12):
            if (await service.store.load(gid)).meta.status != PLAYING:
                break
            await press_random(service, chat(1), users, rng)
    finally:
        await service.close()

    service = await GameService.open(database, clock=clock)
    try:
        replayed_ids = replays(service)
        loaded = await service.store.load(gid)
        assert replayed_ids == [] and loaded.packed.stamp == stamp(game)        # read back, not replayed
        meta, moves = await service.storage.load_game(gid)
        assert loaded.packed.moves == len(moves) == meta.moves > 0
        replayed = kind(game).definition.resume(meta.setup, moves)
        same_game(loaded.match, replayed)
        # Both go on alike: the next presses, made on the service's copy, replayed on the other.
        for _ in range(4):
            if loaded.match.is_terminal():
                break
            seat, index = await press_random(service, chat(1), users, rng)
            replayed.apply(replayed.legal_choices(seat)[index], by=seat)
            loaded = await service.store.load(gid)
        same_game(loaded.match, replayed)
    finally:
        await service.close()


async def crash(service) -> None:
    """Stop ``service`` as a killed process would: nothing more stored (no snapshots at the stop)."""
    service.pictures.close()
    await service.storage.close()


async def stored_snapshot(service, gid: int):
    return (await service.storage.load_with_snapshots([gid]))[gid][1]


async def test_a_snapshot_every_nth_move_and_after_a_crash_the_moves_since_applied(database, clock):
    """A move commits no snapshot until the game is SNAPSHOT_EVERY moves past the last one (that
    move's commit stores it); after a crash, a restore reads it back and applies the moves since,
    without replaying the game, and the game plays on as the replayed one."""
    service = await GameService.open(database, clock=clock)
    rng = random.Random(5)
    try:
        gid, users = await started(service, "papa-paolo", seed=5)
        for press in range(1, SNAPSHOT_EVERY + 4):
            await press_random(service, chat(1), users, rng)       # a move each (no AI seats)
            if press >= SNAPSHOT_EVERY - 1:
                snapshot = await stored_snapshot(service, gid)
                assert (None if snapshot is None else snapshot.moves) == \
                    (None if press < SNAPSHOT_EVERY else SNAPSHOT_EVERY)
        assert (await service.store.load(gid)).meta.moves == SNAPSHOT_EVERY + 3
    finally:
        await crash(service)
    for eager in (False, True):
        service = await GameService.open(database, clock=clock)
        try:
            replayed_ids = replays(service)
            if eager:
                assert await service.restore_all() == 1
            loaded = await service.store.load(gid)
            assert replayed_ids == [] and loaded.packed.moves == SNAPSHOT_EVERY     # not replayed
            meta, moves = await service.storage.load_game(gid)
            assert loaded.since == meta.moves - SNAPSHOT_EVERY > 0
            replayed = kind("papa-paolo").definition.resume(meta.setup, moves)
            same_game(loaded.match, replayed)
            seat, index = await press_random(service, chat(1), users, rng)
            replayed.apply(replayed.legal_choices(seat)[index], by=seat)
            same_game((await service.store.load(gid)).match, replayed)
        finally:
            await crash(service)


async def test_idle_games_and_a_clean_stop_store_their_snapshots(database, clock):
    """The timer loop stores the snapshot of a game nobody moved for IDLE_AFTER seconds, not of one
    just moved; a clean stop stores the rest; the next start applies no moves."""
    service = await GameService.open(database, clock=clock)
    rng = random.Random(2)
    try:
        games = {}
        for n in (1, 2):
            people = [user(f"Ann{n}"), user(f"Bob{n}")]
            games[n] = await start_game(service, chat(n), people, options={"game": "papa-paolo", "seed": n})
            await press_random(service, chat(n), {u.id: u for u in people}, rng)
            if n == 1:
                clock.advance(IDLE_AFTER + 1)           # game 1 is idle now; game 2 moves just now
        assert [await stored_snapshot(service, gid) for gid in games.values()] == [None, None]
        sweep = asyncio.create_task(service.run_timers())
        try:
            for _ in range(500):                                # its first round sweeps at once
                if await stored_snapshot(service, games[1]) is not None:
                    break
                await asyncio.sleep(0.01)
        finally:
            sweep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweep
        idle = await stored_snapshot(service, games[1])
        assert idle is not None and idle.moves == service.store.cached(games[1]).meta.moves
        assert await stored_snapshot(service, games[2]) is None      # not idle: not yet
    finally:
        await service.close()
    service = await GameService.open(database, clock=clock)
    try:
        assert await service.restore_all() == 2
        for gid in games.values():
            loaded = service.store.cached(gid)
            assert loaded.since == 0 and loaded.packed.moves == loaded.meta.moves > 0
    finally:
        await service.close()


async def sql(database: str, statement: str) -> None:
    """Run ``statement`` on the test database (SQLite file or PostgreSQL schema), behind the service's back."""
    if "search_path=" not in database:
        import sqlite3

        with sqlite3.connect(database) as conn:
            conn.execute(statement)
        return
    schema = database.split("search_path=")[1]
    await admin(POSTGRES, f"SET search_path = {schema}; {statement}")


@pytest.mark.parametrize("spoilt", [
    "UPDATE snapshots SET stamp = '0:another-code', data = X'00'",        # written by other code
    "UPDATE snapshots SET moves = moves + 1",                           # ahead of its game's moves
    "DELETE FROM snapshots",                                            # none (a game from before snapshots)
])
async def test_a_stale_or_foreign_snapshot_is_ignored_and_replaced(database, clock, spoilt):
    """(Without a snapshot, a game of fewer than SNAPSHOT_EVERY moves is replayed from its setup
    on first use, as one with a snapshot applies the moves since: so the game here is longer.)"""
    if "search_path=" in database:
        spoilt = spoilt.replace("X'00'", "'\\x00'::bytea")
    service = await GameService.open(database, clock=clock)
    try:
        gid, users = await started(service, "papa-paolo", seed=3)
        rng = random.Random(3)
        for _ in range(SNAPSHOT_EVERY + 2):
            await press_random(service, chat(1), users, rng)
    finally:
        await service.close()
    await sql(database, spoilt)
    for eager in (False, True):
        service = await GameService.open(database, clock=clock)
        try:
            replayed_ids = replays(service)
            if eager:
                assert await service.restore_all() == 1
            loaded = await service.store.load(gid)
            assert replayed_ids == [gid]                               # replayed (the snapshot was not used)
            meta, moves = await service.storage.load_game(gid)
            replayed = kind("papa-paolo").definition.resume(meta.setup, moves)
            same_game(loaded.match, replayed)
            stored = (await service.storage.load_with_snapshots([gid]))[gid][1]    # and stored afresh
            assert (stored.moves, stored.stamp) == (meta.moves, stamp("papa-paolo"))
            same_game(unpack(stored), replayed)
        finally:
            await service.close()
        await sql(database, spoilt)


async def test_a_finished_or_aborted_game_keeps_no_snapshot(database, clock, tiny_game):
    service = await GameService.open(database, clock=clock)
    try:
        for n, end in ((1, "finish"), (2, "abort")):
            c = chat(n)
            people = [user("Ann"), user("Bob")]
            gid = await start_game(service, c, people, options={"game": "tiny-hands", "seed": n})
            rng, users = random.Random(n), {u.id: u for u in people}
            await press_random(service, c, users, rng)
            assert await service.store.store_snapshots() == 1                  # as when it goes idle
            assert (await service.storage.load_with_snapshots([gid]))[gid][1] is not None
            if end == "abort":
                assert (await service.abort(c, people[0])).ok
            else:
                while (await service.store.load(gid)).meta.status == PLAYING:
                    await press_random(service, c, users, rng)
            meta, snapshot = (await service.storage.load_with_snapshots([gid]))[gid]
            assert meta.status == ("finished" if end == "finish" else "aborted") and snapshot is None
    finally:
        await service.close()


async def test_idle_games_keep_their_match_packed_and_a_bounded_number_stay_live(db_path, clock):
    service = await GameService.open(db_path, clock=clock, live_matches=2)
    store = service.store
    try:
        games = {}
        for n in range(1, 5):
            people = [user(f"Ann{n}"), user(f"Bob{n}")]
            games[n] = (await start_game(service, chat(n), people, options={"game": "papa-paolo", "seed": n}),
                        {u.id: u for u in people})
        rng = random.Random(1)
        for n, (_, users) in games.items():
            await press_random(service, chat(n), users, rng)
        live = [n for n, (gid, _) in games.items() if store.cached(gid).live]
        assert live == [3, 4]                                           # the two used last
        first = store.cached(games[1][0])
        assert not first.live and first.committed_moves() == first.meta.moves == first.since
        # A game whose chat's lock is held (an action under way: it may hold the live match and
        # move it) stays live, though used longest ago; the others go by their last use.
        async with store.lock("fake", "chat3"):
            await store.load(games[1][0])
            assert first.match is not None and first.live
            await store.load(games[2][0])
            assert store.cached(games[2][0]).match is not None
            assert [n for n, (gid, _) in games.items() if store.cached(gid).live] == [2, 3]
        assert first.match.move_count == first.meta.moves                # unpacked again as it was
        await press_random(service, chat(4), games[4][1], rng)
        assert sum(store.cached(gid).live for gid, _ in games.values()) == 2
    finally:
        await service.close()


async def test_games_of_a_database_from_before_snapshots_are_replayed_once_then_read_back(tmp_path, clock):
    """A database written before schema step 8 (Papà Paolo games in progress at schema 5): it
    upgrades; the games are replayed at the first restore, which stores their snapshots; the next
    restore reads those back."""
    from bot.service.storage import SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    shutil.copyfile(PHASES_FIXTURE, path)
    service = await GameService.open(str(path), clock=clock)
    try:
        assert await service.storage.schema_version() == SCHEMA_VERSION == 8
        replayed_ids = replays(service)
        assert await service.restore_all() == 2 and sorted(replayed_ids) == [1, 2]
        records = {gid: service.store.cached(gid).match.to_record() for gid in (1, 2)}
    finally:
        await service.close()
    service = await GameService.open(str(path), clock=clock)
    try:
        replayed_ids = replays(service)
        assert await service.restore_all() == 2 and replayed_ids == []
        for gid in (1, 2):
            loaded = service.store.cached(gid)
            assert not loaded.live and loaded.packed.moves == loaded.meta.moves == (49, 56)[gid - 1]
            assert loaded.match.to_record() == records[gid]
    finally:
        await service.close()


def test_a_match_read_back_shares_what_a_replayed_one_shares():
    """Steps and events repeat from game to game, and a replayed match holds the shared copy of
    each (engine/shared.py); one read back does too, so it weighs about what a replayed one does
    (plain pickle: 1.7 times as much)."""
    import gc
    import tracemalloc

    from bot.service.game.snapshots import pack

    definition = kind("papa-paolo").definition
    games = []
    for seed in range(8):
        match, rng, moves = definition.new_match(["Ann", "Bob", "Cy"], seed=seed), random.Random(seed), []
        while match.move_count < 100:
            seat = match.to_act()[0]
            choice = rng.choice(match.legal_choices(seat))
            moves.append((seat, str(choice)))
            match.apply(choice, by=seat)
        games.append((match.stored_setup(), moves, pack(seed, "papa-paolo", match)))

    def weight(build) -> int:
        gc.collect()
        tracemalloc.start()
        kept = [build(setup, moves, snapshot) for setup, moves, snapshot in games]
        gc.collect()
        size = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert len(kept) == len(games)
        return size

    replayed = weight(lambda setup, moves, snapshot: definition.resume(setup, moves))
    read_back = weight(lambda setup, moves, snapshot: unpack(snapshot))
    assert read_back < 1.4 * replayed, (read_back, replayed)
