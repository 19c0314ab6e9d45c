"""/boardchat away in an offline Discord (simcord): answered to the player alone, the channel told
once, the away player's turn played by the AI at once (the chat's default), and back with "off".
Real discord.py, real BoardchatBot, the real GameService on a clock the test moves."""

from __future__ import annotations

import pytest

from bot.service import ManualClock
from i18n import t


@pytest.fixture
def clock():
    return ManualClock()


async def test_away_is_answered_privately_and_the_channel_told_once(table, service, clock, simcord_bot):
    prompt = await table.started_game()
    player = table.to_move(prompt)
    said = await player.slash(table.channel, "boardchat away", duration="5d")
    assert said.ephemeral and said.response.content == t("en", "bot.away.set", duration="5 days", count=1)
    assert await service.fire_due_timers() == 1                # the AI plays the turn at once
    await service.deliver_pending(simcord_bot.transport)
    assert (await service.game_info(game_id=1)).moves == 1
    told = [m.content for m in table.messages() if "🏖" in m.content]
    assert told == [t("en", "bot.away.group_ai", player=player.name, duration="5 days")]

    asked = await player.slash(table.channel, "boardchat away")
    assert asked.ephemeral and asked.response.content == t("en", "bot.away.status", duration="5 days")
    back = await player.slash(table.channel, "boardchat away", duration="off")
    assert back.response.content == t("en", "bot.away.off", count=1)
    await service.deliver_pending(simcord_bot.transport)
    assert table.messages()[-1].content == t("en", "bot.away.group_back", player=player.name)
    assert len([m for m in table.messages() if "🏖" in m.content]) == 1
