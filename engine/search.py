"""What the searching AI levels share: comparing candidate moves on equal luck.

Each candidate is played on the same determinizations with the same random numbers, so the
rewards of two candidates pair up sample by sample, and most of the noise that hidden
information brings cancels out in their differences.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C", bound=Hashable)     # a candidate move
S = TypeVar("S")                     # a sample: one determinization


def keep_complete_samples(rewards: dict[C, list[float]]) -> None:
    """Cut every candidate's rewards to the determinizations all of them were played on (a time
    budget may run out in the middle of one): only paired samples may be compared."""
    complete = min(len(r) for r in rewards.values())
    for samples in rewards.values():
        del samples[complete:]


def confident_best(default: C, rewards: dict[C, list[float]], confidence: float) -> C:
    """``default`` (the heuristic's choice), unless another candidate beat it on the same
    determinizations by more than ``confidence`` standard errors of the paired differences: a
    small budget must not trade a good heuristic move for a lucky sample."""
    base = rewards[default]
    samples = len(base)
    best, best_bound = default, 0.0
    if samples < 2:
        return default
    for choice, values in rewards.items():
        if choice == default:
            continue
        gains = [r - b for r, b in zip(values, base, strict=True)]
        mean = sum(gains) / samples
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (samples - 1) / samples)
        bound = mean - confidence * spread
        if bound > best_bound:
            best, best_bound = choice, bound
    return best


DEFAULT_SECONDS = 1.0    # a searching level's think time per move unless the caller gives one


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[C]):
    best: C
    playouts: int                 # 0 when there was nothing to compare
    values: dict[C, float]        # each candidate's mean reward


def checked_budget(budget: float | int | None) -> float | int:
    """A search budget: seconds (a float), playouts (an int), or None for ``DEFAULT_SECONDS``."""
    if budget is None:
        return DEFAULT_SECONDS
    if isinstance(budget, bool) or not isinstance(budget, int | float) or budget <= 0:
        raise ValueError(f"a budget is a number of seconds (float) or playouts (int), not {budget!r}")
    return budget


def play_on_equal_luck(candidates: Iterable[C], next_sample: Callable[[], S],
                       play: Callable[[S, C, int], float], *, budget: float | int,
                       rng: random.Random) -> tuple[dict[C, list[float]], int]:
    """Play every candidate on the same samples with the same luck until the budget is spent:
    each round draws a sample (a determinization) and a luck seed, then ``play(sample,
    candidate, luck)`` gives each candidate's reward. A playout budget (int) ends after the
    round that reaches it; a time budget (float) may end within a round, and then only the
    samples every candidate was played on are kept. Returns the rewards and the playouts."""
    deadline = time.perf_counter() + budget if isinstance(budget, float) else None
    rewards: dict[C, list[float]] = {c: [] for c in candidates}
    playouts = 0
    while True:
        sample = next_sample()
        luck = rng.getrandbits(32)
        for candidate in rewards:
            rewards[candidate].append(play(sample, candidate, luck))
            playouts += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if deadline is None:
            if playouts >= budget:
                return rewards, playouts
        elif time.perf_counter() >= deadline:
            keep_complete_samples(rewards)
            return rewards, playouts


def mean_rewards(rewards: dict[C, list[float]]) -> dict[C, float]:
    return {c: sum(r) / len(r) for c, r in rewards.items() if r}
