"""A normal stop while a message is being posted: the post is let finish and recorded, so the
restarted bot does not post it again."""

from __future__ import annotations

import asyncio
import contextvars

import simcord

from bot.discord import BoardchatBot
from bot.service import GameService


async def test_closing_the_bot_lets_the_send_in_flight_finish(db_path):
    service = await GameService.open(db_path)
    service._timer_task = asyncio.create_task(service.run_timers())   # outside simcord (see test_background)
    holder: dict[str, simcord.Env] = {}
    posting = asyncio.Event()

    class Bot(BoardchatBot):
        async def _run_delivery(self) -> None:
            loop = asyncio.get_running_loop()
            task = contextvars.Context().run(loop.create_task, super()._run_delivery())
            await holder["env"].external_wait(task, reason="the service's delivery loop")

    bot = Bot(service)
    deliver = bot.transport.deliver

    async def slow_answer(message):
        message_id = await deliver(message)      # Discord has the message ...
        posting.set()
        await asyncio.sleep(0.3)                 # ... and its answer is still on the way
        return message_id

    bot.transport.deliver = slow_answer
    env = holder["env"] = simcord.Env(bot)
    await env.start()
    try:
        guild = env.create_guild()
        channel = guild.create_text_channel("paris")
        ann = guild.add_member(env.create_user("ann"))
        await ann.slash(channel, "boardchat new")
        await asyncio.wait_for(posting.wait(), 10)
    finally:
        await env.shutdown()                     # closes the bot: the delivery loop is cancelled
    try:
        rows = await service.storage.outbox_rows()
        assert rows and all(row.state == "sent" for row in rows), [(r.id, r.state) for r in rows]
    finally:
        await service.close()
