"""Issue 32: a delivery plan drawn trip by trip can be taken back before it is sent ("undo-trip")."""

from __future__ import annotations

import random

from engine.papa_paolo.definition import GAME
from engine.papa_paolo.steps import EndTrip, UndoTrip, parse


def _planning(seed: int = 21):
    """A three-seat match at its first delivery phase, with a seat that can start a trip."""
    match = GAME.new_match(["a", "b", "c"], seed=seed)
    rng = random.Random(0)
    while match.state.phase != "deliver":
        seat = match.to_act()[0]
        choices = [c for c in match.legal_choices(seat) if c.verb != "undo-trip"]
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
    seat = next(s for s in match.to_act() if any(c.verb == "from" for c in match.legal_choices(s)))
    return match, seat


def _one_trip(match, seat: int) -> None:
    """Start a trip from the first pizzeria and go on until it can end, then end it."""
    match.apply(next(c for c in match.legal_choices(seat) if c.verb == "from"), by=seat)
    while EndTrip() not in match.legal_choices(seat):
        choices = match.legal_choices(seat)
        match.apply(next(c for c in choices if c.verb in ("drop", "step")), by=seat)
    match.apply(EndTrip(), by=seat)


def test_a_planned_trip_is_taken_back_before_the_plan_is_sent():
    match, seat = _planning()
    fresh = match.legal_choices(seat)
    assert UndoTrip() not in fresh          # nothing planned yet: nothing to take back
    _one_trip(match, seat)
    assert len(match.view(seat).draft["trips"]) == 1
    assert UndoTrip() in match.legal_choices(seat)
    match.apply(UndoTrip(), by=seat)
    assert match.view(seat).draft is None and not match.rhythm.in_decision(seat)
    assert match.legal_choices(seat) == fresh      # the best plan is offered again
    assert seat in match.to_act()


def test_a_trip_under_way_can_be_dropped_and_the_step_replays():
    match, seat = _planning()
    match.apply(next(c for c in match.legal_choices(seat) if c.verb == "from"), by=seat)
    assert UndoTrip() in match.legal_choices(seat)
    match.apply(parse("undo-trip"), by=seat)
    assert match.view(seat).draft is None
    # The stored moves (every step, the undo too) resume to the same position.
    moves = [(s, text) for s, text in match.state.moves]
    again = GAME.resume(match.stored_setup(), moves)
    assert again.view(seat) == match.view(seat)
