"""Who and where an interaction is, in the service's vocabulary."""

from __future__ import annotations

import discord

from bot.contract import Chat, User

PLATFORM = "discord"


def chat_of(interaction: discord.Interaction) -> Chat | None:
    """The channel or thread the interaction came from; None in direct messages."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    channel = interaction.channel
    title = getattr(channel, "name", None) or ""
    return Chat(platform=PLATFORM, id=str(interaction.channel_id), title=title)


def chat_of_channel(channel: discord.abc.GuildChannel | discord.Thread) -> Chat:
    return Chat(platform=PLATFORM, id=str(channel.id), title=getattr(channel, "name", "") or "")


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Channels in this channel (in a thread, Manage Threads counts too)."""
    if interaction.guild_id is None:
        return False
    permissions = interaction.permissions
    if permissions.manage_channels or permissions.administrator:
        return True
    return isinstance(interaction.channel, discord.Thread) and permissions.manage_threads


def user_of(interaction: discord.Interaction) -> User:
    member = interaction.user
    return User(
        platform=PLATFORM,
        id=str(member.id),
        name=member.display_name,
        is_admin=is_admin(interaction),
        language=str(interaction.locale) if interaction.locale is not None else None,
    )


def user_of_member(member: discord.abc.User) -> User:
    return User(platform=PLATFORM, id=str(member.id), name=member.display_name)
