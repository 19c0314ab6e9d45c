"""The web board's links on Discord (docs/web.md), in an offline Discord (simcord) with the real
BoardchatBot and GameService: with BOARDCHAT_WEB_URL set, a seat's turn message (its DM, and the
ephemeral answer to "My choices") carries a link button with that person's pass, the channel's turn
message one with a spectator's pass, and the final standings a spectator's link to the replay; each
link opens the board. Without the address, no message carries a link."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import aiohttp
import discord
import pytest
from discord_kit import buttons

from bot.contract import User
from bot.discord.identity import chat_of_channel
from bot.service import GameService
from bot.web.server import WebSettings, serve_board
from i18n import t

PUBLIC = "https://board.example.org"
CHOICE = ("pp:c_", "pp:o_")


@pytest.fixture
def web_url():
    return PUBLIC


@pytest.fixture
async def service(db_path, clock, web_url):
    opened = await GameService.open(db_path, clock=clock, web_url=web_url)
    try:
        yield opened
    finally:
        await opened.close()


def links(message) -> list:
    return [b for b in buttons(message) if b.style == discord.ButtonStyle.link]


def choices(message) -> list:
    return [b for b in buttons(message) if b.custom_id and b.custom_id.startswith(CHOICE)]


def private_turn(member):
    channel = member.user.dm_channel
    for message in reversed(channel.history() if channel is not None else []):
        if choices(message):
            return message
    return None


def pass_of(service: GameService, url: str):
    assert url.startswith(f"{PUBLIC}/board?game=tiny-hands&lang=en#t="), url       # in the fragment: never sent to a server
    return service.passes.read(parse_qs(urlsplit(url).fragment)["t"][0], now=service.clock.now())


async def started(tiny_game, table, service) -> None:
    # Opened through the service: a slash command's game choices are fixed before this test registers its game.
    ann = User(platform="discord", id=str(table.ann.id), name=table.ann.name)
    assert (await service.new_game(chat_of_channel(table.channel), ann, options={"game": tiny_game.id})).ok
    await table.bob.slash(table.channel, "boardchat join")
    await table.cat.slash(table.channel, "boardchat join")
    await table.ann.slash(table.channel, "boardchat start")


async def test_each_seat_gets_its_own_link_the_channel_a_spectators_and_the_end_a_replay(tiny_game, table, service):
    await started(tiny_game, table, service)
    board = await serve_board(service, WebSettings(host="127.0.0.1", port=0, public_url=PUBLIC))
    try:
        # The channel's turn message: a spectator's link, labelled as the live board.
        turn = table.channel.history()[-1]
        [watch] = links(turn)
        assert watch.label == t("en", "web.btn.watch")
        seen = pass_of(service, watch.url)
        assert (seen.game_id, seen.platform, seen.user_id) == (1, "discord", None)

        # Bob's "My choices": the ephemeral answer carries his own link, and so does his DM.
        mine = next(b for b in buttons(turn) if b.label == t("en", "bot.btn.my_choices"))
        shown = await table.bob.click(turn, custom_id=mine.custom_id)
        ephemeral = [f.message for f in shown.followups if f.ephemeral and links(f.message)]
        assert ephemeral, [f.content for f in shown.followups]
        [own] = links(ephemeral[-1])
        assert own.label == t("en", "web.btn.board")
        assert pass_of(service, own.url).user_id == str(table.bob.id)
        for member in (table.ann, table.bob, table.cat):
            [dm] = links(private_turn(member))
            seat_pass = pass_of(service, dm.url)
            assert (seat_pass.game_id, seat_pass.user_id, seat_pass.name) == (1, str(member.id), member.name)

        # Each link opens the board (served on 127.0.0.1 here, behind the public address in production).
        async with aiohttp.ClientSession() as session:
            for url in (watch.url, own.url):
                async with session.get(board.local_url + url[len(PUBLIC):]) as page:
                    assert page.status == 200 and "board.js" in await page.text()
            async with session.get(board.local_url + "/board?t=" + "x" * 40) as forged:
                assert forged.status == 403

        # To the end: the final standings link to the replay, for anyone.
        rng, members = random.Random(5), {str(m.id): m for m in (table.ann, table.bob, table.cat)}
        for _ in range(150):
            info = await service.game_info(game_id=1)
            if info.status == "finished":
                break
            for seat in info.to_act:
                member = members[info.seats[seat].user_id]
                message = private_turn(member)
                if message is not None:
                    await member.user.click(message, custom_id=rng.choice(choices(message)).custom_id)
        assert info.status == "finished"
        final = next(m for m in reversed(table.channel.history()) if links(m))
        [replay] = links(final)
        assert replay.label == t("en", "web.btn.review")
        assert pass_of(service, replay.url).spectator
    finally:
        await board.stop()


@pytest.mark.parametrize("web_url", [None])
async def test_without_the_boards_address_no_message_links_to_it(tiny_game, table, service, web_url):
    await started(tiny_game, table, service)
    turn = table.channel.history()[-1]
    mine = next(b for b in buttons(turn) if b.label == t("en", "bot.btn.my_choices"))
    shown = await table.bob.click(turn, custom_id=mine.custom_id)
    assert private_turn(table.bob) is not None
    messages = [*table.channel.history(), *(f.message for f in shown.followups),
                *(m for member in (table.ann, table.bob, table.cat) for m in member.user.dm_channel.history())]
    assert not [b for m in messages for b in links(m)]
