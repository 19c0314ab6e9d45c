"""Time for the service: the real clock, and a manual one for tests (no real sleeps)."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that only moves when told: ``clock.advance(minutes=30)``."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0) -> float:
        self._now += seconds + minutes * 60.0
        return self._now
