"""Telegram's size limits, counted as Telegram counts them (UTF-16 code units), through the real
Application against the fake Bot API, which refuses what Telegram would refuse."""

from __future__ import annotations

import pytest
from fakebotapi import units
from tgharness import GROUP_ID, Table

from renderers.i18n import LANGUAGES, t

SEED = 23     # the deal of test_tg_game.py: taps in turn meet a full crossing


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch):
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: SEED)


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
    asked = table.prompt()
    assert asked is not None and table.evict_buttons(asked)
    answers = [c.params for c in api.calls_of("answerCallbackQuery")]
    question = answers[-1].get("text") or ""
    print(turns, units(question), len(question), question)
    assert question.startswith("👉") and units(question) <= 200
    assert not question.endswith("…") or question[:-1].rstrip() in asked.body


async def test_a_lost_answer_after_a_move_says_the_move_was_made(api, bot):
    """The answer to a tap fails after the service committed it (the move, or the opened
    eviction question): the user is told the tap went through, never "nothing was changed"."""
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
    assert info["moves"] == 1, info
