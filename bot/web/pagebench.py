"""``python -m bot.web.bench --browser``: what the page costs a phone, game by game, in real Chromium.

For each registered game, one seat's page (360×640) on a board served from a fresh SQLite file:
  * on a board that has drawn its games' art (the static boards and sprites its pages' scenes name,
    drawn once per process as it starts),
    the first board under Lighthouse's mobile profile (through the DevTools protocol: 150 ms round
    trip, 1.6 Mbit/s down, 750 kbit/s up, the CPU slowed 4×): the time from navigation until the
    page has drawn its board (``window.boardDrawn``), and the bytes transferred until then: the
    responses the page had in full by then (Resource Timing's ``transferSize``, headers included)
    and its socket's frames (goals: 1.5 s, 150 KiB);
  * then, unthrottled, the game played to its end by taps: the bytes transferred after the first
    board (HTTP responses and WebSocket frames received) per move of the game's record, every
    seat's moves counted (goal: 10 KiB on average), and tap to own page: from a tap (the click as
    the page receives it: its event's time) until the first frame of the page holding the state
    that followed it, p50 and p99 (goal: p99 100 ms on loopback); and the same from before the
    driver's click (Playwright's own checks and round trips through DevTools included, 40-50 ms
    of it at p50: the figure this printed before 2026-11-29).
With ``--watchers N``, N spectators' pages of the game are open meanwhile (WebSockets, each a view of
its own: a language and a layout), as in a game watched from its group: each tap's refresh builds
their views too.
Needs Playwright and chromium (``BOARDCHAT_CHROMIUM``, else ``chromium`` on the PATH). Prints figures;
asserts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.contract import Chat, User
from bot.games import KINDS
from bot.service import GameService

from .server import ART_DRAWING, WebBoard, WebSettings

PHONE = {"width": 360, "height": 640}
DRAWN = "window.boardState && window.boardDrawn === window.boardVersion"
# When the board was first seen drawn, by the page's own clock.
SEEN_DRAWN = f"() => {{ if (!({DRAWN})) return false; window.benchDrawnAt ??= performance.now(); return true; }}"
# The bytes of the page and of every response it had in full when its board was drawn, by the
# page's own clock (Resource Timing): DevTools' events come after the fact, and the last picture's
# could still be on its way to this process when the wait ends (it was then left out).
LOADED_BY_DRAWING = """() => performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
    .filter((entry) => entry.responseEnd <= window.benchDrawnAt).reduce((sum, entry) => sum + entry.transferSize, 0)"""
MOBILE = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
# The watchers' views: a language and a layout each.
WATCHERS = [(language, layout) for language in ("en", "de", "it", "fr") for layout in ("portrait", "landscape")]
READY = ("document.querySelector('#final:not([hidden])') || "
         "document.querySelector('[data-act]:not([disabled]), [data-open]')")


@dataclass
class Transfer:
    """Bytes the page received, counted from DevTools' network events."""

    bytes: int = 0
    frames: int = 0
    frame_bytes: int = 0
    times: list[float] = field(default_factory=list)

    def listen(self, cdp: Any) -> None:
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame)

    def _finished(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))

    def _frame(self, event: dict[str, Any]) -> None:
        size = len(event["response"]["payloadData"].encode("utf-8")) + 4
        self.bytes += size
        self.frame_bytes += size
        self.frames += 1


async def _game(service: GameService, game: str) -> int:
    players = max(KINDS[game].definition.min_players, 2)
    chat = Chat("terminal", f"bench-{game}", "Bench")
    ann = User("terminal", "id-ann", "Ann", language="en")
    assert (await service.new_game(chat, ann, options={"game": game, "seed": 3})).ok
    for _ in range(players - 1):
        assert (await service.add_ai(chat, ann)).ok
    assert (await service.start(chat, ann)).ok
    info = await service.game_info(chat)
    assert info is not None, "the game just started has no info"
    return info.game_id


async def _watch(board: WebBoard, game_id: int, session: aiohttp.ClientSession, n: int) -> asyncio.Task[None]:
    """A spectator's page of the game (the ``n``-th view of ``WATCHERS``), read until it closes."""
    language, layout = WATCHERS[n % len(WATCHERS)]
    link = board.link(game_id, "terminal", None, f"Guest {n}", language, seconds=3600)
    ws = await session.ws_connect(f"{board.local_url}/live", params={"t": link.split("#t=", 1)[1]})
    await ws.send_str(json.dumps({"type": "hello", "since": None, "layout": layout, "at": None}))

    async def read() -> None:
        async for _ in ws:
            pass

    return asyncio.get_running_loop().create_task(read())


async def one_game(browser: Any, game: str, work: Path, watchers: int = 0) -> dict[str, float]:
    service = await GameService.open(str(work / f"{game}.sqlite3"))
    board = await WebBoard.start(service, WebSettings(port=0))
    try:
        # A board serving for a while has drawn its games' art (it starts on it at once, in a thread).
        await board.app[ART_DRAWING]
        game_id = await _game(service, game)
        link = board.link(game_id, "terminal", "id-ann", "Ann", "en", seconds=3600, kind=game)
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        transfer = Transfer()
        transfer.listen(cdp)
        await cdp.send("Network.enable")
        await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        await cdp.send("Network.emulateNetworkConditions", MOBILE)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        started = asyncio.get_running_loop().time()
        await page.goto(link)
        await page.wait_for_function(SEEN_DRAWN, timeout=60_000, polling=50)
        first_board = asyncio.get_running_loop().time() - started
        # HTTP by the page's clock; the socket's frames (a state, long before the drawing) by DevTools.
        first_bytes = await page.evaluate(LOADED_BY_DRAWING) + transfer.frame_bytes
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        await cdp.send("Network.emulateNetworkConditions", {**MOBILE, "latency": 0, "downloadThroughput": -1,
                                                            "uploadThroughput": -1})
        await cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        transfer.bytes = 0
        async with aiohttp.ClientSession() as session:
            watching = [await _watch(board, game_id, session, n) for n in range(watchers)]
            taps, driven = await _play(page)
            for task in watching:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        info = await service.game_info(game_id=game_id)
        assert info is not None, f"game {game_id} is gone"
        moves = info.moves
        await context.close()
        return {"first_board_s": first_board, "first_kib": first_bytes / 1024,
                "kib_per_move": transfer.bytes / 1024 / max(moves, 1), "moves": moves,
                "tap_p50_ms": statistics.median(taps) if taps else 0.0,
                "tap_p99_ms": _p99(taps),
                "driven_p50_ms": statistics.median(driven) if driven else 0.0,
                "driven_p99_ms": _p99(driven)}
    finally:
        await board.stop()
        await service.close()


async def _play(page: Any, limit: int = 900) -> tuple[list[float], list[float]]:
    """Tap until the game is over; the time from each tap to the page's next state shown, in ms:
    from the click the page received, and from before the driver was asked to click."""
    rng = random.Random(1)
    times: list[float] = []
    driven: list[float] = []
    # The click as the page receives it (capturing, before the page's own handlers run).
    await page.evaluate("() => document.addEventListener('click', (event) => { window.benchClick ??= event.timeStamp; }, true)")
    for _ in range(limit):
        await page.wait_for_function(f"() => {READY}", timeout=60_000)
        if await page.locator("#final").is_visible():
            break
        targets = page.locator(".spot:not([disabled]):not([hidden]), #menu [data-act]:not([disabled]), [data-open]")
        count = await targets.count()
        if not count:
            continue
        target = targets.nth(rng.randrange(count))
        if await target.get_attribute("data-open") is not None:
            await target.click()
            continue
        # Timed in the page: from the tap to the next state arriving on its socket.
        await page.evaluate("""() => { window.benchTap = performance.now(); window.benchSeen = null; window.benchClick = null;
            const before = window.boardVersion;
            const wait = () => { if (window.boardVersion !== before) window.benchSeen = performance.now();
                                 else requestAnimationFrame(wait); };
            requestAnimationFrame(wait); }""")
        try:
            await target.click(timeout=3_000)
            await page.wait_for_function("() => window.benchSeen !== null", timeout=10_000, polling=5)
            tap, seen, click = await page.evaluate("[window.benchTap, window.benchSeen, window.benchClick]")
        except Exception:  # noqa: BLE001 - the target went with a new state: look again
            continue
        driven.append(seen - tap)
        if click is not None:
            times.append(seen - click)
    return times, driven


def _p99(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100)[98]


async def run(games: list[str] | None = None, watchers: int = 0) -> None:
    from playwright.async_api import async_playwright

    executable = os.environ.get("BOARDCHAT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    work = Path(tempfile.mkdtemp())
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            print(f"{'game':18} {'first board':>11} {'before it':>10} {'per move':>9} {'moves':>6} "
                  f"{'tap p50':>8} {'tap p99':>8}   {'from before the driver p50 / p99':>32}")
            for game in games or sorted(KINDS):
                got = await one_game(browser, game, work, watchers)
                print(f"{game:18} {got['first_board_s']:>9.2f} s {got['first_kib']:>6.0f} KiB "
                      f"{got['kib_per_move']:>5.1f} KiB {got['moves']:>6} {got['tap_p50_ms']:>5.0f} ms "
                      f"{got['tap_p99_ms']:>5.0f} ms   {got['driven_p50_ms']:>20.0f} / {got['driven_p99_ms']:.0f} ms")
            await browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
