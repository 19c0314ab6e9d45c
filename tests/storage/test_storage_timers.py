"""Timers on both backends: replaced with their game, dropped, claimed under leases."""

from __future__ import annotations

from storage_kit import PLATFORM, lobby, playing, timer

from bot.service.game.model import Changes


async def two_games(storage):
    here, there = playing(1, "a"), playing(2, "b")
    there.platform = "other"
    await storage.commit(Changes(meta=here, timers=[timer(1, "reminder", 10.0), timer(1, "deadline", 30.0)]), 0.0)
    await storage.commit(Changes(meta=there, timers=[timer(2, "reminder", 20.0)]), 0.0)
    return here, there


async def test_due_and_next_timers_by_platform(storage):
    await two_games(storage)
    assert [(t.game_id, t.kind) for t in await storage.due_timers(25.0)] == [(1, "reminder"), (2, "reminder")]
    assert [t.game_id for t in await storage.due_timers(25.0, (PLATFORM,))] == [1]
    assert await storage.next_timer() == 10.0
    assert await storage.next_timer(("other",)) == 20.0
    assert await storage.next_timer(("nowhere",)) is None


async def test_a_commit_replaces_its_games_timers_and_a_drop_removes_one(storage):
    here, _ = await two_games(storage)
    await storage.commit(Changes(drop_timer=(1, "reminder")), 1.0)
    assert [t.kind for t in await storage.timers_of(1)] == ["deadline"]
    await storage.commit(Changes(meta=here, timers=[timer(1, "reminder", 99.0, 3)]), 1.0)
    assert [(t.kind, t.due, t.move) for t in await storage.timers_of(1)] == [("reminder", 99.0, 3)]
    await storage.commit(Changes(meta=here, timers=[]), 1.0)
    assert await storage.timers_of(1) == [] and len(await storage.timers_of(2)) == 1
    await storage.commit(Changes(meta=here), 1.0)                   # timers=None leaves them alone
    assert len(await storage.timers_of(2)) == 1


async def test_two_owners_never_get_the_same_timer_while_the_lease_holds(storage):
    await two_games(storage)
    a = await storage.claim_due_timers(25.0, "a", 60.0, (PLATFORM, "other"))
    assert [(t.game_id, t.kind) for t in a] == [(1, "reminder"), (2, "reminder")]
    # only the deadline that fell due since is free for b
    assert [(t.game_id, t.kind) for t in await storage.claim_due_timers(40.0, "b", 60.0)] == [(1, "deadline")]
    assert await storage.claim_due_timers(84.9, "b", 60.0) == []
    # a died without firing: its timers come back once the lease (25 + 60) ran out.
    back = await storage.claim_due_timers(85.0, "b", 60.0, (PLATFORM,))
    assert [(t.game_id, t.kind) for t in back] == [(1, "reminder")]
    assert await storage.due_timers(85.0, (PLATFORM,)) != []      # the plain read ignores leases


async def test_a_claimed_timer_leaves_when_its_game_replaces_its_timers(storage):
    await storage.commit(Changes(meta=lobby(1), timers=[timer(1, "reminder", 5.0)]), 0.0)
    meta, _ = await storage.load_game(1)
    [claimed] = await storage.claim_due_timers(6.0, "a", 60.0)
    await storage.commit(Changes(meta=meta, timers=[timer(1, "reminder", 50.0, 1)]), 7.0)
    assert await storage.claim_due_timers(49.0, "b", 60.0) == []
    assert [(t.due, t.move) for t in await storage.claim_due_timers(50.0, "b", 60.0)] == [(50.0, 1)]
    assert claimed.due == 5.0


async def test_a_claimed_timer_is_next_when_its_lease_runs_out(storage):
    await two_games(storage)
    await storage.claim_due_timers(12.0, "a", 60.0, (PLATFORM,))
    assert await storage.next_timer((PLATFORM,)) == 30.0              # the deadline, not yet claimed
    await storage.claim_due_timers(31.0, "a", 60.0, (PLATFORM,))
    assert await storage.next_timer((PLATFORM,)) == 72.0              # the reminder's lease (12 + 60)


async def test_a_released_timer_is_claimable_again_at_once(storage):
    await two_games(storage)
    [reminder] = await storage.claim_due_timers(12.0, "a", 60.0, (PLATFORM,))
    await storage.release_timer(reminder, "b")                        # not b's
    assert await storage.claim_due_timers(13.0, "b", 60.0, (PLATFORM,)) == []
    await storage.release_timer(reminder, "a")
    assert await storage.next_timer((PLATFORM,)) == 10.0
    assert [t.kind for t in await storage.claim_due_timers(13.0, "b", 60.0, (PLATFORM,))] == ["reminder"]
