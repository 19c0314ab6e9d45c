"""SIGKILL Tiny Hands while three humans plan at once: after each restart the platform presses
its unanswered press again, and still no step is lost or doubled and every message goes out once."""

from __future__ import annotations

import collections
import json
import random
import signal
import subprocess
import sys
from pathlib import Path

import aiosqlite
import tiny_crash_worker as worker
from service_helpers import replaced_by_later
from tinygame import GAME

WORKER = str(Path(worker.__file__))


async def stored(db: str):
    """The stored game's moves as (seat, text) pairs, and the match they make (None before the start)."""
    async with aiosqlite.connect(db) as conn:
        async with conn.execute("SELECT setup FROM games ORDER BY id LIMIT 1") as cur:
            row = await cur.fetchone()
        async with conn.execute("SELECT seat, pick FROM moves ORDER BY n") as cur:
            moves = [tuple(r) for r in await cur.fetchall()]
    setup = json.loads(row[0]) if row and row[0] else None
    return moves, None if setup is None else GAME.resume(setup, moves)


def mid_phase(match) -> bool:
    """Some seats have chosen (or are choosing) in the simultaneous phase and some have not."""
    if match is None or match.is_terminal() or len(match.to_act()) < 2:
        return False
    view = match.view(None)
    return 0 < len(view.ready) < match.num_players or any(match.rhythm.in_decision(s) for s in range(match.num_players))


def by_seat(moves) -> dict[int, list[str]]:
    seats: dict[int, list[str]] = collections.defaultdict(list)
    for seat, text in moves:
        seats[seat].append(text)
    return dict(seats)


async def test_sigkill_mid_phase_loses_and_doubles_nothing(tmp_path):
    reference = tmp_path / "ref"
    await worker.run(f"{reference}.sqlite3", f"{reference}.sends", f"{reference}.presses")
    expected, finished = await stored(f"{reference}.sqlite3")
    assert finished.is_terminal()

    db, sends, presses = (str(tmp_path / f"crash.{ext}") for ext in ("sqlite3", "sends", "presses"))
    rng = random.Random(17)
    runs = kills = mid = 0
    while True:
        runs += 1
        assert runs < 60, "the game never finished"
        # Each run dies after a few presses (or inside a delivery) until at least five kills, three of
        # them mid-phase, have happened; then it may finish. (Where a kill lands depends on delivery
        # timing, so the loop goes on until the cases the test is about have occurred.)
        die_after = rng.randint(3, 9) if (kills < 5 or mid < 3) and runs < 40 else 0
        proc = subprocess.run([sys.executable, WORKER, db, sends, presses, "0.02" if die_after else "0",
                               str(rng.randrange(1 << 30)), str(die_after)], capture_output=True, timeout=120)
        if b"DONE" in proc.stdout:
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()[-2000:]
        kills += 1
        mid += mid_phase((await stored(db))[1])
    assert kills >= 5 and mid >= 3, (runs, kills, mid)     # deterministic for these seeds

    # Every seat made exactly the uninterrupted game's choices: none lost, none applied twice.
    moves, match = await stored(db)
    assert by_seat(moves) == by_seat(expected)
    assert match.is_terminal() and match.returns() == finished.returns()
    # Every message went out, exactly once.
    async with aiosqlite.connect(db) as conn, conn.execute("SELECT id, state, mode, slot FROM outbox") as cur:
        rows = await cur.fetchall()
    outbox = {oid: state for oid, state, _, _ in rows}
    assert outbox and set(outbox.values()) == {"sent"}
    entries = worker.read_lines(sends)
    sent = collections.Counter(entry["id"] for entry in entries)
    assert max(sent.values()) == 1
    # What went out and is no longer stored was replaced by a later message of its slot.
    assert replaced_by_later({entry["id"]: entry["slot"] for entry in entries}, {oid: slot for oid, _, _, slot in rows})
    # The rest are edits that would have shown just what their message showed: recorded, never sent.
    assert {mode for oid, _, mode, _ in rows if oid not in sent} <= {"edit"}
    print(f"tiny crash test: {runs} runs, {kills} kills, {mid} in the middle of a phase")
