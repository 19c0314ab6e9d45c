"""A small offline stand-in for the Telegram Bot API, served by aiohttp on 127.0.0.1.

The real python-telegram-bot ``Application`` talks to it over HTTP exactly as it would
to api.telegram.org (``ApplicationBuilder().base_url(server.base_url)``). It keeps the
state users would see (every chat's messages, as edited since), records every call,
and lets a test act as users: send commands, follow deep links, press inline buttons.

Behaviour modelled on the real API where the adapter depends on it:
- private chats: a bot cannot write first; ``sendMessage``/``sendPhoto`` to a user who
  never started the bot answer 403 "bot can't initiate conversation with a user";
- edits: 400 "message is not modified" for an identical edit, "there is no text in the
  message to edit" for editMessageText on a photo, "message to edit not found";
- ``answerCallbackQuery`` twice for one query is an error (the adapter must answer once);
- lengths are refused as Telegram refuses them, counted in UTF-16 code units (an emoji such
  as "🟢" counts two): texts over 4096, captions over 1024, callback answers over 200 and
  command descriptions over 256; callback_data over 64 bytes;
- ``fail_next(method, retry_after=...)`` injects a 429 flood-control answer;
- ``answer_late(method, seconds, when)`` performs a call at once but answers it late (a
  slow upload or network): ``late_started`` is set when such a call has been performed;
- ``FakeBotAPI(flood=FloodLimits())`` models Telegram's flood limits (off by default): sends
  and edits past about 30 a second for the bot, 20 a minute in a group or one a second in
  a chat are refused with 429 and ``retry_after``; ``flood_counts``/``refused`` count them;
- ``getUpdates`` long-polls: it answers as soon as an update is queued, else after
  ``min(timeout, max_poll)`` seconds, so tests stay fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

from aiohttp import web
from flood import FloodLimits, FloodModel

# Request fields that are plain strings and must never be JSON-decoded.
_TEXT_FIELDS = {
    "text", "caption", "callback_query_id", "parse_mode", "url", "language_code", "inline_message_id",
    "secret_token", "description", "short_description", "name",
}

FORBIDDEN_NEVER_STARTED = "Forbidden: bot can't initiate conversation with a user"
FORBIDDEN_BLOCKED = "Forbidden: bot was blocked by the user"
NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message")


@dataclass
class FakeUser:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "en"
    started: bool = False         # has opened the private chat with the bot
    blocked: bool = False

    def to_json(self) -> dict:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass
class FakeChat:
    id: int
    type: str                     # "private" | "group" | "supergroup"
    title: str | None = None
    admins: set[int] = field(default_factory=set)
    owner: int | None = None
    user: FakeUser | None = None  # the other side of a private chat

    def to_json(self) -> dict:
        if self.type == "private" and self.user is not None:
            data = {"id": self.id, "type": "private", "first_name": self.user.first_name}
            if self.user.username:
                data["username"] = self.user.username
            return data
        return {"id": self.id, "type": self.type, "title": self.title or "group"}


@dataclass
class Msg:
    """A message as the chat shows it now (edits applied)."""

    chat_id: int
    message_id: int
    from_bot: bool
    sender: dict
    date: int
    text: str | None = None
    caption: str | None = None
    photo: bytes | None = None
    document: bytes | None = None
    document_name: str | None = None
    animation: bytes | None = None       # a GIF or an H.264 MP4 sent with sendAnimation (it plays inline)
    entities: list = field(default_factory=list)
    reply_markup: dict | None = None
    reply_to: int | None = None
    edits: int = 0

    @property
    def body(self) -> str:
        return self.text if self.text is not None else (self.caption or "")

    def buttons(self) -> list[dict]:
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup.get("inline_keyboard", []) for b in row]

    def button(self, contains: str) -> dict:
        """The first button whose label contains ``contains`` (AssertionError if none)."""
        for b in self.buttons():
            if contains in b["text"]:
                return b
        raise AssertionError(f"no button {contains!r} in message {self.message_id}: "
                             f"{[b['text'] for b in self.buttons()]}")

    def to_json(self, chat: FakeChat, replied: Msg | None = None) -> dict:
        data: dict[str, Any] = {"message_id": self.message_id, "date": self.date, "chat": chat.to_json(),
                                "from": self.sender}
        if replied is not None:       # Telegram nests the replied-to message (one level deep)
            data["reply_to_message"] = replied.to_json(chat)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.photo is not None:
            data["photo"] = [{"file_id": f"photo-{self.chat_id}-{self.message_id}-{self.edits}",
                              "file_unique_id": f"u{self.chat_id}{self.message_id}{self.edits}",
                              "width": 800, "height": 600, "file_size": len(self.photo)}]
            if self.caption is not None:
                data["caption"] = self.caption
                if self.entities:
                    data["caption_entities"] = self.entities
        if self.document is not None:
            data["document"] = {"file_id": f"doc-{self.chat_id}-{self.message_id}",
                                "file_unique_id": f"d{self.chat_id}{self.message_id}",
                                "file_name": self.document_name, "file_size": len(self.document)}
            if self.caption is not None:
                data["caption"] = self.caption
        if self.animation is not None:      # Telegram gives an animation as a document too
            data["animation"] = {"file_id": f"anim-{self.chat_id}-{self.message_id}",
                                 "file_unique_id": f"a{self.chat_id}{self.message_id}", "width": 800,
                                 "height": 600, "duration": 10, "file_name": self.document_name,
                                 "file_size": len(self.animation)}
            if self.caption is not None:
                data["caption"] = self.caption
                if self.entities:
                    data["caption_entities"] = self.entities
        if self.reply_markup:
            data["reply_markup"] = self.reply_markup
        return data


@dataclass
class Call:
    method: str
    params: dict
    ok: bool
    result: Any = None
    error: str | None = None
    at: float = 0.0


class ApiError(Exception):
    def __init__(self, code: int, description: str, retry_after: int | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after


def units(text: str) -> int:
    """The length Telegram sees: UTF-16 code units (written here apart from the adapter's own
    helper, so a test of the adapter's measuring can fail)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class FakeBotAPI:
    """The fake server. ``async with FakeBotAPI() as api:`` starts it on a free port."""

    def __init__(self, *, token: str = "123456:TEST-token", bot_username: str = "ParisTestBot",
                 max_poll: float = 0.5, port: int = 0, flood: FloodLimits | None = None):
        self.token = token
        # Telegram's flood limits, when modelled: every send and edit is counted per chat.
        self.flood = FloodModel(flood) if flood is not None else None
        self.bot = {"id": 999000, "is_bot": True, "first_name": "Paris Paris", "username": bot_username,
                    "can_join_groups": True, "can_read_all_group_messages": False,
                    "supports_inline_queries": False}
        self.max_poll = max_poll
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[tuple[int, int], Msg] = {}
        self.calls: list[Call] = []
        self.answers: dict[str, dict] = {}
        self.commands: list[dict] = []
        self.webhook: dict | None = None
        self._updates: list[dict] = []
        self.injected: set[int] = set()
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count] = {}
        self._query_ids = itertools.count(1)
        self._faults: list[tuple[str, ApiError]] = []
        self._late: list[tuple[str, float, Any]] = []
        self.late_started = asyncio.Event()
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port: int | None = port or None

    # ---- server lifecycle -------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    async def start(self) -> FakeBotAPI:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port or 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeBotAPI:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    # ---- the world --------------------------------------------------------------------

    def add_user(self, id: int, first_name: str, *, language_code: str | None = "en",
                 started: bool = False, last_name: str | None = None, username: str | None = None) -> FakeUser:
        user = FakeUser(id, first_name, last_name, username, language_code, started)
        self.users[id] = user
        self.chats[id] = FakeChat(id, "private", user=user)
        return user

    def add_group(self, id: int, title: str, *, owner: FakeUser | None = None,
                  admins: tuple[FakeUser, ...] = (), type: str = "supergroup") -> FakeChat:
        chat = FakeChat(id, type, title, admins={a.id for a in admins}, owner=owner.id if owner else None)
        self.chats[id] = chat
        return chat

    def fail_next(self, method: str, *, retry_after: int | None = None, code: int | None = None,
                  description: str | None = None, times: int = 1) -> None:
        """Make the next ``times`` calls of ``method`` fail (429 with ``retry_after``, or ``code``)."""
        if retry_after is not None:
            error = ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)
        else:
            error = ApiError(code or 500, description or "Internal Server Error")
        for _ in range(times):
            self._faults.append((method, error))

    def answer_late(self, method: str, seconds: float, when=lambda params: True) -> None:
        """The next call of ``method`` whose parameters satisfy ``when`` is performed (the
        message exists) but answered only ``seconds`` later."""
        self._late.append((method, seconds, when))

    # ---- acting as users --------------------------------------------------------------

    def _next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _queue(self, update: dict) -> int:
        update.setdefault("update_id", next(self._update_ids))
        self._updates.append(update)
        self.injected.add(update["update_id"])
        asyncio.get_running_loop().create_task(self._notify())
        return update["update_id"]

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def message_update(self, chat: FakeChat | int, user: FakeUser, text: str, *, anonymous: bool = False) -> dict:
        """The update for ``user`` writing ``text`` in ``chat`` (stored, not queued). ``anonymous``:
        an anonymous group admin, whom Telegram shows as @GroupAnonymousBot sending as the chat."""
        chat = self.chats[chat] if isinstance(chat, int) else chat
        sender = ({"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}
                  if anonymous else user.to_json())
        msg = Msg(chat.id, self._next_message_id(chat.id), False, sender, int(time.time()), text=text)
        if text.startswith("/"):
            command = text.split()[0]
            msg.entities = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        self.messages[(chat.id, msg.message_id)] = msg
        data = msg.to_json(chat)
        if anonymous:
            data["sender_chat"] = chat.to_json()
        return {"update_id": next(self._update_ids), "message": data}

    def add_bot_to(self, chat: FakeChat, by: FakeUser) -> int:
        """``by`` adds the bot to ``chat`` (a my_chat_member update)."""
        def member(status: str) -> dict:
            return {"status": status, "user": self.bot}
        return self._queue({"my_chat_member": {"chat": chat.to_json(), "from": by.to_json(), "date": int(time.time()),
                                               "old_chat_member": member("left"),
                                               "new_chat_member": member("member")}})

    def send_text(self, chat: FakeChat | int, user: FakeUser, text: str, *, anonymous: bool = False) -> Msg:
        """``user`` writes ``text`` in ``chat`` (a command when it starts with /)."""
        update = self.message_update(chat, user, text, anonymous=anonymous)
        self._queue(update)
        return self.messages[(update["message"]["chat"]["id"], update["message"]["message_id"])]

    def start_bot(self, user: FakeUser, payload: str | None = None) -> Msg:
        """``user`` opens the private chat and taps Start (optionally via a deep link)."""
        user.started = True
        user.blocked = False
        return self.send_text(self.chats[user.id], user, "/start" + (f" {payload}" if payload else ""))

    def follow_url(self, user: FakeUser, url: str) -> Msg:
        """``user`` taps a URL button: a t.me/<bot>?start=<payload> link starts the bot."""
        parsed = urlparse(url)
        assert parsed.netloc == "t.me", url
        assert parsed.path.strip("/") == self.bot["username"], url
        payload = parse_qs(parsed.query).get("start", [None])[0]
        return self.start_bot(user, payload)

    def press(self, user: FakeUser, message: Msg, button: dict | str) -> str:
        """``user`` taps a callback button of ``message``; returns the callback query id."""
        data = button if isinstance(button, str) else button.get("callback_data")
        assert data is not None, f"not a callback button: {button}"
        qid = f"q{next(self._query_ids)}"
        chat = self.chats[message.chat_id]
        message = self.messages.get((message.chat_id, message.message_id), message)   # as it is now
        replied = self.messages.get((chat.id, message.reply_to)) if message.reply_to else None
        self._queue({"callback_query": {"id": qid, "from": user.to_json(), "chat_instance": f"ci{chat.id}",
                                        "data": data, "message": message.to_json(chat, replied)}})
        return qid

    async def answer_of(self, query_id: str, timeout: float = 5.0) -> dict:
        """The ``answerCallbackQuery`` parameters for ``query_id`` (waits for them)."""
        await self.wait_for(lambda: query_id in self.answers, timeout, f"answer to {query_id}")
        return self.answers[query_id]

    # ---- what users see ---------------------------------------------------------------

    def bot_messages(self, chat: FakeChat | FakeUser | int) -> list[Msg]:
        chat_id = chat if isinstance(chat, int) else chat.id
        return [m for (cid, _), m in sorted(self.messages.items()) if cid == chat_id and m.from_bot]

    def last_bot_message(self, chat: FakeChat | FakeUser | int) -> Msg | None:
        msgs = self.bot_messages(chat)
        return msgs[-1] if msgs else None

    def calls_of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    async def wait_for(self, predicate, timeout: float = 5.0, what: str = "condition"):
        """Wait until ``predicate()`` is truthy (re-checked on every API call); return its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what}")
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))

    # ---- HTTP -------------------------------------------------------------------------

    async def _params(self, request: web.Request) -> tuple[dict, dict[str, bytes]]:
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        if request.content_type == "application/json":
            body = await request.read()
            return (json.loads(body) if body else {}), files
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = value.file.read()
                params[f"{key}_filename"] = value.filename
            elif key in _TEXT_FIELDS:
                params[key] = value
            else:
                try:
                    params[key] = json.loads(value)
                except (ValueError, TypeError):
                    params[key] = value
        return params, files

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        method = request.match_info["method"]
        params, files = await self._params(request)
        call = Call(method, {**params, **{f"<file:{k}>": len(v) for k, v in files.items()}}, True,
                    at=time.monotonic())
        try:
            for i, (name, error) in enumerate(self._faults):
                if name == method:
                    del self._faults[i]
                    raise error
            if self.flood is not None:
                self._flood_check(method, params)
            handler = getattr(self, f"_api_{method}", None)
            if handler is None:
                raise ApiError(404, "Not Found")
            call.result = await handler(params, files)
            for i, (name, seconds, when) in enumerate(self._late):
                if name == method and when(params):
                    del self._late[i]
                    self.late_started.set()
                    await asyncio.sleep(seconds)
                    break
        except ApiError as exc:
            call.ok, call.error = False, exc.description
            if method != "getUpdates":
                self.calls.append(call)
            await self._notify()
            body: dict[str, Any] = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.retry_after is not None:
                body["parameters"] = {"retry_after": exc.retry_after}
            return web.json_response(body, status=exc.code)
        if method != "getUpdates" or call.result:
            self.calls.append(call)
        await self._notify()
        return web.json_response({"ok": True, "result": call.result})

    def _flood_check(self, method: str, params: dict) -> None:
        chat = self.chats.get(_int_or_none(params.get("chat_id")))
        if chat is None or method not in FloodModel.COUNTED:
            return
        wait = self.flood.admit(chat.id, chat.type != "private", method, time.monotonic())
        if wait is not None:
            raise ApiError(429, f"Too Many Requests: retry after {wait}", wait)

    # ---- Bot API methods --------------------------------------------------------------

    def _chat(self, chat_id: Any) -> FakeChat:
        try:
            return self.chats[int(chat_id)]
        except (KeyError, TypeError, ValueError):
            raise ApiError(400, "Bad Request: chat not found") from None

    def _writable(self, chat: FakeChat) -> None:
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise ApiError(403, FORBIDDEN_BLOCKED)
            if not chat.user.started:
                raise ApiError(403, FORBIDDEN_NEVER_STARTED)

    def _message(self, params: dict) -> tuple[FakeChat, Msg]:
        chat = self._chat(params.get("chat_id"))
        msg = self.messages.get((chat.id, int(params.get("message_id", 0))))
        if msg is None or not msg.from_bot:
            raise ApiError(400, "Bad Request: message to edit not found")
        return chat, msg

    def _reply_to(self, params: dict) -> int | None:
        rp = params.get("reply_parameters")
        if isinstance(rp, dict):
            return rp.get("message_id")
        return params.get("reply_to_message_id")

    @staticmethod
    def _check_markup(markup: dict | None) -> None:
        for row in (markup or {}).get("inline_keyboard", []):
            for b in row:
                if "callback_data" in b and len(b["callback_data"].encode()) > 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if "url" in b and not b["url"].startswith(("https://", "http://", "tg://")):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")

    def _store(self, chat: FakeChat, **fields) -> dict:
        msg = Msg(chat.id, self._next_message_id(chat.id), True, self.bot, int(time.time()), **fields)
        self.messages[(chat.id, msg.message_id)] = msg
        return msg.to_json(chat)

    async def _api_getMe(self, params, files):
        return self.bot

    async def _api_deleteWebhook(self, params, files):
        self.webhook = None
        return True

    async def _api_setWebhook(self, params, files):
        url = params.get("url") or ""
        if url and not url.startswith("https://"):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = {"url": url, "secret_token": params.get("secret_token"),
                        "allowed_updates": params.get("allowed_updates")} if url else None
        return True

    async def _api_setMyCommands(self, params, files):
        for command in params.get("commands") or []:
            if not 1 <= units(command.get("description") or "") <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands.append({"commands": params.get("commands"), "scope": params.get("scope"),
                              "language_code": params.get("language_code")})
        return True

    async def _api_getUpdates(self, params, files):
        offset = int(params.get("offset") or 0)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        timeout = min(float(params.get("timeout") or 0), self.max_poll)
        if not self._updates and timeout > 0:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait_for(lambda: bool(self._updates)), timeout)
        limit = int(params.get("limit") or 100)
        return list(self._updates[:limit])

    async def _api_sendMessage(self, params, files):
        chat = self._chat(params.get("chat_id"))
        self._writable(chat)
        text = params.get("text") or ""
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if units(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        self._check_markup(params.get("reply_markup"))
        return self._store(chat, text=text, entities=params.get("entities") or [],
                           reply_markup=params.get("reply_markup"), reply_to=self._reply_to(params))

    @staticmethod
    def _upload(params, files, field: str):
        """The uploaded file of a send method (sent as a part, or named by "attach://") and its
        caption, checked as the Bot API checks them."""
        value = params.get(field)
        data = files.get(field)
        if data is None and isinstance(value, str) and value.startswith("attach://"):
            data = files.get(value[len("attach://"):])
        if data is None:
            raise ApiError(400, f"Bad Request: there is no {field} in the request")
        caption = params.get("caption")
        if caption is not None and units(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        return data, caption

    async def _api_sendPhoto(self, params, files):
        chat = self._chat(params.get("chat_id"))
        self._writable(chat)
        data, caption = self._upload(params, files, "photo")
        self._check_markup(params.get("reply_markup"))
        return self._store(chat, photo=data, caption=caption, entities=params.get("caption_entities") or [],
                           reply_markup=params.get("reply_markup"), reply_to=self._reply_to(params))

    async def _api_sendDocument(self, params, files):
        chat = self._chat(params.get("chat_id"))
        self._writable(chat)
        data, caption = self._upload(params, files, "document")
        return self._store(chat, document=data, document_name=params.get("document_filename"), caption=caption,
                           entities=params.get("caption_entities") or [],
                           reply_markup=params.get("reply_markup"), reply_to=self._reply_to(params))

    async def _api_sendAnimation(self, params, files):
        """Plays inline as an animation only for a GIF or an MP4 (an animated WebP, say, arrives as a
        plain document, which does not play); at most 50 MB."""
        chat = self._chat(params.get("chat_id"))
        self._writable(chat)
        data, caption = self._upload(params, files, "animation")
        if len(data) > 50 * 1000 * 1000:
            raise ApiError(413, "Request Entity Too Large")
        self._check_markup(params.get("reply_markup"))
        plays = data.startswith(b"GIF8") or data[4:8] == b"ftyp"
        return self._store(chat, animation=data if plays else None, document=data,
                           document_name=params.get("animation_filename"), caption=caption,
                           entities=params.get("caption_entities") or [],
                           reply_markup=params.get("reply_markup"), reply_to=self._reply_to(params))

    async def _api_editMessageText(self, params, files):
        chat, msg = self._message(params)
        if msg.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = params.get("text") or ""
        if units(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        markup = params.get("reply_markup")
        entities = params.get("entities") or []
        if text == msg.text and markup == msg.reply_markup and entities == msg.entities:
            raise ApiError(400, NOT_MODIFIED)
        self._check_markup(markup)
        msg.text, msg.reply_markup, msg.entities = text, markup, entities
        msg.edits += 1
        return msg.to_json(chat)

    async def _api_editMessageCaption(self, params, files):
        chat, msg = self._message(params)
        if msg.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = params.get("caption")
        if caption is not None and units(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        markup = params.get("reply_markup")
        entities = params.get("caption_entities") or []
        if caption == msg.caption and markup == msg.reply_markup and entities == msg.entities:
            raise ApiError(400, NOT_MODIFIED)
        msg.caption, msg.reply_markup, msg.entities = caption, markup, entities
        msg.edits += 1
        return msg.to_json(chat)

    async def _api_editMessageMedia(self, params, files):
        chat, msg = self._message(params)
        media = params.get("media") or {}
        ref = media.get("media", "")
        data = files.get(ref[len("attach://"):]) if ref.startswith("attach://") else None
        if media.get("type") != "photo" or data is None:
            raise ApiError(400, "Bad Request: wrong media (only uploaded photos in this fake)")
        if msg.photo is None and msg.text is not None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        caption = media.get("caption")
        if caption is not None and units(caption) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        self._check_markup(params.get("reply_markup"))
        msg.photo, msg.caption = data, caption
        msg.entities = media.get("caption_entities") or []
        msg.reply_markup = params.get("reply_markup")
        msg.edits += 1
        return msg.to_json(chat)

    async def _api_editMessageReplyMarkup(self, params, files):
        chat, msg = self._message(params)
        markup = params.get("reply_markup")
        if markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        msg.reply_markup = markup
        msg.edits += 1
        return msg.to_json(chat)

    async def _api_deleteMessage(self, params, files):
        chat = self._chat(params.get("chat_id"))
        if self.messages.pop((chat.id, int(params.get("message_id", 0))), None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        return True

    async def _api_answerCallbackQuery(self, params, files):
        qid = params.get("callback_query_id")
        if qid in self.answers:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        text = params.get("text")
        if text is not None and units(text) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[qid] = params
        return True

    def _member(self, chat: FakeChat, user_id: int) -> dict:
        user = self.users.get(user_id)
        user_json = user.to_json() if user else {"id": user_id, "is_bot": False, "first_name": "?"}
        if chat.owner == user_id:
            return {"status": "creator", "user": user_json, "is_anonymous": False}
        if user_id in chat.admins:
            flags = ("can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
                     "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                     "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
                     "can_delete_stories")
            return {"status": "administrator", "user": user_json, **{f: f != "is_anonymous" for f in flags}}
        return {"status": "member", "user": user_json}

    async def _api_getChatMember(self, params, files):
        chat = self._chat(params.get("chat_id"))
        return self._member(chat, int(params.get("user_id")))

    async def _api_getChatAdministrators(self, params, files):
        chat = self._chat(params.get("chat_id"))
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        ids = ([chat.owner] if chat.owner else []) + sorted(chat.admins - {chat.owner})
        return [self._member(chat, i) for i in ids]
