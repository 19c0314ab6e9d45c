"""Two services (two processes' worth) on one database: outbox messages and timers are
claimed under leases, so each goes out or fires once; a dead service's work is taken over
when its lease runs out, and a message it may have sent is checked before it is sent again."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys

import pytest
from service_helpers import FakeTransport, chat, start_game, user

from bot.service import GameService, ManualClock

OPTS = {"seed": 6, "reminder_minutes": 60, "deadline_minutes": 180}


@pytest.fixture
async def pair(db_path):
    clock = ManualClock()
    a = await GameService.open(db_path, clock=clock, owner="bot-a", lease_seconds=30)
    b = await GameService.open(db_path, clock=clock, owner="bot-b", lease_seconds=30)
    yield a, b, clock
    await a.close()
    await b.close()


class CheckingTransport(FakeTransport):
    """Also answers ``delivered_id``: whether an outbox message already reached the chat."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    async def delivered_id(self, message):
        self.asked.append(message.id)
        found = [mid for mid, m in self.messages.items() if m.id == message.id]
        return found[0] if found else None


async def test_two_services_delivering_at_once_send_each_message_once(pair):
    a, b, _ = pair
    transport = FakeTransport()
    for n in range(6):
        await start_game(a, chat(n), [user("Ann"), user(f"Bob{n}")])
    counts = await asyncio.gather(a.deliver_pending(transport), b.deliver_pending(transport),
                                  a.deliver_pending(transport), b.deliver_pending(transport))
    ids = [m.id for m in transport.sent]
    assert len(ids) == len(set(ids)) == sum(counts)
    assert {o.state for o in await a.storage.outbox_rows()} == {"sent"}
    # each chat saw its messages in the order they were committed
    for n in range(6):
        mine = [m.id for m in transport.sent if m.chat is not None and m.chat.id == f"chat{n}"]
        assert mine == sorted(mine) and mine


async def test_a_dead_services_messages_go_out_once_its_lease_ran_out(pair):
    a, b, clock = pair
    transport = CheckingTransport()
    await start_game(a, chat(), [user("Ann"), user("Bob")])
    # a claims (each chat's next message), posts the first and dies before recording it
    rows = await a.storage.outbox_rows()
    claimed = await a.storage.claim_unsent("fake", "bot-a", clock.now(), 30)
    first = claimed[0]
    await transport.deliver(await a.delivery._outgoing(first, transport))
    assert await b.deliver_pending(transport) == 0            # a's lease holds: b waits
    clock.advance(seconds=31)
    sent = await b.deliver_pending(transport)
    assert transport.asked == [o.id for o in claimed]         # every taken-over message is checked
    assert sent == len(rows) - 1                              # the first was out already: recorded, not re-sent
    ids = [m.id for m in transport.sent]
    assert sorted(ids) == [o.id for o in rows] and len(set(ids)) == len(ids)
    assert {o.state for o in await b.storage.outbox_rows()} == {"sent"}


async def test_a_holder_that_stalls_past_its_lease_after_renewing_it_does_not_send(pair):
    """The fence: a process stalls (a busy event loop, a paused process) between renewing its
    lease and calling the platform; meanwhile the lease runs out and another process takes the
    message over and sends it. The stalled one must not send it too."""
    a, b, clock = pair
    transport = CheckingTransport()
    await start_game(a, chat(), [user("Ann"), user("Bob")])
    rows = await a.storage.outbox_rows()
    renew = a.storage.renew_lease
    stalled = []

    async def renew_then_stall(out_id, owner, now, lease_seconds):
        fresh = await renew(out_id, owner, now, lease_seconds)
        if not stalled:
            stalled.append(out_id)
            clock.advance(seconds=lease_seconds + 1)
            await b.deliver_pending(transport)      # b takes the message over, finds it unsent, sends
        return fresh
    a.storage.renew_lease = renew_then_stall
    await a.deliver_pending(transport)
    await b.deliver_pending(transport)
    await a.deliver_pending(transport)
    ids = [m.id for m in transport.sent]
    assert stalled and stalled[0] in transport.asked               # b checked before sending
    assert sorted(ids) == [o.id for o in rows] and len(set(ids)) == len(ids), "a message went out twice"
    assert {o.state for o in await a.storage.outbox_rows()} == {"sent"}


async def test_a_stall_after_renewing_gives_the_message_back_unsent(pair):
    a, _, clock = pair
    transport = FakeTransport()
    await start_game(a, chat(), [user("Ann"), user("Bob")])
    rows = await a.storage.outbox_rows()
    renew = a.storage.renew_lease

    async def renew_then_stall(out_id, owner, now, lease_seconds):
        fresh = await renew(out_id, owner, now, lease_seconds)
        clock.advance(seconds=lease_seconds * 0.6)     # past the share of the lease a send may start in
        return fresh
    a.storage.renew_lease = renew_then_stall
    assert await a.deliver_pending(transport) == 0 and transport.sent == []
    assert {o.state for o in await a.storage.outbox_rows()} == {"pending"}    # given back, not left 'sending'
    a.storage.renew_lease = renew
    assert await a.deliver_pending(transport) == len(rows)


async def test_a_restarted_named_service_takes_its_work_back_at_once(db_path):
    clock = ManualClock()
    a = await GameService.open(db_path, clock=clock, owner="bot-a")
    await start_game(a, chat(), [user("Ann"), user("Bob")])
    rows = await a.storage.outbox_rows()
    await a.storage.claim_unsent("fake", "bot-a", clock.now(), 60)
    await a.storage.close()                                   # killed: nothing given back
    again = await GameService.open(db_path, clock=clock, owner="bot-a")
    try:
        transport = FakeTransport()
        assert await again.deliver_pending(transport) == len(rows)      # no wait for the lease
    finally:
        await again.close()


async def test_a_due_timer_fires_once_with_two_services(pair):
    a, b, clock = pair
    gid = await start_game(a, chat(), [user("Ann"), user("Bob")], options=OPTS)
    clock.advance(minutes=61)
    fired = await asyncio.gather(a.fire_due_timers(), b.fire_due_timers(), a.fire_due_timers())
    assert sum(fired) == 1                                    # the reminder, once
    clock.advance(minutes=120)
    assert await b.fire_due_timers() + await a.fire_due_timers() == 1   # the deadline, once
    assert (await a.game_info(chat())).moves == 1
    assert {t.kind for t in await a.storage.timers_of(gid)} == {"reminder", "deadline"}


async def test_a_dead_services_timer_fires_elsewhere_after_its_lease(pair):
    a, b, clock = pair
    await start_game(a, chat(), [user("Ann"), user("Bob")], options=OPTS)
    clock.advance(minutes=181)
    claimed = await a.storage.claim_due_timers(clock.now(), "bot-a", 30)     # a dies holding both
    assert {t.kind for t in claimed} == {"reminder", "deadline"}
    assert await b.fire_due_timers() == 0
    clock.advance(seconds=31)
    assert await b.fire_due_timers() >= 1
    assert (await b.game_info(chat())).moves == 1          # the deadline moved for the absent player


async def test_unnamed_services_on_one_sqlite_file_get_distinct_owners(db_path):
    """A Telegram and a Discord process on one file, neither named: neither takes the
    other's claimed messages, and a configured name still wins."""
    clock = ManualClock()
    telegram = await GameService.open(db_path, clock=clock)
    await start_game(telegram, chat(), [user("Ann"), user("Bob")])
    claimed = await telegram.storage.claim_unsent("fake", telegram.owner, clock.now(), 60)
    assert claimed
    discord = await GameService.open(db_path, clock=clock)
    named = await GameService.open(db_path, clock=clock, owner="dc-1")
    try:
        assert len({telegram.owner, discord.owner, named.owner}) == 3 and named.owner == "dc-1"
        assert str(os.getpid()) in telegram.owner.split(":")
        assert await discord.deliver_pending(FakeTransport()) == 0      # still telegram's, under lease
    finally:
        for service in (named, discord, telegram):
            await service.close()


async def test_an_unnamed_service_takes_back_at_once_what_a_dead_one_of_its_host_held(db_path):
    clock = ManualClock()
    first = await GameService.open(db_path, clock=clock)
    await start_game(first, chat(), [user("Ann"), user("Bob")])
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    dead_owner = f"{socket.gethostname()}:{dead.stdout.strip()}:abc123"   # a process that has exited
    claimed = await first.storage.claim_unsent("fake", dead_owner, clock.now(), 60)
    await first.storage.close()
    again = await GameService.open(db_path, clock=clock)
    try:
        # a claim hands out one message per chat; the dead process's one and all after it go out now
        assert claimed and await again.deliver_pending(FakeTransport()) >= len(claimed)
        assert await again.storage.claim_unsent("fake", "someone-else", clock.now(), 60) == []
    finally:
        await again.close()
