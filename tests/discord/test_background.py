"""The production wiring: the service's delivery loop started by setup_hook posts what a
command committed, without the inline delivery used by the other tests."""

from __future__ import annotations

import asyncio
import contextvars

import simcord

from bot.discord import BoardchatBot
from bot.service import GameService


async def wait_until(condition, seconds: float = 5.0) -> bool:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return True
        await asyncio.sleep(0.01)
    return condition()


async def test_the_background_delivery_loop_posts_committed_messages(db_path):
    service = await GameService.open(db_path)
    # The service's timer loop idles on an event simcord cannot settle; start it here,
    # outside the bot, so run_delivery does not start it inside the bot.
    service._timer_task = asyncio.create_task(service.run_timers())
    holder: dict[str, simcord.Env] = {}

    class Bot(BoardchatBot):
        async def _run_delivery(self) -> None:
            # The loop (and the wait_for tasks it spawns) idles until a commit wakes it:
            # run it in a task simcord does not own and declare the wait as intended.
            loop = asyncio.get_running_loop()
            task = contextvars.Context().run(loop.create_task, super()._run_delivery())
            await holder["env"].external_wait(task, reason="the service's delivery loop")

    bot = Bot(service)                       # background_delivery=True, as in production
    env = holder["env"] = simcord.Env(bot)
    await env.start()
    try:
        assert len(bot._background_tasks) == 1
        guild = env.create_guild()
        channel = guild.create_text_channel("paris")
        ann = guild.add_member(env.create_user("ann"))
        created = await ann.slash(channel, "boardchat new")
        assert created.ephemeral
        assert await wait_until(lambda: channel.last_message is not None)
        assert "ann" in channel.last_message.content
        assert any(c.custom_id.startswith("pp:j_") for row in channel.last_message.components
                   for c in row.children)
    finally:
        await env.shutdown()
        assert all(task.done() for task in bot._background_tasks) or not bot._background_tasks
        await service.close()
