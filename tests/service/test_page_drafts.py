"""A private decision under way (Papà Paolo's delivery plan half drawn) never shows on the web
pages of the other seats or the group: draft twins (tests/conformance/twins.py) give them the
same page, in both layouts: texts, pictures' names, choices and log."""

from __future__ import annotations

import json
import random

import pytest
from conformance.twins import DRAFT_TWINS

from bot.games import kind
from bot.service.board.page import PageRequest, page_state
from bot.service.game.model import PLAYING, GameMeta, Seat
from bot.service.tokens.payloads import PayloadCodec

CODEC = PayloadCodec(b"twins")
NAMES = ("Ann", "Bob", "Cy", "Dee")


def page(game_id: str, match, seat, layout: str) -> dict:
    meta = GameMeta(id=1, platform="terminal", chat_id="c1", chat_title="Table", status=PLAYING, host_id="u0",
                    options={}, seed=1, seats=[Seat(name, "terminal", f"u{i}") for i, name in enumerate(match.players)],
                    setup={}, moves=match.move_count, kind=game_id)
    return page_state(meta, kind(game_id), match, CODEC, PageRequest(1, seat, "en", layout))


@pytest.mark.parametrize("game_id", sorted(DRAFT_TWINS))
@pytest.mark.parametrize("players", [2, 3])
def test_a_plan_under_way_stays_off_the_others_pages(game_id, players):
    definition = kind(game_id).definition
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        setup = json.loads(json.dumps(definition.new_match(NAMES[:players], seed=seed).stored_setup()))
        seat = rng.randrange(players)
        moves, twin_moves = DRAFT_TWINS[game_id](definition, setup, seat, rng)
        first, second = definition.resume(setup, moves), definition.resume(setup, twin_moves)
        assert first.view(seat) != second.view(seat), "the draft twins differ in nothing: the test tests nothing"
        for viewer in [None, *(s for s in range(players) if s != seat)]:
            for layout in ("landscape", "portrait"):
                assert page(game_id, first, viewer, layout) == page(game_id, second, viewer, layout), (
                    f"seat {viewer}'s page shows seat {seat}'s plan under way")
                compared += 1
    assert compared >= 6
