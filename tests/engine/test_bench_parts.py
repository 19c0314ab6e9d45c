"""``python -m engine.bench --parts``: the moves it reads back are the record's, in their phases."""

from __future__ import annotations

from engine.bench import _moves_by_phase, main, play_random_papa
from engine.papa_paolo import record
from engine.papa_paolo.game import Phase


def test_each_move_is_read_in_the_phase_it_was_made_in():
    rec = record.to_record(play_random_papa(5))
    moves = _moves_by_phase(rec)
    assert len(moves) == len(rec["moves"]) and {phase for phase, _ in moves} >= {Phase.PLACE, Phase.BID, Phase.DELIVER}
    for (phase, data), move in zip(moves, rec["moves"], strict=True):
        assert {"player": move["player"], **record.parse_move(phase, data).as_record()} == move


def test_the_parts_are_printed(capsys):
    main(["--parts", "--runs", "1"])
    replay, random_game = capsys.readouterr().out.splitlines()
    assert replay.startswith("Papà Paolo, a 4-player record replayed:") and "reading the moves" in replay
    assert random_game.startswith("Papà Paolo, a random 4-player game: listing the steps")
