"""``python -m bot.web.bench``: what the live web board costs a page and a server.

Two board servers (``--serve``: each a ``GameService`` with ``watch_other_processes`` and a
``WebBoard``, in an OS process of its own) on one PostgreSQL database, in a fresh schema dropped
afterwards (``BOARDCHAT_BENCH_PG`` or ``--database-url``; default the local test server), serve a
Paris Paris game of four people. The benchmark prints:
  * page weight: the HTML, its script and style sheet, the first state (JSON) and the first
    picture, in bytes; and the time to the first board on loopback: connect and say hello until
    the state arrives, then until its picture has come too (the first page draws it, the
    second finds it drawn);
  * tap -> update: ``--pages`` open pages (WebSockets; one in ten a seat's, the rest spectators';
    in four languages and both layouts) spread over the two servers; ``--moves`` moves are made
    through the acting seat's page on the first server, one after the other, and for each the
    time until every other page has the new version: p50, p99 and max over all of them, and
    apart for the pages on the server that made the move and on the other (which hears it
    through NOTIFY). Goal: p99 <= 300 ms with 1,000 pages;
  * memory per open page: the servers' resident memory (RSS) before and after the pages open,
    divided by their number.
Everything runs on this machine: the servers, PostgreSQL and the pages (aiohttp's client, in this
process) share its cores, so the figures include the clients' own work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field

import aiohttp
import asyncpg

from bot.contract import Chat, User
from bot.games import KINDS
from bot.service import GameService
from bot.service.tokens.passes import SEAT_PASS_SECONDS, Passes

from . import frames

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
PLATFORM = "bench"
PEOPLE = ("Ann", "Bob", "Cid", "Dee")
LANGUAGES = ("en", "en", "en", "en", "en", "de", "it", "fr")     # mostly the group's own language
LAYOUTS = ("portrait", "portrait", "landscape")
VERSION = re.compile(r'^\{"type":"(?:state|delta)","version":(\d+),')     # a whole state, or what changed


def visitor_address(n: int) -> str:
    """The ``n``-th bench page's own client address (10.0.0.0/8)."""
    return f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _line(name: str, ms: list[float]) -> str:
    if not ms:
        return f"{name}: none"
    return (f"{name}: n={len(ms)} p50={_pct(ms, 50):.1f} ms  p99={_pct(ms, 99):.1f} ms  "
            f"max={max(ms):.1f} ms  mean={statistics.fmean(ms):.1f} ms")


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# ---- a server process -----------------------------------------------------------------------

async def serve(url: str) -> None:
    """One board server: prints ``port N``, serves until its standard input closes."""
    from bot.web.server import WebBoard, WebSettings

    service = await GameService.open(url)
    try:
        await service.watch_other_processes()
        board = await WebBoard.start(service, WebSettings(port=0))
        print(f"port {board.port}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        await board.stop()
    finally:
        await service.close()


@dataclass
class Server:
    proc: asyncio.subprocess.Process
    url: str

    @classmethod
    async def start(cls, database: str) -> Server:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.web.bench", "--serve", database,
                                                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert proc.stdout is not None, "started with a stdout pipe"
        line = await asyncio.wait_for(proc.stdout.readline(), 120)
        if not line.startswith(b"port "):
            raise RuntimeError(f"the board server did not start: {line!r}")
        return cls(proc, f"http://127.0.0.1:{int(line.split()[1])}")

    def rss_kib(self) -> int:
        return _rss_kib(self.proc.pid)

    async def stop(self) -> None:
        if self.proc.returncode is None:
            assert self.proc.stdin is not None, "started with a stdin pipe"
            self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), 30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


# ---- the pages ------------------------------------------------------------------------------

@dataclass(eq=False)
class BenchPage:
    """An open page: it notes when each new version reached it; a seat's keeps its last state."""

    ws: aiohttp.ClientWebSocketResponse
    server: int
    seat: int | None
    version: int = -1
    arrived: dict[int, float] = field(default_factory=dict)
    last: dict | None = None
    reader: asyncio.Task | None = None

    async def read(self, bench: Bench) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            found = VERSION.match(msg.data)
            if found is None:
                continue
            version = int(found.group(1))
            if version > self.version:
                self.version = version
                self.arrived[version] = time.perf_counter()
                if self.seat is not None:
                    self.last = self.merged(msg.data)
                bench.heard(self)

    def merged(self, data: str) -> dict:
        """The state the page holds after the frame ``data`` (a whole one, or what changed: ``frames``)."""
        frame = frames.decoded(data)
        if frame is None or self.last is None:
            return dict(json.loads(data))
        return {"type": "state", "version": frame.version, "state": frames.merged(self.last["state"], frame)}


class Bench:
    def __init__(self, session: aiohttp.ClientSession, passes: Passes, game_id: int, now: float) -> None:
        self.session, self.passes, self.game_id, self.now = session, passes, game_id, now
        self.pages: list[BenchPage] = []
        self.targets: dict[BenchPage, int] = {}
        self.behind: set[BenchPage] = set()
        self.all_heard = asyncio.Event()

    def pass_for(self, seat: int | None, language: str, guest: int = 0) -> str:
        user_id = None if seat is None else PEOPLE[seat].lower()
        name = f"Guest {guest}" if seat is None else PEOPLE[seat]
        return self.passes.issue(self.game_id, PLATFORM, user_id, name, language, now=self.now,
                                 seconds=SEAT_PASS_SECONDS)

    async def open(self, server: Server, index: int, seat: int | None, n: int) -> BenchPage:
        language, layout = LANGUAGES[n % len(LANGUAGES)], LAYOUTS[n % len(LAYOUTS)]
        # A thousand visitors, not one: each spectator with a link of its own and every page from an
        # address of its own, as the reverse proxy names it (the board's bounds per link and per
        # address, bot/web/guard.py, would refuse the 21st page from one address).
        ws = await self.session.ws_connect(f"{server.url}/live", params={"t": self.pass_for(seat, language, n)},
                                           headers={"X-Forwarded-For": visitor_address(n)},
                                           heartbeat=None, max_msg_size=0, compress=15)   # as browsers offer
        page = BenchPage(ws, index, seat)
        page.reader = asyncio.create_task(page.read(self))
        await ws.send_str(json.dumps({"type": "hello", "since": None, "layout": layout, "at": None}))
        self.pages.append(page)
        return page

    def heard(self, page: BenchPage) -> None:
        if page in self.behind and page.version >= self.targets[page]:
            self.behind.discard(page)
            if not self.behind:
                self.all_heard.set()

    async def until_each_at_least(self, targets: dict[BenchPage, int], timeout: float = 120) -> None:
        """Until every page has received a state of its version in ``targets`` or newer (each
        page's stream counts its own changes: ``bot.web.hub``)."""
        self.targets = targets
        self.behind = {page for page in self.pages if page.version < targets[page]}
        self.all_heard = asyncio.Event()
        if self.behind:
            await asyncio.wait_for(self.all_heard.wait(), timeout)

    async def close(self) -> None:
        for page in self.pages:
            await page.ws.close()
            if page.reader is not None:
                page.reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await page.reader


def _acts(state: dict) -> list[str]:
    choices = state["state"].get("choices") or {}
    acts = [item["act"] for row in choices.get("rows", ()) for item in row if "act" in item]
    for group in choices.get("groups", {}).values():
        acts += [item["act"] for row in group["rows"] for item in row if "act" in item]
    return acts + [spot["act"] for spot in choices.get("spots", ())]


# ---- the measurements -----------------------------------------------------------------------

async def first_board(session: aiohttp.ClientSession, server: Server, token: str) -> dict[str, float]:
    """One page opened from nothing: its bytes and the times to its state and its picture."""
    sizes: dict[str, float] = {}
    async with session.get(f"{server.url}/board", params={"t": token}) as got:
        html = await got.text()
        sizes["html"] = len(html.encode())
    for name, ref in (("js", r'src="(static/[^"]+\.js)"'), ("css", r'href="(static/[^"]+\.css)"')):
        found = re.findall(ref, html)
        assert found, f"the board's page links its {name}"
        sizes[name] = 0
        for file in found:      # every one of them (the scripts: open.js and board.js)
            async with session.get(f"{server.url}/{file}") as got:
                sizes[name] += len(await got.read())
    start = time.perf_counter()
    async with session.ws_connect(f"{server.url}/live", params={"t": token}) as ws:
        await ws.send_str(json.dumps({"type": "hello", "since": None, "layout": "portrait", "at": None}))
        while (msg := await ws.receive(timeout=60)).type == aiohttp.WSMsgType.TEXT:
            if msg.data.startswith('{"type":"state"'):
                break
        sizes["state_ms"] = (time.perf_counter() - start) * 1000
        sizes["state"] = len(msg.data.encode())
        src = json.loads(msg.data)["state"]["pictures"][0]["src"]
        async with session.get(f"{server.url}/{src}&t={token}") as got:
            sizes["picture"] = len(await got.read())
        sizes["picture_ms"] = (time.perf_counter() - start) * 1000
    return sizes


async def run(database: str, pages: int, moves: int) -> None:
    schema = f"webbench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(database)
    await admin.execute(f"CREATE SCHEMA {schema}")
    url = f"{database}{'&' if '?' in database else '?'}search_path={schema}"
    servers: list[Server] = []
    try:
        service = await GameService.open(url)
        try:
            game_id = await _new_game(service)
            passes = Passes(service.codec.derived_key("web-pass"))
            now = service.clock.now()
        finally:
            await service.close()
        servers = [await Server.start(url), await Server.start(url)]
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            bench = Bench(session, passes, game_id, now)
            token = bench.pass_for(0, "en")
            cold = await first_board(session, servers[0], token)
            warm = await first_board(session, servers[0], token)
            weight = sum(cold[k] for k in ("html", "js", "css", "state", "picture"))
            print(f"page weight: {weight / 1024:.1f} KiB = HTML {cold['html']} + JS {cold['js']} + CSS {cold['css']}"
                  f" + first state {cold['state']} + first picture {cold['picture']} bytes")
            print(f"first board on loopback: state {cold['state_ms']:.1f} ms, with its picture "
                  f"{cold['picture_ms']:.1f} ms (picture drawn for it); next page {warm['state_ms']:.1f} ms / "
                  f"{warm['picture_ms']:.1f} ms (picture kept)")

            await asyncio.sleep(1)
            before = [s.rss_kib() for s in servers]
            start = time.perf_counter()
            # the four seats' pages on the first server make the moves; the rest: one in ten a seat's
            actors = [await bench.open(servers[0], 0, seat, seat * len(LANGUAGES)) for seat in range(len(PEOPLE))]
            for n in range(len(actors), pages):
                seat = (n // 10) % len(PEOPLE) if n % 10 == 0 else None
                await bench.open(servers[n % 2], n % 2, seat, n)
            await bench.until_each_at_least({page: 1 for page in bench.pages})
            opened = time.perf_counter() - start
            await asyncio.sleep(1)
            after = [s.rss_kib() for s in servers]
            grown = sum(after) - sum(before)
            print(f"{len(bench.pages)} pages open in {opened:.1f} s; servers' RSS {sum(before) / 1024:.1f} -> "
                  f"{sum(after) / 1024:.1f} MiB: {grown / len(bench.pages):.1f} KiB a page")

            local: list[float] = []
            remote: list[float] = []
            for _ in range(moves):
                mover = next(page for page in actors if page.last and _acts(page.last))
                assert mover.last is not None, "chosen for its last state's acts"
                shown = {page: page.version for page in bench.pages}
                sent = time.perf_counter()
                await mover.ws.send_str(json.dumps({"type": "act", "payload": _acts(mover.last)[0]}))
                await bench.until_each_at_least({page: version + 1 for page, version in shown.items()})
                for page in bench.pages:
                    if page is mover:
                        continue
                    arrived = min(t for v, t in page.arrived.items() if v > shown[page])
                    (local if page.server == 0 else remote).append((arrived - sent) * 1000)
                await asyncio.sleep(0.05)
            print(_line(f"tap -> update, {moves} moves x {len(bench.pages) - 1} other pages", local + remote))
            print(_line("  pages on the server the move was made on", local))
            print(_line("  pages on the other server (NOTIFY)", remote))
            await bench.close()
    finally:
        for server in servers:
            await server.stop()
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def _new_game(service: GameService) -> int:
    chat = Chat(PLATFORM, "group", "Bench group")
    people = [User(PLATFORM, name.lower(), name) for name in PEOPLE]
    await service.new_game(chat, people[0], options={"seed": 7})
    for person in people[1:]:
        await service.join(chat, person)
    await service.start(chat, people[0])
    info = await service.game_info(chat)
    assert info is not None, "the game was just started in this chat"
    return info.game_id


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.web.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000, help="open pages (WebSockets) over the two servers")
    parser.add_argument("--moves", type=int, default=20, help="moves made while they are open")
    parser.add_argument("--database-url", default=os.environ.get("BOARDCHAT_BENCH_PG", DEFAULT_PG),
                        help="PostgreSQL server (a fresh schema is made and dropped)")
    parser.add_argument("--serve", metavar="URL", help=argparse.SUPPRESS)   # one board server process
    parser.add_argument("--browser", action="store_true",
                        help="instead: each game's page in Chromium (first board on a mobile profile, "
                             "bytes per move, tap to own page; bot.web.pagebench)")
    parser.add_argument("--game", action="append", choices=sorted(KINDS),
                        help="with --browser: this game only (again for more; default: every game)")
    parser.add_argument("--watchers", type=int, default=0,
                        help="with --browser: spectators' pages of the game open meanwhile (a view each)")
    args = parser.parse_args(argv)
    if args.browser:
        from .pagebench import run as run_pages

        asyncio.run(run_pages(args.game, max(args.watchers, 0)))
        return
    if args.serve:
        asyncio.run(serve(args.serve))
        return
    asyncio.run(run(args.database_url, max(args.pages, len(PEOPLE) + 1), max(args.moves, 1)))


if __name__ == "__main__":
    main()
