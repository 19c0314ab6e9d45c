"""Existing deployments keep working after the rename (bot/product.py): the old variables, the
old data folder and database file, the old console script."""

from __future__ import annotations

import tomllib
from pathlib import Path

from bot import product
from bot.config import Settings, database_target, default_database, game_defaults, renamed_notice
from bot.discord.run import DiscordConfig
from bot.telegram.settings import TelegramSettings
from bot.terminal.paths import default_db_path, user_data_dir

ROOT = Path(__file__).resolve().parents[2]


def test_an_old_variable_is_still_read_and_the_new_name_wins():
    old = Settings({"PARIS_PARIS_DB": "old.sqlite3"}, {})
    assert old.get("BOARDCHAT_DB") == "old.sqlite3"
    both = Settings({"PARIS_PARIS_DB": "old.sqlite3", "BOARDCHAT_DB": "new.sqlite3"}, {})
    assert both.get("BOARDCHAT_DB") == "new.sqlite3"
    # the new name wins wherever it is set: an old name in the environment loses to the new one in .env
    mixed = Settings({"PARIS_PARIS_DB": "old.sqlite3"}, {"BOARDCHAT_DB": "file.sqlite3"})
    assert mixed.get("BOARDCHAT_DB") == "file.sqlite3"
    # code that still asks by the old name reads the new one first
    assert both.get("PARIS_PARIS_DB") == "new.sqlite3" and old.get("PARIS_PARIS_DB") == "old.sqlite3"
    # someone else's variable has no old name
    assert Settings({"PARIS_PARIS_TELEGRAM_BOT_TOKEN": "x"}, {}).get("TELEGRAM_BOT_TOKEN") is None


def test_each_adapter_reads_an_old_deployments_variables():
    env = {"TELEGRAM_BOT_TOKEN": "1:a", "DISCORD_BOT_TOKEN": "d", "PARIS_PARIS_DATABASE_URL": "postgresql://h/db",
           "PARIS_PARIS_INSTANCE": "web-1", "PARIS_PARIS_DISCORD_SHARD_COUNT": "2",
           "PARIS_PARIS_LANGUAGE": "de", "PARIS_PARIS_FINAL_TOURS": "all_lines"}
    telegram = TelegramSettings.from_env(Settings(env, {}))
    assert telegram.db_path == "postgresql://h/db" and telegram.instance == "web-1"
    discord = DiscordConfig.from_settings(Settings(env, {}))
    assert discord.db_path == "postgresql://h/db" and discord.shard_count == 2
    assert game_defaults(Settings(env, {})) == {"language": "de", "final_tours": "all_lines"}
    assert game_defaults(Settings(dict(env, BOARDCHAT_LANGUAGE="fr"), {}))["language"] == "fr"


def test_one_line_names_the_new_variables_to_use():
    line = renamed_notice(Settings({"PARIS_PARIS_DB": "a", "TELEGRAM_BOT_TOKEN": "t"},
                                   {"PARIS_PARIS_LANGUAGE": "de", "PARIS_PARIS_INSTANCE": ""}))
    assert line is not None and "\n" not in line
    assert "PARIS_PARIS_DB -> BOARDCHAT_DB" in line and "PARIS_PARIS_LANGUAGE -> BOARDCHAT_LANGUAGE" in line
    assert "INSTANCE" not in line and "TELEGRAM" not in line      # empty ones and others' are not named
    assert renamed_notice(Settings({"BOARDCHAT_DB": "a"}, {})) is None


def test_the_old_env_file_variable_still_names_the_file(tmp_path, monkeypatch):
    other = tmp_path / "other.env"
    other.write_text("BOARDCHAT_INSTANCE=from-other-file\n")
    monkeypatch.delenv("BOARDCHAT_ENV_FILE", raising=False)
    monkeypatch.setenv("PARIS_PARIS_ENV_FILE", str(other))
    monkeypatch.chdir(tmp_path)
    assert Settings().get("BOARDCHAT_INSTANCE") == "from-other-file"


def test_the_bots_find_an_old_deployments_database_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert default_database() == "boardchat.sqlite3"
    (tmp_path / "paris-paris.sqlite3").write_bytes(b"")
    assert default_database() == "paris-paris.sqlite3"
    assert database_target(Settings({}, {})) == "paris-paris.sqlite3"
    assert TelegramSettings.from_env(Settings({"TELEGRAM_BOT_TOKEN": "1:a"}, {})).db_path == "paris-paris.sqlite3"
    # once the new file exists (a fresh start, or the operator renamed it) it is the one
    (tmp_path / "boardchat.sqlite3").write_bytes(b"")
    assert default_database() == "boardchat.sqlite3"


def test_terminal_games_are_found_in_an_old_data_folder(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path)}
    assert default_db_path(env, "linux") == tmp_path / "boardchat" / "games.sqlite3"
    (tmp_path / "paris-paris").mkdir()
    assert default_db_path(env, "linux") == tmp_path / "paris-paris" / "games.sqlite3"
    assert default_db_path(dict(env, PARIS_PARIS_DB=str(tmp_path / "x.db")), "linux") == tmp_path / "x.db"
    (tmp_path / "boardchat").mkdir()
    assert user_data_dir(env, "linux") == tmp_path / "boardchat"


def test_the_old_command_is_installed_beside_the_new_one():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == product.DISTRIBUTION
    scripts = project["scripts"]
    assert scripts[product.COMMAND] == scripts[product.OLD_COMMAND] == "bot.cli:main"


def test_the_command_says_once_at_start_which_names_to_change(tmp_path, monkeypatch, capsys):
    from bot.cli import main

    monkeypatch.chdir(tmp_path)                      # no .env here
    monkeypatch.setenv("PARIS_PARIS_LANGUAGE", "de")
    monkeypatch.setenv("PARIS_PARIS_REMINDER_MINUTES", "60")
    assert main(["games", "--db", str(tmp_path / "none.sqlite3")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "PARIS_PARIS_LANGUAGE -> BOARDCHAT_LANGUAGE" in err[0] \
        and "PARIS_PARIS_REMINDER_MINUTES -> BOARDCHAT_REMINDER_MINUTES" in err[0]
    monkeypatch.delenv("PARIS_PARIS_LANGUAGE")
    monkeypatch.delenv("PARIS_PARIS_REMINDER_MINUTES")
    assert main(["games", "--db", str(tmp_path / "none.sqlite3")]) == 0
    assert capsys.readouterr().err == ""
