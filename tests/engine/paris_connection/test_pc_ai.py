"""The default AI: legal, deterministic, blind to other screens, and better than chance."""

import dataclasses

import pytest
from pc_testkit import NAMES

from engine.paris_connection.ai import choose
from engine.paris_connection.definition import GAME
from engine.paris_connection.selfplay import play


def test_ai_games_end_with_legal_steps():
    for players in (3, 6):
        match = play(players, seed=players, ai_seats=set(range(players)))
        assert match.is_terminal() and match.winners


def test_deterministic_for_a_seed():
    match = GAME.new_match(NAMES[:4], seed=9)
    seat = match.to_act()[0]
    assert choose(match, seat, seed=1) == choose(match, seat, seed=1)


def test_blind_to_other_screens():
    # Swapping two opponents' holdings changes nothing the AI may see: nor must its choices.
    for seed in range(6):
        match = GAME.new_match(NAMES[:4], seed=seed)
        seat = match.to_act()[0]
        a, b = [s for s in range(4) if s != seat][:2]
        twin = match.copy()
        twin.state.holdings[a], twin.state.holdings[b] = twin.state.holdings[b], twin.state.holdings[a]
        assert dataclasses.replace(twin.view(seat)) == match.view(seat)
        assert choose(twin, seat, seed=seed) == choose(match, seat, seed=seed)


def test_beats_random_players():
    wins = sum(seed % 4 in play(4, seed, ai_seats={seed % 4}).winners for seed in range(8))
    assert wins >= 6             # chance: 2 of 8; measured: python -m engine.paris_connection.selfplay --vs-random


def test_levels_easy_and_normal_through_the_definition():
    assert GAME.ai_levels == ("easy", "normal", "strong")
    match = GAME.new_match(NAMES[:5], seed=21)
    differs = 0
    while not match.is_terminal():
        seat = match.to_act()[0]
        easy = GAME.choose(match, seat, seed=match.move_count, level="easy")
        assert easy == GAME.choose(match, seat, seed=match.move_count, level="easy")   # deterministic
        assert match.check(easy, by=seat) == easy                                       # legal
        normal = GAME.choose(match, seat, seed=match.move_count, level="normal")
        differs += easy != normal
        match.apply(easy, by=seat)
    assert differs > 5           # easy is not normal under another name


def test_an_unknown_level_is_refused():
    match = GAME.new_match(NAMES[:3], seed=2)
    with pytest.raises(ValueError, match="'expert'; Paris Connection has easy, normal, strong"):
        GAME.choose(match, match.to_act()[0], seed=1, level="expert")
