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

A call is counted twice: when the pace allows it (``take``, the buckets above, which order the
sends), and again at the moment it actually goes out (``at_call``, which a transport reaches
through ``contract.calling()`` right before each call). A send allowed on time may wait
afterwards (a busy event loop, a picture's upload being prepared) and then go out together with
the sends allowed after it: the platform counts calls when they arrive, so a burst that the
buckets never allowed would be refused. ``Sent`` keeps the same budgets by the times the calls
really went out and holds a call that would break them. (The same budgets, not stricter ones:
a stricter check at the call would fall behind the buckets and hold ever more sends. The margin
is in the budgets themselves, which stay under the platform's limits, see ``TELEGRAM_PACE``.)

A budget is a leaky bucket (``contract.Budget``: a burst, then a steady refill) or a sliding
window (``contract.Window``: at most N calls in any so many seconds). The bot's overall budget
is a bucket of one refilled 28 times a second, which spreads its calls evenly; a chat's and a
group's are windows, which let a game's set-up (the lobby, its edits, the first picture and
prompt) and a few quick presses go at once and still never put more calls into any window than
the platform allows (a bucket of 20 refilled at 20 a minute can let 40 into one minute).

A user's private chat has a budget of its own (``PaceLimits.private``): a group's 20 a minute
does not apply there, so a tap in private is answered at about one call a second.

With several processes sending for one bot, each takes ``share`` of the overall budget
(see docs/deployment.md); the per-chat budgets are each process's own.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Callable

from aiolimiter import AsyncLimiter

from bot.contract import Budget, PaceLimits, Window

from .priority import PriorityQueue

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
        self._queue = PriorityQueue()
        self._handing: asyncio.Future[None] | None = None

    @property
    def waiting(self) -> int:
        """Calls waiting for the budget now (a few may have stopped waiting)."""
        return len(self._queue)

    async def acquire(self, rank: int, turn: float = 0.0) -> None:
        done = self._queue.wait(rank, turn)
        if self._handing is None or self._handing.done():
            self._handing = asyncio.ensure_future(self._hand_out())
        await done

    async def _hand_out(self) -> None:
        # One capacity at a time, to the best waiter when it is there (one who arrived while
        # this waited for the limiter included). If every waiter stopped waiting meanwhile,
        # the capacity goes unused, which only makes the pace a little slower.
        while self._queue:
            await self.limiter.acquire()
            self._queue.serve()


class Sent:
    """``budget`` kept by the times calls actually went out (a leaky bucket filled at each call's
    own moment: the generic cell rate algorithm). ``wait(now)`` says how long a call made at
    ``now`` must wait to fit (0: it fits); ``record(now)`` counts it. Pure arithmetic on the
    times it is given, so a test drives it with a clock of its own."""

    def __init__(self, budget: Budget) -> None:
        self.interval = 1.0 / budget.per_second               # between calls, once the burst is spent
        self.tolerance = (budget.burst - 1) * self.interval   # how far ahead the burst may run
        self.due = -math.inf      # when the bucket is empty again (the "theoretical arrival time")

    def wait(self, now: float) -> float:
        return max(0.0, self.due - self.tolerance - now)

    def record(self, now: float) -> None:
        self.due = max(self.due, now) + self.interval

    def idle(self, now: float) -> bool:
        return self.due <= now


class SlidingWindow:
    """``window`` kept by the times calls went out: at most ``window.calls`` of them in any
    ``window.seconds`` (a log of the latest ones' times). The same questions as ``Sent``:
    ``wait(now)``, ``record(now)``, ``idle(now)``; pure arithmetic on the times it is given."""

    def __init__(self, window: Window) -> None:
        self.calls = window.calls
        self.seconds = window.seconds
        self._times: deque[float] = deque()

    def _forget(self, now: float) -> None:
        while self._times and self._times[0] <= now - self.seconds:
            self._times.popleft()

    def wait(self, now: float) -> float:
        self._forget(now)
        if len(self._times) < self.calls:
            return 0.0
        # The call that leaves the window next makes room: the calls-th latest.
        return max(0.0, self._times[-self.calls] + self.seconds - now)

    def record(self, now: float) -> None:
        self._times.append(now)

    def idle(self, now: float) -> bool:
        self._forget(now)
        return not self._times


class WindowLimiter:
    """A ``SlidingWindow`` in front of the sends, as ``AsyncLimiter`` is for a ``Budget``: what the
    pacer asks of a chat's buckets (``acquire``, ``has_capacity``), on the pacer's clock."""

    def __init__(self, window: Window, now: Callable[[], float]) -> None:
        self.window = SlidingWindow(window)
        self._now = now

    def has_capacity(self) -> bool:
        return self.window.wait(self._now()) == 0

    def drained(self) -> bool:
        return self.window.idle(self._now())

    async def acquire(self) -> None:
        # Checked and counted with no wait in between, so callers woken together go one by one.
        while (wait := self.window.wait(self._now())) > 0:
            await asyncio.sleep(wait)
        self.window.record(self._now())


Bucket = AsyncLimiter | WindowLimiter


def _drained(bucket: Bucket) -> bool:
    """Whether a chat's bucket is back to full: nothing of it in use, so it may be forgotten."""
    if isinstance(bucket, WindowLimiter):
        return bucket.drained()
    return bucket.has_capacity(bucket.max_rate)


def sent_keeper(budget: Budget | Window) -> Sent | SlidingWindow:
    """What keeps ``budget`` by the times the calls actually went out."""
    return SlidingWindow(budget) if isinstance(budget, Window) else Sent(budget)


class Pacer:
    """The budgets of one platform's bot in this process."""

    def __init__(self, limits: PaceLimits, share: float = 1.0,
                 now: Callable[[], float] | None = None) -> None:
        self.limits = limits
        overall = shared(limits.total, share)      # this process's part of the bot's budget
        self.per_second = overall.per_second
        self.total = Ranked(limiter(overall))
        self._now = now          # None: the event loop's clock (the one aiolimiter keeps)
        self._sent_total = Sent(overall)
        self._chats: dict[str, tuple[Bucket, ...]] = {}
        self._sent: dict[str, tuple[Sent | SlidingWindow, ...]] = {}

    def budgets(self, dest: str) -> tuple[Budget | Window, ...]:
        """The budgets of ``dest`` besides the bot's overall one: "c:" is a chat the game is played
        in (a group: its chat budget and the group's on top), "u:" a user's private chat."""
        if dest.startswith("u:"):
            return (self.limits.private or self.limits.chat,)
        group = self.limits.group if dest.startswith("c:") else None
        return (self.limits.chat,) + ((group,) if group else ())

    def _bucket(self, budget: Budget | Window) -> Bucket:
        return WindowLimiter(budget, self.now) if isinstance(budget, Window) else limiter(budget)

    def _buckets(self, dest: str) -> tuple[Bucket, ...]:
        buckets = self._chats.get(dest)
        if buckets is None:
            if len(self._chats) >= IDLE_KEPT:
                self._forget_idle()
            buckets = tuple(self._bucket(budget) for budget in self.budgets(dest))
            self._chats[dest] = buckets
        return buckets

    def _forget_idle(self) -> None:
        now = self.now()
        for dest in [d for d, buckets in self._chats.items() if all(_drained(b) for b in buckets)]:
            del self._chats[dest]
        for dest in [d for d, sent in self._sent.items() if all(s.idle(now) for s in sent)]:
            del self._sent[dest]

    def now(self) -> float:
        return self._now() if self._now is not None else asyncio.get_running_loop().time()

    def _sent_of(self, dest: str) -> tuple[Sent | SlidingWindow, ...]:
        sent = self._sent.get(dest)
        if sent is None:
            sent = self._sent[dest] = (self._sent_total, *(sent_keeper(b) for b in self.budgets(dest)))
        return sent

    def call_wait(self, dest: str) -> float:
        """Seconds a call to ``dest`` made now must wait to fit the budgets counted by when the
        calls before it went out (0: it may go now)."""
        now = self.now()
        return max(s.wait(now) for s in self._sent_of(dest))

    async def at_call(self, dest: str) -> None:
        """Right before a call to ``dest`` goes out: wait until it fits the budgets by when the
        calls went out, then count it at this moment (no wait between the check and the count,
        so calls held here at once leave one by one)."""
        while (wait := self.call_wait(dest)) > 0:
            await asyncio.sleep(wait)
        self.called(dest)

    def called(self, dest: str) -> None:
        """Count a call to ``dest`` that goes out now."""
        now = self.now()
        for sent in self._sent_of(dest):
            sent.record(now)

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
