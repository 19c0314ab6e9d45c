"""A tap on the web board: its payload read once, then pressed as the same choice's chat button is
(the seat menu is one: ``seatmenu.SeatChoices``)."""

from __future__ import annotations

from service_helpers import chat, start_game, user

from bot.contract import Refusal
from bot.service.board.page import PageRequest


async def test_a_tap_is_decoded_once_and_makes_the_choice_of_its_button(service, monkeypatch):
    ann, bob = user("Ann"), user("Bob")
    game_id = await start_game(service, chat(), [ann, bob])
    info = await service.game_info(chat())
    seat = info.to_move
    mover = (ann, bob)[seat]
    state = await service.page(PageRequest(game_id, seat, "en"))
    tap = next(item.act for item in state.choices.items() if item.act is not None)
    board = await service.board(chat(), mover)
    assert tap in {b.payload for row in board.buttons for b in row}, "the page's choice is not the chat's button"

    decoded = []
    honest = service.codec.decode
    monkeypatch.setattr(service.codec, "decode", lambda text, **kw: decoded.append(text) or honest(text, **kw))
    reply = await service.page_press(game_id, mover, tap)
    assert reply.ok, reply.text
    assert decoded == [tap]
    assert (await service.game_info(chat())).moves == info.moves + 1

    again = await service.page_press(game_id, mover, tap)
    assert not again.ok and again.refused in (Refusal.STALE, Refusal.DUPLICATE, Refusal.NOT_YOUR_TURN)
    elsewhere = await service.page_press(game_id + 1, mover, tap)
    assert elsewhere.refused == Refusal.FORGED
