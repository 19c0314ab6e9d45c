"""Opening the board: a Telegram Mini App launch with initData, and the links and logins that open nothing."""

from __future__ import annotations

import time

import pytest
import pytest_asyncio
from browser_kit import PHONE, start_table

from bot.web.auth import sign_init_data
from bot.web.server import WebBoard, WebSettings

TOKEN = "123456:TEST-TOKEN"


def init_data(user_id: int, start_param: str, *, token: str = TOKEN, age: float = 0, name: str = "Ann") -> str:
    fields = {"auth_date": str(int(time.time() - age)), "start_param": start_param, "query_id": "AAE1",
              "user": f'{{"id":{user_id},"first_name":"{name}","language_code":"de"}}'}
    return sign_init_data(fields, token)


@pytest_asyncio.fixture(loop_scope="session")      # the browser tests' loop (conftest.py)
async def telegram_table(tmp_path):
    table = await start_table(tmp_path)
    await table.board.stop()
    table.board = await WebBoard.start(table.service, WebSettings(port=0, telegram_token=TOKEN))
    try:
        yield table
    finally:
        await table.board.stop()
        await table.service.close()


async def open_mini_app(browser, table, init: str, *, game: str | None = None):
    page = await browser.new_page(viewport=PHONE)
    query = f"?g={game}" if game else ""
    # Telegram opens the app's URL with the launch data in the fragment (tgWebAppData).
    await page.goto(f"{table.board.local_url}/board{query}#tgWebAppData={_quote(init)}&tgWebAppVersion=8.0")
    return page


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


async def test_a_telegram_launch_opens_the_players_own_seat(browser, telegram_table):
    table = telegram_table
    ann = table.user("Ann", "telegram")
    table.users["Ann"] = ann.__class__("telegram", "1001", "Ann", language="de")
    game_id = await table.game("paris-paris", ["Ann"], ai=1, platform="telegram")
    start = table.service.codec.encode("w", game_id)
    page = await open_mini_app(browser, table, init_data(1001, start))
    await page.wait_for_selector("#players li.you", state="attached")   # under the Scores tab on a phone
    assert "Ann" in await page.locator("#players li.you").text_content()
    # Logged in, the page keeps no launch data in its address (nor so in the history).
    assert await page.evaluate("location.hash") == ""
    assert "tgWebAppData" not in await page.evaluate("location.href")
    # In the viewer's language (the initData's language_code), with the choices of their seat.
    await page.wait_for_function("() => document.documentElement.lang === 'de'")
    await page.locator(".spot").first.click()
    await page.wait_for_function("() => (window.boardState.log || []).length > 0")
    info = await table.service.game_info(game_id=game_id)
    assert info.moves >= 1


async def test_someone_not_seated_watches_from_a_telegram_launch(browser, telegram_table):
    table = telegram_table
    table.users["Ann"] = table.user("Ann", "telegram").__class__("telegram", "1001", "Ann")
    game_id = await table.game("paris-paris", ["Ann"], ai=1, platform="telegram")
    page = await open_mini_app(browser, table, init_data(2002, table.service.codec.encode("w", game_id), name="Eve"))
    await page.wait_for_selector("#prompt:not(:empty)")
    assert await page.locator("[data-act], [data-open], #players li.you").count() == 0


@pytest.mark.parametrize(("init", "words"), [
    (lambda start: init_data(1001, start, token="999:OTHER"), "ungültig"),       # another bot's token
    (lambda start: init_data(1001, start, age=3 * 24 * 3600), "abgelaufen"),         # too old
    (lambda start: init_data(1001, start).replace("Ann", "Eve"), "ungültig"),    # edited after signing
    (lambda start: init_data(1001, start[:-2] + "00"), "ungültig"),              # a forged game reference
])
async def test_forged_expired_and_edited_initdata_get_a_clear_page(browser, telegram_table, init, words):
    table = telegram_table
    table.users["Ann"] = table.user("Ann", "telegram").__class__("telegram", "1001", "Ann")
    game_id = await table.game("paris-paris", ["Ann"], ai=1, platform="telegram")
    before = (await table.service.game_info(game_id=game_id)).moves
    page = await browser.new_page(viewport=PHONE, locale="de-DE", extra_http_headers={"Accept-Language": "de"})
    start = table.service.codec.encode("w", game_id)
    await page.goto(f"{table.board.local_url}/board#tgWebAppData={_quote(init(start))}")
    alert = page.locator("[role=alert]")
    await alert.wait_for()
    assert words in await alert.text_content()
    assert (await table.service.game_info(game_id=game_id)).moves == before


@pytest.mark.parametrize(("edit", "words"), [
    (lambda link: link[:-3] + ("AAA" if not link.endswith("AAA") else "BBB"), "not valid"),
    (None, "expired"),
])
async def test_forged_and_expired_links_get_a_clear_page(browser, table, edit, words):
    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    link = table.link(game_id, "Ann", seconds=-1) if edit is None else edit(table.link(game_id, "Ann"))
    page = await browser.new_page(viewport=PHONE)
    await page.goto(link)            # the pass is in the fragment: the page trades it, and says why not
    assert words in await page.locator("[role=alert]").text_content()
    # a link of the older kind (the pass in the query) is refused by the server itself
    response = await page.goto(link.replace("/board#t=", "/board?t="))
    assert response.status == 403
    assert words in await page.locator("[role=alert]").text_content()


async def test_a_page_cannot_act_for_another_seat(browser, table):
    """Bob's page sends the payload of Ann's choice (read off Ann's page): refused, nothing changes."""
    game_id = await table.game("paris-paris", ["Ann", "Bob"])
    info = await table.service.game_info(game_id=game_id)
    first = info.seats[info.to_act[0]].name
    other = "Bob" if first == "Ann" else "Ann"
    mine = await browser.new_page(viewport=PHONE)
    await mine.goto(table.link(game_id, first))
    await mine.wait_for_selector(".spot")
    payload = await mine.locator(".spot").first.get_attribute("data-act")
    theirs = await browser.new_page(viewport=PHONE)
    await theirs.goto(table.link(game_id, other))
    await theirs.wait_for_selector("#prompt:not(:empty)")
    await theirs.evaluate("(payload) => window.boardSend({type: 'act', payload})", payload)
    await theirs.locator("#notice").wait_for()
    assert not await theirs.locator("#notice").is_hidden()
    assert (await table.service.game_info(game_id=game_id)).moves == 0
    # A spectator's page may not act at all.
    watcher = await browser.new_page(viewport=PHONE)
    await watcher.goto(table.link(game_id, None))
    await watcher.wait_for_selector("#prompt:not(:empty)")
    await watcher.evaluate("(payload) => window.boardSend({type: 'act', payload})", payload)
    await watcher.wait_for_function("() => !document.querySelector('#notice').hidden")
    assert "watching" in await watcher.locator("#notice").text_content()
    assert (await table.service.game_info(game_id=game_id)).moves == 0


async def test_a_finished_game_steps_through_its_record(browser, table):
    from browser_kit import play_by_taps

    game_id = await table.game("paris-paris", ["Ann"], ai=1)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(table.link(game_id, "Ann"))
    await play_by_taps(page, seed=5)
    total = (await table.service.game_info(game_id=game_id)).moves
    nav = page.locator("#review")
    await nav.get_by_role("button", name="Start").click()
    await page.wait_for_function("() => window.boardState.review.at === 0")
    await nav.get_by_role("button", name="Round ⏩").click()
    await page.wait_for_function("() => window.boardState.review.at > 0")
    at = await page.evaluate("window.boardState.review.at")
    assert at == (await page.evaluate("window.boardState.review.rounds"))[1]
    await nav.get_by_role("button", name="Move ▶").click()
    await page.wait_for_function(f"() => window.boardState.review.at === {at + 1}")
    await nav.get_by_role("button", name="◀ Move").click()
    await page.wait_for_function(f"() => window.boardState.review.at === {at}")
    await nav.get_by_role("button", name="End ⏭").click()
    await page.wait_for_function(f"() => window.boardState.review.at === {total}")
    assert await page.locator("#final p").count() > 0
