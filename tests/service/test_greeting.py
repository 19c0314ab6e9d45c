"""The private chat's greeting speaks of the game the player is in, in that game's words."""

from __future__ import annotations

import pytest
from service_helpers import chat, user

from i18n import t


@pytest.mark.parametrize(("game", "says", "never"), [
    ("connection", "Paris Connection (the locomotives you hold", "marker"),
    ("paris-paris", "Paris Paris (your secret special-route marker", "locomotive"),
])
async def test_the_private_greeting_is_the_games_own(service, game, says, never):
    ann = user("Ann")
    c = chat()
    assert (await service.new_game(c, ann, options={"game": game})).ok
    for _ in range(2):
        assert (await service.add_ai(c, ann)).ok
    assert (await service.start(c, ann)).ok
    reply = await service.private_started(ann)
    assert reply.ok and says in reply.text and never not in reply.text


async def test_without_a_game_the_greeting_names_no_game(service):
    reply = await service.private_started(user("Bob"))
    assert reply.text == t("en", "bot.reply.private_ok") and "Paris" not in reply.text
