"""The web board's buttons on Telegram (docs/web.md), through the real Application against the fake
Bot API: with BOARDCHAT_WEB_URL and a Mini App, the group's turn message links to the Mini App
(t.me/<bot>/<app>?startapp=<game>: Telegram refuses Mini App buttons in groups), a seat's private turn
message carries a Mini App button (web_app), and the final standings a spectator's link; the Mini
App's login from the group's link gives a player their seat. Without the address, no link anywhere."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from tgharness import Bot, Table, private_turn, two_player_table

from bot.telegram.app import runtime
from bot.web.auth import sign_init_data
from bot.web.server import WebSettings

CHOICE = ("c_", "o_")
PUBLIC = "https://board.example.org"
APP = "board"


@pytest.fixture
def table(api) -> Table:
    return two_player_table(api, "Tiny fans")




def group_turn(table: Table):
    """The group's turn message (it names who is still to choose, with the board's button)."""
    for msg in reversed(table.group_messages()):
        if any("startapp=" in b.get("url", "") or "/board" in b.get("url", "") for b in msg.buttons()):
            return msg
    return None


async def start_tiny(api, bot: Bot, table: Table, *, with_bob: bool) -> None:
    ann = table.users["ann"]
    api.send_text(table.group, ann, "/newgame tiny")
    await bot.settle()
    if with_bob:
        api.follow_url(table.users["bob"], table.lobby().button("Join")["url"])
    else:
        api.send_text(table.group, ann, "/addbot")
    await bot.settle()
    lobby = table.lobby()
    api.press(ann, lobby, lobby.button("Start"))
    await bot.settle()


async def test_the_group_opens_the_mini_app_a_seat_its_button_and_the_end_a_replay(api, table, tmp_path, tiny_game):
    web = WebSettings(host="127.0.0.1", port=0, public_url=PUBLIC, telegram_token=api.token, telegram_app=APP)
    bot = Bot(api, str(tmp_path / "web.sqlite3"), web=web)
    await bot.start()
    try:
        service = bot.service
        await start_tiny(api, bot, table, with_bob=True)
        ann = table.users["ann"]

        # The group's turn message: a direct link to the Mini App, with the game's signed reference.
        turn = group_turn(table)
        assert turn is not None, [m.buttons() for m in table.group_messages()]
        link = next(b["url"] for b in turn.buttons() if "url" in b and "startapp=" in b["url"])
        url = urlsplit(link)
        assert (url.netloc, url.path) == ("t.me", f"/{api.bot['username']}/{APP}")
        start_param = parse_qs(url.query)["startapp"][0]
        assert service.codec.decode(start_param).kind == "w" and service.codec.decode(start_param).int(0) == 1
        # Telegram refuses Mini App buttons in groups: none ever goes there.
        assert not [b for m in table.group_messages() for b in m.buttons() if "web_app" in b]

        # Ann's private turn message: a Mini App button to the board, which logs in by initData.
        mine = private_turn(api, ann)
        app_button = next(b for b in mine.buttons() if "web_app" in b)
        opened = urlsplit(app_button["web_app"]["url"])
        assert f"{opened.scheme}://{opened.netloc}{opened.path}" == f"{PUBLIC}/board"
        assert service.codec.decode(parse_qs(opened.query)["g"][0]).int(0) == 1
        # its game's kind and language, so the page's answer preloads that game's static board
        assert parse_qs(opened.query)["game"] == ["tiny-hands"] and parse_qs(opened.query)["lang"] == ["en"]

        # Opened from the group's link, the Mini App logs Ann in: her pass names her (her seat).
        init_data = sign_init_data({"user": json.dumps({"id": ann.id, "first_name": "Ann"}),
                                    "auth_date": str(int(time.time())), "start_param": start_param}, api.token)
        board = runtime(bot.app).board
        async with aiohttp.ClientSession() as session, \
                session.post(board.local_url + "/api/telegram", json={"init_data": init_data}) as got:
            assert got.status == 200
            token = (await got.json())["pass"]
        seen = service.passes.read(token, now=service.clock.now())
        assert (seen.game_id, seen.platform, seen.user_id) == (1, "telegram", str(ann.id))

        # Play to the end: the final standings link to the replay with a spectator's pass.
        bob = table.users["bob"]
        for _ in range(80):
            taps = [(u, m) for u in (ann, bob) if (m := private_turn(api, u)) is not None]
            if not taps:
                break
            for user, msg in taps:
                choices = [b for b in msg.buttons() if b.get("callback_data", "").startswith(CHOICE)]
                button = min(choices, key=lambda b: not b["callback_data"].startswith("c_"))
                api.press(user, msg, button)
            await bot.settle()
        assert (await service.game_info(game_id=1)).status == "finished"
        # the final standings, followed only by the game's animation
        final = table.group_messages()[-2]
        replay = [b["url"] for b in final.buttons() if "url" in b]
        assert len(replay) == 1 and replay[0].startswith(f"{PUBLIC}/board?game=tiny-hands&lang=en#t="), final.buttons()
        spectator = service.passes.read(parse_qs(urlsplit(replay[0]).fragment)["t"][0], now=service.clock.now())
        assert (spectator.game_id, spectator.user_id) == (1, None)
    finally:
        await bot.stop()


async def test_a_group_without_a_mini_app_gets_a_spectators_link(api, table, tmp_path, tiny_game):
    web = WebSettings(host="127.0.0.1", port=0, public_url=PUBLIC, telegram_token=api.token)
    bot = Bot(api, str(tmp_path / "web.sqlite3"), web=web)
    await bot.start()
    try:
        await start_tiny(api, bot, table, with_bob=False)
        turn = group_turn(table)
        links = [b["url"] for b in turn.buttons() if "url" in b]
        assert len(links) == 1 and links[0].startswith(f"{PUBLIC}/board?game=tiny-hands&lang=en#t="), turn.buttons()
        seen = bot.service.passes.read(parse_qs(urlsplit(links[0]).fragment)["t"][0], now=bot.service.clock.now())
        assert seen.spectator and seen.game_id == 1
        async with aiohttp.ClientSession() as session:      # the link opens the page (served locally here)
            local = runtime(bot.app).board.local_url + links[0][len(PUBLIC):]
            async with session.get(local) as got:
                assert got.status == 200 and "board.js" in await got.text()
    finally:
        await bot.stop()


async def test_without_the_boards_address_no_message_links_to_it(api, table, bot, tiny_game):
    await start_tiny(api, bot, table, with_bob=True)
    assert runtime(bot.app).board is None
    messages = [*table.group_messages(), *api.bot_messages(table.users["ann"]), *api.bot_messages(table.users["bob"])]
    assert private_turn(api, table.users["ann"]) is not None
    assert not [b for m in messages for b in m.buttons() if "web_app" in b or "board" in b.get("url", "")
                or "startapp" in b.get("url", "")]


def test_the_boards_settings_are_read_and_bad_ones_explained():
    from bot.config import ConfigError, Settings
    from bot.discord.run import DiscordConfig
    from bot.telegram.settings import TelegramSettings

    def telegram(**env):
        return TelegramSettings.from_env(Settings({"TELEGRAM_BOT_TOKEN": "1:x", **env}, {}))

    assert telegram().web is None                      # unset: no board, no links
    config = telegram(BOARDCHAT_WEB_URL="https://board.example.org/", BOARDCHAT_TELEGRAM_APP="board")
    assert config.web == WebSettings(host="127.0.0.1", port=8080, public_url="https://board.example.org",
                                     telegram_token="1:x", telegram_app="board")
    discord_config = DiscordConfig.from_settings(Settings(
        {"DISCORD_BOT_TOKEN": "t", "BOARDCHAT_WEB_URL": "https://example.org/boardchat",
         "BOARDCHAT_WEB_HOST": "0.0.0.0", "BOARDCHAT_WEB_PORT": "9000"}, {}))
    assert discord_config.web == WebSettings(host="0.0.0.0", port=9000, public_url="https://example.org/boardchat")
    assert telegram(BOARDCHAT_WEB_URL="http://localhost:8080").web.public_url == "http://localhost:8080"
    for env, named in [({"BOARDCHAT_WEB_URL": "http://board.example.org"}, "BOARDCHAT_WEB_URL"),
                       ({"BOARDCHAT_WEB_URL": "board.example.org"}, "BOARDCHAT_WEB_URL"),
                       ({"BOARDCHAT_WEB_URL": "https://board.example.org/?x=1"}, "BOARDCHAT_WEB_URL"),
                       ({"BOARDCHAT_WEB_URL": PUBLIC, "BOARDCHAT_WEB_PORT": "99999"}, "BOARDCHAT_WEB_PORT"),
                       ({"BOARDCHAT_WEB_URL": PUBLIC, "BOARDCHAT_WEB_PORT": "http"}, "BOARDCHAT_WEB_PORT"),
                       ({"BOARDCHAT_WEB_URL": PUBLIC, "BOARDCHAT_TELEGRAM_APP": "t.me/bot/board"},
                        "BOARDCHAT_TELEGRAM_APP"),
                       ({"BOARDCHAT_TELEGRAM_APP": "board"}, "needs BOARDCHAT_WEB_URL")]:
        with pytest.raises(ConfigError, match=named):
            telegram(**env)
