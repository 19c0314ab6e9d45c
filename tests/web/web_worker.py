"""A second bot process serving the web board: ``python tests/web/web_worker.py URL``.

The benchmark's server (``bot.web.bench.serve``): opens a ``GameService`` on the PostgreSQL URL,
hears other processes' commits, serves a ``WebBoard`` on a free port of 127.0.0.1, prints
``port N`` and serves until its standard input closes."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.web.bench import serve  # noqa: E402

if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1]))
