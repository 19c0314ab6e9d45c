"""A process that plays one game through the service and may be killed at any moment.

``python tests/service/crash_worker.py DB SENDS [KILL_PROB] [RNG_SEED]``

Every step is derived from what is stored, so a restarted worker simply carries on. Its
transport is a file: each delivered message is one line holding the outbox id, written with
a single O_APPEND write (the "platform" has received it once the line exists). With
KILL_PROB > 0 the worker SIGKILLs itself inside delivery, just before or just after the
platform receives a message: the window where a crash could lose or double a message.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.contract import Chat, Outgoing, Transport, User  # noqa: E402
from bot.service import GameService  # noqa: E402

CHAT = Chat("crash", "group", "Crash test")
ANN = User("crash", "ann", "Ann")
BOB = User("crash", "bob", "Bob")
USERS = {"ann": ANN, "bob": BOB}
OPTIONS = {"seed": 2026, "reminder_minutes": 0, "deadline_minutes": 0}
if os.environ.get("CRASH_GAME_SEED"):
    OPTIONS["seed"] = int(os.environ["CRASH_GAME_SEED"])


class FileTransport(Transport):
    platform = "crash"

    def __init__(self, path: str, kill_prob: float = 0.0, rng: random.Random | None = None) -> None:
        self.path = path
        self.kill_prob = kill_prob
        self.rng = rng or random.Random()

    def _maybe_die(self) -> None:
        if self.kill_prob and self.rng.random() < self.kill_prob:
            os.kill(os.getpid(), signal.SIGKILL)

    async def deliver(self, message: Outgoing) -> str:
        self._maybe_die()                                   # before the platform has it
        line = json.dumps({"id": message.id, "edit": message.edit_message_id, "slot": message.slot and message.slot.name,
                           "private": message.private_to.id if message.private_to else None}) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
        self._maybe_die()                                   # the platform has it; we have not recorded it
        return f"m{message.id}"

    async def _delivered_id(self, message: Outgoing) -> str | None:
        """Asked after a restart about a message that was being sent at the crash."""
        for entry in read_sends(self.path):
            if entry["id"] == message.id:
                return f"m{message.id}"
        return None


if not os.environ.get("CRASH_NO_LOOKUP"):   # set it to watch the test catch doubled messages
    FileTransport.delivered_id = FileTransport._delivered_id


def read_sends(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


async def step(service: GameService) -> bool:
    """Do the next thing the game needs; False when the game is over."""
    info = await service.game_info(CHAT)
    if info is None:
        async with service.storage.db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'") as cur:
            if (await cur.fetchone())[0]:
                return False
        await service.new_game(CHAT, ANN, options=OPTIONS)
        return True
    if info.status == "lobby":
        seats = info.seats
        if len(seats) == 1:
            await service.join(CHAT, BOB)
        elif len(seats) == 2:
            await service.add_ai(CHAT, ANN)
        else:
            await service.start(CHAT, ANN)
        return True
    mover = USERS[info.seats[info.to_move].user_id]
    board = await service.board(CHAT, mover)
    tiles = [row[0] for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]
    reply = await service.press(CHAT, mover, tiles[0].payload)
    if reply.ok and reply.buttons and reply.buttons[0][0].payload.startswith("c_"):
        reply = await service.press(CHAT, mover, reply.buttons[0][0].payload)
    if not reply.ok:
        raise RuntimeError(f"refused: {reply.text}")
    return True


async def run(db: str, sends: str, kill_prob: float = 0.0, rng_seed: int | None = None) -> None:
    service = await GameService.open(db)
    transport = FileTransport(sends, kill_prob, random.Random(rng_seed))
    try:
        await service.deliver_pending(transport)            # whatever a crash left behind
        while await step(service):
            await service.deliver_pending(transport)
        while await service.storage.unsent(transport.platform):
            await service.deliver_pending(transport)
    finally:
        await service.close()


if __name__ == "__main__":
    # Only message ids are recorded: the end's animation is a stand-in (tests/animation_stand_in.py).
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from animation_stand_in import use_in_this_process
    use_in_this_process()
    args = sys.argv[1:]
    asyncio.run(run(args[0], args[1], float(args[2]) if len(args) > 2 else 0.0,
                    int(args[3]) if len(args) > 3 else None))
    print("DONE", flush=True)
