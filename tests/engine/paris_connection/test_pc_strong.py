"""The strong level: legal, deterministic for a seed with a playout budget, blind to the other
screens, and its guesses at them always agree with everything public."""

import dataclasses
import random

from pc_testkit import NAMES

from engine.paris_connection.ai_search import Knowledge
from engine.paris_connection.board import COMPANIES
from engine.paris_connection.definition import GAME

BUDGET = 12          # playouts: two determinizations of the six candidate turns


def advance(match, moves: int):
    """Play normal AI moves until ``moves`` are made and no build is under way."""
    while not match.is_terminal() and (match.move_count < moves or match.state.building):
        seat = match.to_act()[0]
        match.apply(GAME.choose(match, seat, seed=match.move_count), by=seat)
    return match


def test_strong_is_legal_and_deterministic_for_a_seed():
    for players, moves in ((3, 0), (4, 40), (6, 90)):
        match = advance(GAME.new_match(NAMES[:players], seed=players), moves)
        seat = match.to_act()[0]
        choice = GAME.choose(match, seat, seed=5, level="strong", budget=BUDGET)
        assert match.check(choice, by=seat) == choice
        assert GAME.choose(match, seat, seed=5, level="strong", budget=BUDGET) == choice


def test_strong_sees_only_its_seats_view():
    # Swapping two opponents' screens of the same size (trades made and all) leaves the seat's
    # view and log as they were: the search must not change either.
    checked = 0
    for seed in (1, 2, 3):
        match = GAME.new_match(NAMES[:4], seed=seed)
        for moves in (0, 50, 100, 150):
            if advance(match, moves).is_terminal():
                break
            seat = match.to_act()[0]
            screens = match.view(seat).screens
            pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)
                     if seat not in (a, b) and screens[a] == screens[b]
                     and match.state.holdings[a] != match.state.holdings[b]]
            if not pairs:
                continue
            (a, b), *_ = pairs
            twin = match.copy()
            twin.state.holdings[a], twin.state.holdings[b] = twin.state.holdings[b], twin.state.holdings[a]
            assert dataclasses.replace(twin.view(seat)) == match.view(seat)
            assert twin.log_for(seat) == match.log_for(seat)
            assert (GAME.choose(twin, seat, seed=seed, level="strong", budget=BUDGET)
                    == GAME.choose(match, seat, seed=seed, level="strong", budget=BUDGET))
            checked += 1
    assert checked >= 4


def test_inside_a_build_strong_places_as_the_normal_ai():
    match = GAME.new_match(NAMES[:3], seed=8)
    while not match.state.building:
        seat = match.to_act()[0]
        match.apply(GAME.choose(match, seat, seed=match.move_count), by=seat)
    seat = match.to_act()[0]
    assert (GAME.choose(match, seat, seed=3, level="strong", budget=BUDGET)
            == GAME.choose(match, seat, seed=3, level="normal"))


def test_guessed_screens_agree_with_every_public_fact():
    checked = 0
    for players in (3, 4, 6):
        match = GAME.new_match(NAMES[:players], seed=players * 7)
        for moves in range(20, 260, 40):
            advance(match, moves)
            if match.is_terminal():
                break
            seat = match.to_act()[0]
            knowledge = Knowledge.of(match.view(seat), match.log_for(seat))
            truth = [[held[c] for c in COMPANIES] for held in match.state.holdings]
            assert knowledge._misses(truth) == 0          # the real screens fit the trades
            rng = random.Random(moves)
            for _ in range(5):
                guess = knowledge.determinize(rng)
                counts = [[held[c] for c in COMPANIES] for held in guess]
                assert guess[seat] == match.state.holdings[seat]
                assert [sum(c) for c in counts] == list(match.view(seat).screens)
                for i in range(len(COMPANIES)):     # the others hold the public pool
                    assert sum(counts[s][i] for s in range(players) if s != seat) == knowledge.pool[i]
                    assert knowledge.pool[i] == sum(truth[s][i] for s in range(players) if s != seat)
                assert knowledge._misses(counts) == 0     # and every public trade was possible
                checked += 1
    assert checked > 40
