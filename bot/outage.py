"""Telling the log that a chat platform cannot be reached, without a line per retry.

A bot started before the network (or left running through an outage) retries every few seconds;
the log gets one line at the first failure, one every ``every`` seconds while it lasts, and one
when the platform answers again. Both chat adapters use it, so they say it the same way.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

REMIND_EVERY = 300.0        # seconds between the lines that say an outage goes on


class Outage:
    """The state of one connection, for the log: ``failed`` at each failed attempt, ``reached``
    once it answers."""

    def __init__(self, log: logging.Logger, where: str, *, every: float = REMIND_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.where, self.every, self.clock = log, where, every, clock
        self.since: float | None = None       # when the outage began; None: reachable
        self.told = 0.0                       # when the log last said so

    def failed(self, error: object) -> None:
        now = self.clock()
        if self.since is None:
            self.since = self.told = now
            self.log.warning("cannot reach %s (%s); retrying quietly, a line every %d minutes until it answers",
                             self.where, error, round(self.every / 60))
        elif now - self.told >= self.every:
            self.told = now
            self.log.warning("still cannot reach %s after %d minutes (%s); retrying", self.where,
                             round((now - self.since) / 60), error)

    def reached(self) -> None:
        if self.since is not None:
            self.log.warning("reached %s again after %d s", self.where, round(self.clock() - self.since))
            self.since = None
