"""Choosing the backend from the settings."""

from __future__ import annotations

import pytest
from storage_kit import create_schema_or_skip

from bot.config import Settings, database_target
from bot.service.storage import PostgresStorage, SqliteStorage, storage_for


def test_a_postgresql_url_means_postgresql_and_anything_else_a_sqlite_file():
    assert isinstance(storage_for("postgresql://bot@db:5432/games"), PostgresStorage)
    assert isinstance(storage_for("postgres://bot@db/games"), PostgresStorage)
    sqlite = storage_for("data/games.sqlite3")
    assert isinstance(sqlite, SqliteStorage) and sqlite.path == "data/games.sqlite3"


def test_the_database_url_wins_over_the_sqlite_file_setting(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def target(**env):
        return database_target(Settings(environ=env, env_file={}))
    assert target() == "boardchat.sqlite3"
    assert target(BOARDCHAT_DB="x.sqlite3") == "x.sqlite3"
    assert target(BOARDCHAT_DB="x.sqlite3", BOARDCHAT_DATABASE_URL="postgresql://h/db") == "postgresql://h/db"
    assert target(BOARDCHAT_DATABASE_URL=" ") == "boardchat.sqlite3"


@pytest.mark.parametrize(("ci", "outcome"), [("", pytest.skip.Exception), ("true", pytest.fail.Exception)])
def test_without_a_server_postgresql_cases_skip_except_under_ci(monkeypatch, ci, outcome):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="no PostgreSQL server at postgresql://nobody@127.0.0.1:1/none"):
        create_schema_or_skip("postgresql://nobody@127.0.0.1:1/none", "unused")
