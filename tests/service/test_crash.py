"""SIGKILL a game in progress many times; no action lost or doubled, every message sent once."""

from __future__ import annotations

import collections
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiosqlite
import crash_worker
import pytest
import whole_games
from service_helpers import replaced_by_later

WORKER = str(Path(crash_worker.__file__))
KILLS_WANTED = 12         # kills at random points, then the game is let finish
TIME_BUDGET = 20.0        # seconds of killing at most (a loaded machine makes fewer kills of it)


async def _moves(db: str) -> list[tuple[int, str, int]]:
    async with aiosqlite.connect(db) as conn, conn.execute("SELECT n, pick, seat FROM moves ORDER BY n") as cur:
        return [tuple(r) for r in await cur.fetchall()]


async def _outbox(db: str) -> list[tuple[int, str, str, str | None]]:
    async with aiosqlite.connect(db) as conn, conn.execute("SELECT id, state, message_id, slot FROM outbox") as cur:
        return [tuple(r) for r in await cur.fetchall()]


@pytest.mark.parametrize("game_seed", whole_games.cases(2026, 7))
async def test_sigkill_at_random_points(tmp_path, game_seed, monkeypatch):
    monkeypatch.setenv("CRASH_GAME_SEED", str(game_seed))
    monkeypatch.setitem(crash_worker.OPTIONS, "seed", game_seed)
    # The reference: the same game, never interrupted.
    ref_db, ref_sends = str(tmp_path / "ref.sqlite3"), str(tmp_path / "ref.sends")
    await crash_worker.run(ref_db, ref_sends)
    reference = await _moves(ref_db)
    assert len(reference) == 45                                  # 3 seats, 15 rounds

    db, sends = str(tmp_path / "crash.sqlite3"), str(tmp_path / "crash.sends")
    rng = random.Random(game_seed)
    kills = self_kills = runs = 0
    started = time.monotonic()
    done = False
    while not done:
        runs += 1
        assert time.monotonic() - started < TIME_BUDGET + 30, "the game never finished"
        hurry = kills + self_kills >= KILLS_WANTED or time.monotonic() - started > TIME_BUDGET
        kill_prob = 0.0 if hurry else 0.04
        proc = subprocess.Popen([sys.executable, WORKER, db, sends, str(kill_prob), str(rng.randrange(1 << 30))],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if not hurry:
            time.sleep(rng.uniform(0.1, 0.45))
        killed = False
        if proc.poll() is None and not hurry:
            proc.send_signal(signal.SIGKILL)
            killed = True
        out, err = proc.communicate(timeout=60)
        if b"DONE" in out:
            done = True
        elif proc.returncode == -signal.SIGKILL:
            kills += killed
            self_kills += not killed
        else:
            raise AssertionError(err.decode()[-2000:])
    # Killed many times, at many different points.
    assert runs >= 10 and kills + self_kills >= 10, (runs, kills, self_kills)

    # No action lost or doubled: exactly the uninterrupted game's moves.
    assert await _moves(db) == reference
    # Every message sent, and sent exactly once (the platform saw each outbox id once).
    outbox = await _outbox(db)
    assert outbox and all(state == "sent" for _, state, _, _ in outbox)
    assert all(message_id == f"m{oid}" for oid, _, message_id, _ in outbox)
    entries = crash_worker.read_sends(sends)
    seen = collections.Counter(entry["id"] for entry in entries)
    doubled = {oid: n for oid, n in seen.items() if n > 1}
    assert not doubled
    stored = {oid: slot for oid, _, _, slot in outbox}
    assert set(stored) <= set(seen)
    # A slot's message left the outbox once a later one of its slot was delivered.
    assert replaced_by_later({entry["id"]: entry["slot"] for entry in entries}, stored)
    print(f"crash test: {runs} runs, {kills} external kills, {self_kills} self-kills in delivery, "
          f"{len(seen)} messages, {os.path.getsize(sends)} bytes sent")
