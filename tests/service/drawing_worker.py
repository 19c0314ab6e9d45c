"""A bot process that draws its pictures in processes of its own, to be killed by the test.

``python tests/service/drawing_worker.py DB``: opens the service with two drawing processes
(``BOARDCHAT_DRAWING_PROCESSES=2``, the default of a real bot), draws two maps at once
(drawing starts them), prints ``drawn`` and waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from service_helpers import chat, start_game, user  # noqa: E402

from bot.service import GameService  # noqa: E402
from bot.service.game.outmessage import RenderRequest  # noqa: E402


async def main(db: str) -> None:
    service = await GameService.open(db, drawing_processes=2)
    game_id = await start_game(service, chat(1), [user("Ann"), user("Bob")], options={"seed": 4})
    request = RenderRequest("map", game_id, 0, 1)
    # two at once: the pool starts a process for each drawing that finds none idle
    pictures = await asyncio.gather(*(service.pictures.render(request, language, "telegram")
                                      for language in ("en", "de")))
    assert None not in pictures
    print("drawn", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
