"""Ratings on Discord (issue 35), in an offline Discord (simcord): real discord.py, the real
BoardchatBot and GameService. A Tiny Hands game ends by deadlines; the channel's final message
shows each person's rating change, and /boardchat rating answers the one who asked."""

from __future__ import annotations

import pytest

from bot.contract import User
from bot.discord.identity import chat_of_channel
from bot.service import ManualClock
from i18n import t


@pytest.fixture
def clock():
    return ManualClock()


async def test_the_final_message_shows_the_changes_and_rating_answers(tiny_game, table, service, clock,
                                                                       simcord_bot):
    ann = User(platform="discord", id=str(table.ann.id), name=table.ann.name)
    opened = await service.new_game(chat_of_channel(table.channel), ann,
                                    options={"game": tiny_game.id, "seed": 3, "deadline_minutes": 10,
                                             "reminder_minutes": 0})
    assert opened.ok, opened.text
    await table.bob.slash(table.channel, "boardchat join")
    await table.ann.slash(table.channel, "boardchat start")
    for _ in range(50):                     # nobody chooses: the AI does at each deadline
        if (await service.game_info(game_id=1)).status != "playing":
            break
        clock.advance(minutes=11)
        await service.fire_due_timers()
    await service.deliver_pending(simcord_bot.transport)
    header = t("en", "bot.rating.changes")
    final = next(m.content for m in table.channel.history() if header in m.content)
    assert "ann 1,200 → " in final and "bob 1,200 → " in final

    result = await table.bob.slash(table.channel, "boardchat rating")
    assert result.ephemeral
    answer = result.response.content
    assert answer.startswith(t("en", "bot.rating.title", name="bob"))
    assert t("en", "bot.rating.board_here", game="Tiny Hands") in answer
