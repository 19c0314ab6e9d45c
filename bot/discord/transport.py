"""Posting the service's outbox to Discord: the ``Transport`` of the discord adapter.

Error mapping (what the service's delivery loop sees):
- HTTP 429 that discord.py gave up retrying, or a 5xx  -> ``RetryLater``
- a DM refused (403, code 50007 "Cannot send messages to this user") or any 403 on a DM
  -> ``Undeliverable("private_closed")``: the service tells the group and the player
  uses the "my secret" button instead (answered ephemerally)
- 403 in a server channel (the bot lost View Channel / Send Messages there)
  -> ``RetryLater(300)``: an admin can give the permission back and the game goes on
- unknown channel or user (404) -> ``Undeliverable("gone")``
- editing a message that was deleted (404, 10008) or sits in an archived thread
  (400, 50083) -> the message is posted anew and the new id returned, so the service
  just records the new id for its slot; nothing is lost.

Crash safety: every new message is sent with a nonce derived from its outbox id, and
discord.py (2.4+) sends a nonce with ``enforce_nonce``, so Discord answers a repeat of the
same nonce within a few minutes with the message it already created: a message that
went out just before a crash, and is sent again after the restart, is posted once.

Pings: Discord notifies nobody for a mention added by an edit, so an edit that pings
someone the message did not ping before (the turn passed to the next player) is
posted as a new message and the superseded one deleted (a bot may always delete its
own messages); the new id goes back to the service like any other.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import re
from collections import OrderedDict

import discord

from bot.contract import (
    DEFAULT_IMAGE_NAME,
    Budget,
    Outgoing,
    PaceLimits,
    RetryLater,
    Transport,
    Undeliverable,
    User,
)

from .texts import MAX_CONTENT, discord_text, fit
from .views import build_view

log = logging.getLogger(__name__)

PERMISSION_RETRY_SECONDS = 300.0
SERVER_ERROR_RETRY_SECONDS = 5.0
PINGED_MEMORY = 2000        # messages whose pinged users we remember
DEFAULT_FILE_LIMIT = 10 * 1024 * 1024   # an upload's limit in a server without boosts, and in DMs

# discord.py waits out each route's bucket itself (POST /channels/{id}/messages: 5 per 5 s
# per channel) and the global 50 requests a second; the outbox paces below both, so its
# bursts are spread instead of queueing inside discord.py behind one busy channel:
# 40 a second overall, 3 + 0.4 x 5 = 5 in any 5 s in one channel (the three calls that end a
# round go at once).
DISCORD_PACE = PaceLimits(total=Budget(1, 40.0), chat=Budget(3, 0.4))

# Discord JSON error codes we act on.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
CANNOT_DM_USER = 50007
THREAD_ARCHIVED = 50083


def mention_text(text: str, mentions: tuple[User, ...]) -> str:
    """``text`` with each Discord user pinged: their name becomes ``<@id>`` where it first
    appears as a word in the message's last paragraph (the line that asks them to act closes a
    prompt, after a blank line; the log above it only tells what was done), else where it first
    appears at all; otherwise the mention leads the message."""
    leading: list[str] = []
    for user in mentions:
        if user.platform != "discord" or not user.id.isdigit():
            continue
        tag = f"<@{user.id}>"
        if tag in text:
            continue
        pattern = re.compile(r"(?<![\w@])" + re.escape(user.name) + r"(?!\w)") if user.name else None
        last_paragraph = text.rfind("\n\n") + 2 if "\n\n" in text else 0
        found = pattern and (pattern.search(text, last_paragraph) or pattern.search(text))
        if found:
            text = text[:found.start()] + tag + text[found.end():]
        else:
            leading.append(tag)
    if leading:
        text = " ".join(leading) + ("\n" + text if text else "")
    return text


def allowed_mentions_for(mentions: tuple[User, ...]) -> discord.AllowedMentions:
    """Ping exactly the named users: never @everyone, roles or names inside player names."""
    users = [discord.Object(int(u.id)) for u in mentions if u.platform == "discord" and u.id.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def delivery_nonce(outbox_id: int) -> str:
    """The nonce of outbox message ``outbox_id`` (Discord allows 25 characters)."""
    return f"out-{outbox_id}"   # "out-" and a 64-bit id: at most 23


def _retry_after(error: discord.HTTPException) -> float:
    headers = getattr(error.response, "headers", None) or {}
    for name in ("Retry-After", "retry-after", "X-RateLimit-Reset-After"):
        value = headers.get(name) if hasattr(headers, "get") else None
        if value:
            try:
                return max(float(value), 0.5)
            except ValueError:
                pass
    return SERVER_ERROR_RETRY_SECONDS


class DiscordTransport(Transport):
    """Delivers ``Outgoing`` messages through a logged-in discord.py client."""

    platform = "discord"
    pace: PaceLimits | None = DISCORD_PACE

    def __init__(self, client: discord.Client, *, upload_limit: int | None = None) -> None:
        self.client = client
        self.upload_limit = upload_limit    # bytes: a cap on every upload (None: each channel's own limit)
        self._pinged: OrderedDict[str, frozenset[str]] = OrderedDict()

    async def deliver(self, message: Outgoing) -> str:
        private = message.private_to is not None
        try:
            if message.private_to is not None:
                channel = await self._dm_channel(message.private_to)
            elif message.chat is not None:
                channel = self.client.get_partial_messageable(int(message.chat.id))
            else:
                raise Undeliverable("gone", f"outbox message {message.id} has no recipient")
            return await self._post_or_edit(channel, message)
        except discord.RateLimited as error:
            raise RetryLater(error.retry_after, "rate limited", refused=True) from error
        except discord.HTTPException as error:
            raise self._translate(error, private=private) from error

    async def _dm_channel(self, user: User) -> discord.abc.Messageable:
        if not user.id.isdigit():
            raise Undeliverable("gone", f"not a Discord user id: {user.id!r}")
        uid = int(user.id)
        cached = self.client.get_user(uid)
        if cached is not None and cached.dm_channel is not None:
            return cached.dm_channel
        target = cached or await self.client.fetch_user(uid)
        return await target.create_dm()

    async def _post_or_edit(self, channel: discord.abc.Messageable, message: Outgoing) -> str:
        if message.animation is not None and len(message.animation) > self.file_limit(message):
            # Over the channel's upload limit: the text goes, with the service's line saying so.
            text = "\n".join(part for part in (message.text, message.animation_too_large) if part)
            message = dataclasses.replace(message, text=text, animation=None)
        content = fit(mention_text(discord_text(message.text), message.mentions), MAX_CONTENT)
        allowed = allowed_mentions_for(message.mentions)
        view = build_view(message.buttons)
        pinged = frozenset(u.id for u in message.mentions if u.platform == "discord" and u.id.isdigit())
        if message.edit_message_id is not None and not pinged <= self._pinged.get(
                message.edit_message_id, frozenset()):
            # Discord does not notify for a mention added by an edit: when the turn passes
            # to someone else, post the prompt anew (so they are pinged) and delete the
            # superseded copy, which keeps the channel just as readable.
            sent_id = await self._send(channel, message, content, allowed, view, pinged)
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(int(message.edit_message_id)).delete()  # type: ignore[attr-defined]
            self._pinged.pop(message.edit_message_id, None)
            return sent_id
        if message.edit_message_id is not None:
            edit_kwargs: dict = {"content": content, "view": view, "allowed_mentions": allowed}
            if message.image is not None:
                edit_kwargs["attachments"] = [self._file(message)]
            try:
                partial = channel.get_partial_message(int(message.edit_message_id))  # type: ignore[attr-defined]
                edited = await partial.edit(**edit_kwargs)
                edited_id = str(edited.id if edited is not None else message.edit_message_id)
                self._remember(edited_id, pinged | self._pinged.get(edited_id, frozenset()))
                return edited_id
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                log.info("slot %s: message %s is gone; posting anew", message.slot, message.edit_message_id)
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED:
                    raise
                log.info("slot %s: thread archived; posting anew (unarchives it)", message.slot)
        return await self._send(channel, message, content, allowed, view, pinged)

    async def _send(self, channel, message: Outgoing, content: str, allowed, view, pinged: frozenset[str]) -> str:
        send_kwargs: dict = {"content": content, "allowed_mentions": allowed, "nonce": delivery_nonce(message.id)}
        if view is not None:
            send_kwargs["view"] = view
        if message.image is not None or message.animation is not None:
            send_kwargs["file"] = self._file(message)
        sent = await channel.send(**send_kwargs)
        self._remember(str(sent.id), pinged)
        return str(sent.id)

    def _remember(self, message_id: str, pinged: frozenset[str]) -> None:
        """Who a message pinged. Kept in memory only: after a restart an edit that pings
        anyone re-posts once, so a ping is never lost."""
        self._pinged[message_id] = pinged
        self._pinged.move_to_end(message_id)
        while len(self._pinged) > PINGED_MEMORY:
            self._pinged.popitem(last=False)

    def file_limit(self, message: Outgoing) -> int:
        """The largest file the message's channel takes: its server's (more where it is boosted;
        ``DEFAULT_FILE_LIMIT`` in a DM or a channel not cached here), at most ``upload_limit``."""
        chat = message.chat
        channel = self.client.get_channel(int(chat.id)) if chat is not None and chat.id.isdigit() else None
        own = DEFAULT_FILE_LIMIT
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            own = channel.guild.filesize_limit
        return own if self.upload_limit is None else min(own, self.upload_limit)

    @staticmethod
    def _file(message: Outgoing) -> discord.File:
        data = message.animation if message.animation is not None else message.image
        return discord.File(io.BytesIO(data or b""), filename=message.image_name or DEFAULT_IMAGE_NAME,
                            description=message.image_description or None)

    @staticmethod
    def _translate(error: discord.HTTPException, *, private: bool) -> Exception:
        if error.status == 429:
            return RetryLater(_retry_after(error), "rate limited", refused=True)
        if error.status >= 500:
            return RetryLater(SERVER_ERROR_RETRY_SECONDS, f"Discord server error {error.status}")
        if isinstance(error, discord.Forbidden) or error.code == CANNOT_DM_USER:
            if private or error.code == CANNOT_DM_USER:
                return Undeliverable("private_closed", error.text)
            log.warning("missing permissions in a channel (%s); will retry", error.text)
            return RetryLater(PERMISSION_RETRY_SECONDS, f"missing permissions: {error.text}")
        if isinstance(error, discord.NotFound) or error.code in (UNKNOWN_CHANNEL, UNKNOWN_USER):
            return Undeliverable("gone", error.text)
        return error
