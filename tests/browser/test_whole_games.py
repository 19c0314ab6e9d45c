"""A whole game of every registered game, played by taps on the live board in a real browser."""

from __future__ import annotations

import pytest
from browser_kit import PHONE, play_by_taps

from bot.games import KINDS


@pytest.mark.parametrize("game", sorted(KINDS))
async def test_a_whole_game_by_taps(browser, table, game):
    game_id = await table.game(game, ["Ann"], ai=KINDS[game].definition.min_players - 1 or 1)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(table.link(game_id, "Ann"))
    # After every tap the decision and its lit targets are in view, every target at least 24 px.
    taps = await play_by_taps(page, seed=game_id, check_view=True)
    info = await table.service.game_info(game_id=game_id)
    assert info.status == "finished"
    assert taps > 0
    # the final state reached the page: its standings and the step-through controls
    assert await page.locator("#final p").count() > 0
    assert await page.locator("#review button").count() == 6
