"""Configuration of ``paris-paris discord``: environment or .env, helpful errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.discord import DiscordConfig

ROOT = Path(__file__).resolve().parents[2]


def test_config_from_environment_and_env_file():
    config = DiscordConfig.from_settings(Settings(
        environ={"DISCORD_BOT_TOKEN": "from-env", "DISCORD_DEV_GUILD_ID": ""},
        env_file={"DISCORD_BOT_TOKEN": "from-file", "DISCORD_DEV_GUILD_ID": "1234", "BOARDCHAT_DB": "x.db"},
    ))
    assert config == DiscordConfig(token="from-env", dev_guild_id=1234, db_path="x.db")
    assert DiscordConfig.from_settings(Settings(environ={"DISCORD_BOT_TOKEN": "t"}, env_file={})).db_path


def test_missing_token_or_bad_guild_id_is_explained():
    with pytest.raises(ConfigError, match="DISCORD_BOT_TOKEN"):
        DiscordConfig.from_settings(Settings(environ={}, env_file={}))
    with pytest.raises(ConfigError, match="DISCORD_DEV_GUILD_ID"):
        DiscordConfig.from_settings(Settings(environ={"DISCORD_BOT_TOKEN": "t", "DISCORD_DEV_GUILD_ID": "dev"},
                                             env_file={}))


def test_the_cli_entry_point_without_a_token_exits_with_a_message(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "BOARDCHAT_ENV_FILE": str(tmp_path / "none.env"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "discord"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "DISCORD_BOT_TOKEN" in done.stdout + done.stderr


async def test_a_bot_started_before_the_network_keeps_trying(tmp_path, monkeypatch, caplog):
    """Nothing listens at Discord's address: retried with a growing pause until stopped (a bot
    started before the network comes up by itself), told in one line, not one per attempt."""
    import asyncio
    import logging
    import socket

    import discord

    from bot.discord import run

    with socket.socket() as probe:                   # a port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setattr(run, "REACH_FIRST_DELAY", 0.02)
    made = []
    real_make_bot = run.make_bot
    monkeypatch.setattr(run, "make_bot", lambda *a: made.append(1) or real_make_bot(*a))
    config = DiscordConfig(token="a-token", dev_guild_id=None, db_path=str(tmp_path / "d.sqlite3"))
    caplog.set_level(logging.INFO)
    serving = asyncio.create_task(run.serve(config))
    for _ in range(500):
        if len(made) >= 4 or serving.done():
            break
        await asyncio.sleep(0.01)
    serving.cancel()
    await asyncio.gather(serving, return_exceptions=True)
    assert len(made) >= 4                            # it kept trying
    said = [r.getMessage() for r in caplog.records]
    assert sum("cannot reach Discord" in line for line in said) == 1, said
    assert not any("static token" in line for line in said), said
    assert all(r.exc_info is None for r in caplog.records if r.levelno >= logging.WARNING)


def shard_config(**env) -> DiscordConfig:
    return DiscordConfig.from_settings(Settings(environ={"DISCORD_BOT_TOKEN": "t", **env}, env_file={}))


async def test_shards_of_this_process_come_from_the_environment():
    import discord
    from discord.ext import commands

    from bot.discord.run import make_bot

    plain = make_bot(None, shard_config())
    assert not isinstance(plain, discord.AutoShardedClient) and plain.sync      # today's single connection
    config = shard_config(BOARDCHAT_DISCORD_SHARD_COUNT="4", BOARDCHAT_DISCORD_SHARD_IDS="3, 2")
    assert (config.shard_count, config.shard_ids, config.syncs_commands) == (4, (2, 3), False)
    bot = make_bot(None, config)
    assert isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids, bot.sync) == (4, [2, 3], False)     # shard 0 is another's
    first = make_bot(None, shard_config(BOARDCHAT_DISCORD_SHARD_COUNT="4", BOARDCHAT_DISCORD_SHARD_IDS="0,1"))
    assert first.shard_ids == [0, 1] and first.sync
    every = make_bot(None, shard_config(BOARDCHAT_DISCORD_SHARD_COUNT="2"))
    assert (every.shard_count, every.shard_ids, every.sync) == (2, None, True)


@pytest.mark.parametrize(("env", "says"), [
    ({"BOARDCHAT_DISCORD_SHARD_IDS": "0"}, "SHARD_COUNT"),
    ({"BOARDCHAT_DISCORD_SHARD_COUNT": "0"}, "at least 1"),
    ({"BOARDCHAT_DISCORD_SHARD_COUNT": "2", "BOARDCHAT_DISCORD_SHARD_IDS": "2"}, "shards 0 to 1"),
    ({"BOARDCHAT_DISCORD_SHARD_COUNT": "2", "BOARDCHAT_DISCORD_SHARD_IDS": "a"}, "shard numbers"),
])
def test_bad_shard_settings_are_explained(env, says):
    with pytest.raises(ConfigError, match=says):
        shard_config(**env)
