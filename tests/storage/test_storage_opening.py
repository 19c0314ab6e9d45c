"""Two processes opening one new SQLite file at the same instant (a Telegram and a Discord
process started together): both start, neither dies with "database is locked"."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3

from opening_worker import open_each

from bot.service.storage import open_storage

PAIRS = 20


async def test_two_processes_opening_one_new_file_at_once_both_start(tmp_path):
    # spawn: fresh interpreters, as two bots started together are (no inherited event loop)
    context = multiprocessing.get_context("spawn")
    barrier, errors = context.Barrier(2), context.Queue()
    paths = [str(tmp_path / f"games-{i}.sqlite3") for i in range(PAIRS)]
    workers = [context.Process(target=open_each, args=(barrier, paths, errors)) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        found = [error for _ in workers for error in errors.get(timeout=120)]
    finally:
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
    assert found == []
    assert [worker.exitcode for worker in workers] == [0, 0]
    for path in paths:           # each file was set up once, completely
        storage = await open_storage(path)
        try:
            assert await storage.schema_version() > 0
        finally:
            await storage.close()
        with contextlib.closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
