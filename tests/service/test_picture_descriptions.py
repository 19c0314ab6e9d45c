"""Every picture the bot sends says what it shows: each message delivered with a picture carries
its description (the game's words for the picture, the board as the terminal prints it, what
changed), for every game, within Discord's 1024 characters. The words are made with the picture
(``pictures.Drawn``), not while the move is handled: the outbox rows name the picture only."""

from __future__ import annotations

import pytest
from service_helpers import chat, play_turn, start_game, user

from bot.contract import Outgoing
from bot.games import KINDS, kind
from bot.service.game.outmessage import MessageBody
from bot.service.posts import animation
from i18n import t
from renderers.presenter import DESCRIPTION_LIMIT, fit_description

ANN = user("Ann")


@pytest.fixture
def drawn_quickly(monkeypatch):
    """Pictures "drawn" as a few bytes: what they show is other tests' business, their words this file's."""
    for game_kind in KINDS.values():
        monkeypatch.setattr(game_kind.presenter, "render", lambda *_, **__: b"png")
        monkeypatch.setattr(game_kind.presenter, "render_private", lambda *_, **__: b"png")
    monkeypatch.setattr(animation, "draw", lambda *_, **__: b"gif")


async def pictures(service, game_id: int) -> list[MessageBody]:
    return [o.body for o in await service.storage.outbox_rows(game_id) if o.body.render is not None]


async def delivered_pictures(service, transport) -> list[Outgoing]:
    await service.deliver_pending(transport)
    return [m for m in transport.sent if m.image is not None or m.animation is not None]


@pytest.mark.parametrize("game", sorted(KINDS))
async def test_every_picture_of_a_whole_game_has_a_description(service, transport, drawn_quickly, game):
    players = KINDS[game].definition.min_players
    game_id = await start_game(service, chat(), [ANN], ais=players - 1, options={"game": game, "seed": 3})
    assert (await service.hand_to_ai(chat(), ANN)).ok          # the AI plays Ann's seat: the game runs to its end
    info = await service.game_info(game_id=game_id)
    assert info.status == "finished"
    # Stored, a picture's message names the picture, not its words (the animation's are its own).
    stored = await pictures(service, game_id)
    assert [b.render.kind for b in stored if b.description] == ["animation"]
    *shown, last = await delivered_pictures(service, transport)
    # the whole game's animation says what it is
    assert last.animation is not None
    assert last.image_description == t("en", "bot.animation.description", game=kind(game).presenter.title("en"))
    presenter = kind(game).presenter
    subjects = {what: presenter.picture_subject(what, None, "en") for what in ("map", "final", "seat")}
    assert len(shown) == len([b for b in stored if b.render.kind != "animation"])
    for message in shown:
        description = message.image_description
        assert 0 < len(description) <= DESCRIPTION_LIMIT, message.text[:200]
        what = "seat" if message.private_to is not None else "final" if message is shown[-1] else "map"
        assert description.startswith(subjects[what]), (what, description[:80])
    # The final picture's words: the winners and scores, then the board as the terminal shows it.
    final = shown[-1].image_description
    loaded = await service.store.load(game_id)
    assert presenter.final_lines(loaded.match.view(None), "en")[0] in final
    assert presenter.board_text(loaded.match.view(None), "en").splitlines()[0] in final


async def test_a_seats_own_picture_describes_that_seat(service, transport, drawn_quickly):
    await start_game(service, chat(), [ANN], ais=1, options={"game": "papa-paolo", "seed": 3})
    own = [m for m in await delivered_pictures(service, transport) if m.private_to is not None]
    assert own and all(m.private_to.id == ANN.id for m in own)
    description = own[0].image_description
    assert description.startswith(t("en", "papa.alt.seat")) and "Ann" in description


def test_a_long_description_is_cut_at_a_line_within_the_limit():
    lines = ["Picture: the board.", *(f"line {i} " + "x" * 60 for i in range(40))]
    text = fit_description(lines)
    assert len(text) <= DESCRIPTION_LIMIT and text.endswith("…") and text.startswith("Picture: the board.\nline 0")
    assert "\n".join(lines).startswith(text[:-1].rstrip())


async def test_a_rounds_picture_describes_the_board_as_the_terminal_prints_it(service, transport, drawn_quickly):
    bob = user("Bob")
    game_id = await start_game(service, chat(), [ANN, bob], options={"seed": 3})
    users = {ANN.id: ANN, bob.id: bob}
    while not any(b.render.kind == "map" and b.render.cycle == 1 for b in await pictures(service, game_id)):
        await play_turn(service, chat(), users)
    stored = next(b for b in await pictures(service, game_id) if b.render.cycle == 1)
    loaded = await service.store.load(game_id)
    presenter = loaded.kind.presenter
    view = loaded.match.view(None)               # the board right after round 1, as its picture shows it
    round_map = next(m for m in await delivered_pictures(service, transport) if m.text == stored.text)
    description = round_map.image_description
    assert description.startswith(t("en", "pp.alt.map"))
    assert presenter.board_text(view, "en") in description       # whose turn, the scores
    assert t("en", "bot.alt.changed") in description             # and what the round changed
    changed = description.split(t("en", "bot.alt.changed"), 1)[1]
    cycle_start = loaded.match.rhythm.cycle_start(1)
    public = [e for e in loaded.match.log[cycle_start:loaded.match.rhythm.cycle_start(2)] if e.visible_to(None)]
    told = [line for line in presenter.narrate(public, loaded.match.players, "en") if line]
    assert told and all(line in changed for line in told)        # the round's public events, each told
