"""Opening SQLite: two processes opening one new file at the same instant (a Telegram and a
Discord process started together) both start, neither dies with "database is locked"; a
failed open leaves no thread behind."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3

import pytest
from opening_worker import open_each

from bot.service.storage import open_storage, storage_for

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


def test_a_failed_open_leaves_no_connection_thread_behind(tmp_path, monkeypatch):
    """A database that cannot be opened (a missing directory): the error reaches the caller
    and aiosqlite's connection thread ends with the event loop that started it; it used to
    outlive it and fail with "Event loop is closed" (a warning at a later test)."""
    import asyncio
    import threading

    failures = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(repr(args.exc_value)))
    before = set(threading.enumerate())

    async def open_missing() -> None:
        storage = storage_for(str(tmp_path / "missing-dir" / "games.sqlite3"))
        with pytest.raises(sqlite3.OperationalError):
            await storage.open()

    for _ in range(10):
        asyncio.run(open_missing())
    assert failures == []
    assert [t for t in set(threading.enumerate()) - before if t.is_alive()] == []
