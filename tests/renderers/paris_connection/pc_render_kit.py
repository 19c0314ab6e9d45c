"""Positions for the Paris Connection renderer tests: AI self-play games, seeded."""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

from engine.paris_connection.ai import choose
from engine.paris_connection.definition import GAME

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the shared pixel helpers
from render_testkit import close, load, near_colour  # noqa: E402

NAMES = ("Ann", "Bob", "Cléo", "Dörte", "Emil", "Fay")

__all__ = ["NAMES", "close", "game_steps", "load", "near_colour", "played"]


@cache
def played(players: int, seed: int) -> tuple:
    """A whole AI game: (match at the end, [(public view, seat view, legal choices, events) per step])."""
    match = GAME.new_match(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    steps = []
    events: list = []
    while not match.is_terminal():
        seat = match.to_act()[0]
        steps.append((match.view(None), match.view(seat), tuple(match.legal_choices(seat)), tuple(events)))
        events = match.apply(choose(match, seat, seed=rng.randrange(1 << 30)), by=seat)
    return match, steps


def game_steps(players: int, seed: int):
    return played(players, seed)[1]
