"""Logins and passes (issue 42): Telegram's initData is taken for an hour (a setting), one initData
gives one pass however often it is sent, and a link's pass is traded for a short-lived page pass,
the only one that goes in the addresses of the socket and the pictures."""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

import pytest
from service.service_helpers import chat, start_game
from web_kit import Page, token

from bot.contract import User
from bot.service import GameService, ManualClock
from bot.service.posts.links import BoardLinks
from bot.service.tokens.passes import PAGE_PASS_SECONDS, Passes
from bot.service.tokens.payloads import PayloadCodec
from bot.web.auth import sign_init_data
from bot.web.server import WebBoard, WebSettings

BOT_TOKEN = "123456:logins"


@pytest.fixture
async def telegram(tmp_path):
    """A served board that logs Telegram users in, and a Telegram game of two people (ids 1 and 2)."""
    service = await GameService.open(str(tmp_path / "games.sqlite3"))
    users = [User("telegram", str(n), name) for n, name in ((1, "Ann"), (2, "Bob"))]
    game_id = await start_game(service, chat(1).__class__("telegram", "g1", "Group"), users)
    board = await WebBoard.start(service, WebSettings(port=0, telegram_token=BOT_TOKEN))
    yield board, service, game_id
    await board.stop()
    await service.close()


def init_data(age: float, user_id: int = 1) -> str:
    return sign_init_data({"user": json.dumps({"id": user_id, "first_name": "Ann"}),
                           "auth_date": str(int(time.time() - age)), "query_id": "AAE1"}, BOT_TOKEN)


async def login(session, board: WebBoard, service, game_id: int, data: str) -> tuple[int, dict]:
    body = {"init_data": data, "game": service.codec.encode("w", game_id)}
    async with session.post(f"{board.local_url}/api/telegram", json=body) as response:
        return response.status, await response.json()


async def test_initdata_older_than_an_hour_is_refused(telegram, session):
    board, service, game_id = telegram
    status, got = await login(session, board, service, game_id, init_data(age=50 * 60))
    assert status == 200 and "pass" in got
    status, got = await login(session, board, service, game_id, init_data(age=61 * 60))
    assert status == 403 and got["error"] == "expired"


async def test_the_age_is_a_setting(telegram, session):
    _, service, game_id = telegram
    strict = await WebBoard.start(service, WebSettings(port=0, telegram_token=BOT_TOKEN, init_data_seconds=300))
    try:
        assert (await login(session, strict, service, game_id, init_data(age=200)))[0] == 200
        assert (await login(session, strict, service, game_id, init_data(age=400)))[0] == 403
    finally:
        await strict.stop()


async def test_one_initdata_gives_one_pass(telegram, session):
    """Sent again and again, the same initData gets the same pass (running from its auth_date),
    never a new one running a week from each login."""
    board, service, game_id = telegram
    data = init_data(age=10)
    passes = {(await login(session, board, service, game_id, data))[1]["pass"] for _ in range(5)}
    assert len(passes) == 1
    seat = service.passes.read(passes.pop(), now=time.time())
    assert seat.user_id == "1"
    assert seat.expires <= time.time() - 10 + 7 * 24 * 3600 + 1
    # a new launch (a later auth_date) is a new login
    assert (await login(session, board, service, game_id, init_data(age=0)))[1]["pass"] != seat


async def trade(session, board: WebBoard, pass_: str) -> tuple[int, dict]:
    async with session.post(f"{board.local_url}/api/pass", json={"pass": pass_}) as response:
        assert response.headers["Cache-Control"] == "no-store"
        return response.status, await response.json()


async def test_a_links_pass_is_traded_for_a_short_page_pass(telegram, session):
    board, service, game_id = telegram
    link = token(board, game_id, User("telegram", "1", "Ann"))
    status, got = await trade(session, board, link)
    assert status == 200 and got["seconds"] == PAGE_PASS_SECONDS
    page = service.passes.read(got["pass"], now=service.clock.now())
    assert page.page and page.user_id == "1" and page.expires <= service.clock.now() + PAGE_PASS_SECONDS
    # it opens the socket and the pictures
    opened = await Page.open(session, board.local_url, got["pass"])
    state = await opened.state()
    await opened.close()
    async with session.get(f"{board.local_url}/{state['state']['pictures'][0]['src']}&t={got['pass']}") as picture:
        assert picture.status == 200
    # but never another page pass (one read from a log is of no use for long), nor for a forged one
    assert (await trade(session, board, got["pass"]))[0] == 403
    assert (await trade(session, board, link[:-2] + "xx"))[1]["error"] == "forged"


async def test_an_expired_links_pass_gets_no_page_pass(telegram, session):
    board, service, game_id = telegram
    expired = board.link(game_id, "telegram", "1", "Ann", "en", seconds=-1).split("#t=", 1)[1]
    status, got = await trade(session, board, expired)
    assert status == 403 and got["error"] == "expired"


async def test_links_carry_their_pass_in_the_fragment(telegram):
    """A browser never sends an address's fragment: no proxy's access log keeps a link's pass."""
    board, _, game_id = telegram
    chats = BoardLinks(PayloadCodec(b"k"), Passes(b"k"), ManualClock(), public_url="https://board.example.org")
    for link in (board.link(game_id, "telegram", "1", "Ann", "en"), chats.link(1, "discord", "u1", "Ann", "en"),
                 chats.link(1, "discord", None, "", "en")):
        parts = urlsplit(link)
        assert parts.path == "/board" and parts.query == "" and parts.fragment.startswith("t="), link


def test_the_login_age_and_the_page_pass_are_settings():
    from bot.config import ConfigError, settings, web_settings

    url = {"BOARDCHAT_WEB_URL": "https://board.example.org"}
    default = web_settings(settings(environ=url, env_file={}))
    assert (default.init_data_seconds, default.page_pass_seconds) == (3600, PAGE_PASS_SECONDS)
    chosen = web_settings(settings(environ={**url, "BOARDCHAT_WEB_INIT_DATA_SECONDS": "600",
                                            "BOARDCHAT_WEB_PAGE_PASS_SECONDS": "300"}, env_file={}))
    assert (chosen.init_data_seconds, chosen.page_pass_seconds) == (600, 300)
    with pytest.raises(ConfigError, match="BOARDCHAT_WEB_PAGE_PASS_SECONDS"):
        web_settings(settings(environ={**url, "BOARDCHAT_WEB_PAGE_PASS_SECONDS": "5"}, env_file={}))
