"""The easy AI: the normal AI's judgement with a beginner's mistakes.

It values the moves as the normal AI does (``ai.move_values``) but picks among them at random,
better moves more often (a softmax with a temperature), and now and then it forgets what the
leftover tile will do (the small tour and the big tour it may trigger), as a beginner who only
looks at where to open a shop. Deterministic for a seed; blind to secrets as the normal AI is.
"""

from __future__ import annotations

import math
import random

from .actions import Pick
from .ai import move_values
from .game import Game

TEMPERATURE = 0.6          # softmax temperature over move values (the values span about 0-4)
FORGETS_LEFTOVER = 0.4     # chance of ignoring the leftover tile on a move


def choose_easy(game: Game, *, seed: int) -> Pick:
    """A legal move for ``game.current_player``, deterministic for a given ``seed``."""
    rng = random.Random(seed)
    weight = 0.0 if rng.random() < FORGETS_LEFTOVER else None
    values = move_values(game) if weight is None else move_values(game, leftover_weight=weight)
    top = max(value for _, value in values)
    weights = [math.exp((value - top) / TEMPERATURE) for _, value in values]
    return rng.choices([action for action, _ in values], weights)[0]
