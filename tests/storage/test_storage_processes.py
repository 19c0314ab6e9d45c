"""Several OS processes on one database: distinct game ids, one winner per contested commit."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from storage_kit import lobby, playing

from bot.contract import Chat, User
from bot.service import GameService, ManualClock
from bot.service.game.model import Changes
from bot.service.storage import open_storage, storage_for

WORKER = str(Path(__file__).with_name("storage_worker.py"))
ROOT = str(Path(__file__).resolve().parents[2])


def run_at_once(target: str, *commands: list[str]) -> list[str]:
    """Start one worker per command, let them all act once every one is ready; their outputs."""
    procs = [subprocess.Popen([sys.executable, WORKER, target, *cmd], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for cmd in commands]
    # A worker that never says "ready" must not hang the suite: after 120 s all are killed,
    # and the reads below see the end of their output (a failure naming what they printed).
    watchdog = threading.Timer(120, lambda: [proc.kill() for proc in procs])
    watchdog.start()
    try:
        for proc in procs:
            line = proc.stdout.readline()
            assert line == "ready\n", (line, proc.stderr.read() if proc.poll() is not None else "")
        for proc in procs:
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outputs = []
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            outputs.append(out.strip())
        return outputs
    finally:
        watchdog.cancel()
        for proc in procs:
            if proc.poll() is None:
                proc.kill()


async def test_two_processes_creating_games_get_distinct_ids(target):
    outputs = run_at_once(target, ["create", "50"], ["create", "50"])
    ids = [gid for out in outputs for gid in json.loads(out)]
    assert len(ids) == 100 and len(set(ids)) == 100
    storage = await open_storage(target)
    try:
        assert len(await storage.load_games(ids)) == 100
        assert len(await storage.active_games()) == 100
    finally:
        await storage.close()


async def test_two_processes_pressing_the_same_turn_one_wins(target):
    storage = await open_storage(target)
    try:
        await storage.commit(Changes(meta=playing(1)), 0.0)
        outputs = run_at_once(target, ["move", "1"], ["move", "1"])
        assert sorted(outputs) == ["conflict", "ok"]
        meta, moves = await storage.load_game(1)
        winner = outputs.index("ok")
        assert len(moves) == 1 and meta.moves == 1 and meta.version == 2
        assert len(await storage.outbox_rows(1)) == 1                # the loser's message is not stored
        assert moves[0][1].startswith("by-") and winner in (0, 1)
    finally:
        await storage.close()


async def test_two_processes_seating_players_in_one_lobby_the_loser_gets_conflict(target):
    storage = await open_storage(target)
    try:
        await storage.commit(Changes(meta=lobby(1)), 0.0)
        outputs = run_at_once(target, ["seat", "1", "bob"], ["seat", "1", "cy"])
        assert sorted(outputs) == ["conflict", "ok"]
        meta, _ = await storage.load_game(1)
        seated = ["bob", "cy"][outputs.index("ok")]
        assert [s.user_id for s in meta.seats] == ["ann", seated]
    finally:
        await storage.close()


async def test_two_services_on_one_database_number_their_games_apart(target):
    """The defect this fixes: each service counted game ids on its own, so both made game 1."""
    first = await GameService.open(storage=storage_for(target), clock=ManualClock())
    second = await GameService.open(storage=storage_for(target), clock=ManualClock())
    try:
        ids = []
        for n in range(4):
            service = (first, second)[n % 2]
            reply = await service.new_game(Chat("fake", f"chat{n}", ""), User("fake", f"u{n}", f"U{n}"))
            ids.append(reply.extra.game_id)
        assert ids == [1, 2, 3, 4]
    finally:
        await first.close()
        await second.close()
