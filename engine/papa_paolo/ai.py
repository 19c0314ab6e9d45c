"""Placeholder AI (replaced below)."""
from __future__ import annotations

import random


def choose(match, seat: int, *, seed: int, level: str = "normal"):
    choices = match.legal_choices(seat)
    return random.Random(seed).choice(choices)
