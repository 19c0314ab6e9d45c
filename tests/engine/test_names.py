"""Player names every game refuses, and the replay tool says so in one line (no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.errors import InvalidSetup
from engine.registry import GAMES

BAD_NAMES = [["\ud800", "bob", "cat"], ["", "bob", "cat"], ["ann", "ann", "cat"]]


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("players", BAD_NAMES)
def test_bad_names_are_refused_by_every_game(game_id, players):
    with pytest.raises(InvalidSetup):
        GAMES[game_id].new_match(players, seed=1)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_record_with_an_unwritable_name_is_refused_in_one_line(tmp_path, game_id):
    definition = GAMES[game_id]
    record = definition.new_match(["ann", "bob", "cat"], seed=3).to_record()
    text = json.dumps(record).replace('"ann"', '"\\ud800"')
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "not valid text" in done.stderr and "Traceback" not in done.stderr
