"""The Telegram ``Transport``: posts and edits what the service's outbox hands it.

Errors are translated for the delivery loop: flood control -> ``RetryLater(retry_after)``,
a closed private chat (403) -> ``Undeliverable("private_closed")``, a lost group ->
``Undeliverable("gone")``, a network hiccup -> ``RetryLater`` after a few seconds. An edit
that changes nothing counts as delivered; an edit of a message that is gone (or of the
wrong kind) is posted anew, so a slot never gets stuck. Every call to the Bot API that posts or
edits awaits ``calling()`` right before it: the outbox's pacing counts it when it goes out.
"""

from __future__ import annotations

import datetime as dtm
import logging
import os
from collections import OrderedDict

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from bot import platforms
from bot.contract import (
    Budget,
    Outgoing,
    PaceLimits,
    RetryLater,
    Transport,
    Undeliverable,
    Window,
    another_call,
    calling,
)
from bot.limits import UTF16
from bot.telegram.formatting import CAPTION_LIMIT, TEXT_LIMIT, entities_for_part, split_text
from bot.telegram.keyboards import keyboard

log = logging.getLogger(__name__)

NETWORK_RETRY_SECONDS = 3.0
# sendAnimation takes files up to 50 MB (core.telegram.org/bots/api#sending-files); the service
# draws the animation within it, this is the last check.
ANIMATION_LIMIT = 50 * 1000 * 1000
PICTURES_KEPT = 10_000      # message ids remembered as pictures (see ``TelegramTransport._pictures``)

# Telegram's flood limits (core.telegram.org/bots/faq), read strictly: 30 calls in any one second
# for one bot, 20 in any minute in one group, about one a second in one chat with short bursts
# (the fake Bot API's 5 in any 5 s); edits count like sends. Each budget stays under its limit
# with a margin: a call is counted when it arrives, and some calls take longer on the way than
# others (a picture's upload, a loaded machine), so calls spaced by our clock (each counted when
# it goes out: ``flood_pacing.Sent``, ``flood_pacing.SlidingWindow``) can arrive closer together.
# - overall a bucket of 1 refilled 28 times a second: evenly spread, the 31st call goes 30/28 s
#   after the first (0.07 s to spare); any second holds at most 29;
# - a chat: 5 calls in any 6.5 s (a window: the lobby, its edits and the first prompt go at
#   once; 1.5 s to spare on 5 in 5 s, for a slow upload);
# - a group on top: 19 calls in any 61 s (one call and a second to spare on 20 a minute), so a
#   game's set-up and its first presses are not held to one call every 4 s as a bucket refilled
#   at 20 a minute would hold them;
# - a private chat 5 in any 6.5 s, as a chat (the group's 20 a minute does not apply there).
# Command replies the adapter posts itself count in the same budgets (``GameService.pace_reply``).
TELEGRAM_PACE = PaceLimits(total=Budget(1, 28.0), chat=Window(5, 6.5), group=Window(19, 61.0),
                           private=Window(5, 6.5))

# python-telegram-bot 22.2+ deprecates int time periods (``RetryAfter.retry_after`` and the
# like become ``datetime.timedelta`` in its next major version) and warns on every read,
# its own included, unless the program opts in to the new form: we do, for the whole process.
os.environ.setdefault("PTB_TIMEDELTA", "true")


def retry_seconds(error: RetryAfter) -> float:
    """Seconds to wait after a flood-control answer: a timedelta (the new form), or an int where
    an operator set PTB_TIMEDELTA=false."""
    value = error.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


def _is(error: BadRequest, *fragments: str) -> bool:
    text = error.message.lower()
    return any(f in text for f in fragments)


class TelegramTransport(Transport):
    """``contract.Transport`` for one bot. ``bot_username`` is needed for deep links, ``mini_app``
    (the bot's Mini App's short name, if it has one) for the web board's direct links."""

    platform = "telegram"
    capabilities = platforms.TELEGRAM
    pace = TELEGRAM_PACE

    def __init__(self, bot: Bot, bot_username: str, mini_app: str | None = None) -> None:
        self.bot = bot
        self.bot_username = bot_username
        self.mini_app = mini_app
        # Messages this process posted (or made) with a picture, most recent last: a text edit
        # of one goes straight to its caption. Without it, the text edit is tried first and
        # refused, and both calls count against the chat's budget (a private turn message is a
        # picture: each "Done" cost two). After a restart, the first edit of an older picture
        # learns it that way.
        self._pictures: OrderedDict[tuple[int, int], None] = OrderedDict()

    @staticmethod
    def folded_caption(head: str, text: str) -> str | None:
        """A picture's caption with ``head`` (its own text) and then ``text`` (a prompt); None when
        the two do not fit one caption (the outbox then sends them as two messages)."""
        caption = f"{head}\n\n{text}" if head else text
        return caption if UTF16.fits(caption, CAPTION_LIMIT) else None

    def _is_picture(self, chat_id: int, message_id: int) -> bool:
        return (chat_id, message_id) in self._pictures

    def _picture(self, chat_id: int, message_id: int) -> None:
        self._pictures[(chat_id, message_id)] = None
        self._pictures.move_to_end((chat_id, message_id))
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)

    async def deliver(self, message: Outgoing) -> str:
        private = message.private_to is not None
        target = message.private_to.id if message.private_to else (message.chat.id if message.chat else None)
        if target is None:
            raise Undeliverable("gone", "an outgoing message without a chat")
        try:
            chat_id = int(target)
        except ValueError:
            raise Undeliverable("gone", f"not a Telegram chat id: {target!r}") from None
        try:
            try:
                return await self._deliver(chat_id, message)
            except ChatMigrated as migrated:   # a group became a supergroup: follow it
                return await self._deliver(migrated.new_chat_id, message)
        except RetryAfter as exc:
            raise RetryLater(retry_seconds(exc), "telegram flood control", refused=True) from exc
        except Forbidden as exc:
            raise Undeliverable("private_closed" if private else "gone", exc.message) from exc
        except BadRequest as exc:
            if _is(exc, "chat not found", "user not found", "peer_id_invalid", "have no rights",
                   "not enough rights", "chat_write_forbidden"):
                raise Undeliverable("private_closed" if private else "gone", exc.message) from exc
            raise
        except (TimedOut, NetworkError) as exc:
            raise RetryLater(NETWORK_RETRY_SECONDS, f"telegram network error: {exc}") from exc

    # ---- posting ----------------------------------------------------------------------

    async def _deliver(self, chat_id: int, message: Outgoing) -> str:
        markup = keyboard(message.buttons, self.bot_username, self.mini_app)
        if message.edit_message_id:
            edited = await self._edit(chat_id, int(message.edit_message_id), message, markup)
            if edited is not None:
                return edited
            await another_call()        # the edit was refused: posting anew is a call of its own
        if message.animation is not None:
            return await self._send_animation(chat_id, message, message.animation, markup)
        if message.image is not None:
            return await self._send_photo(chat_id, message, message.image, markup)
        return await self._send_text(chat_id, message.text, message, markup)

    async def _send_text(self, chat_id: int, text: str, message: Outgoing,
                         markup: InlineKeyboardMarkup | None) -> str:
        """Post ``text`` (split when too long; the keyboard on the last part, whose id is returned)."""
        parts = split_text(text or "…", TEXT_LIMIT)
        sent: Message | None = None
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            if index > 0:
                await another_call()
            await calling()
            sent = await self.bot.send_message(chat_id, part, entities=entities_for_part(part, message.mentions),
                                               reply_markup=markup if last else None,
                                               link_preview_options=None)
        assert sent is not None
        return str(sent.message_id)

    async def _send_photo(self, chat_id: int, message: Outgoing, image: bytes,
                          markup: InlineKeyboardMarkup | None) -> str:
        """The map with the first part of the text as caption (and the keyboard); the rest follows as text."""
        caption, rest = self._caption_and_rest(message.text)
        await calling()
        sent = await self.bot.send_photo(chat_id, image, caption=caption or None,
                                         caption_entities=entities_for_part(caption, message.mentions),
                                         reply_markup=markup, filename=message.image_name)
        self._picture(chat_id, sent.message_id)
        if rest:
            await another_call()
            await self._send_text(chat_id, rest, message, None)
        return str(sent.message_id)

    async def _send_animation(self, chat_id: int, message: Outgoing, animation: bytes,
                              markup: InlineKeyboardMarkup | None) -> str:
        """The whole game (an MP4 without sound, which Telegram plays as a GIF is played), its text
        as caption; over Telegram's upload limit, the text and the service's line saying so."""
        if len(animation) > ANIMATION_LIMIT:
            text = "\n".join(part for part in (message.text, message.animation_too_large) if part)
            return await self._send_text(chat_id, text, message, markup)
        caption, rest = self._caption_and_rest(message.text)
        await calling()
        sent = await self.bot.send_animation(chat_id, animation, caption=caption or None,
                                             caption_entities=entities_for_part(caption, message.mentions),
                                             reply_markup=markup, filename=message.image_name)
        self._picture(chat_id, sent.message_id)     # its text is a caption, as a picture's
        if rest:
            await another_call()
            await self._send_text(chat_id, rest, message, None)
        return str(sent.message_id)

    @staticmethod
    def _caption_and_rest(text: str) -> tuple[str, str]:
        """The caption (a prefix of ``text`` within 1024 units, cut at a paragraph if possible) and the rest."""
        caption = split_text(text or "", CAPTION_LIMIT)[0]
        return caption, (text or "")[len(caption):].strip()

    # ---- editing ----------------------------------------------------------------------

    async def _edit(self, chat_id: int, message_id: int, message: Outgoing,
                    markup: InlineKeyboardMarkup | None) -> str | None:
        """Edit in place; the message id, or None when the message must be posted anew."""
        try:
            if message.image is not None:
                caption, rest = self._caption_and_rest(message.text)
                media = InputMediaPhoto(message.image, caption=caption or None,
                                        caption_entities=entities_for_part(caption, message.mentions),
                                        filename=message.image_name)
                await calling()
                await self.bot.edit_message_media(media, chat_id=chat_id, message_id=message_id,
                                                  reply_markup=markup)
                self._picture(chat_id, message_id)
                if rest:
                    await another_call()
                    await self._send_text(chat_id, rest, message, None)
                return str(message_id)
            if self._is_picture(chat_id, message_id):
                return await self._edit_caption(chat_id, message_id, message, markup)
            parts = split_text(message.text or "…", TEXT_LIMIT)
            try:
                await calling()
                await self.bot.edit_message_text(parts[0], chat_id=chat_id, message_id=message_id,
                                                 entities=entities_for_part(parts[0], message.mentions),
                                                 reply_markup=markup if len(parts) == 1 else None)
            except BadRequest as exc:
                if not _is(exc, "no text in the message"):
                    raise
                # the slot's message is a photo (posted before this process started): the text
                # becomes its caption
                self._picture(chat_id, message_id)
                await another_call()
                return await self._edit_caption(chat_id, message_id, message, markup)
            if len(parts) > 1:
                await another_call()
                return await self._send_text(chat_id, "\n".join(parts[1:]), message, markup)
            return str(message_id)
        except BadRequest as exc:
            return self._refused_edit(exc, chat_id, message_id)

    async def _edit_caption(self, chat_id: int, message_id: int, message: Outgoing,
                            markup: InlineKeyboardMarkup | None) -> str:
        """The text of a picture's message is its caption (the rest, if any, follows as text)."""
        caption, rest = self._caption_and_rest(message.text)
        await calling()
        await self.bot.edit_message_caption(chat_id=chat_id, message_id=message_id, caption=caption,
                                            caption_entities=entities_for_part(caption, message.mentions),
                                            reply_markup=markup)
        if rest:
            await another_call()
            await self._send_text(chat_id, rest, message, None)
        return str(message_id)

    def _refused_edit(self, exc: BadRequest, chat_id: int, message_id: int) -> str | None:
        """An edit Telegram refused: done when nothing changed, None when the message must be
        posted anew (it is gone, or of the wrong kind); otherwise the error stands."""
        if _is(exc, "message is not modified"):
            return str(message_id)
        if _is(exc, "message to edit not found", "message can't be edited", "no media in the message",
               "no caption in the message", "message_id_invalid", "there is no text"):
            log.info("telegram: cannot edit message %s in %s (%s); posting anew", message_id, chat_id,
                     exc.message)
            self._pictures.pop((chat_id, message_id), None)
            return None
        raise exc
