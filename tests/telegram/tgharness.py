"""The bot as it runs in production (real Application, real GameService on SQLite), pointed
at the fake Bot API, plus helpers to play as the simulated users."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from fakebotapi import FakeBotAPI, FakeChat, FakeUser, Msg
from telegram import Update
from telegram.ext import Application, TypeHandler
from whole_games import SETTLE_AT_THE_END

from bot.service import GameService
from bot.telegram.app import build_application, runtime, start_application, stop_application
from bot.web.server import WebSettings

GROUP_ID = -1001234
# A turn's buttons: "c_" makes a choice, "o_" opens a submenu (whose shop goes), "b_" goes back.
CHOICE_PAYLOAD = re.compile(r"^[co]_")
BACK_PAYLOAD = re.compile(r"^b_")


@dataclass
class Bot:
    """One run of the bot: a GameService and an Application (restartable on the same DB)."""

    api: FakeBotAPI
    db_path: str
    clock: object | None = None
    ai: object | None = None
    service: GameService | None = None
    app: Application | None = None
    runs: int = 0
    handled: set[int] = field(default_factory=set)
    # The outbox's pacing to Telegram's flood limits makes a game in one group take minutes;
    # the tests of pacing (test_tg_pacing.py) switch it on, the others play unpaced.
    paced: bool = False
    drawing_processes: int = 0     # processes drawing the pictures (0: a thread, as the other tests)
    web: WebSettings | None = None     # the web board, served and linked as BOARDCHAT_WEB_* would have it

    async def start(self) -> None:
        web = self.web
        self.service = await GameService.open(self.db_path, clock=self.clock, ai=self.ai,
                                              drawing_processes=self.drawing_processes,
                                              web_url=web.public_url if web else None,
                                              mini_app=web.telegram_app if web else None)
        self.app = build_application(self.api.token, service=self.service, base_url=self.api.base_url,
                                     base_file_url=self.api.base_file_url, web=web)
        # runs after the adapter's handlers (group 0) for each update: a sync point for tests
        self.app.add_handler(TypeHandler(Update, self._seen), group=99)
        await start_application(self.app, poll_timeout=1)
        if not self.paced:
            runtime(self.app).transport.pace = None
            self.service.delivery.reset_pacing()
        self.runs += 1

    async def stop(self) -> None:
        if self.app is not None:
            await stop_application(self.app)
            self.app = None
        if self.service is not None:
            await self.service.close()
            self.service = None

    async def _seen(self, update: Update, context) -> None:
        self.handled.add(update.update_id)

    async def settle(self, timeout: float = SETTLE_AT_THE_END) -> None:
        """Wait until every queued update was handled and the outbox holds nothing due (a game's
        end draws its animation: ``SETTLE_AT_THE_END``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet = 0
        while True:
            busy = bool(self.api._updates) or not self.api.injected <= self.handled
            if not busy:
                rows = await self.service.storage.unsent("telegram")
                busy = any(r.due <= self.service.clock.now() for r in rows)
            quiet = 0 if busy else quiet + 1
            if quiet >= 3:           # stable over a few checks: nothing in flight
                return
            if loop.time() > deadline:
                raise AssertionError("the bot did not settle")
            await asyncio.sleep(0.02)


@dataclass
class Table:
    """A group with its members, as the fake Bot API knows them."""

    api: FakeBotAPI
    group: FakeChat
    users: dict[str, FakeUser] = field(default_factory=dict)

    def by_id(self, user_id: int) -> FakeUser:
        return self.api.users[user_id]

    # ---- reading what the group shows -------------------------------------------------

    def group_messages(self) -> list[Msg]:
        return self.api.bot_messages(self.group)

    def lobby(self) -> Msg:
        for m in reversed(self.group_messages()):
            if any(b.get("url", "").find("?start=j_") >= 0 for b in m.buttons()):
                return m
        raise AssertionError("no lobby message with a Join button")

    def prompt(self) -> Msg | None:
        """The current turn message: the latest group message with tile or eviction buttons."""
        for m in reversed(self.group_messages()):
            if any(CHOICE_PAYLOAD.match(b.get("callback_data", "")) for b in m.buttons()):
                return m
        return None

    @staticmethod
    def mentioned(msg: Msg) -> list[int]:
        return [e["user"]["id"] for e in msg.entities if e.get("type") == "text_mention"]

    def to_move(self, msg: Msg) -> FakeUser:
        ids = self.mentioned(msg)
        assert ids, f"the prompt mentions nobody: {msg.body!r}"
        return self.by_id(ids[0])

    @staticmethod
    def _submenu(msg: Msg) -> bool:
        return any(BACK_PAYLOAD.match(b.get("callback_data", "")) for b in msg.buttons())

    @classmethod
    def tile_buttons(cls, msg: Msg) -> list[dict]:
        """The offered tiles (none while the eviction submenu is open)."""
        if cls._submenu(msg):
            return []
        return [b for b in msg.buttons() if CHOICE_PAYLOAD.match(b.get("callback_data", ""))]

    @classmethod
    def evict_buttons(cls, msg: Msg) -> list[dict]:
        """Whose shop goes: the choices of the open submenu."""
        if not cls._submenu(msg):
            return []
        return [b for b in msg.buttons() if b.get("callback_data", "").startswith("c_")]


async def table_of_two(api, bot, game: str = "", group_title: str = "Board fans") -> Table:
    """Ann and Bob (both with their private chat open) in a started game of ``game`` (empty: the
    default game) in a supergroup Ann owns."""
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", started=True)
    group = api.add_group(GROUP_ID, group_title, owner=ann)
    table = Table(api, group, {"ann": ann, "bob": bob})
    api.send_text(group, ann, f"/newgame {game}".rstrip())
    await bot.settle()
    api.follow_url(bob, table.lobby().button("Join")["url"])
    await bot.settle()
    lobby = table.lobby()
    api.press(ann, lobby, lobby.button("Start"))
    await bot.settle()
    return table


# The prefixes of a turn's choice and submenu buttons (bot/service/tokens/payloads.py).
CHOICE = ("c_", "o_")


def private_turn(api, user):
    """The user's private turn message while it offers choices (edited in place), else None."""
    for msg in reversed(api.bot_messages(user)):
        if any(b.get("callback_data", "").startswith(CHOICE) for b in msg.buttons()):
            return msg
    return None


def two_player_table(api, title: str) -> Table:
    """Ann and Bob, both with a private chat open, in a group Ann owns."""
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", started=True)
    group = api.add_group(GROUP_ID, title, owner=ann)
    return Table(api, group, {"ann": ann, "bob": bob})
