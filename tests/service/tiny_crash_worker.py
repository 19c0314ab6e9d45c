"""A process that plays Tiny Hands (tests/tinygame) for three humans through the service and may be
killed at any moment, mid-phase included.

``python tests/service/tiny_crash_worker.py DB SENDS PRESSES [KILL_PROB] [RNG_SEED] [DIE_AFTER]``

It SIGKILLs itself inside delivery with probability KILL_PROB per message (just before or just
after the platform has it), and right after the service has answered its DIE_AFTER-th press (the
other seats' presses of that moment may be waiting for the chat's lock): in the middle of a phase.

The "platform" is two files. SENDS: every delivered message, one line each (its outbox id, whom
it went to, the message it edits, its buttons), written with one O_APPEND write. PRESSES: every
press, written before the service gets it, as a platform holds an update until it is answered.
A restarted worker first presses the last press again (the platform delivering an unanswered
update once more: the service must not apply it twice), then carries on from what is stored:
each human presses, all at once, the button that leads to what their AI would choose from their
own view, with a seed of their own seat and step count, so every seat's choices are the same
however the presses interleave and wherever the process died.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from tinygame import GAME, registered  # noqa: E402
from tinygame.game import Done, Play, Take  # noqa: E402

from bot.contract import Chat, Outgoing, Transport, User  # noqa: E402
from bot.service import GameService  # noqa: E402

CHAT = Chat("crash", "group", "Crash test")
USERS = {u.id: u for u in (User("crash", "ann", "Ann"), User("crash", "bob", "Bob"), User("crash", "cy", "Cy"))}
OPTIONS = {"game": GAME.id, "seed": int(os.environ.get("TINY_CRASH_SEED", "3")), "reminder_minutes": 0,
           "deadline_minutes": 0}


def append(path: str, entry: dict) -> None:
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


class FileTransport(Transport):
    platform = "crash"

    def __init__(self, path: str, kill_prob: float, rng: random.Random) -> None:
        self.path, self.kill_prob, self.rng = path, kill_prob, rng

    def _maybe_die(self) -> None:
        if self.kill_prob and self.rng.random() < self.kill_prob:
            os.kill(os.getpid(), signal.SIGKILL)

    async def deliver(self, message: Outgoing) -> str:
        self._maybe_die()                                   # before the platform has it
        append(self.path, {"id": message.id, "edit": message.edit_message_id, "slot": message.slot and message.slot.name,
                           "to": message.private_to.id if message.private_to else None,
                           "buttons": [[b.label, b.payload] for row in message.buttons for b in row]})
        self._maybe_die()                                   # the platform has it; the service has not noted it
        return message.edit_message_id or f"m{message.id}"

    async def delivered_id(self, message: Outgoing) -> str | None:
        """Asked after a restart about a message that was being sent at the crash."""
        for entry in read_lines(self.path):
            if entry["id"] == message.id:
                return entry["edit"] or f"m{message.id}"
        return None


def menu_of(sends: str, user_id: str) -> dict[str, str]:
    """The buttons (label -> payload) of the user's newest private message that shows any now."""
    current: dict[str, dict] = {}
    for entry in read_lines(sends):
        current[entry["edit"] or f"m{entry['id']}"] = entry
    mine = [e for e in current.values() if e["to"] == user_id and e["buttons"]]
    return dict(max(mine, key=lambda e: int(e["id"]))["buttons"]) if mine else {}


def button_for(choice, menu: dict[str, str]) -> str:
    """The label to press on the way to ``choice`` (Tiny Hands' presenter's labels)."""
    wanted = {Play: lambda c: f"🂠 {c.card}", Done: lambda c: "✅ Done", Take: lambda c: f"🪙 Take {c.value}"}
    label = wanted[type(choice)](choice)
    if label in menu:
        return label
    return "🂠 Play a card…" if isinstance(choice, Play) else next(k for k in menu if k.startswith("↩"))


DIE_AFTER = [0]          # presses to answer before dying (0: never)


async def press(service: GameService, presses: str, user_id: str, payload: str) -> None:
    append(presses, {"user": user_id, "payload": payload})     # the platform holds the update
    await service.press(CHAT, USERS[user_id], payload)
    DIE_AFTER[0] -= 1
    if DIE_AFTER[0] == 0:
        os.kill(os.getpid(), signal.SIGKILL)                   # answered, not yet acknowledged


async def step(service: GameService, sends: str, presses: str) -> bool:
    """Do what the game needs next; False once it is over."""
    info = await service.game_info(CHAT)
    if info is None:
        async with service.storage.db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'") as cur:
            if (await cur.fetchone())[0]:
                return False
        await service.new_game(CHAT, USERS["ann"], options=OPTIONS)
        return True
    if info.status == "lobby":
        joined = {s.user_id for s in info.seats}
        missing = [u for u in USERS.values() if u.id not in joined]
        await (service.join(CHAT, missing[0]) if missing else service.start(CHAT, USERS["ann"]))
        return True
    match = GAME.from_record(await service.record(info.game_id))
    work = []
    for seat in match.to_act():
        user_id = info.seats[seat].user_id
        menu = menu_of(sends, user_id)
        if menu:
            choice = GAME.choose(match, seat, seed=seat * 1000 + match.moves_by(seat))
            work.append(press(service, presses, user_id, menu[button_for(choice, menu)]))
    await asyncio.gather(*work)
    return True


async def run(db: str, sends: str, presses: str, kill_prob: float = 0.0, rng_seed: int | None = None,
              die_after: int = 0) -> None:
    DIE_AFTER[0] = die_after
    with registered():
        service = await GameService.open(db)
        transport = FileTransport(sends, kill_prob, random.Random(rng_seed))
        try:
            await service.deliver_pending(transport)        # whatever a crash left behind
            last = read_lines(presses)[-1:]
            for entry in last:                              # the platform delivers its unanswered update again
                await service.press(CHAT, USERS[entry["user"]], entry["payload"])
            await service.deliver_pending(transport)
            while await step(service, sends, presses):
                await service.deliver_pending(transport)
            while await service.storage.unsent(transport.platform):
                await service.deliver_pending(transport)
        finally:
            await service.close()


if __name__ == "__main__":
    # Only the messages' ids and words are recorded: the end's animation is a stand-in (tests/animation_stand_in.py).
    from animation_stand_in import use_in_this_process
    use_in_this_process()
    args = sys.argv[1:]
    asyncio.run(run(args[0], args[1], args[2], float(args[3]) if len(args) > 3 else 0.0,
                    int(args[4]) if len(args) > 4 else None, int(args[5]) if len(args) > 5 else 0))
    print("DONE", flush=True)
