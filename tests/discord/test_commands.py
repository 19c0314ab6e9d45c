"""The /boardchat commands around the game: host and Manage Channels powers, threads, DMs,
settings choices, help, and the command catalog Discord receives."""

from __future__ import annotations

import discord
from discord_kit import buttons

from bot.discord import BoardchatBot
from bot.discord.texts import discord_text
from i18n import t


async def test_abort_and_handover_need_the_host_or_manage_channels(table, service):
    await table.started_game()
    refused = await table.bob.slash(table.channel, "boardchat abort")
    assert refused.ephemeral and refused.response.content == t("en", "bot.err.not_host", host="ann")
    refused = await table.bob.slash(table.channel, "boardchat handover", player=table.cat)
    assert refused.response.content == t("en", "bot.err.not_host", host="ann")
    assert (await service.game_info(game_id=1)).status == "playing"

    # a moderator (Manage Channels, not playing) hands cat's seat to the AI, then aborts
    handed = await table.mod.slash(table.channel, "boardchat handover", player=table.cat)
    assert handed.ephemeral
    seats = (await service.game_info(game_id=1)).seats
    assert [s.is_ai for s in seats if s.user_id == str(table.cat.id)] == [True]
    aborted = await table.mod.slash(table.channel, "boardchat abort")
    assert aborted.ephemeral
    assert (await service.game_info(game_id=1)).status == "aborted"
    assert all(not buttons(m) for m in table.messages())     # no dead buttons left behind


async def test_new_game_in_a_thread(table, service):
    result = await table.ann.slash(table.channel, "boardchat new", thread=True)
    assert result.ephemeral
    threads = table.channel.threads
    assert len(threads) == 1
    thread = threads[0]
    assert thread.mention in result.response.content
    lobby = thread.last_message
    assert lobby is not None and any(b.custom_id.startswith("pp:j_") for b in buttons(lobby))
    # the channel itself only shows Discord's own "started a thread" notice
    assert [m.type for m in table.channel.history()] == [discord.MessageType.thread_created]
    # the game belongs to the thread: joining there works, the parent channel has no game
    joined = await table.bob.slash(thread, "boardchat join")
    assert joined.response.content == t("en", "bot.reply.joined")
    nothing = await table.cat.slash(table.channel, "boardchat join")
    assert nothing.response.content == discord_text(t("en", "bot.err.no_game"))
    info = await service.game_info(_chat(thread))
    assert [s.name for s in info.seats] == ["ann", "bob"]


async def test_game_commands_in_dms_explain_where_to_use_them(table):
    result = await table.ann.user.slash("boardchat join")
    assert result.response.content == t("en", "discord.server_only", group="boardchat")
    rules = await table.ann.user.slash("boardchat rules")
    assert rules.response.content and rules.response.content != t("en", "discord.server_only", group="boardchat")


async def test_settings_choices_reach_the_service(table, service):
    await table.ann.slash(table.channel, "boardchat new", final_tours="all_lines", deadline=1440)
    changed = await table.ann.slash(table.channel, "boardchat settings", language="de", reminder=60)
    assert changed.ephemeral
    options = (await service.game_info(_chat(table.channel))).options
    assert options["final_tours"] == "all_lines" and options["deadline_minutes"] == 1440
    assert options["language"] == "de" and options["reminder_minutes"] == 60


async def test_help_adds_the_discord_command_list(table):
    result = await table.ann.slash(table.channel, "boardchat help")
    assert result.ephemeral
    assert "/boardchat new" in result.response.content and "/boardchat handover" in result.response.content


async def test_commands_are_synced_with_translated_descriptions(table):
    paris = table.env.backend.find_command("boardchat", None)
    assert paris is not None
    subcommands = {o["name"]: o for o in paris["options"]}
    assert set(subcommands) >= {"new", "join", "leave", "start", "addbot", "abort", "board", "secret", "marker",
                                "settings", "stats", "rating", "rules", "help", "handover"}
    new = subcommands["new"]
    assert new["description_localizations"]["de"] == t("de", "discord.cmd.new")
    assert new["description_localizations"]["fr"] == t("fr", "discord.cmd.new")
    deadline = next(o for o in new["options"] if o["name"] == "deadline")
    week = next(c for c in deadline["choices"] if c["value"] == 10080)
    assert week["name_localizations"]["it"] == t("it", "discord.choice.7d")


def test_no_privileged_intent_is_needed():
    from bot.discord import intents

    wanted = intents()
    assert not wanted.message_content and not wanted.members and not wanted.presences
    assert wanted.guilds


def _chat(channel):
    from bot.contract import Chat

    return Chat("discord", str(channel.id), getattr(channel, "name", "") or "")



async def test_settings_buttons_on_the_private_answer_work(table, service):
    await table.ann.slash(table.channel, "boardchat new")
    shown = await table.ann.slash(table.channel, "boardchat settings")
    assert shown.ephemeral
    switch = [b for b in buttons(shown.response.message) if b.custom_id.startswith("pp:s_")]
    assert switch, "the settings answer offers buttons"
    before = dict((await service.game_info(_chat(table.channel))).options)
    pressed = await table.ann.click(shown.response, custom_id=switch[0].custom_id)
    assert pressed.followups and pressed.followups[0].ephemeral
    after = (await service.game_info(_chat(table.channel))).options
    assert after != before


async def test_a_public_board_refusal_stays_private(table):
    result = await table.ann.slash(table.channel, "boardchat board", public=True)
    assert result.ephemeral and result.response.content == discord_text(t("en", "bot.err.no_game"))
    assert table.channel.history() == []


async def test_a_public_board_is_shown_to_everyone(table):
    await table.started_game()
    before = len(table.messages())
    result = await table.bob.slash(table.channel, "boardchat board", public=True)
    assert result.acknowledged and result.response is None        # the private placeholder is gone
    posted = table.messages()
    assert len(posted) == before + 1 and posted[-1].content.startswith("Paris Paris")


async def test_a_public_board_carries_no_buttons(table):
    """The player to move shows the board to everyone: their tile buttons and "My marker"
    stay theirs (on the prompt), not a second copy in the channel that nobody removes."""
    prompt = await table.started_game()
    mover = table.to_move(prompt)
    own = await mover.slash(table.channel, "boardchat board")
    assert (own.response or own.followups[0]).components               # privately: with buttons
    await mover.slash(table.channel, "boardchat board", public=True)
    shown = table.messages()[-1]
    assert shown.content.startswith("Paris Paris") and buttons(shown) == []
    assert table.prompt().id == prompt.id


async def test_without_create_public_threads_the_host_is_told_what_to_do(table, service):
    closed = table.guild.create_text_channel(
        "no-threads", overwrites={table.guild.me: discord.PermissionOverwrite(create_public_threads=False)})
    result = await table.ann.slash(closed, "boardchat new", thread=True)
    assert result.ephemeral and result.response.content == t("en", "discord.thread_failed", group="boardchat")
    assert closed.threads == [] and await service.game_info(_chat(closed)) is None


async def test_a_development_guild_gets_the_commands_directly(table, service, simcord_env):
    backend = simcord_env.backend
    assert backend.commands.get(table.guild.id, {}) == {}          # so far only global commands
    await simcord_env.restart_bot(BoardchatBot(service, dev_guild_id=table.guild.id, background_delivery=False))
    scoped = backend.commands.get(table.guild.id, {})
    assert [name for name, _type in scoped] == ["boardchat"]
    result = await table.ann.slash(table.channel, "boardchat rules")   # resolves to the guild command
    assert result.ephemeral and result.response.content


async def test_stats_are_per_game_and_can_name_one(table, service):
    from bot.service.game.model import Changes, ResultRow

    chat = _chat(table.channel)
    rows = [ResultRow(gid, 0, "discord", chat.id, str(table.ann.id), "ann", False, points, True, 1.0, game)
            for gid, game, points in ((1, "paris-paris", 33), (2, "paris-connection", 160))]
    await service.storage.commit(Changes(results=rows), 1.0)
    both = (await table.ann.slash(table.channel, "boardchat stats")).response.content
    assert "Paris Paris" in both and "Paris Connection" in both and "96" not in both
    one = (await table.ann.slash(table.channel, "boardchat stats", game="paris-connection")).response.content
    assert "Paris Connection" in one and "Paris Paris" not in one


# The games' options become /boardchat new and /boardchat settings parameters from the registry: with no
# game declaring one, the module still imports and no parameter names it; a declared one appears.
_NO_OPTIONS = """
from engine.registry import GAMES
for definition in GAMES.values():
    type(definition).options = ()
from bot.discord.commands import BoardchatGroup
print(sorted(p.name for p in BoardchatGroup.new.parameters), sorted(p.name for p in BoardchatGroup.settings.parameters))
"""


def test_command_options_come_from_the_games_declarations():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _NO_OPTIONS], cwd=root, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == str(["deadline", "game", "language", "reminder", "thread"]) + " " + \
        str(["deadline", "language", "reminder"])


async def test_a_declared_option_is_a_parameter_worded_by_its_game(monkeypatch):
    from typing import Any

    from discord import app_commands

    from bot.discord.commands import CatalogTranslator, with_settings
    from bot.games import KINDS
    from engine.interface import OptionSpec

    game = KINDS["paris-connection"]
    monkeypatch.setattr(type(game.definition), "options", (OptionSpec("short_game", (True, False), False),))
    monkeypatch.setattr(type(game.presenter), "option_name_text", lambda self, name, lang: f"{name}-{lang}")
    monkeypatch.setattr(type(game.presenter), "option_value_text", lambda self, name, v, lang: f"{v}-{lang}")

    async def new(interaction: discord.Interaction, **settings: Any) -> None: ...

    command = app_commands.command(name="new", description="x")(with_settings(new))
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = await command.get_translated_payload(tree, CatalogTranslator())
    short = next(o for o in payload["options"] if o["name"] == "short_game")
    assert short["description"] == "short_game-en" and short["description_localizations"]["de"] == "short_game-de"
    assert [(c["value"], c["name"], c["name_localizations"]["fr"]) for c in short["choices"]] == [
        ("True", "True-en", "True-fr"), ("False", "False-en", "False-fr")]
