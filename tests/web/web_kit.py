"""Helpers for the web board's tests: a started game on a served board, and pages (the board's
WebSockets) opened through aiohttp's client, as a browser's page opens them."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import aiohttp
from service.service_helpers import chat, start_game, user
from storage.storage_kit import POSTGRES, create_schema_or_skip

from bot.contract import User
from bot.service import GameService
from bot.web import frames
from bot.web.server import WebBoard, WebSettings

PROBE = "not json"          # always answered by one error ("bad_message"), and changes nothing
WAIT = 10.0                 # seconds a test waits for a message before failing (a hang, not a timing)


def token(board: WebBoard, game_id: int, who: User | None, language: str = "en") -> str:
    """The pass in ``who``'s link to the game (None: a spectator's)."""
    link = board.link(game_id, who.platform if who else "fake", who.id if who else None,
                      who.name if who else "Guest", language)
    return link.split("t=", 1)[1]


class Page:
    """One open page: its WebSocket, and the messages it received. A delta frame is read as the
    page reads it (``frames.merged`` into the state it holds) and given as that whole state,
    with the frame itself under "delta"."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.held: dict[str, Any] | None = None

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, url: str, pass_: str, *, since: int | None = None,
                   layout: str = "landscape") -> Page:
        page = cls(await session.ws_connect(f"{url}/live", params={"t": pass_}))
        await page.send({"type": "hello", "since": since, "layout": layout, "at": None})
        return page

    async def send(self, message: dict | str) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, wait: float = WAIT) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=wait)
        assert msg.type == aiohttp.WSMsgType.TEXT, (msg.type, msg.data, msg.extra)
        message = json.loads(msg.data)
        if message["type"] == "state":
            self.held = message["state"]
        elif message["type"] == "delta":
            frame = frames.decoded(msg.data)
            assert frame is not None and self.held is not None, "a delta before any whole state on this socket"
            self.held = frames.merged(self.held, frame)
            message = {"type": "state", "version": frame.version, "state": self.held,
                       "delta": {key: value for key, value in message.items() if key not in ("type", "version")}}
        return message

    async def next_of(self, kind: str, wait: float = WAIT) -> dict[str, Any]:
        """The next message of ``kind`` (those of other kinds before it are skipped)."""
        async with asyncio.timeout(wait):
            while True:
                got = await self.receive(wait)
                if got["type"] == kind:
                    return got

    async def state(self, wait: float = WAIT) -> dict[str, Any]:
        return await self.next_of("state", wait)

    async def state_after(self, version: int, wait: float = WAIT) -> dict[str, Any]:
        """The first state this page receives that is newer than ``version``."""
        async with asyncio.timeout(wait):
            while True:
                got = await self.state(wait)
                if got["version"] > version:
                    return got

    async def drained(self) -> list[dict[str, Any]]:
        """Every message on its way before the answer to a probe (sent now; messages are
        answered in order), so "nothing came" can be said without waiting for nothing."""
        await self.send(PROBE)
        got = []
        while (message := await self.receive())["type"] != "error" or message["code"] != "bad_message":
            got.append(message)
        return got

    async def close(self) -> None:
        await self.ws.close()


def choice(state: dict[str, Any], n: int = 0) -> str:
    """The signed payload of the ``n``-th choice the page offers (menus first, then spots)."""
    acts = every_choice(state)
    return acts[n % len(acts)]


def every_choice(state: dict[str, Any]) -> list[str]:
    choices = state["state"].get("choices")
    if not choices:
        return []
    acts = [item["act"] for row in choices["rows"] for item in row if "act" in item]
    for group in choices["groups"].values():
        acts += [item["act"] for row in group["rows"] for item in row if "act" in item]
    return acts + [spot["act"] for spot in choices["spots"]]


async def stored(service, game_id: int) -> tuple[int, int]:
    """The game's stored version and number of moves, read from the database itself."""
    meta, moves = await service.storage.load_game(game_id)
    return meta.version, len(moves)


PLAYERS = ("Ann", "Bob", "Cid")


def new_schema_url() -> tuple[str, str]:
    schema = f"test_{uuid.uuid4().hex[:16]}"
    create_schema_or_skip(POSTGRES, schema)
    return schema, f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}search_path={schema}"


class Served:
    """A service with a started game of three humans, and its board."""

    def __init__(self, service: GameService, board: WebBoard, game_id: int) -> None:
        self.service, self.board, self.game_id = service, board, game_id
        self.users = {u.id: u for u in (user(name) for name in PLAYERS)}

    def seat_user(self, seat: int):
        return list(self.users.values())[seat]

    async def close(self) -> None:
        """The board stopped, then its service closed."""
        await self.board.stop()
        await self.service.close()


async def serve(database: str, *, settings: WebSettings | None = None, chat_n: int = 1,
                game: str | None = None) -> Served:
    """A started game (Paris Paris unless ``game`` says another) on a board of its own."""
    service = await GameService.open(database)
    users = [user(name) for name in PLAYERS]
    options = {"seed": 3} if game is None else {"seed": 3, "game": game}
    game_id = await start_game(service, chat(chat_n), users, options=options)
    board = await WebBoard.start(service, settings or WebSettings(port=0))
    return Served(service, board, game_id)
