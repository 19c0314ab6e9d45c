"""What the web board tells browsers on every answer, and whose pages may open its socket.

Every response (the page, its files, pictures, the login, the socket's handshake, refusals and
errors) carries:

- ``Content-Security-Policy``: nothing from anywhere (``default-src 'none'``) but the board's own
  script, style sheet and pictures, and its socket (``connect-src``); no ``<base>``, no form, no
  plugin; framed only by Telegram's web clients (``frame-ancestors``: Telegram Web opens a Mini
  App in an iframe; its apps open it in a web view of their own, which frames nothing);
- ``X-Content-Type-Options: nosniff``: a picture or a JSON answer is never run as a script;
- ``Referrer-Policy: no-referrer``: no address of the board (which may carry a pass) goes to
  another site;
- ``Cache-Control: no-store`` on the login's answer (it carries a pass) unless a handler said
  otherwise.

The socket (``/live``) opens only for a page of the board itself: a browser says which site's
page opens a WebSocket (``Origin``), and one from elsewhere is refused, so another site cannot
work a board from its visitor's browser. A client that sends no Origin is no browser page and
holds a pass of its own, so it is let through as it would be anyway.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from aiohttp import web

# Telegram's web clients: Telegram Web (A at /a, K at /k) and the addresses they had before.
TELEGRAM_WEB_CLIENTS = ("https://web.telegram.org", "https://webk.telegram.org", "https://webz.telegram.org")
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
NO_STORE = "no-store"


def content_security_policy(public_url: str | None, frame_ancestors: Iterable[str] = TELEGRAM_WEB_CLIENTS) -> str:
    """The board's policy. The socket is named by its own address as well as ``'self'``, for
    browsers that do not count a ``wss:`` address as the page's own."""
    sockets = ["'self'"]
    if public_url:
        parts = urlsplit(public_url)
        sockets.append(f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}")
    return "; ".join((
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        f"connect-src {' '.join(sockets)}",
        "base-uri 'none'",
        "form-action 'none'",
        f"frame-ancestors {' '.join(frame_ancestors)}",
    ))


def security_headers(policy: str) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """An ``on_response_prepare`` hook putting the board's headers on every response."""

    async def add(request: web.Request, response: web.StreamResponse) -> None:
        headers = response.headers
        headers["Content-Security-Policy"] = policy
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        if request.path.startswith("/api/"):
            headers.setdefault("Cache-Control", NO_STORE)

    return add


def board_origins(public_url: str | None, host: str, port: int) -> frozenset[str]:
    """The origins of the board's own pages: its public address, and, where it listens on this
    machine only (``boardchat play --web``, or behind a proxy), its local address."""
    origins = set()
    if public_url:
        parts = urlsplit(public_url)
        origins.add(f"{parts.scheme}://{parts.netloc}".lower())
    names = LOOPBACK if host in ("127.0.0.1", "localhost", "::1") else (host,)
    origins.update(f"http://{name}:{port}" for name in names)
    return frozenset(origins)


def origin_allowed(request: web.Request, origins: frozenset[str]) -> bool:
    """Whether the request comes from one of the board's own pages (or from no browser page)."""
    origin = request.headers.get("Origin")
    return origin is None or origin.lower() in origins


def picture_cache_control(kind: str | None) -> str:
    """A seat's own board stays out of the browser's cache (it shows that seat's secret, and a
    shared computer's next user could read it there); a public picture is named by what it
    shows, so a page stepping back and forth gets it from its cache."""
    return NO_STORE if kind == "seat" else "private, max-age=86400"
