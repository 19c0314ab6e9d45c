"""The AI levels: legal, deterministic for a seed, and blind to what their seat may not see."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.papa_paolo.definition import GAME

BUDGET = 2      # playouts a decision for the strong level (deterministic, and quick)


def _advance(match, steps: int, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_terminal():
            break
        seat = match.to_act()[0]
        choices = match.legal_choices(seat)
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
    return match


# A searching level is asked at every SEARCHED-th position (every phase and round still comes up):
# its search plays the rest of the game out for each candidate, so asking it everywhere costs
# minutes; the other moves are its own fallback's (the normal level's).
SEARCHED = {"strong": 4}


@pytest.mark.parametrize("level", GAME.ai_levels)
def test_ai_plays_a_whole_game_with_legal_choices(level):
    match = GAME.new_match(["a", "b"], seed=3, options={"hidden_money": True})
    asked = set()
    for position in itertools.count():
        if match.is_terminal():
            break
        mover = level if position % SEARCHED.get(level, 1) == 0 else "normal"
        for seat in match.to_act():
            choice = GAME.choose(match, seat, seed=match.move_count, level=mover, budget=BUDGET)
            assert choice in match.legal_choices(seat)
            asked.add((mover, match.view(seat).phase))
        seat = match.to_act()[-1]
        match.apply(GAME.choose(match, seat, seed=match.move_count, level=mover, budget=BUDGET), by=seat)
    assert match.winners
    assert {phase for mover, phase in asked if mover == level} == {phase for _, phase in asked}


def test_ai_is_deterministic_for_a_seed():
    match = _advance(GAME.new_match(["a", "b", "c"], seed=5), 40)
    seat = match.to_act()[0]
    for level in GAME.ai_levels:
        picks = {str(GAME.choose(match, seat, seed=77, level=level, budget=BUDGET)) for _ in range(3)}
        assert len(picks) == 1


def test_ai_sees_only_its_view():
    """Change what the seat may not see (another's hidden Lire, the stack order): same choices."""
    for steps in (0, 30, 70, 120):
        match = _advance(GAME.new_match(["a", "b", "c"], seed=8, options={"hidden_money": True}), steps, seed=2)
        seat = match.to_act()[0]
        other = match.copy()
        g = other.state
        for s in range(3):
            if s != seat:
                g.people[s].lire += 17
        g.city_stack = g.city_stack[:g.dealt] + tuple(reversed(g.city_stack[g.dealt:]))
        assert other.view(seat) == match.view(seat)
        for level in GAME.ai_levels:
            assert GAME.choose(other, seat, seed=1, level=level, budget=BUDGET) == \
                GAME.choose(match, seat, seed=1, level=level, budget=BUDGET)


def test_unknown_level_is_refused():
    match = GAME.new_match(["a", "b"], seed=1)
    with pytest.raises(ValueError):
        GAME.choose(match, match.to_act()[0], seed=1, level="grandmaster")
