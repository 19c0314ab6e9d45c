"""Pacing the outbox to a platform's flood limits, so a burst is spread instead of refused.

Each platform's ``Transport`` declares its limits (``contract.PaceLimits``); a ``Pacer``
keeps one leaky bucket (``aiolimiter.AsyncLimiter``) for the bot as a whole and one or two
for every chat it posted in lately. The delivery loop asks ``ready(dest)`` before it
claims a chat's next message, so a chat that used up its budget waits while the others go
on; ``take(dest)`` then waits only for the bot's overall budget, which every chat shares.

Why not python-telegram-bot's ``AIORateLimiter``: it is built on the same aiolimiter, but
it waits inside the API call, so one group at its 20-a-minute limit would hold the whole
delivery loop (every other group's prompt) until that group may post again. The outbox
knows which other chats could go meanwhile; the limiter in front of the HTTP call cannot.

With several processes sending for one bot, each takes ``share`` of the overall budget
(see docs/deployment.md); the per-chat budgets are each process's own.
"""

from __future__ import annotations

import asyncio

from aiolimiter import AsyncLimiter

from bot.contract import Budget, PaceLimits

from .turns import Turns

IDLE_KEPT = 1000      # chats whose buckets are kept while they may still be filling


def limiter(budget: Budget) -> AsyncLimiter:
    """A leaky bucket of ``budget.burst`` that drains at ``budget.per_second``."""
    return AsyncLimiter(budget.burst, budget.burst / budget.per_second)


def shared(budget: Budget, share: float) -> Budget:
    """``share`` (0..1] of ``budget``: the part one of several processes may use."""
    if not 0 < share <= 1:
        raise ValueError(f"a share of the budget is between 0 and 1, not {share}")
    return Budget(max(1, int(budget.burst * share)), budget.per_second * share)


class Ranked:
    """Hands out ``limiter``'s capacity by rank, then turn, then arrival (aiolimiter alone
    serves by arrival): a prompt a player waits for passes the pictures and edits already
    waiting for the bot's overall budget, so the delivery may keep many sends in flight (their
    pictures drawn meanwhile) without a new prompt queueing behind all of them; and among
    prompts, one with nothing behind it in its chat passes those of chats with a backlog, as in
    the outbox's claim (``StoredOut.turn``)."""

    def __init__(self, limiter: AsyncLimiter) -> None:
        self.limiter = limiter
        self._turns = Turns()
        self._handing: asyncio.Task | None = None

    async def acquire(self, rank: int, turn: float = 0.0) -> None:
        done = self._turns.wait(rank, turn)
        if self._handing is None or self._handing.done():
            self._handing = asyncio.ensure_future(self._hand_out())
        await done

    async def _hand_out(self) -> None:
        # One capacity at a time, to the best waiter when it is there (one who arrived while
        # this waited for the limiter included). If every waiter stopped waiting meanwhile,
        # the capacity goes unused, which only makes the pace a little slower.
        while self._turns:
            await self.limiter.acquire()
            self._turns.serve()


class Pacer:
    """The budgets of one platform's bot in this process."""

    def __init__(self, limits: PaceLimits, share: float = 1.0) -> None:
        self.limits = limits
        overall = shared(limits.total, share)      # this process's part of the bot's budget
        self.per_second = overall.per_second
        self.total = Ranked(limiter(overall))
        self._chats: dict[str, tuple[AsyncLimiter, ...]] = {}

    def _buckets(self, dest: str) -> tuple[AsyncLimiter, ...]:
        buckets = self._chats.get(dest)
        if buckets is None:
            if len(self._chats) >= IDLE_KEPT:
                self._forget_idle()
            # "c:" is a chat the game is played in (a group); "u:" a user's private chat.
            group = self.limits.group if dest.startswith("c:") else None
            buckets = (limiter(self.limits.chat),) + ((limiter(group),) if group else ())
            self._chats[dest] = buckets
        return buckets

    def _forget_idle(self) -> None:
        for dest in [d for d, buckets in self._chats.items()
                     if all(b.has_capacity(b.max_rate) for b in buckets)]:    # drained empty
            del self._chats[dest]

    def ready(self, dest: str) -> bool:
        """Whether ``dest`` may have its next message now (as far as its own budget goes)."""
        buckets = self._chats.get(dest)
        return buckets is None or all(b.has_capacity() for b in buckets)

    def busy(self) -> set[str]:
        """The chats that must wait for their own budget now."""
        return {dest for dest, buckets in self._chats.items() if not all(b.has_capacity() for b in buckets)}

    async def take(self, dest: str, rank: int = 0, turn: float = 0.0) -> None:
        """Spend one call of ``dest``'s budget; waits for the bot's overall budget, which goes
        to the lowest ``rank`` first (``StoredOut.rank``: 0 a prompt a player waits for), then
        to the earliest ``turn`` (``StoredOut.turn``).

        The overall budget comes first: the chat's own is spent right before the call goes
        out, so its bucket times the call as the platform sees it."""
        await self.total.acquire(rank, turn)
        for bucket in self._buckets(dest):
            await bucket.acquire()      # at once when ``ready(dest)`` was true
