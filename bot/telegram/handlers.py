"""Telegram updates -> ``GameService`` calls -> replies to the user who acted.

Each handler does three things: build ``Chat``/``User`` from the update, call one service
method, show the ``Reply``. Group posts (prompts, maps, results) never come from here:
they go through the service outbox and ``TelegramTransport``. A command's reply is a
short reply message; a button press is answered with ``answerCallbackQuery`` (every
query is answered exactly once, with an alert for refusals).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeGuard

from telegram import Chat as TgChat
from telegram import (
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
)
from telegram import User as TgUser
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import Application, CallbackQueryHandler, ChatMemberHandler, CommandHandler, ContextTypes

from bot.contract import Chat, GameServiceAPI, Reply, User
from bot.games import DEFAULT, KINDS
from bot.telegram.formatting import CAPTION_LIMIT, TEXT_LIMIT, short_answer, split_text
from bot.telegram.keyboards import (
    add_to_group_keyboard,
    deep_link,
    keyboard,
    open_private_keyboard,
    split_callback_data,
)
from bot.telegram.transport import retry_seconds
from i18n import t

log = logging.getLogger(__name__)

PLATFORM = "telegram"
ADMIN_CACHE_SECONDS = 60.0
SECRET_START = "secret"               # /start payload of the adapter's own "show my secret" link
OLD_SECRET_STARTS = ("mymarker",)      # the same link as posted by earlier versions
REPLY_RETRY_LIMIT = 10.0               # seconds a command reply may wait for flood control

# command -> (service call, works in groups, works in private chats)
GROUP_COMMANDS = ("newgame", "join", "leave", "startgame", "addbot", "abort", "board", "secret", "settings",
                  "stats", "rating", "record", "replay", "away", "rules", "help")
PRIVATE_COMMANDS = ("start", "mygames", "next", "secret", "rating", "away", "rules", "help")
# Commands about all of a person's games, answered in the private chat; a group gets a button
# there whose /start payload is the command's name.
PERSONAL_COMMANDS = ("mygames", "next")
SECRET_ALIASES = ("marker",)           # the older name of /secret, still understood


def display_name(user: TgUser) -> str:
    return user.full_name or user.username or str(user.id)


class AdminCache:
    """Whether a user administers a group, from getChatMember, remembered briefly."""

    max_entries = 10_000

    def __init__(self, ttl: float = ADMIN_CACHE_SECONDS, now: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self._now = now
        self._known: dict[tuple[int, int], tuple[float, bool]] = {}

    async def is_admin(self, bot, chat_id: int, user_id: int) -> bool:
        key = (chat_id, user_id)
        hit = self._known.get(key)
        if hit and self._now() - hit[0] < self.ttl:
            return hit[1]
        try:
            member = await bot.get_chat_member(chat_id, user_id)
            admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        except TelegramError as exc:          # not fatal: treat as a plain member this time
            log.warning("telegram: getChatMember(%s, %s) failed: %s", chat_id, user_id, exc)
            return hit[1] if hit else False
        if len(self._known) >= self.max_entries:
            now = self._now()
            self._known = {k: v for k, v in self._known.items() if now - v[0] < self.ttl}
        self._known[key] = (self._now(), admin)
        return admin


class TelegramHandlers:
    """The handler functions; ``service()`` gives the (possibly later opened) GameService;
    ``mini_app``: the bot's Mini App's short name (the web board's direct links), if any."""

    def __init__(self, service: Callable[[], GameServiceAPI], bot_username: Callable[[], str],
                 admins: AdminCache | None = None, mini_app: str | None = None) -> None:
        self._service = service
        self._bot_username = bot_username
        self.admins = admins or AdminCache()
        self.mini_app = mini_app

    def _keyboard(self, rows) -> InlineKeyboardMarkup | None:
        return keyboard(rows, self._bot_username(), self.mini_app)

    @property
    def service(self) -> GameServiceAPI:
        return self._service()

    # ---- registration -----------------------------------------------------------------

    def register(self, application: Application) -> None:
        """The one place that maps commands and buttons to handler functions."""
        # Each call gets the chat, the user and the command's words: "/newgame connection",
        # "/addbot strong", "/stats connection".
        calls: dict[str, Callable[[Chat, User, tuple[str, ...]], Awaitable[Reply]]] = {
            "newgame": lambda c, u, a: self.service.new_game(c, u, options={"game": " ".join(a)} if a else None),
            "join": lambda c, u, a: self.service.join(c, u),
            "leave": lambda c, u, a: self.service.leave(c, u),
            "startgame": lambda c, u, a: self.service.start(c, u),
            "addbot": lambda c, u, a: self.service.add_ai(c, u, a[0] if a else None),
            "abort": lambda c, u, a: self.service.abort(c, u),
            "board": lambda c, u, a: self._without_buttons(self.service.board(c, u)),
            "settings": lambda c, u, a: self.service.settings(c, u, None),
            "stats": lambda c, u, a: self.service.stats(c, u, " ".join(a) or None),
            "record": lambda c, u, a: self.service.record_file(c, u),
            "replay": lambda c, u, a: self.service.replay(c, u),
        }
        aliases = {"newgame": ["new"], "addbot": ["addai"]}   # the names the service's own texts use
        for name, call in calls.items():
            application.add_handler(CommandHandler([name, *aliases.get(name, [])], self._group_command(call)))
        application.add_handler(CommandHandler("start", self.on_start))
        application.add_handler(CommandHandler(["secret", *SECRET_ALIASES], self.on_secret))
        for name in PERSONAL_COMMANDS:
            application.add_handler(CommandHandler(name, self._personal(name)))
        application.add_handler(CommandHandler("rules", self._anywhere(lambda c, u, a: self.service.rules(c, u))))
        # "/rating" (the leaderboards of this group too, in a group), "/rating connection".
        application.add_handler(CommandHandler("rating", self._anywhere(
            lambda c, u, a: self.service.rating(c, u, " ".join(a) or None))))
        # "/away 5d", "/away off": the person's games in every group (said in a group: its language).
        application.add_handler(CommandHandler("away", self._anywhere(
            lambda c, u, a: self.service.away(u, " ".join(a) or None, c))))
        application.add_handler(CommandHandler("help", self.on_help))
        application.add_handler(CallbackQueryHandler(self.on_press))
        application.add_handler(ChatMemberHandler(self.on_bot_added, ChatMemberHandler.MY_CHAT_MEMBER))
        application.add_error_handler(self.on_error)

    @staticmethod
    async def _without_buttons(answer: Awaitable[Reply]) -> Reply:
        """A board posted in the group is for everyone to read: the turn's buttons stay on the
        prompt, where they go stale with it, not on a copy that outlives the turn (as Discord)."""
        return dataclasses.replace(await answer, buttons=())

    # ---- values for the service -------------------------------------------------------

    @staticmethod
    def chat_of(chat: TgChat) -> Chat:
        return Chat(PLATFORM, str(chat.id), chat.title or chat.effective_name or "")

    async def user_of(self, bot, tg_user: TgUser, chat: TgChat | None, *, admin_needed: bool = True) -> User:
        """The user as the service sees them; ``admin_needed`` False: their admin rights are not
        asked of Telegram (one getChatMember call fewer) and left False."""
        admin = False
        if admin_needed and chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
            admin = await self.admins.is_admin(bot, chat.id, tg_user.id)
        return User(PLATFORM, str(tg_user.id), display_name(tg_user), is_admin=admin,
                    language=tg_user.language_code)

    @staticmethod
    def is_group(chat: TgChat | None) -> TypeGuard[TgChat]:
        return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)

    # ---- commands ---------------------------------------------------------------------

    def _group_command(self, call: Callable[[Chat, User, tuple[str, ...]], Awaitable[Reply]]):
        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message, chat = update.effective_message, update.effective_chat
            if message is None or chat is None or update.effective_user is None:
                return
            lang = update.effective_user.language_code
            if not self.is_group(chat):
                await self._send_reply(message, t(lang, "tg.group_only"),
                                       add_to_group_keyboard(t(lang, "tg.add_to_group"), self._bot_username()))
                return
            if message.sender_chat is not None:     # an anonymous admin or a channel: no person to seat
                await self._reply(message, Reply(t(lang, "tg.anonymous"), ok=False))
                return
            user = await self.user_of(context.bot, update.effective_user, chat)
            words = tuple(str(w)[:40] for w in (context.args or ())[:4])
            await self._reply(message, await self._guarded(lang, call(self.chat_of(chat), user, words)))
        return handler

    def _anywhere(self, call: Callable[[Chat | None, User, tuple[str, ...]], Awaitable[Reply]]):
        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message, chat = update.effective_message, update.effective_chat
            if message is None or chat is None or update.effective_user is None:
                return
            user = await self.user_of(context.bot, update.effective_user, chat)
            target = self.chat_of(chat) if self.is_group(chat) else None
            words = tuple(str(w)[:40] for w in (context.args or ())[:4])
            await self._reply(message, await self._guarded(update.effective_user.language_code,
                                                           call(target, user, words)))
        return handler

    def _personal_reply(self, name: str, user: User) -> Awaitable[Reply]:
        calls = {"mygames": self.service.my_games, "next": self.service.next_game}
        return calls[name](user, link=message_link)

    def _personal(self, name: str):
        """/mygames, /next: in the private chat; in a group, a button to the private chat."""
        async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message, chat, tg_user = update.effective_message, update.effective_chat, update.effective_user
            if message is None or chat is None or tg_user is None:
                return
            lang = tg_user.language_code
            if self.is_group(chat):
                markup = open_private_keyboard(t(lang, "tg.open_private"), self._bot_username(), name)
                await self._send_reply(message, t(lang, "tg.mine.group", name=display_name(tg_user)), markup)
                return
            user = await self.user_of(context.bot, tg_user, None)
            await self._reply(message, await self._guarded(lang, self._personal_reply(name, user)), quote=False)
        return handler

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/help: the Telegram command names (the service's help names the terminal's commands)."""
        message, tg_user = update.effective_message, update.effective_user
        if message is None or tg_user is None:
            return
        await self._reply(message, Reply(help_text(tg_user.language_code)),
                          quote=self.is_group(update.effective_chat))

    async def on_bot_added(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Added to a group: say once how to begin, so nobody has to guess the commands."""
        change = update.my_chat_member
        if change is None or not self.is_group(change.chat):
            return
        was = change.old_chat_member.status
        now = change.new_chat_member.status
        joined = was in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED) and now in (
            ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR)
        if joined:
            try:
                greeting = Reply(help_text(change.from_user.language_code))
                await self._send_chunks(context.bot, change.chat.id, greeting, None)    # split to the limits
            except TelegramError as exc:
                log.warning("telegram: could not greet chat %s: %s", change.chat.id, exc)

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start [payload]: in the private chat, a deep-link join or just opening the chat."""
        message, chat, tg_user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None or tg_user is None:
            return
        lang = tg_user.language_code
        if self.is_group(chat):          # /start@bot in a group: show the help
            await self.on_help(update, context)
            return
        user = await self.user_of(context.bot, tg_user, None)
        payload = context.args[0] if context.args else None
        if payload == SECRET_START or payload in OLD_SECRET_STARTS:
            # the adapter's own link from /secret in a group: open the chat, then show the secret
            await self._guarded(lang, self.service.private_started(user, None))
            await self._reply(message, await self._guarded(lang, self.service.secret(user)), quote=False)
            return
        if payload in PERSONAL_COMMANDS:
            # the adapter's own link from /mygames or /next in a group
            await self._guarded(lang, self.service.private_started(user, None))
            await self._reply(message, await self._guarded(lang, self._personal_reply(payload, user)), quote=False)
            return
        reply = await self._guarded(lang, self.service.private_started(user, payload))
        if payload is None and not reply.buttons:
            # a plain /start: offer the next step, adding the bot to a group
            markup = add_to_group_keyboard(t(lang, "tg.add_to_group"), self._bot_username())
            await self._send_reply(message, reply.text, markup, quote=False)
            return
        await self._reply(message, reply, quote=False)

    async def on_secret(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/secret: shown in the private chat only; in a group, a button to the private chat."""
        message, chat, tg_user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None or tg_user is None:
            return
        lang = tg_user.language_code
        if self.is_group(chat):
            markup = open_private_keyboard(t(lang, "tg.open_private"), self._bot_username(), SECRET_START)
            await self._send_reply(message, t(lang, "tg.secret.group", name=display_name(tg_user)), markup)
            return
        user = await self.user_of(context.bot, tg_user, None)
        await self._reply(message, await self._guarded(lang, self.service.secret(user)), quote=False)

    # ---- button presses ---------------------------------------------------------------

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        lang = query.from_user.language_code
        answered = False
        reply: Reply | None = None
        try:
            payload, is_secret = split_callback_data(query.data or "")
            chat = update.effective_chat
            # A turn's button needs no admin rights: no getChatMember call before the move.
            user = await self.user_of(context.bot, query.from_user, chat,
                                      admin_needed=self.service.press_needs_admin(payload))
            target = self.chat_of(chat) if self.is_group(chat) else None
            reply = await self._guarded(lang, self.service.press(target, user, payload))
            if is_secret and reply.ok:
                answered = await self._answer_secret(context, query, user, reply)
            else:
                answered = await self._answer_press(query, reply)
        finally:
            if not answered:
                await self._answer_failed(query, lang, reply)

    @staticmethod
    async def _answer_failed(query, lang: str | None, reply: Reply | None) -> None:
        """The query's answer when showing the service's reply failed. An accepted press was
        committed before the answer was tried (a move made, a menu opened): saying "nothing was
        changed" then would be false, so the user is told the tap went through."""
        accepted = reply is not None and reply.ok
        try:
            if accepted:
                await query.answer(short_answer(t(lang, "tg.answer_lost")))
            else:
                await query.answer(short_answer(t(lang, "tg.error")), show_alert=True)
        except TelegramError as exc:
            log.warning("telegram: could not answer callback query: %s", exc)

    async def _answer_secret(self, context, query, user: User, reply: Reply) -> bool:
        """A "show my secret" press: the answer goes to the private chat, never the group."""
        lang = user.language
        try:
            await self._send_chunks(context.bot, int(user.id), reply,
                                    self._keyboard(reply.buttons))
        except Forbidden:
            # the private chat was never opened: send the user there (this url is allowed for bots)
            await query.answer(short_answer(t(lang, "tg.secret.closed")), show_alert=True,
                               url=deep_link(self._bot_username(), SECRET_START))
            return True
        await query.answer(short_answer(t(lang, "tg.secret.sent")))
        return True

    async def _answer_press(self, query, reply: Reply) -> bool:
        """Answer the query. A menu the adapter posted as a reply (/settings, /board) is updated in
        place; on the service's own group messages the answer is only the toast or alert, since
        the service edits those messages itself through the outbox."""
        message = query.message if isinstance(query.message, Message) else None
        own_reply = (message is not None and message.reply_to_message is not None
                     and message.from_user is not None and message.from_user.id == query.get_bot().id)
        if (reply.ok and own_reply and message is not None and reply.image is None
                and (reply.buttons or message.reply_markup)):
            await self._edit_reply(message, reply)
            await query.answer(short_answer(reply.text) if reply.alert else None, show_alert=reply.alert)
            return True
        if reply.ok and reply.image is not None and message is not None:
            await self._send_reply(message, reply.text, self._keyboard(reply.buttons),
                                   image=reply.image)
            await query.answer(short_answer(t(query.from_user.language_code, "tg.more_in_chat")))
            return True
        await query.answer(short_answer(reply.text) or None, show_alert=reply.alert or not reply.ok)
        return True

    async def _edit_reply(self, message: Message, reply: Reply) -> None:
        markup = self._keyboard(reply.buttons)
        text = split_text(reply.text, CAPTION_LIMIT if message.photo else TEXT_LIMIT)[0]
        try:
            if message.photo:
                await message.edit_caption(text, reply_markup=markup)
            else:
                await message.edit_text(text, reply_markup=markup)
        except BadRequest as exc:
            if "not modified" not in exc.message.lower():
                # the action itself succeeded; only the menu could not be refreshed (e.g. too old)
                log.info("telegram: could not update reply %s: %s", message.message_id, exc.message)
        except TelegramError as exc:
            log.warning("telegram: could not update reply %s: %s", message.message_id, exc)

    # ---- showing a reply --------------------------------------------------------------

    async def _guarded(self, lang: str | None, call: Awaitable[Reply]) -> Reply:
        """The service's reply, or an apology when the call failed (the service changed nothing)."""
        try:
            return await call
        except Exception:
            log.exception("telegram: service call failed")
            return Reply(t(lang, "tg.error"), ok=False, alert=True)

    async def _reply(self, message: Message, reply: Reply, *, quote: bool = True) -> None:
        if reply.document is not None:
            await self._send_document(message, reply, reply.document)
            return
        await self._send_reply(message, reply.text, self._keyboard(reply.buttons),
                               image=reply.image, quote=quote)

    async def _send_document(self, message: Message, reply: Reply, document: bytes) -> None:
        """A file (a game's record) with the reply's text as its caption; failures are logged."""
        caption = split_text(reply.text or "", CAPTION_LIMIT)[0] or None
        try:
            await self._paced(message.chat_id)
            await message.get_bot().send_document(
                message.chat_id, document, filename=reply.document_name or "record.json", caption=caption,
                reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True))
        except TelegramError as exc:
            log.warning("telegram: could not send a document in chat %s: %s", message.chat_id, exc)

    async def _send_reply(self, message: Message, text: str, markup: InlineKeyboardMarkup | None, *,
                          image: bytes | None = None, quote: bool = True) -> None:
        """Post ``text`` (and ``image``) as a reply to ``message``; failures are logged, not raised."""
        reply_to = ReplyParameters(message.message_id, allow_sending_without_reply=True) if quote else None
        for attempt in (1, 2):
            try:
                await self._send_chunks(message.get_bot(), message.chat_id, Reply(text, image=image), markup,
                                        reply_to=reply_to)
                return
            except RetryAfter as exc:           # flood control: wait as told, once, if it is short
                wait = retry_seconds(exc)
                if attempt == 2 or wait > REPLY_RETRY_LIMIT:
                    log.warning("telegram: reply in chat %s dropped by flood control (%ss)", message.chat_id, wait)
                    return
                await asyncio.sleep(wait)
            except TelegramError as exc:
                log.warning("telegram: could not reply in chat %s: %s", message.chat_id, exc)
                return

    async def _paced(self, chat_id: int) -> None:
        """Before a call of our own (not the outbox's) to ``chat_id``: wait for the bot's flood
        budgets and count the call in them. Telegram gives users (private chats) positive ids and
        groups negative ones."""
        await self.service.pace_reply(PLATFORM, f"u:{chat_id}" if chat_id > 0 else f"c:{chat_id}")

    async def _send_chunks(self, bot, chat_id: int, reply: Reply, markup: InlineKeyboardMarkup | None, *,
                           reply_to: ReplyParameters | None = None) -> None:
        """A reply's image and text, split to Telegram's limits; the keyboard on the last message."""
        text = reply.text or ""
        if reply.image is not None:
            caption = split_text(text, CAPTION_LIMIT)[0]
            text = text[len(caption):].strip()
            await self._paced(chat_id)
            await bot.send_photo(chat_id, reply.image, caption=caption or None,
                                 reply_markup=None if text else markup, reply_parameters=reply_to,
                                 filename=reply.image_name)
            reply_to = None
        if not text:
            return
        parts = split_text(text, TEXT_LIMIT)
        for index, part in enumerate(parts):
            await self._paced(chat_id)
            await bot.send_message(chat_id, part, reply_markup=markup if index == len(parts) - 1 else None,
                                   reply_parameters=reply_to if index == 0 else None)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram: error while handling an update", exc_info=context.error)


def message_link(chat: Chat, message_id: str) -> str | None:
    """A link that opens a group's message: supergroups have them (chat id -100<internal id>),
    basic groups none."""
    if chat.id.startswith("-100") and chat.id[4:].isdigit():
        return f"https://t.me/c/{chat.id[4:]}/{message_id}"
    return None


def help_text(language: str | None) -> str:
    """The Telegram help: every game with its player counts and the command that starts it."""
    games = "\n".join(
        t(language, "tg.help_game", game=g.presenter.title(language or "en"), min=g.definition.min_players,
          max=g.definition.max_players, command="/newgame" if g.id == DEFAULT else f"/newgame {g.id}")
        for g in KINDS.values())
    return t(language, "tg.help", games=games)
