"""Helpers for the Discord adapter tests: a table of players in simcord, button lookup."""

from __future__ import annotations

import re

import discord

MENTION = re.compile(r"<@(\d+)>")


class Table:
    """A guild with a #paris channel and three players (and a moderator who is not playing)."""

    def __init__(self, env):
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("paris")
        self.ann = self.guild.add_member(env.create_user("ann"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.cat = self.guild.add_member(env.create_user("cat"))
        mods = self.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
        self.mod = self.guild.add_member(env.create_user("mod"), roles=[mods])

    @property
    def players(self):
        return {str(p.id): p for p in (self.ann, self.bob, self.cat)}

    def messages(self):
        return self.channel.history()

    def prompt(self):
        """The game message that currently offers tiles (or an eviction choice)."""
        for message in reversed(self.channel.history()):
            if any(b.custom_id.startswith(("pp:c_", "pp:o_")) for b in buttons(message)):
                return message
        return None

    def to_move(self, prompt):
        """The player the prompt pings."""
        found = MENTION.search(prompt.content)
        assert found, f"the turn prompt pings nobody: {prompt.content!r}"
        return self.players[found.group(1)]

    async def lobby_of_three(self):
        """ann opens a game by command, bob joins by command, cat by the Join button."""
        result = await self.ann.slash(self.channel, "boardchat new")
        assert result.ephemeral and result.followups == [] and result.response is not None
        await self.bob.slash(self.channel, "boardchat join")
        lobby = self.channel.last_message
        joined = await self.cat.click(lobby, custom_id=custom_id(lobby, "pp:j_"))
        assert joined.followups and joined.followups[0].ephemeral

    async def started_game(self):
        await self.lobby_of_three()
        started = await self.ann.slash(self.channel, "boardchat start")
        assert started.ephemeral
        return self.prompt()


def buttons(message):
    return [child for row in message.components for child in row.children]


def custom_id(message, prefix: str, index: int = 0) -> str:
    found = [b.custom_id for b in buttons(message) if b.custom_id.startswith(prefix)]
    assert found, f"no button {prefix}* on {message.content[:80]!r}: {[b.custom_id for b in buttons(message)]}"
    return found[index % len(found)]
