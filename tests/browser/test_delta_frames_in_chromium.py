"""Delta frames in the page (board.js ``merged``): after a long stretch of a game played by taps,
the state a page built from many delta frames, and what it draws, are what a page opened fresh
(sent the whole state) holds and draws."""

from __future__ import annotations

from browser_kit import PHONE, Table, play_by_taps
from test_hardened_page import LISTEN

from bot.service import GameService
from bot.web.guard import VisitorLimits
from bot.web.server import WebBoard, WebSettings

DRAWN = "() => window.boardState && window.boardDrawn === window.boardVersion"
# Counts the frames the page's socket receives, by what they carry (the page reads them itself).
FRAMES = """window.framesSeen = { sockets: 0, state: 0, delta: 0, logDropped: 0, pictureKept: 0 };
{
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.framesSeen.sockets += 1;
      this.addEventListener("message", (event) => {
        const frame = JSON.parse(event.data), seen = window.framesSeen;
        if (frame.type === "state") seen.state += 1;
        if (frame.type !== "delta") return;
        seen.delta += 1;
        if (frame.log && frame.log.drop > 0) seen.logDropped += 1;
        if ((frame.pictures || []).some((picture) => typeof picture === "string")) seen.pictureKept += 1;
      });
    }
  };
}"""
# What the page draws: the board's scene, the turn, the prompt, the choices, the log.
SHOWN = """() => ({
  scene: [...document.querySelectorAll("#world :is(svg.below, svg.pieces, svg.above) > *")].map((node) => node.outerHTML),
  places: [...document.querySelectorAll("#world g[data-place]")].map((node) => node.dataset.place),
  turn: document.querySelector("#turn").textContent,
  prompt: document.querySelector("#prompt").textContent,
  choices: [...document.querySelectorAll("#menu button, #hits button")].map((node) => node.textContent + "|" + (node.dataset.act || "")),
  log: [...document.querySelectorAll("#log li")].map((node) => node.textContent),
  pictures: [...document.querySelectorAll("#world img")].map((node) => node.getAttribute("src").replace(/&t=.*/, "")),
})"""
MANY = "window.framesSeen.delta >= 50 && window.framesSeen.logDropped >= 1 && window.framesSeen.pictureKept >= 5"


def _apart(mine: dict, theirs: dict) -> list[str]:
    return sorted(key for key in mine.keys() | theirs.keys() if mine.get(key) != theirs.get(key))


async def _settled(page) -> tuple[dict, dict]:
    await page.wait_for_function(DRAWN)
    return await page.evaluate("window.boardState"), await page.evaluate(SHOWN)


async def test_a_page_after_many_delta_frames_holds_and_draws_what_a_fresh_page_does(browser, tmp_path):
    # Taps faster than a person's pass the socket's bound (the page then reconnects and is sent a
    # whole state): unbounded here, so every state after the first is a delta on one socket.
    service = await GameService.open(str(tmp_path / "games.sqlite3"))
    limits = VisitorLimits(messages_per_minute=10 ** 6, sockets_per_address=10 ** 6)
    table = Table(service, await WebBoard.start(service, WebSettings(port=0, limits=limits)))
    try:
        await _compare(browser, table)
    finally:
        await table.board.stop()
        await service.close()


async def _compare(browser, table: Table) -> None:
    game_id = await table.game("papa-paolo", ["Ann"], ai=2)
    page = await browser.new_page(viewport=PHONE)
    await page.add_init_script(LISTEN)
    await page.add_init_script(FRAMES)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function(DRAWN)
    await play_by_taps(page, seed=5, until=MANY)
    seen = await page.evaluate("window.framesSeen")
    assert seen["sockets"] == 1 and seen["state"] <= 1, f"a state came whole on a socket that had one: {seen}"
    # The AIs may still be moving: compared once the first page's state held still around the fresh page's.
    for _ in range(10):
        held, drawn = await _settled(page)
        fresh = await browser.new_page(viewport=PHONE)
        await fresh.goto(table.link(game_id, "Ann"))
        whole, whole_drawn = await _settled(fresh)
        await fresh.close()
        if await page.evaluate("window.boardState") == held:
            break
    assert held == whole, f"the state merged from delta frames is not the state sent whole: {_apart(held, whole)}"
    assert drawn == whole_drawn, f"the page fed delta frames draws another board: {_apart(drawn, whole_drawn)}"
    assert held["pictures"][0]["scene"]["above"], "no scene drawn: the test tests nothing of it"
    assert await page.evaluate("window.violations") == []
