"""Records (PAPA_PAOLO.md §12): the format, its strictness, replay through ``python -m engine replay``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from pp_testkit import play_out

from engine.errors import InvalidRecord
from engine.papa_paolo.definition import GAME
from engine.papa_paolo.errors import MalformedInput
from engine.papa_paolo.game import Phase
from engine.papa_paolo.record import from_record, game_from_setup, parse_move, play_move, result, to_record
from engine.registry import by_record_format


@pytest.fixture(scope="module")
def finished():
    return play_out(3, 7, {"first_player_coin": True})


def test_record_shape(finished):
    record = finished.to_record()
    assert record["format"] == "papa-paolo-record/1" and by_record_format(record["format"]) is GAME
    assert set(record) == {"format", "players", "options", "setup", "moves"}
    assert set(record["setup"]) == {"starting_tiles", "city_stack", "coins", "face_down_coin", "investment_stacks"}
    assert len(record["setup"]["city_stack"]) == 84 and len(set(record["setup"]["city_stack"])) == 84
    assert all("player" in m for m in record["moves"])
    kinds = {next(k for k in m if k != "player") for m in record["moves"]}
    assert kinds <= {"place", "stairs", "invest", "late", "resolve", "deliver"} and "deliver" in kinds
    places = [m for m in record["moves"] if "place" in m]
    assert len(places) == 5 * 4 * 3                       # every marker of every round, whole actions
    assert all(("take" in m) != ("action" in m) for m in places)


def test_replay_prints_the_result(finished, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished.to_record()))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed == result(finished.state)
    assert printed["finished"] and printed["round"] == 5 and printed["phase"] == 6
    assert set(printed["scores"]) == set(finished.players) and printed["winners"]
    names = set(printed["players"][finished.players[0]])
    assert names == {"lire", "tracks", "delivered", "pizzas_left", "completed"}


def test_every_prefix_replays(finished):
    record = finished.to_record()
    for cut in (0, 1, 17, len(record["moves"]) // 2):
        partial = {**record, "moves": record["moves"][:cut]}
        out = result(from_record(partial))
        assert not out["finished"] and out["to_act"] and 1 <= out["phase"] <= 5


def _refused(record) -> InvalidRecord:
    with pytest.raises(InvalidRecord) as info:
        from_record(json.loads(json.dumps(record)))
    return info.value


def test_broken_records_are_refused_naming_move_and_rule(finished, tmp_path):
    record = finished.to_record()
    wrong_player = copy.deepcopy(record)
    first = wrong_player["moves"][0]["player"]
    wrong_player["moves"][0]["player"] = next(p for p in record["players"] if p != first)
    error = _refused(wrong_player)
    assert error.move_index == 0 and error.rule == "not_your_turn"
    taken = copy.deepcopy(record)
    taken["moves"][1]["place"] = taken["moves"][0]["place"]
    error = _refused(taken)
    assert error.move_index == 1 and error.rule == "space_taken"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(taken))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "move 2" in out.stderr and "space_taken" in out.stderr


def test_moves_are_read_into_whole_moves_and_kept_as_written(finished):
    record = finished.to_record()
    game = game_from_setup(record)
    kinds = set()
    for move in record["moves"]:
        data = {k: v for k, v in move.items() if k != "player"}
        parsed = parse_move(game.phase, data)
        kinds.add(type(parsed).__name__)
        assert parsed.as_record() == data
        play_move(game, game.players.index(move["player"]), data)
    assert {"TakeTile", "PlaceAction", "Bid", "Settle", "Deliver"} <= kinds
    assert to_record(game) == record
    # A move written with its keys in another order replays, and the record keeps it as written.
    turned = copy.deepcopy(record)
    first = turned["moves"][0]
    turned["moves"][0] = dict(reversed(first.items()))
    again = from_record(turned)
    assert json.dumps(to_record(again)["moves"][0]) == json.dumps({"player": first["player"],
                                                                   **dict(reversed(first.items()))})
    with pytest.raises(MalformedInput):
        parse_move(Phase.BID, {"stairs": [1]})
    with pytest.raises(MalformedInput):
        parse_move(Phase.PLACE, {"stairs": [1, 1]})


def test_strictness(finished):
    record = finished.to_record()
    for change, rule in [
        (lambda r: r.update(extra=1), "unknown_key"),
        (lambda r: r["setup"].update(extra=1), "setup"),
        (lambda r: r["setup"].pop("face_down_coin"), "setup"),
        (lambda r: r["setup"]["city_stack"].pop(), "setup"),
        (lambda r: r["options"].update(two_player_preview=True), "setup"),
        (lambda r: r["options"].update(reverse_bid_order=True), "setup"),
        (lambda r: r["moves"][0].update(note="hi"), "malformed"),
        (lambda r: r["setup"]["coins"][0].__setitem__(0, 9), "setup"),
    ]:
        broken = copy.deepcopy(record)
        change(broken)
        assert _refused(broken).rule == rule
    plain = copy.deepcopy(record)
    plain["options"] = {}
    plain["setup"].pop("face_down_coin")
    del plain["moves"][3:]
    from_record(plain)                                   # options may be absent: all off


def test_face_down_coin_only_with_its_option():
    match = GAME.new_match(["a", "b"], seed=3)
    record = match.to_record()
    assert "face_down_coin" not in record["setup"]
    record["setup"]["face_down_coin"] = [0] * 5
    assert _refused(record).rule == "setup"


def test_resume_from_seat_and_step_pairs(finished):
    pairs = list(finished.state.moves)
    assert all(isinstance(seat, int) and isinstance(text, str) for seat, text in pairs)
    again = GAME.resume(finished.stored_setup(), pairs)
    assert again.to_record() == finished.to_record()
    assert [again.moves_by(s) for s in range(3)] == [finished.moves_by(s) for s in range(3)]
    with pytest.raises(InvalidRecord) as info:
        GAME.resume(finished.stored_setup(), [(1 - pairs[0][0] % 2, pairs[0][1]), *pairs[1:]])
    assert info.value.move_index == 0
