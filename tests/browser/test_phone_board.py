"""The phone-first board: colours said by chip and name with no emoji font, a choice and its place
lighting each other up, the wide layout, and a page whose server stops saying so."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path

import pytest
import pytest_asyncio
from browser_kit import DRAWN, OUT_OF_VIEW, chromium_or_skip, play_by_taps
from playwright.async_api import WebSocket, async_playwright

WIDE = {"width": 1366, "height": 768}
NARROW = {"width": 360, "height": 640}
# Fontconfig with the DejaVu fonts alone: no emoji font whatever the machine has installed.
NO_EMOJI_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{cache}</cachedir></fontconfig>
"""


@pytest_asyncio.fixture(loop_scope="session")
async def plain_browser():
    """Chromium that can find no emoji font."""
    executable = chromium_or_skip()
    if not Path("/usr/share/fonts/truetype/dejavu").is_dir():
        pytest.skip("no DejaVu fonts to stand in for the system's")
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "fonts.conf"
        config.write_text(NO_EMOJI_FONTS.format(cache=Path(folder) / "cache"), encoding="utf-8")
        async with async_playwright() as playwright:
            launched = await playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"],
                                                        env={**os.environ, "FONTCONFIG_FILE": str(config)})
            try:
                yield launched
            finally:
                await launched.close()


async def test_colours_are_said_by_chip_and_name_without_an_emoji_font(plain_browser, table):
    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    page = await plain_browser.new_page(viewport=NARROW)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function(f"() => {DRAWN}")
    colours = await page.evaluate("window.boardState.colours")
    assert colours, "the page is told the game's colours"
    coloured = page.locator("#menu button[data-colour]")
    assert await coloured.count() > 0
    for index in range(await coloured.count()):
        button = coloured.nth(index)
        name = await button.get_attribute("data-colour")
        # Its chip is drawn, and the colour's name is written out.
        assert await button.locator(".chip").count() == 1
        assert name.lower() in (await button.text_content()).lower()
    # A few moves, until the log says a colour (each seat's tiles and markers are named by one).
    await play_by_taps(page, seed=1, until="document.querySelector('#log .chip')")
    await page.wait_for_function(f"() => {DRAWN}")
    # The log (behind its tab on a phone) says its colours by chip and name too.
    logged = page.locator("#log li:has(.chip)")
    assert await logged.count() > 0, "a move named a colour in the log"
    log = logged.first
    assert [name for name in (c["name"] for c in colours.values()) if name in await log.text_content()]
    # No colour emoji is left anywhere on the page's text, shown or behind a tab: each became a chip
    # and its name.
    shown = await page.evaluate("document.body.textContent")
    assert not [emoji for emoji in colours if emoji in shown]


def acts_of(frame: str | bytes, acts: asyncio.Queue[str]) -> None:
    """The payload of a frame the page sent, if it was a choice."""
    message = json.loads(frame)
    if message.get("type") == "act":
        acts.put_nowait(message["payload"])


async def test_a_choice_and_its_place_light_each_other_up(browser, table):
    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    page = await browser.new_page(viewport=NARROW)
    sent_acts: asyncio.Queue[str] = asyncio.Queue()

    def heard_socket(socket: WebSocket) -> None:
        socket.on("framesent", lambda frame: acts_of(frame, sent_acts))

    page.on("websocket", heard_socket)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function(f"() => {DRAWN}")
    button = page.locator("#menu button[data-act]").first
    payload = await button.get_attribute("data-act")
    await button.focus()
    lit = "[...document.querySelectorAll('#world g.glow')].map((g) => g.getAttribute('data-place'))"
    assert await page.evaluate(lit) == [payload] * len(await page.evaluate(lit)) != []
    await button.blur()
    assert await page.evaluate(lit) == []
    # Hovering the place lights the button.
    spot = page.locator(f".spot[data-act='{payload}']").first
    await spot.hover()
    assert await button.evaluate("(node) => node.classList.contains('glow')")
    # Tapping the place chooses the button: the very payload goes to the server.
    await spot.click()
    assert await asyncio.wait_for(sent_acts.get(), 15) == payload


async def test_on_a_wide_screen_the_board_takes_the_room_with_the_panels_beside_it(browser, table):
    game_id = await table.game("paris-connection", ["Ann"], ai=2)
    page = await browser.new_page(viewport=WIDE)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function(f"() => {DRAWN}")
    stage = await page.locator("#stage").bounding_box()
    log = await page.locator("#pane-log").bounding_box()
    bar = await page.locator("#bar").bounding_box()
    assert stage["width"] >= 900 and stage["height"] >= 650
    assert log["x"] >= stage["x"] + stage["width"] - 1 and bar["x"] >= stage["x"] + stage["width"] - 1
    assert await page.evaluate(OUT_OF_VIEW) == []


@pytest.mark.parametrize("game", ["paris-paris", "paris-connection"])
async def test_a_page_whose_server_stops_says_it_is_paused_and_switches_its_choices_off(browser, table, game):
    game_id = await table.game(game, ["Ann"], ai=2)
    page = await browser.new_page(viewport=NARROW)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function(f"() => {DRAWN}")
    favicon = await page.request.get(f"{table.board.local_url}/favicon.ico")
    assert favicon.status == 200 and favicon.headers["content-type"] == "image/png"
    await table.board.stop()
    await page.wait_for_function("() => document.getElementById('turn').classList.contains('paused')", timeout=15_000)
    assert "Paused" in await page.locator("#turn").text_content()
    assert await page.locator("[data-act]:not([disabled])").count() == 0
    # It is said where it is seen: the notice on the screen, the board's header one line high, and the
    # decision and its places still in view (the board framed again round the taller bar).
    notice = await page.locator("#notice").bounding_box()
    assert notice and notice["y"] >= 0 and notice["y"] + notice["height"] <= NARROW["height"]
    assert await page.locator("#notice").text_content()
    assert await page.evaluate(OUT_OF_VIEW) == []
