"""The Discord bot: interactions in, service calls, service output out.

``BoardchatBot`` owns no game logic. A slash command or a button press becomes one call on
the game service with the ``Chat`` (channel or thread) and ``User`` of the interaction;
the ``Reply`` goes back to that user only (ephemeral), and everything the service
wants the channel or a DM to see goes through the durable outbox and the
``DiscordTransport``.

Every interaction is acknowledged at once (``defer``) and answered with a followup,
so rendering or a slow database never hits Discord's 3-second limit.

Delivery: in production the service's delivery loop (``run_delivery``, which also runs
the reminder and deadline timers) is started in ``setup_hook`` and wakes whenever an
action commits outbox messages. With ``background_delivery=False`` (tests, or an
embedding program that runs the loop itself) the bot instead delivers the outbox
right after each interaction (``deliver_pending``); the two are never combined, so a
message cannot be sent twice by two concurrent delivery passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.contract import Chat, GameServiceAPI, Reply, User
from bot.games import KINDS, kind
from bot.product import DISCORD_GROUP, OLD_DISCORD_GROUP
from i18n import normalize_language, t

from .commands import BoardchatGroup, CatalogTranslator
from .identity import chat_of, chat_of_channel, user_of
from .texts import MAX_CONTENT, MAX_NAME, discord_text, fit
from .transport import DiscordTransport
from .views import PressButton, PressReceiver, build_view

# Every game's "my secret" button starts with this mark (the presenters' ``secret_button``), so
# help texts can point at the button without naming one game's secret.
SECRET_MARK = "\N{LOCK}"

log = logging.getLogger(__name__)

# The bot never joins voice: silence discord.py's "PyNaCl/davey is not installed" warnings.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

Action = Callable[[Chat | None, User], Awaitable[Reply]]

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080      # a week: games are played asynchronously
INLINE_PASSES = 5
# The service's payload kind (bot/service/tokens/payloads.py: "<kind>_...") of its
# "open the private chat" button, which on Discord is answered in place.
OPEN_PRIVATE_KIND = "p"


def intents() -> discord.Intents:
    """Only the guilds intent (channel and thread cache); nothing privileged:
    slash commands and buttons arrive as interactions and need no intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def interaction_language(interaction: discord.Interaction) -> str:
    return normalize_language(str(interaction.locale) if interaction.locale else None)


class BoardchatBot(commands.Bot, PressReceiver):
    """The Discord bot around one game service."""

    def __init__(
        self,
        service: GameServiceAPI,
        *,
        dev_guild_id: int | None = None,
        background_delivery: bool = True,
        sync: bool = True,
        **client_options,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.sync = sync          # several processes: only one syncs the slash commands
        self.service = service
        self.transport = DiscordTransport(self)
        self.dev_guild_id = dev_guild_id
        self.background_delivery = background_delivery
        if not background_delivery:
            # Delivered inline right after each interaction, everything goes at once: no loop
            # would come back for a message held for its pace (discord.py still waits per route).
            self.transport.pace = None
        self._flush_lock = asyncio.Lock()
        self._background_tasks: list[asyncio.Task] = []
        self.tree.error(self._on_tree_error)

    # ------------------------------------------------------------- lifecycle

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PressButton)
        await self.tree.set_translator(CatalogTranslator())
        self.tree.add_command(BoardchatGroup(self))
        # The old name answers too; it is synced only where it was registered before (below).
        self.tree.add_command(BoardchatGroup(self, OLD_DISCORD_GROUP))
        if self.sync:
            await self.sync_commands()
        if self.background_delivery:
            self._background_tasks = [asyncio.create_task(self._delivery_loop(), name="discord-delivery")]

    async def sync_commands(self) -> None:
        """To the development guild when one is configured (instant), else globally.

        A bot whose commands were registered under the old group name (/paris, before the
        rename) keeps it beside the new one, so its servers' habits and docs keep working; a new
        bot never shows it."""
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        registered = {command.name for command in await self.tree.fetch_commands(guild=guild)}
        if OLD_DISCORD_GROUP not in registered:
            self.tree.remove_command(OLD_DISCORD_GROUP)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to guild %s: type /%s new in one of its channels",
                     len(synced), self.dev_guild_id, DISCORD_GROUP)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global command(s): /%s may take a while to appear (DISCORD_DEV_GUILD_ID "
                     "syncs to one server at once)", len(synced), DISCORD_GROUP)

    async def close(self) -> None:
        for task in self._background_tasks:
            task.cancel()
        for task in self._background_tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._background_tasks = []
        await super().close()

    async def _delivery_loop(self) -> None:
        """The service's delivery loop (it also fires reminders and deadlines)."""
        await self.wait_until_ready()
        while True:
            try:
                await self._run_delivery()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("delivery loop failed; restarting in 5 s")
                await asyncio.sleep(5)

    async def _run_delivery(self) -> None:
        await self.service.run_delivery(self.transport)

    async def flush(self) -> None:
        """Without the background loop: deliver what the last action put in the outbox."""
        if self.background_delivery:
            return   # the service's loop was woken by the commit
        async with self._flush_lock:
            try:
                # A pass can commit new messages (e.g. "DMs closed" notices for the
                # group), so run until a pass after the first delivers nothing.
                for attempt in range(INLINE_PASSES):
                    if await self.service.deliver_pending(self.transport) == 0 and attempt > 0:
                        break
            except Exception:
                log.exception("delivering the outbox failed; it stays queued")

    # ---------------------------------------------------------- interactions

    async def answer(
        self,
        interaction: discord.Interaction,
        action: Action,
        *,
        public: bool = False,
        needs_chat: bool = True,
    ) -> None:
        """Acknowledge a slash command, run ``action`` and show its Reply to the user alone.

        With ``public`` (``/boardchat board public:True``) an accepted Reply is posted in the
        channel for everyone, without its buttons (they act for the user who asked, whose
        prompt already carries them), and the private "thinking" placeholder removed; a
        refusal still goes only to the user who asked."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await self._call(interaction, action, needs_chat=needs_chat)
        # a channel one can post in (a slash command never comes from a category nor a forum itself)
        if public and reply.ok and isinstance(interaction.channel, discord.abc.Messageable):
            try:
                shown = dataclasses.replace(reply, buttons=())
                await interaction.channel.send(**self._reply_kwargs(interaction, shown))
            except discord.HTTPException:
                log.warning("could not post a public answer in %s; answering privately", interaction.channel_id)
            else:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
                await self.flush()
                return
        await self._show_deferred(interaction, reply)
        await self.flush()

    async def handle_press(self, interaction: discord.Interaction, payload: str) -> None:
        """Any service button (a choice, a submenu, join, my secret, settings)."""
        await interaction.response.defer()   # a silent acknowledgement; the message stays
        chat = chat_of(interaction)

        async def press(chat: Chat | None, user: User) -> Reply:
            return await self.service.press(chat, user, payload)

        reply = await self._call(interaction, press, needs_chat=False, chat=chat)
        if payload.split("_", 1)[0] == OPEN_PRIVATE_KIND and reply.ok:
            reply = await self._open_private_reply(interaction, chat)
        if reply.text or reply.image is not None or reply.buttons:
            await self._show_deferred(interaction, reply)
        await self.flush()

    async def _open_private_reply(self, interaction: discord.Interaction, chat: Chat | None) -> Reply:
        """Discord has no "open the private chat" link: the service has just re-queued the
        player's held DMs; show their secret right here (ephemeral) and say how to let
        the bot's DMs in."""
        language = interaction_language(interaction)
        secret = await self._call(
            interaction, lambda chat, user: self.service.secret(user, chat), needs_chat=False, chat=chat
        )
        hint = t(language, "discord.dm_hint", button=SECRET_MARK)
        return Reply(text=f"{secret.text}\n\n{hint}" if secret.text else hint, ok=True)

    async def new_game(self, interaction: discord.Interaction, *, thread: bool, options: dict | None) -> None:
        """/boardchat new: in this channel, or in a new public thread when asked."""
        if not thread or isinstance(interaction.channel, discord.Thread) or interaction.guild_id is None:
            async def open_here(chat: Chat | None, user: User) -> Reply:
                assert chat is not None, "answer refuses a command with no chat (needs_chat)"
                return await self.service.new_game(chat, user, options=options)

            await self.answer(interaction, open_here)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = interaction_language(interaction)
        user = user_of(interaction)
        channel = interaction.channel
        try:
            if not isinstance(channel, discord.TextChannel):   # a forum's post, a voice channel's chat
                raise TypeError("only a text channel opens a public thread of its own")
            created = await channel.create_thread(
                name=fit(t(language, "discord.thread_name", host=user.name,
                           game=kind((options or {}).get("game")).presenter.title(language)), MAX_NAME),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except (discord.HTTPException, AttributeError, TypeError):   # no permission, or not a text channel
            await self._show_deferred(interaction, Reply(t(language, "discord.thread_failed", group=DISCORD_GROUP),
                                                         ok=False))
            return
        with contextlib.suppress(discord.HTTPException):
            await created.add_user(interaction.user)
        chat = chat_of_channel(created)

        async def open_game(_chat: Chat | None, user: User) -> Reply:
            return await self.service.new_game(chat, user, options=options)

        reply = await self._call(interaction, open_game, needs_chat=False, chat=chat)
        if reply.ok:
            note = t(language, "discord.thread_opened", thread=created.mention, group=DISCORD_GROUP)
            reply = Reply(
                text=f"{reply.text}\n{note}" if reply.text else note,
                ok=reply.ok, alert=reply.alert, buttons=reply.buttons, image=reply.image, extra=reply.extra,
            )
        await self._show_deferred(interaction, reply)
        await self.flush()

    async def help_reply(self, chat: Chat | None, user: User) -> Reply:
        """How to play here: the Discord command list (the service's help names the
        commands the Telegram way)."""
        language = normalize_language(user.language)
        intro = "\n".join(t(language, "discord.help_game", game=game_kind.definition.name, group=DISCORD_GROUP,
                            min=game_kind.definition.min_players, max=game_kind.definition.max_players)
                          for game_kind in KINDS.values())
        commands_text = t(language, "discord.help", button=SECRET_MARK, group=DISCORD_GROUP)
        return Reply(text=f"{intro}\n\n{commands_text}")

    # --------------------------------------------------------------- helpers

    def message_link(self, chat: Chat, message_id: str) -> str | None:
        """The jump URL of a message in a server's channel or thread (None: a channel this
        process does not see)."""
        channel = self.get_channel(int(chat.id)) if chat.id.isdigit() else None
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return None
        return f"https://discord.com/channels/{channel.guild.id}/{chat.id}/{message_id}"

    async def _call(
        self,
        interaction: discord.Interaction,
        action: Action,
        *,
        needs_chat: bool,
        chat: Chat | None = None,
    ) -> Reply:
        language = interaction_language(interaction)
        chat = chat if chat is not None else chat_of(interaction)
        if needs_chat and chat is None:
            return Reply(t(language, "discord.server_only", group=DISCORD_GROUP), ok=False)
        try:
            return await action(chat, user_of(interaction))
        except Exception:
            log.exception("service call failed for interaction %s", interaction.id)
            return Reply(t(language, "discord.error"), ok=False, alert=True)

    def _reply_kwargs(self, interaction: discord.Interaction, reply: Reply) -> dict:
        text = discord_text(reply.text) if reply.text else (
            "" if reply.image is not None else t(interaction_language(interaction), "discord.done"))
        kwargs: dict = {"content": fit(text, MAX_CONTENT), "allowed_mentions": discord.AllowedMentions.none()}
        view = build_view(reply.buttons)
        if view is not None:
            kwargs["view"] = view
        if reply.image is not None:
            kwargs["file"] = discord.File(io.BytesIO(reply.image), filename=reply.image_name)
        elif reply.document is not None:      # a game's record, attached as a file
            kwargs["file"] = discord.File(io.BytesIO(reply.document), filename=reply.document_name or "record.json")
        return kwargs

    async def _show_deferred(self, interaction: discord.Interaction, reply: Reply) -> None:
        """Answer an interaction acknowledged with ``defer``, to the user alone. When Discord
        refuses the answer, an accepted action was already committed (a move made, a seat
        taken): the user is told it went through, never that it failed."""
        try:
            await interaction.followup.send(**self._reply_kwargs(interaction, reply), ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not answer interaction %s: %s", interaction.id, error)
            key = "discord.answer_lost" if reply.ok else "discord.error"
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(t(interaction_language(interaction), key), ephemeral=True)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.error("command failed: %s", error, exc_info=error)
        text = t(interaction_language(interaction), "discord.error")
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


class ShardedBoardchatBot(BoardchatBot, commands.AutoShardedBot):
    """The bot on some of the bot's shards (``shard_ids`` of ``shard_count``): one of several
    processes serving a bot in many servers (Discord requires shards past 2,500)."""
