"""The registry imports a game's engine only when its definition is read, and declares each game's
record format as its definition has it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.registry import GAMES, by_record_format

ROOT = Path(__file__).resolve().parents[2]


def test_each_declared_record_format_is_its_definitions() -> None:
    assert len(GAMES) == 3
    for game_id in GAMES:
        definition = GAMES[game_id]
        assert definition.id == game_id and GAMES.record_format(game_id) == definition.record_format
        assert by_record_format(definition.record_format) is definition
    assert by_record_format("chess-record/1") is None


def test_reading_one_record_format_imports_that_game_only() -> None:
    """In a fresh process: naming the formats imports no game; finding one imports that one."""
    script = ("import sys\n"
              "from engine.registry import GAMES, by_record_format\n"
              "def games():\n"
              "    return sorted(m for m in ('engine.paris_paris', 'engine.paris_connection', 'engine.papa_paolo')\n"
              "                  if m in sys.modules)\n"
              "formats = [GAMES.record_format(g) for g in GAMES]\n"
              "print(len(formats), games())\n"
              "by_record_format('papa-paolo-record/1')\n"
              "print(games())\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    assert out.splitlines() == ["3 []", "['engine.papa_paolo']"]
