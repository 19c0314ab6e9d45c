"""Time banks and /away on both databases: the away rows, and two services (two processes' worth)
on one database firing a bank at zero, and an away seat's turn, exactly once; a service opened
anew in the middle fires it once too."""

from __future__ import annotations

import asyncio

from storage_kit import PLATFORM

from bot.contract import Chat, User
from bot.service import GameService, ManualClock
from bot.service.game.model import Changes

DAY = 86400.0
BANK = {"seed": 6, "clock": "bank", "bank_initial_minutes": 3 * 1440, "bank_bonus_minutes": 1440,
        "bank_cap_minutes": 7 * 1440, "bank_warning_minutes": 0}
CHAT = Chat(PLATFORM, "chat1", "Chat 1")
ANN, BOB = User(PLATFORM, "ann", "Ann"), User(PLATFORM, "bob", "Bob")


async def started(service: GameService, options: dict) -> int:
    assert (await service.new_game(CHAT, ANN, options=options)).ok
    assert (await service.join(CHAT, BOB)).ok
    assert (await service.start(CHAT, ANN)).ok
    return (await service.game_info(CHAT)).game_id


async def test_away_rows_are_kept_per_person_and_platform(storage):
    await storage.commit(Changes(away=(PLATFORM, "ann", 500.0)), 1.0)
    await storage.commit(Changes(away=("other", "ann", 900.0)), 1.0)
    await storage.commit(Changes(away=(PLATFORM, "ann", 700.0)), 1.0)          # said again: the new end
    assert await storage.away_until(PLATFORM, ["ann", "bob"]) == {"ann": 700.0}
    await storage.commit(Changes(away=(PLATFORM, "ann", None)), 1.0)           # back
    assert await storage.away_until(PLATFORM, ["ann"]) == {}
    assert await storage.away_until("other", ["ann"]) == {"ann": 900.0}
    assert await storage.away_until(PLATFORM, []) == {}


async def test_two_services_fire_a_bank_at_zero_once(target):
    clock = ManualClock()
    a = await GameService.open(target, clock=clock, owner="bot-a", lease_seconds=30)
    b = await GameService.open(target, clock=clock, owner="bot-b", lease_seconds=30)
    try:
        gid = await started(a, BANK)
        moves = (await a.game_info(CHAT)).moves
        clock.advance(3 * DAY + 1)
        fired = await asyncio.gather(a.fire_due_timers(), b.fire_due_timers(), a.fire_due_timers(),
                                     b.fire_due_timers())
        assert sum(fired) == 1
        assert (await b.game_info(CHAT)).moves == moves + 1
        assert [t.kind for t in await a.storage.timers_of(gid)] == ["bank:1"]     # the next seat's bank
    finally:
        await a.close()
        await b.close()


async def test_two_services_play_an_away_turn_once(target):
    clock = ManualClock()
    a = await GameService.open(target, clock=clock, owner="bot-a", lease_seconds=30)
    b = await GameService.open(target, clock=clock, owner="bot-b", lease_seconds=30)
    try:
        await started(a, {"seed": 6})
        assert (await b.away(ANN, "3d")).extra.games == 1
        fired = await asyncio.gather(a.fire_due_timers(), b.fire_due_timers(), b.fire_due_timers())
        assert sum(fired) == 1
        assert (await a.game_info(CHAT)).moves == 1
    finally:
        await a.close()
        await b.close()


async def test_a_service_opened_anew_in_the_middle_fires_the_bank_once(target):
    clock = ManualClock()
    first = await GameService.open(target, clock=clock)
    try:
        await started(first, BANK)
        clock.advance(DAY)
    finally:
        await first.close()
    clock.advance(2 * DAY + 1)
    for fires in (1, 0):
        service = await GameService.open(target, clock=clock)
        try:
            assert await service.fire_due_timers() == fires
            assert (await service.game_info(CHAT)).moves == 1
        finally:
            await service.close()
