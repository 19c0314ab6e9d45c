"""Waiting in turn by rank, then by arrival: what the outbox's scarce resources are handed out by.

A prompt a player waits for (rank 0) should not queue behind pictures and edits (rank 1) for
the bot's overall budget (``flood_pacing.Ranked``) nor for the cores that draw pictures
(``RankedSlots``); asyncio's own semaphore and aiolimiter serve by arrival only.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools


class PriorityQueue:
    """The waiters, best rank first, then earliest turn (``StoredOut.turn``), then first come."""

    def __init__(self) -> None:
        self._waiting: list[tuple[int, float, int, asyncio.Future[None]]] = []
        self._arrival = itertools.count()

    def __bool__(self) -> bool:
        return bool(self._waiting)

    def __len__(self) -> int:
        return len(self._waiting)

    def wait(self, rank: int, turn: float = 0.0) -> asyncio.Future[None]:
        """A future that is done when it is this waiter's turn."""
        done = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (rank, turn, next(self._arrival), done))
        return done

    def serve(self) -> bool:
        """Give the best waiter its turn; False when nobody waits (one who stopped waiting,
        cancelled, is passed over)."""
        while self._waiting:
            *_, done = heapq.heappop(self._waiting)
            if not done.done():
                done.set_result(None)
                return True
        return False


class RankedSlots:
    """A semaphore of ``size`` slots whose waiters are served by rank, then arrival."""

    def __init__(self, size: int) -> None:
        self._free = size
        self._queue = PriorityQueue()

    async def acquire(self, rank: int) -> None:
        if self._free > 0 and not self._queue:
            self._free -= 1
            return
        turn = self._queue.wait(rank)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():     # handed the slot just as it was cancelled
                self.release()
            raise

    def release(self) -> None:
        if not self._queue.serve():       # the slot passes straight to the next waiter, if any
            self._free += 1

    @property
    def waiting(self) -> int:
        """Waiters for a slot now (a few may have stopped waiting)."""
        return len(self._queue)
