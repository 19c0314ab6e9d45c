"""/mygames and /next through the real Application against the fake Bot API: answered in the
private chat, each game with a link to its turn message (supergroups have message links)."""

from __future__ import annotations

from tgharness import GROUP_ID, Table, table_of_two

from bot.contract import Chat
from bot.games import kind
from bot.telegram.handlers import message_link
from i18n import t


async def started_game(api, bot) -> Table:
    return await table_of_two(api, bot, group_title="Paris fans")


async def test_my_games_in_the_private_chat_link_to_the_turn_message(api, bot):
    table = await started_game(api, bot)
    prompt = table.prompt()
    player = table.to_move(prompt)
    other = next(u for u in table.users.values() if u is not player)
    link = f"https://t.me/c/{str(GROUP_ID)[4:]}/{prompt.message_id}"

    api.send_text(api.chats[player.id], player, "/mygames")
    await bot.settle()
    listing = api.last_bot_message(player).body
    assert t("en", "bot.mine.title", count=1) in listing and t("en", "bot.mine.your_turn") in listing
    assert kind("paris-paris").presenter.title("en") in listing and "Paris fans" in listing
    assert t("en", "bot.mine.link", link=link) in listing

    api.send_text(api.chats[player.id], player, "/next")
    await bot.settle()
    assert t("en", "bot.mine.next", waiting=1) in api.last_bot_message(player).body
    assert link in api.last_bot_message(player).body
    api.send_text(api.chats[other.id], other, "/next")
    await bot.settle()
    assert api.last_bot_message(other).body == t("en", "bot.mine.next_none")


async def test_my_games_in_a_group_point_to_the_private_chat(api, bot):
    table = await started_game(api, bot)
    bob = table.users["bob"]
    api.send_text(table.group, bob, "/mygames")
    await bot.settle()
    hint = table.group_messages()[-1]
    assert hint.body == t("en", "tg.mine.group", name="Bob")
    url = hint.button(t("en", "tg.open_private"))["url"]
    assert url == "https://t.me/ParisTestBot?start=mygames"
    api.follow_url(bob, url)
    await bot.settle()
    assert t("en", "bot.mine.title", count=1) in api.last_bot_message(bob).body
    assert "t.me/c/" not in "\n".join(m.body for m in table.group_messages())     # nothing listed in the group


def test_only_supergroups_have_message_links():
    assert message_link(Chat("telegram", "-1001234"), "7") == "https://t.me/c/1234/7"
    assert message_link(Chat("telegram", "-4321"), "7") is None          # a basic group
