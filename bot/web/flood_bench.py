"""``python -m bot.web.flood_bench``: do the groups' round pictures wait for a flood of page pictures?

A ``GameService`` that draws in its own processes (``--processes``, the bot's default 2) and
serves the web board; ``--groups`` Paris Paris games of two people play in it, each through the
service as a chat plays (a press, then the delivery loop draws and sends what it committed), a
person thinking ``--think`` seconds between moves. For each press that ends a round the time from
the press to the group's round picture reaching the chat (a transport that keeps what it is
sent) is taken: p50, p90, max. Three runs, each on a fresh database:

  * quiet: no page asks for anything;
  * flood, as before: ``--clients`` visitors (another OS process, aiohttp's client) ask for page
    pictures without pause, ``--at-once`` requests each at a time, each its own links to finished games in four languages, both
    layouts, every move: far more distinct pictures than are kept, so each is drawn. Pages drawn
    at the chats' rank and sharing their slots, no bound per visitor (the board before issue 42);
  * flood, now: the same flood, page pictures after the chats' with a budget of their own
    (``Pictures.render_for_page``) and the bounds per visitor (``guard.py``).

For the floods it also prints how many page pictures were served and refused (429: a visitor's
bound; 503: the pages' queue full). A visitor refused waits 50 ms before asking again (a flood
that asks again at once measures the HTTP server, not the drawing).
Everything runs on this machine and shares its cores, so the figures include the flood's clients.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.bench import next_press, timed_press
from bot.board import LAYOUTS, PageRequest
from bot.contract import Chat, GameInfo, Outgoing, Transport, User
from bot.pagestate import Picture
from bot.service import GameService
from bot.service.game.outmessage import RenderRequest

from .guard import VisitorLimits
from .hub import picture_source
from .server import WebBoard, WebSettings

PLATFORM = "bench"
LANGUAGES = ("en", "de", "fr", "it")
FINISHED_GAMES = 4
GIVE_UP = 60.0            # seconds a group waits for its round picture before it is counted as never come
UNBOUNDED = VisitorLimits(pictures_per_pass=10 ** 6, sockets_per_pass=10 ** 6, sockets_per_address=10 ** 6,
                          messages_per_minute=10 ** 9, logins_per_hour=10 ** 9)


@dataclass
class Pictured(Transport):
    """Keeps when each group was sent a picture."""

    platform: str = PLATFORM
    pictures: Counter[str] = field(default_factory=Counter)
    arrived: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def deliver(self, message: Outgoing) -> str:
        if message.chat is not None and message.image is not None and message.edit_message_id is None:
            async with self.arrived:
                self.pictures[message.chat.id] += 1
                self.arrived.notify_all()
        return str(time.monotonic_ns())

    async def picture_after(self, chat_id: str, count: int) -> None:
        async with self.arrived:
            await self.arrived.wait_for(lambda: self.pictures[chat_id] > count)


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def _start(service: GameService, chat: Chat, people: list[User], seed: int) -> None:
    host, *rest = people
    await service.new_game(chat, host, options={"seed": seed})
    for person in rest:
        await service.join(chat, person)
    reply = await service.start(chat, host)
    if not reply.ok:
        raise RuntimeError(reply.text)


async def _press(service: GameService, chat: Chat, people: dict[str, User]) -> bool:
    """The player to move makes a move (``bot.bench``'s: a tile by the move count, and an eviction
    if asked); False: the game is over."""
    press = await next_press(service, chat, people)
    if press is None:
        return False
    await timed_press(service, chat, *press)
    return True


def _people(n: int, tag: str) -> list[User]:
    return [User(PLATFORM, f"{tag}{n}a", f"Ann{n}"), User(PLATFORM, f"{tag}{n}b", f"Bob{n}")]


async def _finished_games(service: GameService, count: int, tag: str = "done") -> list[int]:
    """``count`` games of two played to their end (or started only, with ``tag`` "warm")."""
    games = []
    for n in range(count):
        chat, people = Chat(PLATFORM, f"{tag}{n}", f"{tag} {n}"), _people(n, tag)
        await _start(service, chat, people, seed=100 + n)
        games.append((await _info(service, chat)).game_id)
        by_id = {p.id: p for p in people}
        while tag != "warm" and await _press(service, chat, by_id):
            pass
    return games


async def _info(service: GameService, chat: Chat) -> GameInfo:
    info = await service.game_info(chat)
    if info is None:
        raise RuntimeError(f"no game in {chat.id}")
    return info


async def _flood_plan(service: GameService, board: WebBoard, games: list[int], clients: int, at_once: int) -> dict:
    """Each visitor's links (a spectator's pass per game and language) and the pictures its pages name."""
    names: dict[int, list[str]] = {}
    for game in games:
        stored = await service.storage.load_game(game)
        assert stored is not None
        names[game] = []
        for at in range(stored[0].moves + 1):
            for layout in LAYOUTS:
                state = await service.page(PageRequest(game, None, "en", layout, at))
                assert state is not None and state.pictures and isinstance(state.pictures[0], Picture)
                names[game].append(picture_source(state.pictures[0].render))
    visitors = [[{"pass": board.link(game, PLATFORM, None, "Guest", language).split("t=", 1)[1], "game": game}
                 for game in games for language in LANGUAGES] for _ in range(clients)]
    return {"url": board.local_url, "names": {str(g): n for g, n in names.items()}, "visitors": visitors,
            "at_once": at_once}


async def _groups_play(service: GameService, transport: Pictured, groups: int, rounds: int, think: float,
                       rng: random.Random) -> list[float]:
    waits: list[float] = []

    async def group(n: int) -> None:
        chat, people = Chat(PLATFORM, f"group{n}", f"Group {n}"), _people(n, "g")
        await _start(service, chat, people, seed=n)
        by_id = {p.id: p for p in people}
        await asyncio.sleep(rng.uniform(0, think))
        for _ in range(rounds * 2):
            info = await _info(service, chat)
            before = transport.pictures[chat.id]
            start = time.perf_counter()
            if not await _press(service, chat, by_id):
                return
            after = await service.game_info(chat)
            if after is None or after.round != info.round:
                # a picture that never comes is counted at GIVE_UP
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(transport.picture_after(chat.id, before), GIVE_UP)
                waits.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)

    await asyncio.gather(*(group(n) for n in range(groups)))
    return waits


async def run(mode: str, args: argparse.Namespace) -> None:
    folder = tempfile.mkdtemp(prefix="flood-bench-")
    service = await GameService.open(str(Path(folder) / "games.sqlite3"), drawing_processes=args.processes,
                                     platforms=[PLATFORM])
    transport = Pictured()
    limits = UNBOUNDED if mode == "before" else VisitorLimits()
    board = await WebBoard.start(service, WebSettings(port=0, limits=limits))
    if mode == "before":     # the board before issue 42: pages' pictures at the chats' rank, in their slots
        pictures = service.pictures

        async def as_before(render: RenderRequest, language: str) -> bytes | None:
            drawn = await pictures.render(render, language, "web", rank=1)
            return None if drawn is None else drawn.image

        pictures.render_for_page = as_before  # type: ignore[method-assign]
    flood = None
    try:
        # the drawing processes started (and a picture drawn) before anything is timed
        warm = (await _finished_games(service, 1, "warm"))[0]
        await service.pictures.render(RenderRequest("map", warm, 0, 1), "en", PLATFORM)
        delivery = asyncio.create_task(service.run_delivery(transport, max_sleep=0.2))
        if mode != "quiet":
            plan = Path(folder) / "plan.json"
            plan.write_text(json.dumps(await _flood_plan(
                service, board, await _finished_games(service, FINISHED_GAMES), args.clients, args.at_once)))
            flood = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.web.flood_bench", "--flood",
                                                         str(plan), stdout=asyncio.subprocess.PIPE)
            assert flood.stdout is not None
            await flood.stdout.readline()          # "flooding"
            await asyncio.sleep(1.0)               # the flood under way before the groups start
        started = time.perf_counter()
        waits = await _groups_play(service, transport, args.groups, args.rounds, args.think, random.Random(7))
        elapsed = time.perf_counter() - started
        late = sum(wait >= GIVE_UP * 1000 for wait in waits)
        line = (f"{mode:>6}: round pictures n={len(waits)}  p50={_pct(waits, 50):.0f} ms  "
                f"p90={_pct(waits, 90):.0f} ms  max={max(waits):.0f} ms  mean={statistics.fmean(waits):.0f} ms"
                + (f"  ({late} not come after {GIVE_UP:.0f} s)" if late else ""))
        if flood is not None:
            flood.send_signal(signal.SIGTERM)
            out, _ = await flood.communicate()
            counts = json.loads(out.decode().strip().splitlines()[-1])
            served = counts.get("200", 0)
            line += (f"  | pages: {served} pictures served ({served / elapsed:.1f}/s), "
                     f"{counts.get('429', 0)} refused 429, {counts.get('503', 0)} refused 503")
        print(line, flush=True)
        delivery.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await delivery
    finally:
        if flood is not None and flood.returncode is None:
            flood.kill()
        await board.stop()
        await service.close()


async def flood(plan_path: str) -> None:
    """The visitors: each asks for pictures of its links without pause until told to stop."""
    plan = json.loads(Path(plan_path).read_text())
    counts: Counter[str] = Counter()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    rng = random.Random(11)

    async def visitor(session: aiohttp.ClientSession, links: list[dict]) -> None:
        while not stop.is_set():
            link = rng.choice(links)
            name = rng.choice(plan["names"][str(link["game"])])
            try:
                async with session.get(f"{plan['url']}/{name}", params={"t": link["pass"]}) as response:
                    await response.read()
                    counts[str(response.status)] += 1
                    if response.status != 200:
                        await asyncio.sleep(0.05)
            except aiohttp.ClientError:
                counts["error"] += 1
                await asyncio.sleep(0.05)

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        print("flooding", flush=True)
        tasks = [asyncio.create_task(visitor(session, links)) for links in plan["visitors"]
                 for _ in range(plan["at_once"])]
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(counts), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.web.flood_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6, help="rounds each group plays (a picture after each)")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a person thinks between moves")
    parser.add_argument("--clients", type=int, default=8, help="visitors flooding the board with picture requests")
    parser.add_argument("--at-once", type=int, default=4, help="requests each visitor has on their way at once")
    parser.add_argument("--processes", type=int, default=2, help="drawing processes (the bot's default: 2)")
    parser.add_argument("--modes", default="quiet,before,now")
    parser.add_argument("--flood", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.flood:
        asyncio.run(flood(args.flood))
        return
    print(f"{args.groups} groups of two, {args.rounds} rounds each, thinking {args.think} s; "
          f"{args.processes} drawing processes; {os.cpu_count()} cores; a flood of {args.clients} visitors, "
          f"{args.at_once} requests each at once", flush=True)
    for mode in args.modes.split(","):
        asyncio.run(run(mode, args))


if __name__ == "__main__":
    main()
