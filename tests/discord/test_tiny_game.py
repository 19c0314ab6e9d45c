"""Tiny Hands (tests/tinygame) in an offline Discord (simcord): real discord.py, real BoardchatBot, real
GameService. Three players click on their own choices, each on the menu all three read at once (a DM edited in place, or the
ephemeral reply to the channel's "My choices" button); the channel reads only who is still to choose."""

from __future__ import annotations

import random

from discord_kit import buttons

from bot.contract import User
from bot.discord.identity import chat_of_channel
from i18n import t

CHOICE, BACK = ("pp:c_", "pp:o_"), "pp:b_"


def private_turn(member):
    """The member's DM turn message while it offers choices, else None."""
    channel = member.user.dm_channel
    for message in reversed(channel.history() if channel is not None else []):
        if any(b.custom_id.startswith(CHOICE) for b in buttons(message)):
            return message
    return None


def choices(message) -> list:
    return [b for b in buttons(message) if b.custom_id.startswith(CHOICE)]


async def test_tiny_hands_three_players_click_at_once_to_the_end(tiny_game, table, service):
    # The game is opened through the service: a slash command's game choices are fixed when the
    # command tree is built, before this test registers its game. Everything after is Discord's.
    ann = User(platform="discord", id=str(table.ann.id), name=table.ann.name)
    opened = await service.new_game(chat_of_channel(table.channel), ann, options={"game": tiny_game.id})
    assert opened.ok, opened.text
    await table.bob.slash(table.channel, "boardchat join")
    await table.cat.slash(table.channel, "boardchat join")
    await table.ann.slash(table.channel, "boardchat start")
    members = {str(m.id): m for m in (table.ann, table.bob, table.cat)}

    # The channel's "My choices" button answers with the presser's own choices, only for them.
    mine = next(b for b in buttons(table.channel.history()[-1]) if b.label == t("en", "bot.btn.my_choices"))
    shown = await table.bob.click(table.channel.history()[-1], custom_id=mine.custom_id)
    assert shown.followups and all(f.ephemeral for f in shown.followups)
    assert any(choices(f.message) for f in shown.followups)

    rng, clicks, at_once, seen = random.Random(9), 0, 0, set()
    while (info := await service.game_info(game_id=1)).status != "finished":
        assert clicks < 150, "the game does not end"
        acting = [members[info.seats[s].user_id] for s in info.to_act]
        menus = [(m, private_turn(m)) for m in acting]
        assert all(msg is not None for _, msg in menus), [m.name for m, msg in menus if msg is None]
        # Everyone reads their menu first, then all click (simcord runs one interaction at a
        # time): one player's steps never make another's buttons stale.
        results = [await m.user.click(msg, custom_id=rng.choice(choices(msg)).custom_id) for m, msg in menus]
        assert all(r.acknowledged for r in results)
        assert not any(f.content.startswith(("It is not", "That button", "These buttons")) or
                       f.content == t("en", "discord.error") for r in results for f in r.followups)
        clicks += 1
        at_once = max(at_once, len(acting))
        seen |= {m.content for m in table.channel.history()}    # turn messages are edited in place
    assert at_once == 3 and info.winners
    channel = "\n".join(seen | {m.content for m in table.channel.history()})
    assert t("en", "bot.msg.waiting", players="")[:3] in channel and "Revealed:" in channel
    assert "Your hand" not in channel and "Which card?" not in channel
    assert all(not buttons(m) or not choices(m) for m in table.channel.history())   # no choice left open
