"""The first board (issue 43): drawn from the state in the pass's answer, before the socket says
anything, and said drawn only once its static board is here."""

from __future__ import annotations

import asyncio

from browser_kit import PHONE

DRAWN = "() => window.boardState && window.boardDrawn === window.boardVersion"


async def test_the_first_board_comes_with_the_pass_and_waits_for_its_static_board(browser, table):
    game_id = await table.game("paris-connection", ["Ann"], ai=2)
    page = await browser.new_page(viewport=PHONE)
    release = asyncio.Event()

    async def held(route) -> None:       # the static board comes only when the test says
        await release.wait()
        await route.continue_()

    await page.route("**/art/paris-connection/map-*", held)
    frames: list[str] = []
    hello = asyncio.Event()

    def socket(ws) -> None:
        ws.on("framereceived", lambda frame: frames.append(frame))
        ws.on("framesent", lambda frame: hello.set() if '"hello"' in frame else None)

    page.on("websocket", socket)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function("() => window.boardState && window.boardVersion >= 1")
    await asyncio.wait_for(hello.wait(), 10)
    # The socket said its version and was sent nothing: a message now is answered first.
    await page.evaluate("() => window.boardSend({ type: 'no such message' })")
    await page.wait_for_function("() => !document.getElementById('notice').hidden")
    assert [frame for frame in frames if '"type":"state"' in frame] == []
    # The state is drawn again now the socket is open, but the board is not drawn without its map.
    assert await page.evaluate("window.boardDrawn") is None
    release.set()
    await page.wait_for_function(DRAWN)
    assert await page.evaluate("() => document.querySelector('#world img').complete")


async def test_the_pass_and_the_static_board_are_asked_for_before_the_pages_script_is_here(browser, table):
    """A link saying its game (``?game=&lang=``): the page's answer preloads its static board, and
    open.js trades the pass as the head is read; board.js, held back here, then asks for neither again."""
    game_id = await table.game("paris-connection", ["Ann"], ai=2)
    user = table.users["Ann"]
    link = table.board.link(game_id, user.platform, user.id, "Ann", "en", seconds=3600, kind="paris-connection")
    page = await browser.new_page(viewport=PHONE)
    asked: list[tuple[str, str]] = []
    before_script = asyncio.Event()
    page.on("request", lambda request: asked.append((request.method, request.url.split("?")[0])))

    async def held(route) -> None:       # board.js comes once the trade and the static board were asked for
        await before_script.wait()
        await route.continue_()

    await page.route("**/static/board.js", held)
    goto = asyncio.create_task(page.goto(link))
    async with asyncio.timeout(10):
        while not ({"POST"} <= {method for method, url in asked if url.endswith("/api/pass")}
                   and any("/art/paris-connection/map-portrait." in url for _, url in asked)):
            await asyncio.sleep(0.02)
    before_script.set()
    await goto
    await page.wait_for_function(DRAWN)
    trades = [url for method, url in asked if method == "POST" and url.endswith("/api/pass")]
    maps = [url for _, url in asked if "/art/paris-connection/map-" in url]
    assert len(trades) == 1, asked
    assert len(maps) == 1 and "map-portrait" in maps[0], maps
    assert await page.evaluate("() => document.querySelector('#world img').src") == maps[0]
