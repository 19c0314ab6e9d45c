"""/boardchat mygames and /boardchat next in simcord: an ephemeral list of the player's games,
each with the jump URL of its turn message."""

from __future__ import annotations

from i18n import t


async def test_my_games_answer_ephemerally_with_a_jump_url_to_the_turn_message(table):
    prompt = await table.started_game()
    player = table.to_move(prompt)
    jump = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/{prompt.id}"

    listing = await player.slash(table.channel, "boardchat mygames")
    assert listing.ephemeral
    text = listing.response.content
    assert t("en", "bot.mine.title", count=1) in text and t("en", "bot.mine.your_turn") in text
    assert "paris" in text and t("en", "bot.mine.link", link=jump) in text

    following = await player.slash(table.channel, "boardchat next")
    assert following.ephemeral and t("en", "bot.mine.next", waiting=1) in following.response.content
    assert jump in following.response.content
    waiting = next(p for p in (table.ann, table.bob, table.cat) if p is not player)
    assert (await waiting.slash(table.channel, "boardchat next")).response.content == t("en", "bot.mine.next_none")
    assert (await table.mod.slash(table.channel, "boardchat mygames")).response.content == t("en", "bot.mine.none")
    assert jump not in "\n".join(m.content for m in table.messages())          # nothing posted in the channel
