"""The group stream gives no secret away (issue 17): two games that differ only in one seat's
secret, played with the same presses, give the group and that seat's opponents exactly the
same texts, captions, button labels and picture inputs until the game reveals the secret.

Every registered game with secrets is played so (tests/conformance/twins.py deals the twins): Paris
Paris, one seat's marker; Paris Connection, a locomotive of one colour swapped for another between
two screens (the storage boards stay the same); Tiny Hands, cards of one hand.
A game whose secrets are only private choices (Papà Paolo's delivery plans: twins.DRAFT_TWINS) deals
no twins, so it is not played here; the conformance suite checks its drafts through the interface.
"""

from __future__ import annotations

import dataclasses

import pytest
from conformance.twins import TWINS
from tinygame import GAME as TINY
from twin_streams import play_twins

from bot.games import kind
from engine.registry import GAMES

# Every registered game that deals secrets (and the test-only one), two seats each, as many humans
# as the game's smallest table of at least three.
GAMES_WITH_SECRETS = [(game_id, definition) for game_id, definition in [*GAMES.items(), (TINY.id, TINY)]
                      if game_id in TWINS]
CASES = [(game_id, min(max(3, d.min_players), d.max_players), seat, 10 * index + seat + 11)
         for index, (game_id, d) in enumerate(GAMES_WITH_SECRETS) for seat in (0, 1)]


@pytest.mark.parametrize(("game_id", "players", "seat", "seed"), CASES,
                         ids=[f"{g}-{n}p-seat{s}" for g, n, s, _ in CASES])
async def test_twin_deals_give_the_group_and_the_opponents_the_same_stream(
        tmp_path, clock, monkeypatch, tiny_game, game_id, players, seat, seed):
    compared, moves = await play_twins(tmp_path, clock, monkeypatch, game_id, players, seat, seed)
    assert compared >= 5 and moves >= 3, f"the test compared hardly anything ({compared} presses, {moves} moves)"


async def test_a_secret_submenu_shown_to_the_group_is_caught(tmp_path, clock, monkeypatch):
    """Paris Connection's trade menus, no longer marked private, come to the group: the twins part."""
    presenter = kind("paris-connection").presenter
    honest = presenter.menu

    def public_menu(*args, **kwargs):
        menu = honest(*args, **kwargs)
        rows = tuple(tuple(dataclasses.replace(item, private=False) for item in row) for row in menu.rows)
        return dataclasses.replace(menu, rows=rows, private=False)

    monkeypatch.setattr(presenter, "menu", public_menu)
    with pytest.raises(AssertionError, match="different messages"):
        await play_twins(tmp_path, clock, monkeypatch, "paris-connection", 3, 0, 21)


async def test_a_secret_on_a_web_page_of_the_group_is_caught(tmp_path, clock, monkeypatch):
    """A page that tells everyone the first seat's secret (its marker) in its prompt: the twins part."""
    from bot.service.board import page

    honest = page.decision_line

    def leaky(meta, game, match, seat, lang):
        return honest(meta, game, match, seat, lang) + str(game.presenter.secret_text(match.view(0), lang, "chat"))

    monkeypatch.setattr(page, "decision_line", leaky)
    with pytest.raises(AssertionError, match="web page"):
        await play_twins(tmp_path, clock, monkeypatch, "paris-paris", 3, 0, 11)


WEB = {"web_url": "https://board.example.org", "mini_app": "board"}


@pytest.mark.parametrize(("game_id", "players", "seat", "seed"), CASES[::2],
                         ids=[f"{g}-{n}p-seat{s}" for g, n, s, _ in CASES[::2]])
async def test_the_web_boards_links_tell_the_group_and_the_opponents_nothing_more(
        tmp_path, clock, monkeypatch, tiny_game, game_id, players, seat, seed):
    """With the web board's address set, the group's turn messages carry its link and every seat's
    private turn message its own: read back, they are the same for twins."""
    compared, moves = await play_twins(tmp_path, clock, monkeypatch, game_id, players, seat, seed, **WEB)
    assert compared >= 5 and moves >= 3, f"the test compared hardly anything ({compared} presses, {moves} moves)"
