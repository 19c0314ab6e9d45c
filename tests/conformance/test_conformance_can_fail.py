"""The conformance checks catch what they are for: a game that shows a secret, a copy that shares state."""

from __future__ import annotations

import dataclasses
import random

import pytest
from conformance_kit import check_choice, names, random_move, state_of, walk_apart, walk_twins
from tinygame import GAME
from tinygame.game import Play, TinyMatch
from twins import papa_paolo_plan, tiny_hands


def test_a_public_view_that_shows_one_hand_is_caught(monkeypatch):
    honest = TinyMatch.view

    def leaky(self, seat=None):
        view = honest(self, seat)
        return view if seat is not None else dataclasses.replace(view, hand=tuple(self.hands[1]))

    monkeypatch.setattr(TinyMatch, "view", leaky)
    setup = GAME.new_match(names(3), seed=1).stored_setup()
    twin, changed = tiny_hands(setup, 1, random.Random(1))
    with pytest.raises(AssertionError, match="public view differs"):
        walk_twins(GAME, setup, twin, changed, random.Random(1))


def test_a_choice_without_a_label_or_with_a_place_in_pixels_is_caught(monkeypatch):
    match = GAME.new_match(names(3), seed=1)
    seat = match.to_act()[0]
    choice = next(c for c in match.legal_choices(seat) if isinstance(c, Play))
    check_choice(match, choice)
    monkeypatch.setattr(Play, "place", lambda self: (120, 40))
    with pytest.raises(AssertionError):
        check_choice(match, choice)

    @dataclasses.dataclass(frozen=True)
    class Bare:             # prints and parses back, but names no label and no place
        card: int

        def __str__(self) -> str:
            return f"play:{self.card}"

    with pytest.raises(AssertionError, match="is no Choice"):
        check_choice(match, Bare(choice.card))


def test_a_copy_that_shares_the_hands_is_caught(monkeypatch):
    def shallow(self):
        other = GAME.resume(self.setup, self.moves)
        other.hands, other.chosen = self.hands, self.chosen
        return other

    monkeypatch.setattr(TinyMatch, "copy", shallow)
    match = GAME.new_match(names(3), seed=2)
    before = state_of(match)
    copied = match.copy()
    seat, choice = random_move(copied, random.Random(2))
    copied.apply(choice, by=seat)
    assert state_of(match) != before


def test_a_view_that_shows_another_seats_plan_is_caught(monkeypatch):
    """Papà Paolo's delivery plans are drafts: a public view showing the first planner's is caught."""
    from engine.papa_paolo import view as papa_view
    from engine.registry import GAMES

    honest = papa_view._draft

    def leaky(game, seat):
        drafting = sorted(game.drafts) if game.phase == "deliver" else []
        return honest(game, seat if seat is not None or not drafting else drafting[0])

    monkeypatch.setattr(papa_view, "_draft", leaky)
    definition, rng = GAMES["papa-paolo"], random.Random(3)
    setup = definition.new_match(names(3), seed=3).stored_setup()
    moves, twin_moves = papa_paolo_plan(definition, setup, 0, rng)
    first, second = definition.resume(setup, moves), definition.resume(setup, twin_moves)
    with pytest.raises(AssertionError, match="public view differs"):
        walk_apart(definition, first, second, frozenset({0}), rng, drafts=True)
