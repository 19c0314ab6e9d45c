"""The Discord command group after the rename (bot/product.py): a new bot shows only /boardchat;
a bot whose commands were registered as /paris (before the rename) keeps answering /paris too,
and the buttons it posted before still work."""

from __future__ import annotations

from discord_kit import custom_id

from bot import product
from bot.discord import BoardchatBot
from i18n import t


def registered(env) -> set[str]:
    return {name for name, _type in env.backend.commands.get(None, {})}


async def test_a_new_bot_shows_only_the_new_group(table, simcord_env):
    assert registered(simcord_env) == {product.DISCORD_GROUP}
    result = await table.ann.slash(table.channel, f"{product.DISCORD_GROUP} new", game="paris-connection")
    assert result.ephemeral and result.response.content


async def test_an_old_deployment_keeps_its_group_and_its_buttons(table, service, simcord_env):
    # what the version before the rename left registered with Discord: only /paris
    simcord_env.backend.register_commands(None, [{"name": product.OLD_DISCORD_GROUP, "description": "Play Paris Paris",
                                                  "type": 1, "options": []}])
    await simcord_env.restart_bot(BoardchatBot(service, background_delivery=False))
    assert registered(simcord_env) == {product.DISCORD_GROUP, product.OLD_DISCORD_GROUP}
    old = simcord_env.backend.find_command(product.OLD_DISCORD_GROUP, None)
    assert {o["name"] for o in old["options"]} >= {"new", "join", "start", "board", "help"}
    assert old["description_localizations"]["de"] == t("de", "discord.cmd.old_group")

    # players who type the old command and players who type the new one meet at the same table
    opened = await table.ann.slash(table.channel, f"{product.OLD_DISCORD_GROUP} new")
    assert opened.ephemeral and opened.response is not None
    joined = await table.bob.slash(table.channel, f"{product.DISCORD_GROUP} join")
    assert joined.response.content == t("en", "bot.reply.joined")
    lobby = table.channel.last_message

    # the next start keeps the old group (it is registered now) and the lobby's button still answers
    await simcord_env.restart_bot(BoardchatBot(service, background_delivery=False))
    assert registered(simcord_env) == {product.DISCORD_GROUP, product.OLD_DISCORD_GROUP}
    clicked = await table.cat.click(lobby, custom_id=custom_id(lobby, "pp:j_"))
    assert clicked.followups and clicked.followups[0].content == t("en", "bot.reply.joined")
    info = await service.game_info(game_id=1)
    assert [seat.name for seat in info.seats] == ["ann", "bob", "cat"]


async def test_help_says_how_to_start_each_game(table):
    from bot.games import KINDS

    result = await table.ann.slash(table.channel, f"{product.DISCORD_GROUP} help")
    for game in KINDS.values():
        assert f"/{product.DISCORD_GROUP} new game:{game.definition.name}" in result.response.content
