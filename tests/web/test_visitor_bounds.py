"""Bounds per visitor (``bot.web.guard``), tried as an attacker would with an ordinary link: many
sockets on one spectator's pass or from one address, a flood of messages on a socket, a flood of
pictures on one pass, a flood of logins of one Telegram user. Past each bound: a clear refusal
(429 with its reason, or the socket closed with one) and nothing done or drawn."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest
from service.service_helpers import start_game
from web_kit import PROBE, Page, serve, stored, token

from bot.config import ConfigError, Settings, connection_limits, visitor_limits, web_settings
from bot.contract import Chat, User
from bot.service.delivery.pictures import Drawn
from bot.web.auth import sign_init_data
from bot.web.connections import ConnectionLimits
from bot.web.guard import VisitorLimits
from bot.web.server import WebSettings

BOT_TOKEN = "123456:bounds-token"


@pytest.fixture
async def bounded(tmp_path, request):
    got = await serve(str(tmp_path / "games.sqlite3"),
                      settings=WebSettings(port=0, telegram_token=BOT_TOKEN, limits=request.param))
    yield got
    await got.board.stop()
    await got.service.close()


async def refused_socket(session, url: str, pass_: str, **kw) -> tuple[int, dict]:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await session.ws_connect(f"{url}/live", params={"t": pass_}, **kw)
    async with session.get(f"{url}/live", params={"t": pass_}, **kw) as response:    # the same, read as JSON
        return refused.value.status, await response.json() if response.status == 429 else {}


@pytest.mark.parametrize("bounded", [VisitorLimits(sockets_per_pass=3, sockets_per_address=100)], indirect=True)
async def test_one_spectator_pass_opens_so_many_sockets_and_no_more(bounded, session):
    url, pass_ = bounded.board.local_url, token(bounded.board, bounded.game_id, None)
    pages = [await Page.open(session, url, pass_) for _ in range(3)]
    for page in pages:
        await page.state()
    status, body = await refused_socket(session, url, pass_)
    assert status == 429 and body["error"] == "too_many" and body["text"]
    assert bounded.board.hub.open_pages == 3
    other = await Page.open(session, url, token(bounded.board, bounded.game_id, None, "de"))   # another link
    await other.state()
    await pages[0].close()
    again = await Page.open(session, url, pass_)        # a socket closed is a socket free
    await again.state()
    for page in (*pages[1:], other, again):
        await page.close()


@pytest.mark.parametrize("bounded", [VisitorLimits(sockets_per_pass=100, sockets_per_address=2)], indirect=True)
async def test_one_address_opens_so_many_sockets_whatever_it_says_it_is(bounded, session):
    url, pass_ = bounded.board.local_url, token(bounded.board, bounded.game_id, None)

    def behind_proxy(address: str) -> dict:
        return {"headers": {"X-Forwarded-For": address}}

    pages = [await session.ws_connect(f"{url}/live", params={"t": pass_}, **behind_proxy("203.0.113.7"))
             for _ in range(2)]
    # the proxy appends the address it saw: what the client wrote before it counts for nothing
    status, _ = await refused_socket(session, url, pass_, **behind_proxy("198.51.100.1, 203.0.113.7"))
    assert status == 429
    elsewhere = await session.ws_connect(f"{url}/live", params={"t": pass_}, **behind_proxy("203.0.113.8"))
    for ws in (*pages, elsewhere):
        await ws.close()


@pytest.mark.parametrize("bounded", [VisitorLimits(sockets_per_address=1, trusted_proxies=frozenset())],
                         indirect=True)
async def test_a_client_not_behind_a_trusted_proxy_is_counted_by_its_own_address(bounded, session):
    url, pass_ = bounded.board.local_url, token(bounded.board, bounded.game_id, None)
    first = await session.ws_connect(f"{url}/live", params={"t": pass_}, headers={"X-Forwarded-For": "192.0.2.1"})
    status, _ = await refused_socket(session, url, pass_, headers={"X-Forwarded-For": "192.0.2.2"})
    assert status == 429
    await first.close()


@pytest.mark.parametrize("bounded", [VisitorLimits(messages_per_minute=8)], indirect=True)
async def test_a_message_flood_closes_the_socket_with_its_reason_and_changes_nothing(bounded, session):
    url = bounded.board.local_url
    page = await Page.open(session, url, token(bounded.board, bounded.game_id, bounded.seat_user(0)))
    await page.state()
    before = await stored(bounded.service, bounded.game_id)
    for _ in range(50):
        await page.send(PROBE)
    codes = []
    while (msg := await page.ws.receive(timeout=10)).type == aiohttp.WSMsgType.TEXT:
        codes.append(json.loads(msg.data)["code"])
    assert codes[-1] == "too_many" and len(codes) < 5            # a burst of 2 (8 a minute), then the end
    assert msg.type == aiohttp.WSMsgType.CLOSE
    assert page.ws.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION and msg.extra == "too many messages"
    assert await stored(bounded.service, bounded.game_id) == before


@pytest.mark.parametrize("bounded", [VisitorLimits(pictures_per_pass=1)], indirect=True)
async def test_a_pass_has_so_many_pictures_on_their_way_and_no_more_are_drawn(bounded, session):
    pictures = bounded.service.pictures
    began, release = asyncio.Event(), asyncio.Event()
    drawn = []

    async def held(render, language: str, platform: str) -> Drawn | None:
        drawn.append(render.layout)
        began.set()
        await release.wait()
        return Drawn(b"a picture")          # what is drawn does not matter here, only what is asked

    pictures._draw_now = held
    url, pass_ = bounded.board.local_url, token(bounded.board, bounded.game_id, None)
    page = await Page.open(session, url, pass_)
    src = (await page.state())["state"]["pictures"][0]["src"]
    assert "layout=landscape" in src

    async def get(src: str, pass_: str) -> int:
        async with session.get(f"{url}/{src}", params={"t": pass_}) as response:
            await response.read()
            return response.status

    first = asyncio.ensure_future(get(src, pass_))
    await began.wait()
    portrait = src.replace("layout=landscape", "layout=portrait")
    async with session.get(f"{url}/{portrait}", params={"t": pass_}) as response:
        assert response.status == 429 and (await response.json())["error"] == "too_many"
    same = asyncio.ensure_future(get(src, pass_))                     # the same picture: shared, not refused
    other_link = asyncio.ensure_future(get(portrait, token(bounded.board, bounded.game_id, None, "de")))
    release.set()
    assert await asyncio.gather(first, same, other_link) == [200, 200, 200]
    assert drawn == ["landscape", "portrait"]                         # the refused one was never drawn
    await page.close()


def launch(user_id: int, game: str) -> dict:
    person = json.dumps({"id": user_id, "first_name": f"P{user_id}"})
    return {"init_data": sign_init_data({"user": person, "auth_date": str(int(time.time())), "start_param": game},
                                        BOT_TOKEN)}


@pytest.mark.parametrize("bounded", [VisitorLimits(logins_per_hour=8)], indirect=True)
async def test_a_login_flood_of_one_telegram_user_is_refused_and_others_log_in(bounded, session):
    people = [User("telegram", str(1000 + n), f"P{n}") for n in range(2)]
    game = await start_game(bounded.service, Chat("telegram", "group", "Group"), people)
    reference = bounded.service.codec.encode("w", game)
    url = bounded.board.local_url

    async def login(user_id: int) -> tuple[int, dict]:
        async with session.post(f"{url}/api/telegram", json=launch(user_id, reference)) as response:
            return response.status, await response.json()

    answers = [await login(1000) for _ in range(10)]
    assert [status for status, _ in answers[:2]] == [200, 200]       # a burst of 2 (8 an hour)
    assert {status for status, _ in answers[2:]} == {429}
    assert all(body["error"] == "too_many" and "pass" not in body for _, body in answers[2:])
    assert (await login(1001))[0] == 200                              # another person is not held back


def test_the_bounds_are_settings_with_their_defaults_and_refuse_what_is_no_bound():
    assert visitor_limits(Settings({}, {})) == VisitorLimits()
    assert connection_limits(Settings({}, {})) == ConnectionLimits()
    got = visitor_limits(Settings({"BOARDCHAT_WEB_SOCKETS_PER_PASS": "5", "BOARDCHAT_WEB_LOGINS_PER_HOUR": "12",
                                   "BOARDCHAT_WEB_TRUSTED_PROXIES": "10.0.0.2, 10.0.0.3"}, {}))
    assert (got.sockets_per_pass, got.logins_per_hour) == (5, 12)
    assert got.trusted_proxies == {"10.0.0.2", "10.0.0.3"}
    assert connection_limits(Settings({"BOARDCHAT_WEB_HEADER_SECONDS": "3"}, {})).header_seconds == 3
    for name, value in (("BOARDCHAT_WEB_PICTURES_PER_PASS", "0"), ("BOARDCHAT_WEB_MESSAGES_PER_MINUTE", "many"),
                        ("BOARDCHAT_WEB_CONNECTIONS", "-1")):
        with pytest.raises(ConfigError, match=name):
            web_settings(Settings({"BOARDCHAT_WEB_URL": "https://board.example.org", name: value}, {}))
