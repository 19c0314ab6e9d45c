"""One bot process of the multi-process test: a ``GameService`` on a shared PostgreSQL database
with its own delivery and timer loops, taking requests from the test on stdin.

``python tests/multiprocess/mp_worker.py URL NAME SENDS FIRES EPOCH SPEED``

Requests and answers are JSON lines carrying the request's ``rid``; requests are handled
concurrently, as a bot handles updates. Its transport is a file shared by every worker: each
message delivered is one line (outbox id and the worker's name) written with one O_APPEND
write; ``delivered_id`` looks there, so a message a killed worker sent but did not record is
not sent again. Each timer that fired (committed) is logged to FIRES the same way.

The clock runs SPEED times faster than real time from EPOCH (the same for every worker), so
minute-long reminders and deadlines come in fractions of a second.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.contract import Chat, Outgoing, Transport, User  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.service.delivery.pictures import Drawn  # noqa: E402
from bot.service.table.timers import Timers  # noqa: E402

PLATFORM = "mp"
# Clock seconds: 10 s of real time at SPEED 600. A worker whose event loop stalls past half of it
# between renewing a lease and sending gives the message back (the outbox's fence), so the lease
# only sets how soon the killed worker's messages are taken over, not whether one goes out twice.
LEASE = 6000.0


class ScaledClock:
    def __init__(self, epoch: float, speed: float) -> None:
        self.epoch, self.speed = epoch, speed

    def now(self) -> float:
        return self.epoch + (time.time() - self.epoch) * self.speed


def append_line(path: str, entry: dict) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(entry) + "\n").encode())
    finally:
        os.close(fd)


def read_lines(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.endswith("\n")]


class RecordingTransport(Transport):
    platform = PLATFORM

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name = path, name

    async def deliver(self, message: Outgoing) -> str:
        append_line(self.path, {"id": message.id, "by": self.name, "edit": message.edit_message_id,
                                "slot": message.slot and message.slot.name, "to": message.chat.id if message.chat else message.private_to.id})
        return message.edit_message_id or f"m{message.id}"

    async def delivered_id(self, message: Outgoing) -> str | None:
        for entry in read_lines(self.path):
            if entry["id"] == message.id:
                return entry["edit"] or f"m{message.id}"
        return None


def chat(n: int) -> Chat:
    return Chat(PLATFORM, f"g{n}", f"Game {n}")


def users(n: int) -> tuple[User, User]:
    return User(PLATFORM, f"ann{n}", f"Ann{n}"), User(PLATFORM, f"bob{n}", f"Bob{n}")


def first_legal(match, seat, **_):
    """The AI a deadline calls: cheap, so the test measures the plumbing, not the search."""
    return match.legal_choices(seat)[0]


async def no_picture(render: dict, language: str, platform: str, rank: int = 2) -> Drawn:
    return Drawn(b"png")


class Worker:
    """What the test asks a process to do."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def new(self, n: int, absent: bool) -> dict:
        """Ann against the AI, or (``absent``) against Bob, who never presses: the deadline
        timer plays his turns."""
        ann, bob = users(n)
        minutes = {"reminder_minutes": 1, "deadline_minutes": 2} if absent else \
            {"reminder_minutes": 0, "deadline_minutes": 0}
        steps = [await self.service.new_game(chat(n), ann, options={"seed": n, **minutes}),
                 await (self.service.join(chat(n), bob) if absent else self.service.add_ai(chat(n), ann)),
                 await self.service.start(chat(n), ann)]
        return {"ok": all(r.ok for r in steps), "text": [r.text for r in steps if not r.ok]}

    async def peek(self, n: int, absent: bool) -> dict:
        """The button the player to move would press (None: the game is over, or it is the
        absent player's turn)."""
        info = await self.service.game_info(chat(n))
        if info is None:
            return {"over": True}
        if info.to_move is None:          # ending (or a turn in between): look again
            return {"over": False, "moves": info.moves, "payload": None}
        seat = info.seats[info.to_move]
        if seat.user_id is None or seat.user_id.startswith("bob"):
            return {"over": False, "moves": info.moves, "payload": None}
        user = users(n)[0]
        board = await self.service.board(chat(n), user)
        choices = [row[0].payload for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]
        if not choices:      # moved between the two reads (a deadline): look again
            return {"over": False, "moves": info.moves, "payload": None}
        return {"over": False, "moves": info.moves, "user": user.id,
                "payload": choices[info.moves % len(choices)]}

    async def step(self, n: int, absent: bool) -> dict:
        """Look at the game and make Ann's next press here (one request instead of two)."""
        peek = await self.peek(n, absent)
        if peek.get("payload") is None:
            return {**peek, "pressed": False}
        return {**peek, **await self.press(n, peek["user"], peek["payload"]), "pressed": True}

    async def press(self, n: int, user_id: str, payload: str) -> dict:
        user = next(u for u in users(n) if u.id == user_id)
        reply = await self.service.press(chat(n), user, payload)
        if reply.ok and reply.buttons and reply.buttons[0][0].payload.startswith("c_"):
            reply = await self.service.press(chat(n), user, reply.buttons[0][0].payload)   # the eviction
        return {"ok": reply.ok, "text": reply.text}


async def main(url: str, name: str, sends: str, fires: str, epoch: float, speed: float) -> None:
    fire = Timers._fire

    async def logged_fire(self, loaded, timer):
        fired = await fire(self, loaded, timer)
        if fired is not None:
            append_line(fires, {"game": fired.game_id, "kind": fired.kind, "move": fired.move, "by": name})
        return fired
    Timers._fire = logged_fire

    service = await GameService.open(url, clock=ScaledClock(epoch, speed), owner=name, lease_seconds=LEASE,
                                     ai=first_legal, platforms=(PLATFORM,))
    service.pictures.render = no_picture
    worker = Worker(service)
    transport = RecordingTransport(sends, name)
    loops = [asyncio.create_task(service.delivery.run(transport, max_sleep=0.2)),
             asyncio.create_task(service.timers.run(max_sleep=0.2))]
    out = sys.stdout

    async def handle(request: dict) -> None:
        try:
            answer = await getattr(worker, request.pop("op"))(**{k: v for k, v in request.items() if k != "rid"})
        except Exception:  # noqa: BLE001 - reported to the test
            answer = {"error": traceback.format_exc()[-1500:]}
        out.write(json.dumps({"rid": request["rid"], **answer}) + "\n")
        out.flush()

    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out.write("ready\n")
    out.flush()
    tasks = set()
    while line := await reader.readline():
        task = asyncio.create_task(handle(json.loads(line)))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    # stdin closed: the test is done with this worker; finish what is due, then stop cleanly.
    await asyncio.gather(*tasks)
    while await service.storage.next_due(PLATFORM) is not None:
        await asyncio.sleep(0.05)
    for loop in loops:
        loop.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    await service.close()


if __name__ == "__main__":
    url, name, sends, fires, epoch, speed = sys.argv[1:7]
    asyncio.run(main(url, name, sends, fires, float(epoch), float(speed)))
