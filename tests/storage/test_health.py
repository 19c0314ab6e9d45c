"""``paris-paris health``: exit 0 while the database answers and nothing is overdue, 1 otherwise."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from storage_kit import message, playing, timer

from bot.cli import main
from bot.service.game.model import Changes
from bot.service.storage import SCHEMA_VERSION, open_storage


def health(capsys, *args: str) -> tuple[int, dict]:
    code = main(["health", "--json", *args])
    return code, json.loads(capsys.readouterr().out.strip().splitlines()[-1])


async def commit(target: str, changes: Changes, now: float) -> None:
    storage = await open_storage(target)
    try:
        await storage.commit(changes, now)
    finally:
        await storage.close()


def test_a_database_keeping_up_is_healthy_and_one_falling_behind_is_not(capsys, target):
    asyncio.run(commit(target, Changes(), 0.0))         # a bot has set the database up
    code, report = health(capsys, "--db", target)
    assert code == 0 and report["ok"] and report["schema"] == SCHEMA_VERSION
    now = time.time()
    # A message and a timer due a minute ago: within the default 300 s, still healthy.
    asyncio.run(commit(target, Changes(meta=playing(1), outbox=[message(1)], timers=[timer(1, due=now - 60)]),
                       now - 60))
    assert health(capsys, "--db", target)[0] == 0
    code, report = health(capsys, "--db", target, "--late", "30")
    assert code == 1 and not report["ok"]
    assert (report["late_messages"], report["late_timers"]) == (1, 1)


def test_a_database_that_does_not_answer_is_unhealthy(capsys, tmp_path):
    code, report = health(capsys, "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 1 and not report["ok"] and report["database"] == "postgresql" and report["error"]
    code, report = health(capsys, "--db", str(tmp_path / "missing-dir" / "x.sqlite3"))
    assert code == 1 and report["database"] == "sqlite"


def test_a_missing_or_empty_database_is_unhealthy_and_is_not_created(capsys, target, tmp_path):
    """``health --db typo.sqlite3`` (or an empty PostgreSQL schema): exit 1, saying why, and
    the check creates nothing (no file, no tables)."""
    code, report = health(capsys, "--db", target)
    assert code == 1 and report["ok"] is False and report["error"]
    if report["database"] == "sqlite":
        assert "no database" in report["error"] and not Path(target).exists()
        Path(target).touch()                            # an empty file: there, but no bot's
        code, report = health(capsys, "--db", target)
        assert code == 1 and report["schema"] == 0 and "empty database" in report["error"]
        assert Path(target).stat().st_size == 0
    else:
        assert report["schema"] == 0 and "empty database" in report["error"]
        assert health(capsys, "--db", target)[1]["schema"] == 0          # still no tables
