"""The board's connections: a time for a new one to say what it wants, a cap on how many are open,
and the "too many open files" errors of a full process said once in a while.

aiohttp reads a request's headers for as long as the client takes: a client that sends half a
request line and then nothing holds a connection (and a file descriptor) for ever, and a few
hundred of them leave the process unable to accept anyone (each failed ``accept`` then printed a
traceback). So the listening socket's protocol factory is wrapped (``Connections``):

- a new connection must send its first request's headers within ``header_seconds``, or it is
  answered 408 and closed (later requests on a kept-alive connection are aiohttp's
  ``keepalive_timeout``: it closes a connection idle between requests, however much of the next
  request it has had), and a request's body must come within as long (``body_in_time``);
- at most ``connections`` are open at once; one more is let in by closing the oldest that has not
  yet sent its headers (a silent one), or, when all are busy (pages' sockets, requests under way),
  answered 503 and closed at once;
- the event loop's "socket.accept() out of system resource" (the process's open-files limit
  reached, EMFILE) is logged once, then at most once a minute with the number since.

``fitted`` keeps the cap under the process's open-files limit (raising its soft limit up to the
hard one when it can), docs/deployment.md says which limit to set.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web
from aiohttp.web_runner import BaseSite

try:
    import resource
except ImportError:         # not a Unix system: no open-files limit to read
    resource = None  # type: ignore[assignment]

log = logging.getLogger(__name__)
END_OF_HEADERS = b"\r\n\r\n"
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
FULL = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
OTHER_FILES = 128          # files the process keeps besides the board's connections (database, pipes, logs)
ACCEPT_ERROR = "socket.accept() out of system resource"
ACCEPT_LOG_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The board's connections (``BOARDCHAT_WEB_CONNECTIONS``, ``BOARDCHAT_WEB_HEADER_SECONDS``)."""

    connections: int = 1000           # open at once: pages' sockets, requests, idle kept-alive ones
    header_seconds: float = 10.0      # for a new connection to send its first request's headers
    keepalive_seconds: float = 75.0   # a kept-alive connection idle between requests


def fitted(limits: ConnectionLimits) -> ConnectionLimits:
    """``limits`` with a cap that fits the process's open-files limit: the soft limit raised
    towards the hard one as far as the cap needs, the cap lowered (and a warning) if that is
    not enough."""
    if resource is None:
        return limits
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limits.connections + OTHER_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < wanted:
        cap = max(1, soft - OTHER_FILES)
        log.warning("web board: the open-files limit is %s, so at most %s connections are let in, not %s "
                    "(docs/deployment.md: LimitNOFILE, ulimit -n, docker --ulimit nofile)",
                    soft, cap, limits.connections)
        return replace(limits, connections=cap)
    return limits


class Connections:
    """The protocol factory of the board's listening socket: aiohttp's (``make``), each
    connection wrapped in a ``Guarded`` that keeps the bounds above."""

    def __init__(self, limits: ConnectionLimits, make: Callable[[], asyncio.Protocol]) -> None:
        self.limits = limits
        self._make = make
        self.open = 0
        self._silent: dict[Guarded, None] = {}     # open, headers not yet in: oldest first
        self.refused = 0
        self.timed_out = 0

    def __call__(self) -> Guarded:
        return Guarded(self)

    def admit(self, connection: Guarded) -> bool:
        """Let ``connection`` in, making room by closing the oldest silent one if need be."""
        if self.open >= self.limits.connections:
            if not self._silent:
                self.refused += 1
                return False
            oldest = next(iter(self._silent))
            self.told(oldest)
            oldest.close(TIMED_OUT)
        self.open += 1
        self._silent[connection] = None
        return True

    def told(self, connection: Guarded) -> None:
        """``connection`` sent its headers (or is closing): not silent any more."""
        self._silent.pop(connection, None)

    def closed(self, connection: Guarded) -> None:
        self._silent.pop(connection, None)
        self.open -= 1

    def inner(self) -> asyncio.Protocol:
        return self._make()


class Guarded(asyncio.Protocol):
    """One connection: aiohttp's protocol inside, once let in, timed until its headers are in."""

    def __init__(self, owner: Connections) -> None:
        self.owner = owner
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.owner.admit(self):
            transport.write(FULL)
            transport.close()
            return
        self.timer = asyncio.get_running_loop().call_later(self.owner.limits.header_seconds, self._timed_out)
        self.inner = self.owner.inner()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.timer is not None:
            seen = self.tail + data
            if END_OF_HEADERS in seen:
                self._heard()
            else:
                self.tail = seen[-(len(END_OF_HEADERS) - 1):]
        self.inner.data_received(data)

    def _heard(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.tail = b""
        self.owner.told(self)

    def _timed_out(self) -> None:
        self.timer = None
        self.owner.timed_out += 1
        self.owner.told(self)
        self.close(TIMED_OUT)

    def close(self, answer: bytes) -> None:
        """Say why and close (the inner protocol hears ``connection_lost`` as the socket goes)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()

    def eof_received(self) -> bool | None:
        return None if self.inner is None else self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.owner.closed(self)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class AcceptErrors:
    """A loop's exception handler that says "out of open files" once a minute, not each time."""

    def __init__(self, loop: asyncio.AbstractEventLoop, clock: Callable[[], float] = time.monotonic) -> None:
        self.loop = loop
        self.clock = clock
        self.previous = loop.get_exception_handler()
        self.unsaid = 0
        self.said_at: float | None = None

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != ACCEPT_ERROR:
            self._pass_on(context)
            return
        now = self.clock()
        if self.said_at is not None and now - self.said_at < ACCEPT_LOG_SECONDS:
            self.unsaid += 1
            return
        more = f" ({self.unsaid} more since it was said last)" if self.unsaid else ""
        log.error("web board: cannot accept connections: %s%s; see the open-files limit in docs/deployment.md",
                  context.get("exception"), more)
        self.said_at, self.unsaid = now, 0

    def _pass_on(self, context: dict[str, Any]) -> None:
        if self.previous is not None:
            self.previous(self.loop, context)
        else:
            self.loop.default_exception_handler(context)

    def install(self) -> None:
        self.loop.set_exception_handler(self)

    def remove(self) -> None:
        if self.loop.get_exception_handler() is self:
            self.loop.set_exception_handler(self.previous)


def body_in_time(seconds: float) -> Callable[..., Any]:
    """A middleware: a request's body (a login's JSON) read within ``seconds``, or 408 and the
    connection closed, so a body sent a byte at a time holds no handler."""

    @web.middleware
    async def middleware(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if request.body_exists:
            try:
                async with asyncio.timeout(seconds):
                    await request.read()        # kept: the handler reads it again at once
            except TimeoutError:
                if request.transport is not None:
                    request.transport.write(TIMED_OUT)
                    request.transport.close()
                raise web.HTTPRequestTimeout() from None
        return await handler(request)

    return middleware


class GuardedSite(BaseSite):
    """aiohttp's TCP site, its connections kept by ``Connections`` (``connections``, once started),
    and the loop's accept errors by ``AcceptErrors`` while it runs."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, limits: ConnectionLimits) -> None:
        super().__init__(runner)
        self.host, self.port = host, port
        self.limits = limits
        self.connections: Connections | None = None
        self.accept_errors: AcceptErrors | None = None

    @property
    def name(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        server = self._runner.server
        assert server is not None
        self.connections = Connections(fitted(self.limits), server)
        self.accept_errors = AcceptErrors(loop)
        self.accept_errors.install()
        self._server = await loop.create_server(self.connections, self.host, self.port, backlog=self._backlog,
                                                reuse_address=True)

    async def stop(self) -> None:
        if self.accept_errors is not None:
            self.accept_errors.remove()
        await super().stop()
