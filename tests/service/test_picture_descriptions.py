"""Every picture the bot sends says what it shows: each outbox row that carries a picture carries
its description (the game's words for the picture, the board as the terminal prints it, what
changed), for every game, within Discord's 1024 characters."""

from __future__ import annotations

import pytest
from service_helpers import chat, play_turn, start_game, user

from bot.games import KINDS, kind
from bot.service.game.outmessage import MessageBody
from i18n import t
from renderers.presenter import DESCRIPTION_LIMIT, fit_description

ANN = user("Ann")


async def pictures(service, game_id: int) -> list[MessageBody]:
    return [o.body for o in await service.storage.outbox_rows(game_id) if o.body.render is not None]


@pytest.mark.parametrize("game", sorted(KINDS))
async def test_every_picture_of_a_whole_game_has_a_description(service, game):
    players = KINDS[game].definition.min_players
    game_id = await start_game(service, chat(), [ANN], ais=players - 1, options={"game": game, "seed": 3})
    assert (await service.hand_to_ai(chat(), ANN)).ok          # the AI plays Ann's seat: the game runs to its end
    info = await service.game_info(game_id=game_id)
    assert info.status == "finished"
    *shown, animation = await pictures(service, game_id)
    kinds = [body.render.kind for body in shown]
    assert "map" in kinds and kinds[-1] == "final" and animation.render.kind == "animation"
    # the whole game's animation says what it is
    assert animation.description == t("en", "bot.animation.description", game=kind(game).presenter.title("en"))
    presenter = kind(game).presenter
    for body in shown:
        description = body.description
        assert description, (body.render, body.text[:200])
        assert 0 < len(description) <= DESCRIPTION_LIMIT
        assert description.startswith(presenter.picture_subject(body.render.kind, None, "en"))
    # The final picture's words: the winners and scores, then the board as the terminal shows it.
    final = shown[-1].description
    loaded = await service.store.load(game_id)
    assert presenter.final_lines(loaded.match.view(None), "en")[0] in final
    assert presenter.board_text(loaded.match.view(None), "en").splitlines()[0] in final


async def test_a_seats_own_picture_describes_that_seat(service):
    game_id = await start_game(service, chat(), [ANN], ais=1, options={"game": "papa-paolo", "seed": 3})
    own = [b for b in await pictures(service, game_id) if b.render.kind == "seat"]
    assert own and all(b.private_to.id == ANN.id for b in own)
    description = own[0].description
    assert description.startswith(t("en", "papa.alt.seat")) and "Ann" in description


def test_a_long_description_is_cut_at_a_line_within_the_limit():
    lines = ["Picture: the board.", *(f"line {i} " + "x" * 60 for i in range(40))]
    text = fit_description(lines)
    assert len(text) <= DESCRIPTION_LIMIT and text.endswith("…") and text.startswith("Picture: the board.\nline 0")
    assert "\n".join(lines).startswith(text[:-1].rstrip())


async def test_a_rounds_picture_describes_the_board_as_the_terminal_prints_it(service):
    bob = user("Bob")
    game_id = await start_game(service, chat(), [ANN, bob], options={"seed": 3})
    users = {ANN.id: ANN, bob.id: bob}
    while not any(b.render.kind == "map" and b.render.cycle == 1 for b in await pictures(service, game_id)):
        await play_turn(service, chat(), users)
    round_map = next(b for b in await pictures(service, game_id) if b.render.cycle == 1)
    loaded = await service.store.load(game_id)
    presenter = loaded.kind.presenter
    view = loaded.match.view(None)
    assert round_map.description.startswith(t("en", "pp.alt.map"))
    assert presenter.board_text(view, "en") in round_map.description       # whose turn, the scores
    assert t("en", "bot.alt.changed") in round_map.description             # and what the round changed
