"""Short links to the board: ``http://127.0.0.1:PORT/p/<code>`` leads to the long signed link.

A board link carries its signed pass (about 200 characters), which wraps over several lines of a
terminal. The terminal prints a short link instead: an unguessable code (48 random bits), kept in
this process's memory for as long as the board serves, that redirects to the link it stands for.
The pass itself is checked by the board page as always; the code only spares the typing.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from aiohttp import web

CODE_BYTES = 6        # 8 characters of a URL-safe code


class ShortLinks:
    """code -> the path, query and fragment of the long link (``/board#t=...``)."""

    def __init__(self) -> None:
        self._targets: dict[str, str] = {}

    def add(self, target: str) -> str:
        """The code of ``target`` (a path with its query and fragment), the same one for the same target."""
        for code, known in self._targets.items():
            if known == target:
                return code
        code = secrets.token_urlsafe(CODE_BYTES)
        self._targets[code] = target
        return code

    def target(self, code: str) -> str | None:
        return self._targets.get(code)


SHORT_LINKS = web.AppKey("short_links", ShortLinks)


def add_routes(app: web.Application) -> None:
    """``GET /p/{code}``: a short link, redirected to the board it stands for."""
    app[SHORT_LINKS] = ShortLinks()
    app.router.add_get("/p/{code}", follow)


def shorten(app: web.Application, url: str) -> str:
    """``url`` (a link to this server's board) as a short link on the same server."""
    parts = urlsplit(url)
    # the pass rides in the fragment (``#t=...``, never sent to a server) or, in older links, the query
    target = parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    code = app[SHORT_LINKS].add(target)
    return f"{parts.scheme}://{parts.netloc}/p/{code}"


async def follow(request: web.Request) -> web.Response:
    target = request.app[SHORT_LINKS].target(request.match_info["code"])
    if target is None:       # mistyped, or the board that made it has stopped since
        from .server import _language, refusal_page

        return refusal_page("unknown_game", _language(request))
    # no-store: a code leads to a pass, which a cache has no business keeping
    raise web.HTTPFound(target, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})
