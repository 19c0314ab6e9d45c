"""The page's own text files (its scripts, style sheet and icon), served from memory so that
``compression.py`` can gzip them: aiohttp compresses a ``Response``, while a ``FileResponse``
compressed and answered 304 (a browser revalidating) sends a gzip trailer as its body, which
breaks the connection. Each answers with an ETag of its bytes, and 304 to a browser holding them.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import ETag, hdrs, web

TEXT_FILES = ("open.js", "board.js", "board.css", "icon.svg")


def add_routes(app: web.Application, folder: Path) -> None:
    """``/static/<name>`` for each of ``TEXT_FILES`` (added before the folder's own route, which
    serves the rest, so these win)."""
    for name in TEXT_FILES:
        app.router.add_get(f"/static/{name}", _handler(folder / name))


def _handler(path: Path) -> Callable[[web.Request], Awaitable[web.Response]]:
    body = path.read_bytes()
    etag = hashlib.blake2b(body, digest_size=8).hexdigest()
    content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"

    async def serve(request: web.Request) -> web.Response:
        if etag in request.headers.get(hdrs.IF_NONE_MATCH, ""):
            response = web.Response(status=304)
        else:
            response = web.Response(body=body, content_type=content_type)
        # weak: gzipped or not, the same file
        response.etag = ETag(etag, is_weak=True)
        return response

    return serve
