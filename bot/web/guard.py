"""Bounds per visitor: what one link, one address, one socket or one Telegram user may ask of the
board at a time, so that no visitor takes the server for themselves.

A board link is given to a whole group (a spectator's pass) and lasts for days, so whoever holds
one may ask for as much as they like: pictures (each a drawing), sockets (each a page kept up to
date), messages on a socket (a review step replays the game), logins. Each has a bound
(``VisitorLimits``, ``BOARDCHAT_WEB_*`` settings, docs/web.md); past it the board refuses clearly
(HTTP 429, or a socket closed with a reason) and does nothing, in the spirit of lila-ws's limiters
per socket and per address.

Counted in the unit that costs: pictures as the distinct pictures a pass has on their way (a
group sharing one link asks for the same picture, which is drawn once); messages and logins by
a token bucket (a short burst, then a steady rate).
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from aiohttp import web

LOOPBACK = frozenset({"127.0.0.1", "::1"})
KEPT_LOGINS = 10_000        # Telegram users whose logins are counted (the ones seen last)
BURST_SHARE = 4             # a bucket holds a quarter of its period's allowance


@dataclass(frozen=True, slots=True)
class VisitorLimits:
    """What one visitor may ask at a time (each ``BOARDCHAT_WEB_<NAME>``, docs/web.md).

    ``trusted_proxies``: the addresses whose ``X-Forwarded-For`` names the client (the reverse
    proxy in front: by default one on this machine); anyone else is counted by its own address."""

    pictures_per_pass: int = 4          # distinct pictures on their way for one link
    sockets_per_pass: int = 50          # open pages of one link (a channel's watchers share one)
    sockets_per_address: int = 20       # open pages from one client address
    messages_per_minute: int = 120      # on one socket, in bursts of a quarter of it
    logins_per_hour: int = 30           # Mini App logins of one Telegram user, bursts of a quarter
    trusted_proxies: frozenset[str] = LOOPBACK


class TooMany(Exception):
    """A visitor past one of its bounds (``what``: pictures, sockets, messages, logins)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``size`` at once, refilled at ``per_second``."""

    size: float
    per_second: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    at: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens, self.at = self.size, self.clock()

    def take(self) -> bool:
        """One token if there is one now; False: past the rate."""
        now = self.clock()
        self.tokens = min(self.size, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def rate(count: int, seconds: float, clock: Callable[[], float]) -> Bucket:
    """``count`` per ``seconds`` on average, in bursts of at most a ``BURST_SHARE``-th of it."""
    return Bucket(max(1, count // BURST_SHARE), count / seconds, clock)


class Guard:
    """The counts of one board server (one process: a visitor spread over several processes
    gets each process's bounds). A pass is counted by what it says (``passes.Pass``: game,
    person, expiry), however it travels."""

    def __init__(self, limits: VisitorLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._pictures: dict[Hashable, Counter[str]] = {}
        self._sockets: Counter[tuple[str, Hashable]] = Counter()
        self._logins: OrderedDict[str, Bucket] = OrderedDict()

    def client_address(self, request: web.Request) -> str:
        """Who is asking: the connection's address, or, from a trusted proxy, the address it
        added last to ``X-Forwarded-For`` (the earlier ones are the client's own say)."""
        peer = request.remote or ""
        if peer in self.limits.trusted_proxies:
            forwarded = ",".join(request.headers.getall("X-Forwarded-For", ()))
            last = forwarded.rsplit(",", 1)[-1].strip()
            if last:
                return last
        return peer

    @contextmanager
    def picture(self, pass_key: Hashable, picture: str) -> Iterator[None]:
        """While a picture is asked for with ``pass_key``; ``TooMany`` when the pass has
        ``pictures_per_pass`` other pictures on their way already."""
        flying = self._pictures.setdefault(pass_key, Counter())
        if picture not in flying and len(flying) >= self.limits.pictures_per_pass:
            raise TooMany("pictures")
        flying[picture] += 1
        try:
            yield
        finally:
            flying[picture] -= 1
            if not flying[picture]:
                del flying[picture]
            if not flying:
                self._pictures.pop(pass_key, None)

    @contextmanager
    def socket(self, pass_key: Hashable, address: str) -> Iterator[Bucket]:
        """While a page's socket is open: its messages' bucket; ``TooMany`` (nothing opened) when
        its pass or its address has as many open as it may."""
        by_pass, by_address = ("pass", pass_key), ("address", address)
        if self._sockets[by_pass] >= self.limits.sockets_per_pass \
                or self._sockets[by_address] >= self.limits.sockets_per_address:
            self._drop_empty(by_pass, by_address)
            raise TooMany("sockets")
        self._sockets[by_pass] += 1
        self._sockets[by_address] += 1
        try:
            yield rate(self.limits.messages_per_minute, 60, self.clock)
        finally:
            self._sockets[by_pass] -= 1
            self._sockets[by_address] -= 1
            self._drop_empty(by_pass, by_address)

    def _drop_empty(self, *keys: tuple[str, Hashable]) -> None:
        for key in keys:
            if self._sockets[key] <= 0:
                del self._sockets[key]

    def login(self, user_id: str) -> None:
        """One Mini App login of a Telegram user; ``TooMany`` past ``logins_per_hour``."""
        bucket = self._logins.pop(user_id, None) or rate(self.limits.logins_per_hour, 3600, self.clock)
        self._logins[user_id] = bucket
        while len(self._logins) > KEPT_LOGINS:
            self._logins.popitem(last=False)
        if not bucket.take():
            raise TooMany("logins")

    @property
    def open_sockets(self) -> int:
        return sum(count for (kind, _), count in self._sockets.items() if kind == "address")
