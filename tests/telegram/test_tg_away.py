"""/away through the real Application against the fake Bot API: said in the private chat or in a
group, answered where it was said; the group is told once, and the AI plays the away player's
turn (the chat's default: "ai"), by the timer loop the bot runs."""

from __future__ import annotations

import asyncio

from tgharness import table_of_two

from i18n import t


async def moves_reach(bot, count: int, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (await bot.service.game_info(game_id=1)).moves < count:
        assert loop.time() < end, "the away turn was not played"
        await asyncio.sleep(0.05)


async def test_away_in_the_private_chat_then_back_in_the_group(api, bot):
    table = await table_of_two(api, bot)
    player = table.to_move(table.prompt())
    name = player.first_name
    api.send_text(api.chats[player.id], player, "/away 5d")
    await bot.settle()
    assert api.last_bot_message(player).body == t("en", "bot.away.set", duration="5 days", count=1)
    await moves_reach(bot, 1)                       # played by the AI, at once
    await bot.settle()
    told = [m.body for m in table.group_messages() if "🏖" in m.body]
    assert told == [t("en", "bot.away.group_ai", player=name, duration="5 days")]
    assert not any("⌛" in m.body for m in table.group_messages())     # no deadline notice

    api.send_text(table.group, player, "/away off")
    await bot.settle()
    bodies = [m.body for m in table.group_messages()]
    assert t("en", "bot.away.off", count=1) in bodies                  # the answer, in the group
    assert t("en", "bot.away.group_back", player=name) in bodies       # and the group is told
    api.send_text(table.group, player, "/away sometime")
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "bot.away.bad", text="sometime", days=60)
