"""``python -m bot.resources_bench``: what a game weighs, per game kind, through the GameService on SQLite.

For each game kind (every registered one, or ``--kinds``):
  * ``--finished`` three-player games are played to the end (random legal presses of real
    payloads, every message delivered after each press to a transport that only counts them;
    pictures are not drawn, as their bytes are never stored): the database bytes a finished
    game takes with its outbox (delivered rows stay a week), from SQLite's ``dbstat`` (every
    page of every table and index of those games), with the outbox's rows and message
    bodies apart;
  * ``--games`` three-player games are played to the middle (half the finished games' mean
    length) and the service is closed; then, each in a fresh process (so nothing of the play
    is in its memory):
      - eager restore: ``restore_all`` of those games, timed, and per 10,000 games;
      - memory per active game, idle (as ``restore_all`` leaves it: metadata and the match's
        stored snapshot, packed): the resident set (RSS) before and after ``restore_all``, and
        Python's own allocations that stay (``tracemalloc``, in a second process: tracing slows
        the restore down);
      - first use of each game (``store.load``: its version checked, its match unpacked), timed,
        and the memory a game in use takes (its match live; a process keeps at most
        ``BOARDCHAT_LIVE_MATCHES`` so, the most recently used).
Targets (issue 31): <= 30 KiB a game in memory; 10,000 games restored eagerly in <= 3 s;
<= 100 KB a finished game with its week of outbox.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from unittest import mock

from bot.contract import Chat, Outgoing, Transport, User
from bot.games import KINDS, kind
from bot.service import GameService
from bot.service.delivery.pictures import Drawn
from bot.service.posts.seatmenu import private_choices
from bot.service.storage.store import LIVE_MATCHES

PLATFORM = "bench"
GOALS = {"memory KiB": 30, "restore s per 10,000": 3, "finished game KB": 100}


class _Counting(Transport):
    """A transport that accepts every message (a new id for each post, the same for an edit)."""

    platform = PLATFORM

    def __init__(self) -> None:
        self.sent = 0

    async def deliver(self, message: Outgoing) -> str:
        self.sent += 1
        return message.edit_message_id or str(self.sent)


async def _no_picture(render: dict, language: str, platform: str, rank: int = 2) -> Drawn:
    return Drawn(b"")


def _rss() -> int:
    """This process's resident set in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def _start(service: GameService, kind_id: str, n: int) -> tuple[Chat, dict[str, User]]:
    c = Chat(PLATFORM, f"{kind_id}-{n}", f"Bench {n}")
    users = [User(PLATFORM, f"{kind_id}-{n}-{name}", name) for name in ("Ann", "Bob", "Cy")]
    reply = await service.new_game(c, users[0], options={"game": kind_id, "seed": n})
    assert reply.ok, reply.text
    for u in users[1:]:
        assert (await service.join(c, u)).ok
    assert (await service.start(c, users[0])).ok
    return c, {u.id: u for u in users}


async def _press_one(service: GameService, c: Chat, users: dict[str, User], rng: random.Random) -> bool:
    """One acting seat presses a random legal choice (the payload its button carries); False once over."""
    loaded = await service.store.chat_game(c)
    if loaded is None or loaded.match is None or loaded.match.is_terminal():
        return False
    meta, match, game_kind = loaded.meta, loaded.match, loaded.kind
    acting = match.to_act()
    seat = acting[rng.randrange(len(acting))]
    choices = match.legal_choices(seat)
    payload = service.codec.encode("c", meta.id, seat, match.moves_by(seat), meta.turn.acting_since(seat),
                                   rng.randrange(len(choices)))
    where = None if private_choices(game_kind, match) else c
    user_id = meta.seats[seat].user_id
    assert user_id is not None, "the bench's seats are all people's"
    reply = await service.press(where, users[user_id], payload)
    assert reply.ok, reply.text
    return True


async def _play(path: str, kind_id: str, count: int, moves: int | None, first: int = 0,
                deliver: bool = False) -> list[int]:
    """Play ``count`` games to ``moves`` moves (None: to the end); their move counts.
    ``deliver``: send the outbox after every press, as a running bot does."""
    service = await GameService.open(path)
    # the bench weighs the records and the outbox, not the drawing: every picture is empty
    mock.patch.object(service.pictures, "render", _no_picture).start()
    transport = _Counting()
    try:
        lengths = []
        for n in range(first, first + count):
            c, users = await _start(service, kind_id, n)
            rng = random.Random(n)
            played = 0
            while (moves is None or played < moves) and await _press_one(service, c, users, rng):
                played += 1
                if deliver:
                    await service.deliver_pending(transport)
            lengths.append(played)
        return lengths
    finally:
        await service.close()


def _database_bytes(path: str) -> dict[str, float]:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        pages = dict(db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall())
        rows, bodies = db.execute("SELECT COUNT(*), COALESCE(SUM(LENGTH(body)), 0) FROM outbox").fetchone()
        games = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
    finally:
        db.close()
    outbox = sum(size for name, size in pages.items() if name.startswith("outbox"))
    return {"games": games, "total": sum(pages.values()) / games, "outbox": outbox / games,
            "outbox_rows": rows / games, "bodies": bodies / games}


async def _measure(path: str, traced: bool) -> dict[str, float]:
    """In a fresh process: restore every game of ``path`` eagerly, then use each once; the times and
    the memory kept after each (every game's match stays live here, to weigh a game in use)."""
    import tracemalloc

    service = await GameService.open(path, live_matches=1_000_000)
    try:
        gc.collect()
        if traced:
            tracemalloc.start()

        def held() -> tuple[int, int]:
            # A query's rows stay referenced until the next query (the database thread's last
            # result): callers make one more small query first, so that what is left is the games'.
            gc.collect()
            return _rss(), tracemalloc.get_traced_memory()[0] if traced else 0

        before = held()
        started = time.perf_counter()
        restored = await service.restore_all()
        seconds = time.perf_counter() - started
        ids = [gid for gid, _, _ in await service.storage.active_games()]
        idle = held()
        started = time.perf_counter()
        for gid in ids:
            loaded = await service.store.load(gid)
            assert loaded is not None and loaded.match is not None
        first_use = (time.perf_counter() - started) / len(ids)
        await service.storage.active_games()
        hot = held()
        out = {"games": restored, "seconds": seconds, "first_use": first_use,
               "rss": idle[0] - before[0], "rss_hot": hot[0] - idle[0]}
        if traced:
            out.update(traced=idle[1] - before[1], traced_hot=hot[1] - idle[1])
            tracemalloc.stop()
        return out
    finally:
        await service.close()


def _measured(path: str, traced: bool) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-m", "bot.resources_bench", "--measure", path]
                         + (["--traced"] if traced else []), capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def bench_kind(kind_id: str, games: int, finished: int, tmp: str) -> dict[str, float]:
    name = kind(kind_id).definition.name
    started = time.perf_counter()
    done_path = os.path.join(tmp, f"{kind_id}-finished.sqlite3")
    lengths = asyncio.run(_play(done_path, kind_id, finished, None, first=1_000_000, deliver=True))
    size = _database_bytes(done_path)
    print(f"{name}: {finished} games played to the end, {sum(lengths) / len(lengths):.0f} moves on average "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    print(f"  database per finished game with its outbox: {size['total'] / 1000:.1f} KB "
          f"(outbox {size['outbox'] / 1000:.1f} KB: {size['outbox_rows']:.0f} rows, "
          f"{size['bodies'] / 1000:.1f} KB of message bodies; without the outbox "
          f"{(size['total'] - size['outbox']) / 1000:.1f} KB)", flush=True)

    middle = sum(lengths) // len(lengths) // 2
    started = time.perf_counter()
    path = os.path.join(tmp, f"{kind_id}-active.sqlite3")
    asyncio.run(_play(path, kind_id, games, middle))
    print(f"  {games} games played to move {middle} ({time.perf_counter() - started:.0f} s)", flush=True)
    timed = _measured(path, traced=False)
    traced = _measured(path, traced=True)
    per_game = timed["seconds"] / timed["games"]
    print(f"  eager restore of {timed['games']} games: {timed['seconds']:.2f} s ({per_game * 1000:.2f} ms a game; "
          f"{per_game * 10_000:.1f} s per 10,000 games)", flush=True)
    n = timed["games"]
    print(f"  memory per active game, idle (match packed): {timed['rss'] / n / 1024:.1f} KiB resident (RSS delta), "
          f"{traced['traced'] / n / 1024:.1f} KiB of Python allocations (tracemalloc)", flush=True)
    print(f"  first use of a game (version checked, match unpacked): {timed['first_use'] * 1000:.2f} ms; "
          f"then in use (match live) {(timed['rss'] + timed['rss_hot']) / n / 1024:.1f} KiB resident, "
          f"{(traced['traced'] + traced['traced_hot']) / n / 1024:.1f} KiB of Python allocations a game "
          f"(the live match adds {traced['traced_hot'] / n / 1024:.1f} KiB; at most "
          f"BOARDCHAT_LIVE_MATCHES games, default {LIVE_MATCHES}, are so)", flush=True)
    return {"memory KiB": timed["rss"] / timed["games"] / 1024, "restore s per 10,000": per_game * 10_000,
            "finished game KB": size["total"] / 1000}


def _at_least_one(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of games, not {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"at least 1 game, not {count}")
    return count


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        print(json.dumps(asyncio.run(_measure(argv[1], "--traced" in argv))))
        return
    parser = argparse.ArgumentParser(prog="python -m bot.resources_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=_at_least_one, default=200, help="games in progress restored and weighed")
    parser.add_argument("--finished", type=_at_least_one, default=5, help="games played to the end and weighed on disk")
    parser.add_argument("--kinds", default=",".join(KINDS), help="game ids, comma-separated")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for kind_id in args.kinds.split(","):
            figures = bench_kind(kind_id, args.games, args.finished, tmp)
            met = ", ".join(f"{goal} {'met' if figures[goal] <= limit else 'NOT met'}"
                            for goal, limit in GOALS.items())
            print(f"  goals (<= 30 KiB, <= 3 s, <= 100 KB): {met}", flush=True)


if __name__ == "__main__":
    main()
