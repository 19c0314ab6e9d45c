"""A second bot process serving the web board: ``python tests/web/web_worker.py URL``.

Opens a ``GameService`` on the PostgreSQL URL, hears other processes' commits
(``watch_other_processes``), serves a ``WebBoard`` on a free port of 127.0.0.1, prints
``port N`` and serves until its standard input closes."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.service import GameService  # noqa: E402
from bot.web.server import WebBoard, WebSettings  # noqa: E402


async def main(url: str) -> None:
    service = await GameService.open(url)
    try:
        await service.watch_other_processes()
        board = await WebBoard.start(service, WebSettings(port=0))
        print(f"port {board.port}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        await board.stop()
    finally:
        await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
