"""One process of the start-up race test (test_storage_opening.py): opens each new file
together with its twin process, at the same instant (a barrier), and reports every error."""

from __future__ import annotations

import asyncio
import traceback

from bot.service.storage import open_storage


async def _open_and_close(path: str) -> None:
    storage = await open_storage(path)
    await storage.close()


def open_each(barrier, paths: list[str], errors) -> None:
    """For each path: wait for the twin, open the database, close it; errors go to ``errors``."""
    found = []
    for path in paths:
        barrier.wait(timeout=60)
        try:
            asyncio.run(_open_and_close(path))
        except Exception:                   # report it; the test names the failure
            found.append(traceback.format_exc(limit=3))
    errors.put(found)
