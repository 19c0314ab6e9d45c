"""Python's cycle collector, set for a process that keeps many games in memory.

A move's work is mostly young objects that die with it (freed at once by reference counting);
the cycle collector's young generation runs every 700 new container objects by default, and every
10th run of it scans the middle generation again. With many presses under way at once (1,000 games
pressing, issue 44), each press holds its messages and rows until its commit, so every young
collection finds thousands of them still alive and moves them on, the middle generation is
scanned again and again, and what survives that lands in the oldest one, whose growth sets off a
full collection of every game in memory. A larger young generation lets most of them die before
any scan: measured with ``python -m bot.bench`` (1,000 three-player games pressing at once, six
rounds), the collections of a round took 160-260 ms of its 1.1-1.7 s with the default thresholds and
30-110 ms with these. The memory this keeps waiting is that of cyclic garbage only, a few
megabytes at most.
"""

from __future__ import annotations

import gc

# (young, middle, oldest): a young collection every 10,000 new container objects (700 by
# default); the other two as Python's defaults.
THRESHOLDS = (10_000, 10, 10)


def tune() -> None:
    """Set the collector's thresholds for the service (process-wide; the same each call)."""
    gc.set_threshold(*THRESHOLDS)
