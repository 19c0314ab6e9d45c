"""Where a ping lands in the channel (issue 32): on the line that asks the player to act, not on
the first line that names them (the log of what they did earlier in the round: "C2: bob buys
ingredients…", then "⏳ Waiting for bob."). DiscordTransport against simcord's offline Discord.
(Where seats choose in private, as in Papà Paolo, the channel pings nobody: their own turn
message tells them; tests/discord/test_papa_paolo.py.)"""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from bot.contract import Chat, Outgoing, User
from bot.discord.transport import DiscordTransport


@pytest.fixture
def simcord_bot():
    return commands.Bot(command_prefix="!", intents=discord.Intents.none())


async def test_the_ping_is_on_the_waiting_line_not_on_the_log_line(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("paris")
    bob = guild.add_member(simcord_env.create_user("bob"))
    transport = DiscordTransport(simcord_env.bot)
    text = "Round 2/5 · placing\nC2: bob buys ingredients (3 Lire).\nA1: ann builds a road.\n\n⏳ Waiting for bob."
    await transport.deliver(Outgoing(id=1, text=text, chat=Chat("discord", str(channel.id), "paris"),
                                     mentions=(User("discord", str(bob.id), "bob"),)))
    content = channel.last_message.content
    log, _, call = content.rpartition("\n\n")
    assert call == f"⏳ Waiting for <@{bob.id}>."
    assert f"<@{bob.id}>" not in log and "C2: bob buys ingredients" in log


async def test_a_name_only_in_the_log_is_pinged_there_and_a_name_nowhere_leads(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("paris")
    bob, cy = (guild.add_member(simcord_env.create_user(name)) for name in ("bob", "cy"))
    transport = DiscordTransport(simcord_env.bot)
    text = "C2: bob buys ingredients.\n\nThe round is over."
    await transport.deliver(Outgoing(id=2, text=text, chat=Chat("discord", str(channel.id), "paris"),
                                     mentions=(User("discord", str(bob.id), "bob"), User("discord", str(cy.id), "cy"))))
    content = channel.last_message.content
    assert f"C2: <@{bob.id}> buys ingredients." in content        # the only place bob is named
    assert content.startswith(f"<@{cy.id}>")                       # cy is named nowhere: the ping leads
