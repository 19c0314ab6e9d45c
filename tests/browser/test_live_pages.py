"""Several pages on one game: each sees every move without a reload, and acts only for its own seat."""

from __future__ import annotations

import asyncio
import json

from browser_kit import DESKTOP, PHONE, play_by_taps

TURN = "document.querySelector('[data-act]:not([disabled]), [data-open]')"


async def test_two_pages_on_one_game_see_each_others_moves(browser, table):
    game_id = await table.game("paris-paris", ["Ann", "Bob"])
    first, second = await turn_order(table, game_id)
    player = await browser.new_page(viewport=PHONE)
    watcher = await browser.new_page(viewport=DESKTOP)
    await player.goto(table.link(game_id, first))
    await watcher.goto(table.link(game_id, None))
    await player.wait_for_function(f"() => {TURN}")
    await watcher.wait_for_selector("#prompt:not(:empty)")
    assert first in await watcher.locator("#prompt").text_content()
    # The spectator sees the board and no choices.
    assert await watcher.locator("[data-act], [data-open]").count() == 0
    await player.locator(".spot").first.click()
    # Without a reload, the spectator's page moves on to the other player's turn.
    await watcher.wait_for_function(f"() => document.querySelector('#prompt').textContent.includes('{second}')",
                                    timeout=5_000)
    info = await table.service.game_info(game_id=game_id)
    assert info.moves == 1
    # And the first player's page has nothing to tap while it is the other's turn.
    await player.wait_for_function("() => !document.querySelector('[data-act]:not([disabled])')")


async def test_a_dropped_connection_resumes_where_it_was(browser, table):
    game_id = await table.game("paris-paris", ["Ann", "Bob"])
    watcher = await browser.new_page(viewport=PHONE)
    await watcher.goto(table.link(game_id, None))
    await watcher.wait_for_selector("#prompt:not(:empty)")
    # The connection drops (the server's side closes it), and a player moves before the page is back.
    for page in list(table.board.hub.pages(game_id)):
        await page.ws.close()
    first, second = await turn_order(table, game_id)
    reply = await table.service.board(await chat_of(table, game_id), table.users[first], private=True)
    choice = next(b for row in reply.buttons for b in row if b.payload.startswith("c_"))
    assert (await table.service.press(None, table.users[first], choice.payload)).ok
    # The page reconnects by itself and shows the move it missed.
    await watcher.wait_for_function(f"() => document.querySelector('#prompt').textContent.includes('{second}')",
                                    timeout=15_000)
    assert table.board.hub.open_pages == 1


async def turn_order(table, game_id) -> tuple[str, str]:
    """The player to act first in a two-player game, and the other."""
    info = await table.service.game_info(game_id=game_id)
    names = [seat.name for seat in info.seats]
    first = names[info.to_act[0]]
    return first, next(name for name in names if name != first)


async def chat_of(table, game_id):
    from bot.contract import Chat

    info = await table.service.game_info(game_id=game_id)
    assert info is not None
    loaded = await table.service.store.load(game_id)
    return Chat(loaded.meta.platform, loaded.meta.chat_id, loaded.meta.chat_title)


async def test_three_pages_plan_at_once_in_papa_paolo(browser, table):
    """Papà Paolo's simultaneous phase, each seat on its own page, in private, all at once."""
    game_id = await table.game("papa-paolo", ["Ann", "Bob", "Cy"], seed=3)
    pages = []
    for name in ("Ann", "Bob", "Cy"):
        page = await browser.new_page(viewport=PHONE)
        await page.goto(table.link(game_id, name))
        pages.append(page)
    round_two = "[...document.querySelectorAll('#lines p')].some((p) => /Round [2-5]/.test(p.textContent))"
    await asyncio.gather(*(play_by_taps(page, seed=index, until=round_two) for index, page in enumerate(pages)))
    info = await table.service.game_info(game_id=game_id)
    assert info.round >= 2
    # Each page shows its own Lire as its secret, and only its own.
    secrets = [await page.locator("#secret p").text_content() for page in pages]
    assert all(secrets)
    streams = [json.loads(await page.evaluate("JSON.stringify(window.boardState)")) for page in pages]
    for index, state in enumerate(streams):
        assert state["seat"] == index
        assert [p["name"] for p in state["pictures"] if p["name"] == "seat"] in ([], ["seat"])


async def test_the_lit_targets_are_labelled_and_reached_by_keyboard(browser, table):
    """Each lit target has its choice's words for a screen reader, and Tab then Enter plays it."""
    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_selector(".spot")
    labels = await page.locator(".spot").evaluate_all("(spots) => spots.map((s) => s.getAttribute('aria-label'))")
    assert labels and all(label and label.strip() for label in labels)
    for _ in range(80):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.classList.contains('spot')"):
            break
    else:
        raise AssertionError("Tab never reached a lit target")
    await page.keyboard.press("Enter")
    await page.wait_for_function("() => (window.boardState.log || []).length > 0")
    assert (await table.service.game_info(game_id=game_id)).moves >= 1


async def test_a_page_opened_without_a_link_says_where_to_find_one(browser, table):
    page = await browser.new_page(viewport=PHONE, locale="it-IT", extra_http_headers={"Accept-Language": "it"})
    await page.goto(f"{table.board.local_url}/board")
    assert "link nella chat" in await page.locator("[role=alert]").text_content()
