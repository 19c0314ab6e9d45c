"""The drawing processes (and multiprocessing's resource tracker) end with the bot process,
however it ends: here with a SIGKILL, as an out-of-memory kill or a crash ends it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import drawing_worker
import pytest

WORKER = str(Path(drawing_worker.__file__))
PROC = Path("/proc")

pytestmark = pytest.mark.skipif(not (PROC / "self" / "stat").exists(), reason="reads /proc (Linux)")


def _stat(pid: int) -> tuple[str, int, str] | None:
    """(state, parent pid, start time) of a live process; None once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()      # the name in parentheses may hold spaces
    return fields[0], int(fields[1]), fields[19]


def descendants(pid: int) -> dict[int, str]:
    """Every process under ``pid``, with its start time (a pid used again is another process)."""
    by_parent: dict[int, list[tuple[int, str]]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            by_parent.setdefault(stat[1], []).append((int(entry.name), stat[2]))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child, started in by_parent.get(todo.pop(), []):
            found[child] = started
            todo.append(child)
    return found


def command(pid: int) -> str:
    return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()


def alive(pid: int, started: str) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[0] not in "ZX"    # a zombie has ended


def test_the_drawing_processes_end_when_the_bot_is_killed(tmp_path):
    bot = subprocess.Popen([sys.executable, WORKER, str(tmp_path / "games.sqlite3")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children: dict[int, str] = {}
    trackers: set[int] = set()
    try:
        line = bot.stdout.readline()
        assert line == "drawn\n", bot.stderr.read() if bot.poll() is not None else line
        children = descendants(bot.pid)
        commands = {pid: command(pid) for pid in children}
        trackers = {pid for pid, c in commands.items() if "resource_tracker" in c}
        # the drawing processes: two, unless the first drawing ended before the second was asked
        assert sum("spawn_main" in c for c in commands.values()) >= 1
        assert len(trackers) == 1                                           # multiprocessing's
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        assert _left(children, seconds=5) == []
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        # What a failure left is not left to the machine: the drawing processes first, so
        # that the tracker unlinks their semaphores and ends by itself.
        for pid in _left({p: s for p, s in children.items() if p not in trackers}, seconds=0):
            os.kill(pid, signal.SIGKILL)
        for pid in _left(children, seconds=5):
            os.kill(pid, signal.SIGKILL)


def _left(processes: dict[int, str], seconds: float) -> list[int]:
    """The processes still alive after waiting at most ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(*process) for process in processes.items()):
        time.sleep(0.05)
    return [pid for pid, started in processes.items() if alive(pid, started)]
