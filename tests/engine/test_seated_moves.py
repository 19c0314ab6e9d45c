"""Moves stored with their seats (issue 17): ``resume`` takes (seat, text) pairs and checks the
seat, ``moves_by`` counts each seat's choices however the match was made (played, resumed, read
from a record, copied), and the declarations say how each game is played."""

from __future__ import annotations

import random

import pytest

from engine.errors import InvalidRecord
from engine.interface import Dynamics, Information
from engine.registry import GAMES

BUILTIN = ("paris-paris", "paris-connection")


def played(game_id: str, steps: int, seed: int = 3):
    """A match after ``steps`` random legal choices, with the (seat, text) of each."""
    definition = GAMES[game_id]
    match = definition.new_match(["Ann", "Bob", "Cy"], seed=seed)
    rng, moves = random.Random(seed), []
    for _ in range(steps):
        seat = match.to_act()[0]
        choice = rng.choice(match.legal_choices(seat))
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))
    return match, moves


@pytest.mark.parametrize("game_id", BUILTIN)
def test_resume_with_seats_gives_the_same_match_and_counts(game_id):
    definition = GAMES[game_id]
    match, moves = played(game_id, 25)
    counts = [sum(1 for s, _ in moves if s == seat) for seat in range(3)]
    assert [match.moves_by(seat) for seat in range(3)] == counts and sum(counts) == match.move_count
    for again in (definition.resume(match.stored_setup(), moves),
                  definition.resume(match.stored_setup(), [text for _, text in moves]),   # bare texts
                  match.copy()):
        assert again.to_record() == match.to_record()
        assert [again.moves_by(seat) for seat in range(3)] == counts
    # A record keeps whole decisions (an undone step is gone): its replay counts its own steps.
    from_file = definition.from_record(match.to_record())
    assert from_file.to_record() == match.to_record()
    assert sum(from_file.moves_by(seat) for seat in range(3)) == from_file.move_count
    copy = match.copy()
    seat = copy.to_act()[0]
    copy.apply(copy.legal_choices(seat)[0], by=seat)
    assert copy.moves_by(seat) == counts[seat] + 1 and match.moves_by(seat) == counts[seat]   # independent


@pytest.mark.parametrize("game_id", BUILTIN)
def test_a_stored_move_of_the_wrong_seat_is_an_invalid_record(game_id):
    definition = GAMES[game_id]
    match, moves = played(game_id, 6)
    seat, text = moves[-1]
    wrong = moves[:-1] + [((seat + 1) % 3, text)]
    with pytest.raises(InvalidRecord):
        definition.resume(match.stored_setup(), wrong)


def test_the_games_declare_how_they_are_played():
    for game_id in BUILTIN:
        assert GAMES[game_id].dynamics == Dynamics.SEQUENTIAL == "sequential"
        assert GAMES[game_id].information == Information.IMPERFECT == "imperfect"
