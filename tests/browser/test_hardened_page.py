"""The page under its Content-Security-Policy in Chromium: opened, played by a few taps on its lit
targets and menus, it breaks no rule of the policy (no ``securitypolicyviolation`` event, no
console message about the policy), and it drops the pass from its address once it has read it."""

from __future__ import annotations

import asyncio

from browser_kit import PHONE, play_by_taps

# Set before any of the page's own scripts run: every violation the page causes, as the browser reports it.
LISTEN = ("window.violations = [];"
          "document.addEventListener('securitypolicyviolation',"
          " (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));")


async def test_the_page_plays_under_its_policy_without_a_violation(browser, table):
    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    page = await browser.new_page(viewport=PHONE)
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    await page.add_init_script(LISTEN)
    response = await page.goto(table.link(game_id, "Ann"))
    assert "default-src 'none'" in response.headers["content-security-policy"]
    await page.wait_for_selector(".spot")
    lines = await page.evaluate("window.boardState.log.length")
    taps = await play_by_taps(page, seed=3, until=f"window.boardState.log.length >= {lines + 12}")
    moves = (await table.service.game_info(game_id=game_id)).moves
    assert taps >= 2 and moves >= 4, f"hardly anything was played ({taps} taps): the test tests nothing"
    await page.wait_for_selector(".spot")
    assert await page.evaluate("window.violations") == []
    # the lit targets are placed on the picture all the same (their style set through node.style)
    assert await page.locator(".spot").first.evaluate("(spot) => spot.style.left.endsWith('px')")
    assert not [line for line in console if "Content Security Policy" in line or "Refused" in line], console


async def test_the_links_pass_stays_out_of_every_address(browser, table):
    """The link's pass (in its fragment) is never sent in an address: the page drops it from its
    own, and its socket and pictures carry a page pass traded for it. A reload of the tab opens the
    board again."""
    # A game whose board is a picture (Paris Paris's is drawn in the page from its art, which no pass opens).
    game_id = await table.game("papa-paolo", ["Ann"], ai=2)
    link = table.link(game_id, "Ann")
    pass_ = link.split("#t=", 1)[1]
    page = await browser.new_page(viewport=PHONE)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("websocket", lambda socket: asked.append(socket.url))
    await page.goto(link)
    await page.wait_for_selector(".spot")
    assert await page.evaluate("location.href") == f"{table.board.local_url}/board"
    await page.locator(".spot").first.click()
    await page.wait_for_function("() => window.boardState.log.length > 0")
    # the seat's own board (still a picture) is asked for once the state naming it is drawn
    for _ in range(100):
        if any("/picture?" in url for url in asked):
            break
        await asyncio.sleep(0.05)
    assert any("/live?t=" in url for url in asked) and any("/picture?" in url for url in asked), asked
    assert not [url for url in asked if pass_ in url], "the link's pass went into an address"
    await page.reload()
    await page.wait_for_selector("#players li.you", state="attached")


async def test_another_site_cannot_frame_the_board(browser, table):
    """A page of another origin framing the board is refused by Chromium (``frame-ancestors``:
    Telegram's web clients only)."""
    from aiohttp import web

    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    link = table.link(game_id, None)

    async def framing(request: web.Request) -> web.Response:
        return web.Response(text=f'<!doctype html><iframe src="{link}"></iframe>', content_type="text/html")

    app = web.Application()
    app.router.add_get("/", framing)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        page = await browser.new_page(viewport=PHONE)
        async with page.expect_console_message(lambda message: "frame-ancestors" in message.text) as refused:
            await page.goto(f"http://127.0.0.1:{runner.addresses[0][1]}/")
        assert "has been blocked" in (await refused.value).text
        board = page.frames[1] if len(page.frames) > 1 else None
        assert board is None or not await board.query_selector("#board"), "the board ran in another site's frame"
    finally:
        await runner.cleanup()
