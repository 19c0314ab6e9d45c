"""A board served under a low open-files limit: ``python tests/web/limited_worker.py DB LIMIT``.

Sets the process's open-files limit (soft and hard) to LIMIT, opens a ``GameService`` on the
SQLite file DB, serves a ``WebBoard`` on a free port of 127.0.0.1 with the default settings,
prints ``port N`` and serves until its standard input closes. Its log goes to standard error."""

from __future__ import annotations

import asyncio
import logging
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.service import GameService  # noqa: E402
from bot.web.server import WebBoard, WebSettings  # noqa: E402


async def serve(database: str) -> None:
    service = await GameService.open(database)
    board = await WebBoard.start(service, WebSettings(port=0))
    print("port", board.port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await board.stop()
    await service.close()


if __name__ == "__main__":
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(serve(sys.argv[1]))
