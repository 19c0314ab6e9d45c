"""The default AI: legal, deterministic, blind to secrets, and better than random."""

import random

import pytest

from engine.paris_paris import Game
from engine.paris_paris.ai import choose_move
from engine.paris_paris.record import from_record, to_record


def _play(n: int, ai_seats: set[int], seed: int) -> Game:
    game = Game.new([f"p{i}" for i in range(n)], seed=seed)
    rng = random.Random(seed)
    move_number = 0
    while not game.is_terminal():
        if game.current_player in ai_seats:
            move = choose_move(game, seed=seed * 1000 + move_number)
            assert game.is_legal(move)
        else:
            move = rng.choice(game.legal_actions())
        game.apply(move)
        move_number += 1
    return game


def test_same_seed_same_move_and_same_game():
    a = _play(3, {0, 1, 2}, seed=11)
    b = _play(3, {0, 1, 2}, seed=11)
    assert to_record(a) == to_record(b)


def test_ai_never_reads_other_players_markers():
    # Two games identical in all that seat 0 may see, differing only in the others' markers.
    base = Game.new(["a", "b", "c"], seed=5)
    record = to_record(base)
    swapped = dict(record)
    markers = dict(record["markers"])
    markers["b"], markers["c"] = markers["c"], markers["b"]
    swapped["markers"] = markers
    other = from_record(swapped)
    for _ in range(8):
        if base.current_player == 0:
            assert choose_move(base, seed=1) == choose_move(other, seed=1)
        move = base.legal_actions()[0]
        base.apply(move)
        other.apply(move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ai_beats_random_players(players):
    games = 40
    wins = sum(0 in _play(players, {0}, seed).winners for seed in range(games))
    # A random seat wins about 1/players of the time; the AI must do far better.
    assert wins / games >= 0.75


def test_ai_refuses_a_finished_game():
    game = _play(2, {0, 1}, seed=3)
    with pytest.raises(ValueError):
        choose_move(game, seed=0)
