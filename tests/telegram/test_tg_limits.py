"""Telegram's size limits, counted as Telegram counts them (UTF-16 code units), through the real
Application against the fake Bot API, which refuses what Telegram would refuse."""

from __future__ import annotations

import asyncio
import io

import pytest
from fakebotapi import units
from PIL import Image
from telegram import Bot as TgBot
from telegram.error import BadRequest
from tgharness import GROUP_ID, Table

from bot.contract import Button, Chat, Outgoing, Reply, User
from bot.telegram.app import build_application, start_application, stop_application
from bot.telegram.commands import command_list
from bot.telegram.formatting import command_description
from bot.telegram.handlers import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.telegram.transport import TelegramTransport
from i18n import LANGUAGES, t

SEED = 23     # the deal of test_tg_game.py: taps in turn meet a full crossing


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch):
    monkeypatch.setattr("bot.service.table.lobby.secrets.randbits", lambda bits: SEED)


# Names as people write them, emoji and all: each emoji is one character in Python, two UTF-16
# units for Telegram.
FLOWERS = "🌸🌼🌻🌺🌷🌹💐🌸🌼🌻🌺🌷"


def emoji_table(api, language: str) -> Table:
    ann = api.add_user(101, "Ann", last_name=FLOWERS, started=True, language_code=language)
    bob = api.add_user(102, "Bob", last_name=FLOWERS[::-1], started=True, language_code=language)
    group = api.add_group(GROUP_ID, "Paris 🗼🥐", owner=ann)
    return Table(api, group, {"ann": ann, "bob": bob})


async def press(api, bot, user, msg, button) -> dict:
    qid = api.press(user, msg, button)
    answer = await api.answer_of(qid)
    await bot.settle()
    return answer


async def two_player_game(api, bot, table: Table) -> None:
    """Ann opens a game, Bob joins by the lobby's deep link, Ann starts it."""
    api.send_text(table.group, table.users["ann"], "/newgame")
    await bot.settle()
    join = next(b["url"] for b in table.lobby().buttons() if "?start=j_" in b.get("url", ""))
    api.follow_url(table.users["bob"], join)
    await bot.settle()
    api.send_text(table.group, table.users["ann"], "/startgame")
    await bot.settle()


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_tap_at_a_full_crossing_is_answered_within_200_utf16_units(api, bot, language):
    """The reported case: the eviction question, with the players' names and the tile's emoji,
    is longer than 200 UTF-16 units though it may be shorter in Python characters."""
    table = emoji_table(api, language)
    await two_player_game(api, bot, table)
    turns = 0
    while (prompt := table.prompt()) is not None and not table.evict_buttons(prompt):
        player = table.to_move(prompt)
        tiles = table.tile_buttons(prompt)
        answer = await press(api, bot, player, prompt, tiles[turns % len(tiles)])
        assert answer.get("text") != t(language, "tg.error"), answer
        turns += 1
        assert turns < 40, "no full crossing came up"
    # The tap made no move yet: it opened the question, which the group's turn message now asks
    # (committed before the answer was tried), and its answer repeats the question, cut to fit.
    asked = table.prompt()
    assert asked is not None and table.evict_buttons(asked)
    question = api.calls_of("answerCallbackQuery")[-1].params.get("text") or ""
    assert question.startswith("👉") and question.endswith("…") and units(question) <= 200
    assert question[:-1].rstrip() in asked.body


async def test_a_lost_answer_after_a_move_says_the_move_was_made(api, bot):
    """The answer to a tap fails after the service committed the move: the user is told the tap
    went through, never "nothing was changed"."""
    table = emoji_table(api, "en")
    await two_player_game(api, bot, table)
    prompt = table.prompt()
    mover = table.to_move(prompt)
    api.fail_next("answerCallbackQuery", code=400, description="Bad Request: MESSAGE_TOO_LONG")
    answer = await press(api, bot, mover, prompt, table.tile_buttons(prompt)[0])
    assert answer.get("text") == t("en", "tg.answer_lost") and not answer.get("show_alert"), answer
    assert "nothing" not in answer["text"]
    # the move was made: the turn passed to the other player
    assert table.to_move(table.prompt()) != mover
    info = await bot.service.game_info(game_id=1)
    assert info.moves == 1, info


# ---- every limit, through the real adapter, with a service that answers what a test needs ------

def emoji_line(language: str) -> str:
    """A real catalog text in ``language``, emoji-heavy: the eviction question and its warning."""
    owners = f"Ann {FLOWERS}, Bob {FLOWERS[::-1]}"
    return (t(language, "pp.msg.choose_evict", player=f"Ann {FLOWERS}", tile="🟢 Quartier Latin",
              station="Quartier Latin", owners=owners) + "\n"
            + t(language, "pp.msg.evict_own_warning", station="Quartier Latin"))


def emoji_text(language: str, characters: int) -> str:
    """Exactly ``characters`` Python characters of emoji-heavy text in paragraphs: many more
    UTF-16 units than characters, so a limit counted in characters lets it through."""
    text = ""
    while len(text) < characters:
        text += emoji_line(language) + " " + "🌻" * 40 + "\n\n"
    text = text[:characters]
    assert units(text) > characters + characters // 10
    return text


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 6), "green").save(out, "PNG")
    return out.getvalue()


class ScriptedService:
    """Stands in for the GameService behind the real Telegram adapter: a press, /board and
    /settings answer whatever Reply the test put in ``reply``."""

    def __init__(self) -> None:
        self.reply = Reply("…")

    def press_needs_admin(self, payload: str) -> bool:
        return False

    async def press(self, chat, user, payload):
        return self.reply

    async def board(self, chat, user):
        return self.reply

    async def settings(self, chat, user, changes):
        return self.reply

    async def pace_reply(self, platform: str, dest: str) -> None:
        return None             # no pacing here: the tests of pacing are test_tg_pacing.py's

    async def run_delivery(self, transport) -> None:
        await asyncio.Event().wait()


@pytest.fixture
async def scripted(api):
    service = ScriptedService()
    app = build_application(api.token, service=service, base_url=api.base_url, base_file_url=api.base_file_url)
    await start_application(app, poll_timeout=1)
    try:
        yield service
    finally:
        await stop_application(app)


def groups_of(api, language: str) -> tuple:
    ann = api.add_user(101, "Ann", last_name=FLOWERS, started=True, language_code=language)
    return ann, api.add_group(GROUP_ID, "Paris 🗼🥐", owner=ann)


def refused(api) -> list:
    return [(c.method, c.error) for c in api.calls if not c.ok]


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_callback_answer_is_cut_to_200_utf16_units(api, scripted, language):
    ann, group = groups_of(api, language)
    text = emoji_text(language, 200)              # 200 characters, far more units
    posted = api._store(group, text="turn", reply_markup={"inline_keyboard": [[
        {"text": "🟢 Quartier Latin", "callback_data": "c_1"}]]})
    message = api.messages[(GROUP_ID, posted["message_id"])]
    for reply in (Reply(text), Reply(text, ok=False, alert=True)):
        scripted.reply = reply
        answer = await api.answer_of(api.press(ann, message, "c_1"))
        shown = answer.get("text") or ""
        assert units(shown) <= 200 and shown.endswith("…"), answer
        assert text.startswith(shown[:-1].rstrip()) and units(shown) > 190
        assert bool(answer.get("show_alert")) == (not reply.ok)
    assert refused(api) == []


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_caption_and_its_texts_fit_in_utf16_units(api, scripted, language):
    """A picture's caption within 1024 units, the rest in messages within 4096: nothing lost."""
    ann, group = groups_of(api, language)
    text = emoji_text(language, 4096)
    scripted.reply = Reply(text, image=png())
    api.send_text(group, ann, "/board")
    def squeezed(value: str) -> str:
        return value.replace("\n", "").replace(" ", "")

    # Until every part arrived (a caption and as many texts as the rest needs), or one was refused.
    shown = await api.wait_for(lambda: (refused(api) or squeezed("".join(m.body for m in api.bot_messages(group)))
                                        == squeezed(text)) and api.bot_messages(group), what="the board")
    assert refused(api) == []
    photo, *texts = shown
    assert photo.photo is not None and units(photo.caption) <= 1024
    assert texts and all(units(m.text) <= 4096 for m in texts)
    assert squeezed("".join(m.body for m in shown)) == squeezed(text)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_menu_reply_edited_in_place_fits_in_4096_utf16_units(api, scripted, language):
    ann, group = groups_of(api, language)
    buttons = ((Button("🌸 " + t(language, "pp.btn.evict_own"), "c_1"),),)
    scripted.reply = Reply("⚙️", buttons=buttons)
    api.send_text(group, ann, "/settings")
    menu = await api.wait_for(lambda: api.last_bot_message(group), what="the settings menu")
    text = emoji_text(language, 4096)
    scripted.reply = Reply(text, buttons=buttons)
    await api.answer_of(api.press(ann, menu, "c_1"))
    edited = api.messages[(GROUP_ID, menu.message_id)]
    assert refused(api) == []
    # the first part that fits, cut at a paragraph
    assert edited.edits == 1 and 3000 < units(edited.text) <= 4096 and text.startswith(edited.text)


def test_the_command_menus_fit_in_every_language(api):
    """setMyCommands descriptions (at most 256 units: the fake refuses more)."""
    for language in LANGUAGES:
        for names in (GROUP_COMMANDS, PRIVATE_COMMANDS):
            for command in command_list(names, language):
                assert 1 <= units(command.description) <= 256
    assert units(command_description("🌸" * 200)) <= 256 and command_description("🌸" * 200).endswith("…")


async def test_the_fake_refuses_as_telegram_does_in_utf16_units(api):
    """So the tests above can fail: 101 emoji are 101 characters but 202 units."""
    api.add_group(GROUP_ID, "Paris")
    async with TgBot(api.token, base_url=api.base_url, base_file_url=api.base_file_url) as tg:
        await tg.answer_callback_query("q1", "🌸" * 100)                     # 200 units: fine
        with pytest.raises(BadRequest, match="(?i)message_too_long"):
            await tg.answer_callback_query("q2", "🌸" * 101)
        await tg.send_message(GROUP_ID, "🌸" * 2048)
        with pytest.raises(BadRequest, match="too long"):
            await tg.send_message(GROUP_ID, "🌸" * 2049)
        await tg.send_photo(GROUP_ID, png(), caption="🌸" * 512)
        with pytest.raises(BadRequest, match="caption is too long"):
            await tg.send_photo(GROUP_ID, png(), caption="🌸" * 513)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_outbox_posts_and_edits_within_the_limits(api, language):
    """The service's own messages (TelegramTransport): a map with a long caption, then the same
    slot edited with a longer text; mentions keep pointing at the names."""
    api.add_group(GROUP_ID, "Paris")
    ann = User("telegram", "101", f"Ann {FLOWERS}")
    text = emoji_text(language, 4096)
    chat = Chat("telegram", str(GROUP_ID), "Paris")
    async with TgBot(api.token, base_url=api.base_url, base_file_url=api.base_file_url) as tg:
        transport = TelegramTransport(tg, "ParisTestBot")
        first = await transport.deliver(Outgoing(id=1, chat=chat, text=text, image=png(), mentions=(ann,)))
        await transport.deliver(Outgoing(id=2, chat=chat, text=text + text, edit_message_id=first,
                                         image=png(), mentions=(ann,)))
    assert refused(api) == []
    shown = api.bot_messages(GROUP_ID)
    assert units(shown[0].caption) <= 1024 and all(units(m.body) <= 4096 for m in shown)
    assert any(m.entities for m in shown)
    for message in shown:
        for entity in message.entities:       # offsets and lengths in UTF-16 units, as Telegram reads them
            encoded = message.body.encode("utf-16-le")
            named = encoded[2 * entity["offset"]:2 * (entity["offset"] + entity["length"])].decode("utf-16-le")
            assert named == ann.name
