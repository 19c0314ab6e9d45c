"""The outbox delivery on its own: retry timing and what a stop does to a send in flight."""

from __future__ import annotations

import asyncio

from service_helpers import FakeTransport, chat, start_game, user

from bot.contract import RetryLater
from bot.service import GameService


class SlowRefusal(FakeTransport):
    """The upload takes 0.3 s of (manual) clock time, then the platform answers 429 retry_after=1."""

    def __init__(self, clock) -> None:
        super().__init__()
        self.clock = clock
        self.refused = False

    async def deliver(self, message):
        self.clock.advance(0.3)
        if not self.refused:
            self.refused = True
            raise RetryLater(1.0, "flood control")
        return await super().deliver(message)


async def test_retry_after_counts_from_the_refusal(service, clock):
    transport = SlowRefusal(clock)
    await service.new_game(chat(), user("Ann"))
    assert await service.deliver_pending(transport) == 0            # refused at +0.3 s
    clock.advance(0.7)                                               # 1 s after the attempt began
    assert await service.deliver_pending(transport) == 0
    assert transport.sent == []
    clock.advance(0.3)                                               # 1 s after the refusal
    assert await service.deliver_pending(transport) >= 1


class SlowAnswer(FakeTransport):
    """The platform posts the message at once but its answer arrives ``delay`` seconds later."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay
        self.posting = asyncio.Event()

    async def deliver(self, message):
        message_id = await super().deliver(message)
        self.posting.set()
        await asyncio.sleep(self.delay)
        return message_id


async def test_a_stop_lets_the_send_in_flight_finish(db_path, clock):
    ann = user("Ann")
    service = await GameService.open(db_path, clock=clock)
    transport = SlowAnswer(0.2)
    await start_game(service, chat(), [ann, user("Bob")])
    loop = asyncio.create_task(service.run_delivery(transport))
    await transport.posting.wait()
    loop.cancel()                                       # SIGTERM: the adapter cancels the loop
    await asyncio.gather(loop, return_exceptions=True)
    await service.close()
    posted = len(transport.sent)
    restarted = await GameService.open(db_path, clock=clock)
    try:
        transport.delay = 0
        await restarted.deliver_pending(transport)
        texts = [m.text for m in transport.sent]
        assert len(texts) == len(set(texts)) and len(texts) >= posted   # nothing posted twice
    finally:
        await restarted.close()


async def test_a_stop_waits_for_a_hanging_send_only_so_long(service):
    transport = SlowAnswer(3600)
    service.delivery.stop_grace = 0.05
    await service.new_game(chat(), user("Ann"))
    loop = asyncio.create_task(service.run_delivery(transport))
    await transport.posting.wait()
    loop.cancel()
    done, _ = await asyncio.wait({loop}, timeout=5)
    assert done and loop.cancelled()
    async with service.storage.db.execute("SELECT state FROM outbox") as cur:
        assert [r[0] for r in await cur.fetchall()] == ["sending"]   # unknown outcome: checked on restart
