"""What the searching AI levels share: comparing candidate moves on equal luck.

Each candidate is played on the same determinizations with the same random numbers, so the
rewards of two candidates pair up sample by sample, and most of the noise that hidden
information brings cancels out in their differences.
"""

from __future__ import annotations

import math
from collections.abc import Hashable


def keep_complete_samples(rewards: dict[Hashable, list[float]]) -> None:
    """Cut every candidate's rewards to the determinizations all of them were played on (a time
    budget may run out in the middle of one): only paired samples may be compared."""
    complete = min(len(r) for r in rewards.values())
    for samples in rewards.values():
        del samples[complete:]


def confident_best(default: Hashable, rewards: dict[Hashable, list[float]], confidence: float) -> Hashable:
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
