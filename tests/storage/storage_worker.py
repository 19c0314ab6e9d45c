"""One process of a multi-process storage test (run by test_processes.py).

    python storage_worker.py TARGET create N      make N lobbies, print their ids (JSON)
    python storage_worker.py TARGET move GID      play the next move of game GID
    python storage_worker.py TARGET seat GID USER take a seat in lobby GID

Each opens the database (and for move/seat loads the game), prints "ready", waits for a
line on stdin so that all workers act at once, then acts and prints the outcome:
the ids, or "ok" / "conflict".
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

# This checkout's code, not whatever copy of the project is installed (a script's own
# folder comes first on sys.path, not the working directory).
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

from storage_kit import PLATFORM, a_move, lobby  # noqa: E402

from bot.service.game.model import Changes, Seat  # noqa: E402
from bot.service.storage import Conflict, open_storage  # noqa: E402


async def main(target: str, command: str, *args: str) -> None:
    storage = await open_storage(target)
    try:
        meta = None
        if command in ("move", "seat"):
            meta, _ = await storage.load_game(int(args[0]))
        print("ready", flush=True)
        sys.stdin.readline()
        if command == "create":
            ids = []
            for i in range(int(args[0])):
                gid = await storage.new_game_id()
                await storage.commit(Changes(meta=lobby(gid, f"{os.getpid()}-{i}")), 0.0)
                ids.append(gid)
            print(json.dumps(ids), flush=True)
            return
        try:
            if command == "move":
                await a_move(storage, meta, f"by-{os.getpid()}")
            else:
                meta.seats.append(Seat(args[1].title(), PLATFORM, args[1]))
                await storage.commit(Changes(meta=meta), 1.0)
        except Conflict:
            print("conflict", flush=True)
        else:
            print("ok", flush=True)
    finally:
        await storage.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
