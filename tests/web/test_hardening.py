"""Every answer of the board carries its hardening headers (a strict Content-Security-Policy, no
sniffing, no referrer), a seat's own board stays out of the browser's cache, and the socket opens
only for the board's own pages: a forged Origin is refused (issue 42)."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qsl, urlsplit

import aiohttp
import pytest
from web_kit import Page, serve, token

from bot.web.auth import sign_init_data
from bot.web.hardening import content_security_policy
from bot.web.server import WebSettings

BOT_TOKEN = "123456:harden"
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "base-uri 'none'; form-action 'none'; "
          "frame-ancestors https://web.telegram.org https://webk.telegram.org https://webz.telegram.org")


def hardened(response: aiohttp.ClientResponse) -> None:
    assert response.headers.get("Content-Security-Policy") == POLICY, (response.url, response.headers)
    assert response.headers.get("X-Content-Type-Options") == "nosniff", response.url
    assert response.headers.get("Referrer-Policy") == "no-referrer", response.url


@pytest.fixture
async def board(tmp_path):
    served = await serve(str(tmp_path / "games.sqlite3"), settings=WebSettings(port=0, telegram_token=BOT_TOKEN))
    yield served
    await served.close()


async def test_every_route_carries_the_headers(board, session):
    url = board.board.local_url
    seat, spectator = token(board.board, board.game_id, board.seat_user(0)), token(board.board, board.game_id, None)
    # the picture the spectator's page shows now (the only public one a game under way answers)
    shown = (await (await Page.open(session, url, spectator)).state())["state"]["pictures"][0]["src"]
    picture = {k: v for k, v in parse_qsl(urlsplit(shown).query) if k != "t"}
    # signed, but for a game not on Telegram: refused with a reason (a pass answer: test_logins.py)
    login = {"init_data": sign_init_data({"user": json.dumps({"id": 7, "first_name": "Eve"}),
                                          "auth_date": str(int(time.time()))}, BOT_TOKEN),
             "game": board.service.codec.encode("w", board.game_id)}
    asked = [("GET", "/", {}, None, 200), ("GET", "/board", {}, None, 200), ("GET", "/board", {"t": "x"}, None, 403),
             ("GET", "/static/board.js", {}, None, 200), ("GET", "/static/board.css", {}, None, 200),
             ("GET", "/picture", {**picture, "t": spectator}, None, 200),
             ("GET", "/picture", {**picture, "t": "forged"}, None, 403),
             ("GET", "/picture", {**picture, "moves": "99", "t": seat}, None, 404),
             ("POST", "/api/telegram", {}, login, 403), ("POST", "/api/telegram", {}, {"init_data": "x"}, 403),
             ("GET", "/live", {"t": "forged"}, None, 403), ("GET", "/nowhere", {}, None, 404)]
    for method, path, query, body, status in asked:
        async with session.request(method, url + path, params=query, json=body) as response:
            await response.read()
            assert response.status == status, (path, query, response.status)
            hardened(response)
            if path == "/api/telegram":
                assert response.headers["Cache-Control"] == "no-store"
    # the socket's handshake too
    async with session.ws_connect(f"{url}/live", params={"t": spectator}) as ws:
        hardened(ws._response)


async def test_a_seats_own_board_is_not_kept_in_the_browsers_cache(tmp_path, session):
    served = await serve(str(tmp_path / "games.sqlite3"), settings=WebSettings(port=0))
    try:
        seat_user = served.seat_user(0)
        pass_ = token(served.board, served.game_id, seat_user)
        page = await Page.open(session, served.board.local_url, pass_)
        pictures = (await page.state())["state"]["pictures"]
        await page.close()
        for picture in pictures:
            async with session.get(f"{served.board.local_url}/{picture['src']}&t={pass_}") as response:
                assert response.status == 200, picture
                control = response.headers["Cache-Control"]
                assert control == ("no-store" if picture["name"] == "seat" else "private, max-age=86400"), picture
    finally:
        await served.close()


async def test_the_socket_opens_only_for_the_boards_own_pages(board, session):
    url = board.board.local_url
    pass_ = token(board.board, board.game_id, None)
    for forged in ("https://evil.example", "http://127.0.0.1:1", "null", url + ".evil.example"):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{url}/live", params={"t": pass_}, origin=forged)
        assert refused.value.status == 403, forged
    port = url.rsplit(":", 1)[1]
    for own in (url, f"http://localhost:{port}", None):      # its own page, or no browser page at all
        async with session.ws_connect(f"{url}/live", params={"t": pass_}, origin=own) as ws:
            await ws.send_str(json.dumps({"type": "hello", "since": None}))
            assert json.loads((await ws.receive(timeout=10)).data)["type"] == "state"


def test_the_policy_names_the_public_socket():
    policy = content_security_policy("https://board.example.org/boardchat")
    assert "connect-src 'self' wss://board.example.org;" in policy
    assert "default-src 'none'" in policy and "'unsafe-inline'" not in policy
