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
        env_file={"DISCORD_BOT_TOKEN": "from-file", "DISCORD_DEV_GUILD_ID": "1234", "PARIS_PARIS_DB": "x.db"},
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
    env = {"PATH": "/usr/bin:/bin", "PARIS_PARIS_ENV_FILE": str(tmp_path / "none.env"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "discord"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "DISCORD_BOT_TOKEN" in done.stdout + done.stderr
