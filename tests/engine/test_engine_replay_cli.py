"""``python -m engine replay FILE``: results, and one line on stderr for every broken record."""

import contextlib
import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from engine_testkit import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.__main__ import main
from engine.paris_paris import Game, result
from engine.paris_paris.record import from_record, to_record

ROOT = Path(__file__).resolve().parents[2]


def run_cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def run_in_process(path: Path) -> subprocess.CompletedProcess:
    """What ``run_cli`` gives, from ``engine.__main__.main`` in this process: the same code without
    starting Python again (about half a second of CPU a start). The tests that start the command
    itself (``run_cli``) keep checking it as a process."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = main(["replay", str(path)])
    return subprocess.CompletedProcess(["engine", "replay", str(path)], status, out.getvalue(), err.getvalue())


def write(tmp_path: Path, record, name="record.json") -> Path:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def finished():
    return random_game(["ann", "bob", "cat"], seed=21)


@pytest.fixture(scope="module")
def in_progress():
    return random_game(["ann", "bob", "cat", "dan"], seed=22, upto=17)


def test_result_of_a_finished_record(tmp_path, finished):
    done = run_cli(write(tmp_path, to_record(finished)))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == json.loads(json.dumps(result(finished)))
    assert out["finished"] is True
    assert out["winners"] == [finished.players[s] for s in finished.winners]
    assert out["scores"] == dict(zip(finished.players, finished.scores, strict=True))
    assert out["shops_on_board"] == dict(zip(finished.players, finished.shops_on_board(), strict=True))
    assert all(owners == sorted(owners) for owners in out["board"].values())
    assert sum(len(o) for o in out["board"].values()) == sum(finished.shops_on_board())
    assert "to_move" not in out and "offer" not in out


def test_result_of_an_in_progress_record(tmp_path, in_progress):
    done = run_cli(write(tmp_path, to_record(in_progress)))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["finished"] is False and "winners" not in out
    assert out["to_move"] == in_progress.players[in_progress.current_player]
    assert out["offer"] == [[t.station, t.colour] for t in in_progress.offered_tiles()]
    assert len(out["offer"]) == 5 - 17 % 4


def test_rules_md_example_record(tmp_path):
    record = {
        "format": "paris-paris-record/1", "players": ["ann", "bob", "cat"],
        "options": {"final_tours": "markers"},
        "stacks": [[["pompidou", "green"], ["louvre", "blue"], ["opera", "red"], ["odeon", "yellow"]]],
        "markers": {"ann": "green", "bob": "red", "cat": "blue"}, "open_marker": None,
        "first_player": "ann",
        "moves": [{"player": "ann", "tile": ["louvre", "blue"]},
                  {"player": "bob", "tile": ["pompidou", "green"], "evict": "ann"}],
    }
    done = run_cli(write(tmp_path, record))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["to_move"] == "cat"
    assert out["board"] == {"louvre": ["ann"], "pompidou": ["bob"]}
    assert out["offer"] == [["opera", "red"], ["odeon", "yellow"]]


def broken(game: Game, change) -> dict:
    record = copy.deepcopy(to_record(game))
    change(record)
    return record


def _full_crossing_record():
    game = from_record({
        "players": ["ann", "bob", "cat"], "options": {},
        "stacks": [[["louvre", "blue"], ["louvre", "purple"], ["tour-eiffel", "blue"], ["belleville", "yellow"]],
                   [["louvre", "blue"], ["arc-de-triomphe", "red"], ["madeleine", "red"], ["bastille", "blue"]]],
        "markers": {"ann": "green", "bob": "red", "cat": "blue"}, "open_marker": None, "first_player": "ann",
        "moves": [{"player": "ann", "tile": ["louvre", "blue"]}, {"player": "bob", "tile": ["louvre", "purple"]},
                  {"player": "cat", "tile": ["tour-eiffel", "blue"]}],
    })
    return to_record(game)


CROSSING = _full_crossing_record()


@pytest.mark.parametrize(("record", "expected"), [
    ({**CROSSING, "moves": [{"player": "bob", "tile": ["louvre", "blue"]}]},
     "move 1: it is ann's turn, not bob's [rule: not_your_turn]"),
    ({**CROSSING, "moves": CROSSING["moves"] + [{"player": "bob", "tile": ["opera", "red"]}]},
     "move 4: opera/red is not on offer [rule: tile_not_on_offer]"),
    ({**CROSSING, "moves": CROSSING["moves"] + [{"player": "bob", "tile": ["louvre", "blue"]}]},
     "move 4: Louvre is full: choose whose shop to evict (ann or bob) [rule: eviction_choice_required]"),
    ({**CROSSING, "moves": CROSSING["moves"] + [{"player": "bob", "tile": ["louvre", "blue"], "evict": "cat"}]},
     "move 4: seat 2 has no shop at Louvre to evict [rule: invalid_eviction]"),
    ({**CROSSING, "moves": CROSSING["moves"] + [{"tile": ["opera", "red"]}]},
     "move 4: a move names its player [rule: malformed]"),
    ({**CROSSING, "moves": [{"player": None, "tile": ["louvre", "blue"]}]},
     "move 1: a move names its player [rule: malformed]"),
    ({**CROSSING, "stacks": [CROSSING["stacks"][0][:3]]},
     "setup: stack 0 holds 3 tiles; with 3 players each holds 4 [rule: setup]"),
    ({**CROSSING, "markers": {"ann": "green", "bob": "green", "cat": "blue"}},
     "setup: markers must all be different colours [rule: setup]"),
    ({**CROSSING, "stacks": [[["tour-eiffel", "blue"]] * 4]},
     "setup: tile tour-eiffel/blue appears more often than the box holds it [rule: setup]"),
    ({**CROSSING, "markers": {"ann": ["green"], "bob": "red", "cat": "blue"}},
     "setup: ann's marker must be a line colour (green, red, blue, purple, yellow), not ['green'] [rule: setup]"),
    ({**CROSSING, "options": {"final_tours": "markers", "speed": "fast"}},
     "setup: unknown option 'speed'; Paris Paris has the options final_tours [rule: setup]"),
    ({**CROSSING, "options": ["markers"]},
     "setup: options must be an object naming options (final_tours), not list [rule: setup]"),
    ({**CROSSING, "players": ["ann", "bob"], "markers": {"ann": "green", "bob": "red"}, "open_marker": ["blue"],
      "stacks": [s[:3] for s in CROSSING["stacks"]], "moves": []},
     "setup: with 2 players a face-up marker is required: a line colour (green, red, blue, purple, yellow), "
     "not ['blue'] [rule: setup]"),
    ({**CROSSING, "stacks": CROSSING["stacks"][:1],
      "moves": CROSSING["moves"] + [{"player": "ann", "tile": ["belleville", "yellow"]}]},
     "move 4: the game is over [rule: game_over]"),
])
def test_rule_breaking_records_exit_2_with_one_line(tmp_path, record, expected):
    done = run_in_process(write(tmp_path, record))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [expected]


def test_invalid_json_and_missing_file(tmp_path):
    done = run_cli(write(tmp_path, "{not json"))
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("setup: the record is not valid JSON")
    done = run_cli(tmp_path / "missing.json")
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1


# Wrong types anywhere must still give exit 2 and one line, never a traceback.
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 99) | st.text(max_size=5)
                    | st.sampled_from(["ann", "bob", "green", "louvre", "blue", "markers"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                max_size=3),
                    max_leaves=8)
PATHS = [("players",), ("options",), ("options", "final_tours"), ("stacks",), ("stacks", 0),
         ("stacks", 0, 0), ("stacks", 0, 0, 1), ("markers",), ("markers", "ann"), ("open_marker",),
         ("first_player",), ("moves",), ("moves", 0), ("moves", 1, "tile"), ("moves", 1, "tile", 0),
         ("moves", 2, "player"), ("moves", 2, "evict"), ("format",), ("seed",), ()]


def _replace(record, path, value):
    if not path:
        return value
    record = copy.deepcopy(record)
    holder = record
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return record


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), JSON)
def test_malformed_records_never_raise_a_traceback(tmp_path_factory, path, value):
    record = _replace(CROSSING, path, value)
    target = tmp_path_factory.mktemp("fuzz") / "r.json"
    target.write_text(json.dumps(record), encoding="utf-8")
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = main(["replay", str(target)])
    if status == 0:
        json.loads(out.getvalue())
    else:
        assert status == 2
        assert len(err.getvalue().splitlines()) == 1
        assert err.getvalue().startswith(("setup: ", "move "))
        assert "[rule: " in err.getvalue()
        # It says what is wrong with the record, not what went wrong inside Python.
        assert not any(internal in err.getvalue() for internal in
                       ("unhashable", "__init__", "argument after", "object is not", "NoneType"))


def test_record_from_standard_input(in_progress):
    done = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, input=json.dumps(to_record(in_progress)))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(result(in_progress)))


def test_names_with_line_breaks_still_give_one_line(tmp_path):
    record = copy.deepcopy(CROSSING)
    record["players"] = ["ann\nx", "bob", "cat"]
    record["markers"] = {"ann\nx": "green", "bob": "red", "cat": "blue"}
    record["first_player"] = "ann\nx"
    record["moves"] = [{"player": "bob", "tile": ["louvre", "blue"]}]
    done = run_cli(write(tmp_path, record))
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["move 1: it is ann x's turn, not bob's [rule: not_your_turn]"]
