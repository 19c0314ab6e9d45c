"""A deadline in Tiny Hands' simultaneous phase, read in an offline Discord (simcord): the channel is
told once, in one sentence with a plural verb, of the seats the AI chose for, and of those alone
(issue 31). Real discord.py, real BoardchatBot, the real GameService on a clock the test moves."""

from __future__ import annotations

import pytest
from discord_kit import MENTION, buttons

from bot.contract import User
from bot.discord.identity import chat_of_channel
from bot.service import ManualClock
from i18n import name_list, t

CHOICE = ("pp:c_", "pp:o_")         # a choice, a submenu (not Back)


@pytest.fixture
def clock():
    return ManualClock()


def private_choices(member) -> tuple:
    """The member's DM turn message and its choice buttons while it offers any, else (None, [])."""
    channel = member.user.dm_channel
    for message in reversed(channel.history() if channel is not None else []):
        offered = [b for b in buttons(message) if b.custom_id.startswith(CHOICE)]
        if offered:
            return message, offered
    return None, []


async def test_the_channel_is_told_once_of_the_seats_the_ai_chose_for(tiny_game, table, service, clock,
                                                                        simcord_bot):
    ann = User(platform="discord", id=str(table.ann.id), name=table.ann.name)
    opened = await service.new_game(chat_of_channel(table.channel), ann,
                                    options={"game": tiny_game.id, "seed": 8, "deadline_minutes": 60})
    assert opened.ok, opened.text
    await table.bob.slash(table.channel, "boardchat join")
    await table.cat.slash(table.channel, "boardchat join")
    await table.ann.slash(table.channel, "boardchat start")

    for _ in range(6):                  # Ann plays a card and is done
        message, offered = private_choices(table.ann)
        if message is None:
            break
        done = [b for b in offered if b.label.startswith("✅")]
        await table.ann.user.click(message, custom_id=(done or offered)[0].custom_id)
    assert private_choices(table.ann)[0] is None
    info = await service.game_info(game_id=1)
    late = [info.seats[s].name for s in info.to_act]
    assert sorted(late) == ["bob", "cat"]

    clock.advance(minutes=61)
    assert await service.fire_due_timers() == 1
    await service.deliver_pending(simcord_bot.transport)

    names = {str(m.id): m.name for m in (table.ann, table.bob, table.cat)}
    lines = {MENTION.sub(lambda found: names[found.group(1)], line)        # a ping reads as the name
             for m in table.channel.history() for line in m.content.splitlines() if line.startswith("⌛")}
    assert lines == {t("en", "bot.msg.deadline_private_several", player=name_list(late, "en"))}, lines
