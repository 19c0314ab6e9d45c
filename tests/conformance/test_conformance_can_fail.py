"""The conformance checks catch what they are for: a game that shows a secret, a copy that shares state."""

from __future__ import annotations

import dataclasses
import random

import pytest
from conformance_kit import names, random_move, state_of, walk_twins
from tinygame import GAME
from tinygame.game import TinyMatch
from twins import tiny_hands


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
