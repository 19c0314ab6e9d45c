"""Seeded positions of Papà Paolo for the bench and the gallery: games the normal AI plays."""

from __future__ import annotations

from engine.papa_paolo.definition import GAME, PapaMatch
from engine.papa_paolo.events import PhaseEnded
from engine.papa_paolo.phases import Phase
from engine.papa_paolo.steps import From, StepTo

NAMES = ("Ann", "Bob", "Chiara", "Didier")


def played(n: int, *, rounds_done: int, seed: int = 7, options: dict | None = None) -> PapaMatch:
    """A game of ``n`` seats after ``rounds_done`` rounds (5: the end)."""
    match = GAME.new_match(NAMES[:n], seed=seed, options=options)
    while not match.is_terminal() and match.rhythm.round_number() <= rounds_done:
        seat = match.to_act()[0]
        match.apply(GAME.choose(match, seat, seed=seed), by=seat)
    return match


def after_phase(n: int, phase: Phase, round_: int, *, seed: int = 7, options: dict | None = None) -> PapaMatch:
    """A game of ``n`` seats just after ``phase`` of round ``round_`` closed (its picture's moment)."""
    match = GAME.new_match(NAMES[:n], seed=seed, options=options)
    while not match.is_terminal():
        if any(isinstance(e, PhaseEnded) and (e.round, e.phase) == (round_, phase) for e in match.log):
            return match
        seat = match.to_act()[0]
        match.apply(GAME.choose(match, seat, seed=seed), by=seat)
    raise LookupError(f"no {phase} phase closed in round {round_}")


def choosing(n: int, mode: str, *, seed: int = 7) -> PapaMatch:
    """A game in round 3 where the first seat to act is at ``mode`` of a decision (``rotate``,
    ``deliver-trip``: a delivery trip two squares long...)."""
    match = GAME.new_match(NAMES[:n], seed=seed)
    while not match.is_terminal():
        seat = match.to_act()[0]
        view = match.view(seat)
        draft = view.draft or {}
        now = draft.get("mode")
        if view.phase == Phase.DELIVER and draft.get("cur") and len(draft["cur"]["path"]) >= 2:
            now = "deliver-trip"
        if match.rhythm.round_number() >= 3 and now == mode:
            return match
        choices = match.legal_choices(seat)
        steps = [c for c in choices if isinstance(c, From | StepTo)] if view.phase == Phase.DELIVER else []
        match.apply(steps[0] if steps else GAME.choose(match, seat, seed=seed), by=seat)
    raise LookupError(f"no {mode} in this game")


def stretch_events(match: PapaMatch) -> list:
    """The public events of the stretch of play just closed (what the picture after it highlights,
    as the bot draws it: from the stretch's start on)."""
    closed = match.rhythm.cycle - 1 if not match.is_terminal() else match.rhythm.cycle
    return [e for e in match.log[match.rhythm.cycle_start(closed):] if e.visible_to(None)]
