"""Records: export, replay (whole builds broken into steps), stored games, and the replay CLI."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pc_testkit import NAMES, build, fixed_game, random_game

from engine.errors import InvalidRecord
from engine.paris_connection.actions import UNDO, Build, Place, Trade
from engine.paris_connection.definition import GAME
from engine.paris_connection.record import FORMAT, from_record, result, to_record
from engine.registry import by_record_format, game

ROOT = Path(__file__).resolve().parents[3]


def state(g):
    return (g.board, g.values, g.storage, g.holdings, g.to_move, g.draft_colour, g.draft_hexes, g.finished,
            g.end_reason, g.winners, g.turns, g.value_history)


def test_registered():
    assert game("paris-connection") is GAME and by_record_format(FORMAT) is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("Paris Connection", 3, 6)


def test_record_shape_and_round_trip():
    g = fixed_game()
    build(g, "yellow", "J8")
    g.apply(Trade("blue", "red", 2))
    g.apply(Build("black"))
    g.apply(Place("J6"))
    g.apply(UNDO)
    g.apply(Place("K5"))                      # left unfinished
    record = json.loads(json.dumps(to_record(g)))
    assert record["format"] == FORMAT and record["map"] == "france-1"
    assert record["players"] == ["ann", "bob", "cat"] and record["first_player"] == "ann"
    assert record["deal"]["bob"] == {"blue": 6, "black": 2, "brown": 2}
    assert record["moves"] == [
        {"player": "ann", "build": {"colour": "yellow", "hexes": ["J8"]}},
        {"player": "bob", "trade": {"return": "blue", "take": "red", "count": 2}},
        {"player": "cat", "unfinished": True, "build": {"colour": "black", "hexes": ["K5"]}},
    ]
    again = from_record(record)
    assert state(again) == state(g)
    assert again.moves == ["build:yellow", "place:J8", "done", "trade:blue:red:2", "build:black", "place:K5"]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_finished_games_replay_and_resume(players, seed):
    g = random_game(players, seed)
    record = json.loads(json.dumps(to_record(g)))
    assert state(from_record(record)) == state(g)
    match = GAME.new_match(NAMES[:players], seed=seed)
    for text in g.moves:
        match.apply(match.parse_choice(text), by=match.to_act()[0])
    assert state(match.state) == state(g)
    resumed = GAME.resume(json.loads(json.dumps(match.stored_setup())), g.moves)
    assert state(resumed.state) == state(g) and resumed.move_count == len(g.moves)
    assert GAME.record_of(match.stored_setup(), g.moves) == to_record(g)


def _record_with(*moves):
    g = fixed_game()
    return {**to_record(g), "moves": list(moves)}


@pytest.mark.parametrize(("moves", "index", "rule"), [
    ([{"player": "ann", "build": {"colour": "red", "hexes": ["J8"]}}], 0, "not_adjacent"),
    ([{"player": "bob", "trade": {"return": "blue", "take": "red", "count": 1}}], 0, "not_your_turn"),
    ([{"player": "ann", "trade": {"return": "blue", "take": "red", "count": 1}},
      {"player": "bob", "trade": {"return": "purple", "take": "red", "count": 1}}], 1, "not_held"),
    ([{"player": "ann", "build": {"colour": "yellow", "hexes": []}}], 0, "nothing_placed"),
    ([{"player": "ann", "build": {"colour": "purple", "hexes": ["L9", "L10", "M11", "M12", "M13", "M14"]}}],
     0, "build_ended"),
    ([{"player": "ann", "build": {"colour": "yellow", "hexes": ["J8", "J8"]}}], 0, "colour_already_there"),
    ([{"player": "ann", "build": {"colour": "yellow", "hexes": ["ZZ9"]}}], 0, "malformed"),
    ([{"player": "ann", "trade": {"return": "blue", "take": "blue", "count": 1}}], 0, "same_colour"),
    ([{"player": "ann", "trade": {"return": "blue", "take": "red", "count": 3}}], 0, "malformed"),
    (["trade"], 0, "malformed"),
    # every move names its player: unnamed, it is refused, not replayed for whoever is to move
    ([{"build": {"colour": "yellow", "hexes": ["J8"]}}], 0, "malformed"),
    ([{"player": None, "build": {"colour": "yellow", "hexes": ["J8"]}}], 0, "malformed"),
    ([{"player": "ann", "build": {"colour": "yellow", "hexes": ["J8"]}},
      {"trade": {"return": "blue", "take": "red", "count": 1}}], 1, "malformed"),
    ([{"player": ["ann"], "build": {"colour": "yellow", "hexes": ["J8"]}}], 0, "malformed"),
])
def test_rule_breaking_records(moves, index, rule):
    with pytest.raises(InvalidRecord) as caught:
        from_record(_record_with(*moves))
    assert caught.value.move_index == index and caught.value.rule == rule
    assert str(caught.value).startswith(f"move {index + 1}: ")


@pytest.mark.parametrize("change", [
    {"format": "nope/1"}, {"map": "moon"}, {"players": ["ann", "bob"]}, {"first_player": "zed"},
    {"start_hexes": {"red": "L7"}}, {"deal": {"ann": {"red": 10}}},
])
def test_bad_setups(change):
    with pytest.raises(InvalidRecord):
        from_record({**_record_with(), **change})


def test_moves_after_the_end_are_refused():
    g = random_game(3, seed=11)
    record = to_record(g)
    record["moves"].append({"player": "ann", "trade": {"return": "red", "take": "blue", "count": 1}})
    with pytest.raises(InvalidRecord) as caught:
        from_record(record)
    assert caught.value.rule == "game_over" and caught.value.move_index == len(record["moves"]) - 1


def test_cli_refuses_a_move_without_a_player(tmp_path):
    record = _record_with({"build": {"colour": "yellow", "hexes": ["J8"]}})
    done = run_cli(tmp_path, record)
    assert done.returncode != 0 and "move 1: a move names its player" in done.stderr + done.stdout


def run_cli(tmp_path, record) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_cli_replays_a_finished_record(tmp_path):
    g = random_game(4, seed=5)
    done = run_cli(tmp_path, to_record(g))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == json.loads(json.dumps(result(g)))
    assert out["finished"] is True and out["winners"] == [g.players[s] for s in g.winners]
    assert set(out) >= {"values", "holdings", "scores", "winners"}


def test_cli_replays_a_game_in_progress(tmp_path):
    g = random_game(3, seed=6, upto=25)
    out = json.loads(run_cli(tmp_path, to_record(g)).stdout)
    assert out["finished"] is False and out["to_move"] == g.players[g.to_move] and "holdings" not in out


def test_cli_names_the_move_and_rule_of_a_broken_record(tmp_path):
    done = run_cli(tmp_path, _record_with(
        {"player": "ann", "trade": {"return": "blue", "take": "red", "count": 1}},
        {"player": "bob", "build": {"colour": "red", "hexes": ["J8"]}}))
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("move 2: J8 is not next to a red locomotive")
    assert lines[0].endswith("[rule: not_adjacent]")
