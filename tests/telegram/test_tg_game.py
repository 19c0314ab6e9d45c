"""End to end: the real Application and GameService against the fake Bot API; users only tap."""

from __future__ import annotations

import pytest
from tgharness import GROUP_ID, Bot, Table

from renderers.i18n import t


@pytest.fixture
async def bot(api, tmp_path):
    running = Bot(api, str(tmp_path / "paris.sqlite3"))
    await running.start()
    yield running
    await running.stop()


@pytest.fixture
def table(api) -> Table:
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", language_code="en")
    cat = api.add_user(103, "Cat", language_code="en")
    dan = api.add_user(104, "Dan")
    group = api.add_group(GROUP_ID, "Paris fans", owner=ann)
    return Table(api, group, {"ann": ann, "bob": bob, "cat": cat, "dan": dan})


async def open_lobby(api, bot: Bot, table: Table, joiners=("bob", "cat")):
    """Ann opens a game; the others join through the deep-link Join button."""
    api.send_text(table.group, table.users["ann"], "/newgame")
    await bot.settle()
    lobby = table.lobby()
    for name in joiners:
        api.follow_url(table.users[name], lobby.button("Join")["url"])
        await bot.settle()
    return table.lobby()


async def press(api, bot: Bot, user, msg, button) -> dict:
    qid = api.press(user, msg, button)
    answer = await api.answer_of(qid)
    await bot.settle()
    return answer


async def play_turn(api, bot: Bot, table: Table, *, choose: int = 0) -> tuple[dict, object]:
    """The player the prompt mentions taps a tile (and an eviction choice if asked)."""
    prompt = table.prompt()
    assert prompt is not None
    player = table.to_move(prompt)
    tiles = table.tile_buttons(prompt)
    answer = await press(api, bot, player, prompt, tiles[choose % len(tiles)])
    assert answer.get("show_alert") is not True, answer
    again = table.prompt()
    if again is not None and table.evict_buttons(again):
        answer = await press(api, bot, player, again, table.evict_buttons(again)[0])
        assert answer.get("show_alert") is not True, answer
    return answer, player


async def test_commands_menus_are_registered(api, bot):
    scopes = {(c["scope"]["type"], c["language_code"]) for c in api.commands}
    assert ("all_group_chats", None) in scopes and ("all_private_chats", None) in scopes
    assert ("all_group_chats", "de") in scopes and ("all_private_chats", "fr") in scopes
    group_menu = next(c for c in api.commands if c["scope"]["type"] == "all_group_chats" and not c["language_code"])
    assert [c["command"] for c in group_menu["commands"]] == [
        "newgame", "join", "leave", "startgame", "addbot", "abort", "board", "marker", "settings", "stats",
        "rules", "help"]
    german = next(c for c in api.commands if c["scope"]["type"] == "all_group_chats" and c["language_code"] == "de")
    assert german["commands"][0]["description"] == t("de", "tg.cmd.newgame")


async def test_lobby_by_deep_link_and_start(api, bot, table):
    lobby = await open_lobby(api, bot, table)
    # the command got a short reply in the group, the lobby lists the three players
    assert "Bob" in lobby.body and "Cat" in lobby.body
    # the joins happened in the private chats, each answered there
    for name in ("bob", "cat"):
        private = api.bot_messages(table.users[name])
        assert private and t("en", "bot.reply.joined") in private[0].body
    answer = await press(api, bot, table.users["ann"], lobby, lobby.button("Start"))
    assert answer.get("text") == t("en", "bot.reply.started")
    prompt = table.prompt()
    assert prompt is not None and len(table.tile_buttons(prompt)) >= 1
    # every player has a marker in the private chat; the group never sees those texts
    for name in ("ann", "bob", "cat"):
        assert any("marker" in m.body.lower() for m in api.bot_messages(table.users[name])), name
    private_texts = [m.body for n in ("ann", "bob", "cat") for m in api.bot_messages(table.users[n])]
    for call in api.calls:
        if str(call.params.get("chat_id")) == str(GROUP_ID):
            seen = str(call.params.get("text") or call.params.get("caption") or "")
            assert not any(p and p in seen for p in private_texts if "🔒" in p)



async def test_complete_three_player_game_by_taps_only(api, bot, table):
    lobby = await open_lobby(api, bot, table)
    await press(api, bot, table.users["ann"], lobby, lobby.button("Start"))
    humans = {table.users[n].id for n in ("ann", "bob", "cat")}
    markers = {uid: [m.body for m in api.bot_messages(uid)][-1] for uid in humans}
    assert all("🔒" in text for text in markers.values())
    turns, movers = 0, []
    while table.prompt() is not None:
        answer, player = await play_turn(api, bot, table, choose=turns)
        movers.append(player.id)
        turns += 1
        assert turns <= 45, "the game does not end"
    assert turns == 45                                  # 15 stacks of 4 tiles, 3 picks each
    assert set(movers) == humans
    group = table.group_messages()
    final = group[-1]
    assert t("en", "bot.msg.final_header") in final.body
    # at most 3 new group messages per round (closing edit, map, next prompt are 2 new ones)
    assert len(group) <= 2 + 3 * 15
    # the secret markers went only to the private chats
    for call in api.calls:
        if str(call.params.get("chat_id")) == str(GROUP_ID):
            seen = str(call.params.get("text") or call.params.get("caption") or "")
            assert not any(text in seen for text in markers.values())
    # every callback query was answered exactly once, without an error
    presses = [u for u in api.injected if u]
    assert len(api.answers) == len(api.calls_of("answerCallbackQuery"))
    assert all(c.ok for c in api.calls_of("answerCallbackQuery"))
    assert len(presses) >= len(api.answers) >= 46
