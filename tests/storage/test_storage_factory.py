"""Choosing the backend from the settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings, database_target
from bot.service.storage import PostgresStorage, SqliteStorage, storage_for


def test_a_postgresql_url_means_postgresql_and_anything_else_a_sqlite_file():
    assert isinstance(storage_for("postgresql://bot@db:5432/games"), PostgresStorage)
    assert isinstance(storage_for("postgres://bot@db/games"), PostgresStorage)
    sqlite = storage_for("data/games.sqlite3")
    assert isinstance(sqlite, SqliteStorage) and sqlite.path == "data/games.sqlite3"


def test_the_database_url_wins_over_the_sqlite_file_setting():
    def target(**env):
        return database_target(Settings(environ=env, env_file={}))
    assert target() == "paris-paris.sqlite3"
    assert target(PARIS_PARIS_DB="x.sqlite3") == "x.sqlite3"
    assert target(PARIS_PARIS_DB="x.sqlite3", PARIS_PARIS_DATABASE_URL="postgresql://h/db") == "postgresql://h/db"
    assert target(PARIS_PARIS_DATABASE_URL=" ") == "paris-paris.sqlite3"


@pytest.mark.parametrize(("ci", "outcome"), [("", "1 skipped"), ("true", "1 error")])
def test_without_a_server_postgresql_cases_skip_except_under_ci(ci, outcome):
    env = dict(os.environ, CI=ci, PARIS_PARIS_TEST_POSTGRES="postgresql://nobody@127.0.0.1:1/none")
    case = "tests/storage/test_storage_games.py::test_a_new_database_is_at_the_latest_schema[postgres]"
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", case], env=env,
                         cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120)
    assert outcome in run.stdout, run.stdout
    assert (run.returncode == 0) == (ci == "")
