"""A replay is quiet: ``from_record`` and the bot's restore (``GAME.resume``) play the moves for the
state only, building no events and writing no record texts. The log is built on first read, by
playing the same moves again from the same deal, and equals the log of the game as it was played
(with the events of moves made since); the texts are written when read. A view, a copy and a
pickled match (the bot's snapshots) need neither until someone reads them."""

from __future__ import annotations

import json
import pickle

import pytest
from pp_testkit import NAMES, play_out, random_match

from engine.errors import InvalidRecord
from engine.papa_paolo.definition import GAME
from engine.papa_paolo.record import from_record, game_from_setup, play_move, to_record


def _moves(match) -> list[tuple[int, str]]:
    return list(match.state.moves)


@pytest.mark.parametrize(("n", "seed"), [(2, 31), (3, 32), (4, 33)])
def test_a_record_replays_quietly_and_its_log_is_built_when_read(n, seed):
    record = json.loads(json.dumps(to_record(play_out(n, seed).state)))
    game = from_record(record)
    dealt = len(game_from_setup(record).log)
    assert game.log_size() == dealt            # the set-up's events only: none built for the moves
    loud = game_from_setup(record)
    for move in record["moves"]:
        play_move(loud, loud.players.index(move["player"]), {k: v for k, v in move.items() if k != "player"})
    assert game.record_moves == loud.record_moves and to_record(game) == record
    assert game.log == loud.log and game.log_size() == len(loud.log) > dealt + len(record["moves"])
    assert game.log is game.log                # built once, then kept


@pytest.mark.parametrize(("n", "seed"), [(2, 41), (3, 42), (4, 43)])
def test_a_restore_equals_the_game_played_with_the_moves_since(n, seed):
    """Restored at many points (a delivery plan half drawn among them), then played on: the same
    events from each move, log, record and views as the game played throughout."""
    live = list(random_match(n, seed))
    steps = _moves(live[-1])
    played = GAME.new_match(list(NAMES[:n]), seed=seed)
    for cut in range(0, len(steps), 9):
        restored = GAME.resume(played.stored_setup(), steps[:cut])
        reference = GAME.new_match(list(NAMES[:n]), seed=seed)
        for seat, text in steps[:cut]:
            reference.apply(reference.parse_choice(text), by=seat)
        held = restored.state.log_size()
        assert held < len(reference.log) or cut == 0            # the set-up's events only
        assert [restored.view(s) for s in range(n)] == [reference.view(s) for s in range(n)]
        assert restored.state.log_size() == held                # a view built no log
        for seat, text in steps[cut:cut + 3]:
            assert restored.apply(restored.parse_choice(text), by=seat) == \
                reference.apply(reference.parse_choice(text), by=seat)
        copied = restored.copy()
        again = pickle.loads(pickle.dumps(restored))
        for match in (restored, copied, again):
            assert match.to_record() == reference.to_record()
            assert match.log == reference.log
            assert match.rhythm.cycle == reference.rhythm.cycle
            assert [match.log_for(s) for s in range(n)] == [reference.log_for(s) for s in range(n)]


def test_a_refused_move_in_a_restore_names_it():
    steps = _moves(play_out(2, 51))
    broken = [*steps[:5], (steps[5][0], "stairs 9,9"), *steps[6:]]
    with pytest.raises(InvalidRecord) as caught:
        GAME.resume(GAME.new_match(list(NAMES[:2]), seed=51).stored_setup(), broken)
    assert caught.value.move_index == 5
