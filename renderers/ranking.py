"""Places in a final ranking, for every game: equal scores share a place, and say so.

"1. Ann 67, =2. Bea 63, =2. Cid 63, 4. Dan 51": a tied place carries "=" in front, as sports
tables write it, so that two players on the same score are not read as third and fourth.
"""

from __future__ import annotations

from collections.abc import Sequence


def places(order: Sequence[int], scores: Sequence[int]) -> list[str]:
    """The place to print for each seat of ``order`` (best first), by ``scores``: "1.", "=2."."""
    marks = []
    for i, seat in enumerate(order):
        first = next(j for j in range(i + 1) if scores[order[j]] == scores[seat])
        tied = sum(1 for other in order if scores[other] == scores[seat]) > 1
        marks.append(f"{'=' if tied else ''}{first + 1}.")
    return marks
