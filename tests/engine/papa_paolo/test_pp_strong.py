"""The strong Papà Paolo AI: it builds its games from its seat's view and log alone, chooses legal
steps, repeats itself for a seed, and twins that differ only in what the seat cannot see get the
same choice."""

from __future__ import annotations

import random

import pytest

from engine.papa_paolo import components as C
from engine.papa_paolo.ai_search import SEARCHED, Knowledge, search
from engine.papa_paolo.definition import GAME, _WholeTake
from engine.papa_paolo.view import view_of


def _ai_choices(match, seat):
    """The seat's choices as the AIs see them: without a person's shortcuts (the search weighs
    each through the normal AI, which plays the step-by-step paths)."""
    return _WholeTake(match).legal_choices(seat)

BUDGET = 5      # playouts: one determinization of every candidate (five at most)


def _searched_positions(n: int, seed: int, options: dict, every: int = 3, limit: int = 99):
    """Positions along a normal-AI game where the seat to act starts a decision the search takes
    (every ``every``-th, at most ``limit``)."""
    match = GAME.new_match([f"p{i}" for i in range(n)], seed=seed, options=options)
    moves, found = [], 0
    while not match.is_terminal():
        seat = match.to_act()[0]
        view = match.view(seat)
        if view.phase in SEARCHED and view.draft is None and len(_ai_choices(match, seat)) > 1:
            found += 1
            if found % every == 0:
                yield match, seat, list(moves)
                if found // every >= limit:
                    return
        choice = GAME.choose(match, seat, seed=match.move_count)
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_determinization_shows_every_seat_what_the_game_shows(n):
    """Lire counted from the public events (hidden money) and every seat's view as in the game."""
    options = {"hidden_money": True, "first_player_coin": n == 3}
    for match, seat, _ in _searched_positions(n, seed=n, options=options, every=7):
        knowledge = Knowledge.of(match.view(seat), match.log_for(seat))
        assert list(knowledge.lire) == [p.lire for p in match.state.people]
        game = knowledge.determinize(random.Random(1))
        for other in range(n):
            assert view_of(game, other) == match.view(other)


def _twin(match, moves: list, rng: random.Random):
    """The same game with everything not yet turned up dealt otherwise: the city tiles, coins,
    face-down coins and investment tiles of later rounds."""
    stored = match.stored_setup()
    stored.pop("seed")
    setup = stored["setup"]
    rounds = match.state.round
    size = match.state.board.rows * match.state.board.cols
    stack = list(setup["city_stack"])
    later = stack[rounds * size:]
    rng.shuffle(later)
    setup["city_stack"] = stack[:rounds * size] + later
    for r in range(rounds, C.ROUNDS):
        coins = list(setup["coins"][r])
        rng.shuffle(coins)
        setup["coins"][r] = coins
        if "face_down_coin" in setup:
            setup["face_down_coin"][r] = rng.randrange(len(coins))
    for colour, tiles in setup["investment_stacks"].items():
        tail = list(tiles[rounds:])
        rng.shuffle(tail)
        setup["investment_stacks"][colour] = list(tiles[:rounds]) + tail
    return GAME.resume(stored, moves)


@pytest.mark.parametrize("n", [2, 4])
def test_twins_differing_only_in_hidden_things_get_the_same_choice(n):
    rng = random.Random(n)
    compared = differed = 0
    for match, seat, moves in _searched_positions(n, seed=10 + n, options={"first_player_coin": True},
                                                     every=5, limit=6):
        twin = _twin(match, moves, rng)
        assert twin.view(seat) == match.view(seat)
        differed += twin.state.city_stack != match.state.city_stack or twin.state.inv_stacks != match.state.inv_stacks
        mine = GAME.choose(match, seat, seed=3, level="strong", budget=BUDGET)
        assert mine == GAME.choose(twin, seat, seed=3, level="strong", budget=BUDGET)
        compared += 1
    assert compared >= 5 and differed >= 5


def test_the_search_is_legal_and_repeats_itself_for_a_seed():
    tried = 0
    for match, seat, _ in _searched_positions(3, seed=21, options={}, every=5, limit=5):
        choices = _ai_choices(match, seat)
        found = [search(Knowledge.of(match.view(seat), match.log_for(seat)), choices, seed=9, budget=BUDGET)
                 for _ in range(2)]
        assert found[0].best in choices and found[0].best == found[1].best
        assert found[0].values == found[1].values
        assert set(found[0].values) <= set(choices)
        tried += 1
    assert tried >= 5


def test_the_search_compares_candidates_and_sometimes_differs_from_the_normal_ai():
    """Not the normal AI under another name: over a game's decisions, its rollouts tell some
    candidates apart and it plays another choice at least once."""
    values_differ = other_choice = 0
    for match, seat, _ in _searched_positions(2, seed=31, options={}, every=2, limit=12):
        result = search(Knowledge.of(match.view(seat), match.log_for(seat)), _ai_choices(match, seat),
                        seed=1, budget=BUDGET)
        values_differ += len(set(result.values.values())) > 1
        other_choice += result.best != GAME.choose(match, seat, seed=1, level="normal")
    assert values_differ >= 3 and other_choice >= 1


def test_a_budget_is_seconds_or_playouts():
    match, seat, _ = next(_searched_positions(2, seed=1, options={}, every=1))
    knowledge = Knowledge.of(match.view(seat), match.log_for(seat))
    for bad in (0, -1, True, "1"):
        with pytest.raises(ValueError):
            search(knowledge, _ai_choices(match, seat), seed=1, budget=bad)
    assert search(knowledge, _ai_choices(match, seat), seed=1, budget=0.05).best in _ai_choices(match, seat)
