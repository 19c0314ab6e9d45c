"""A refusal carries a stable code (``Reply.refused``): what the service and the adapters test,
never the translated text, which depends on whose language it was written in."""

from __future__ import annotations

from service_helpers import chat, start_game, user

from bot.contract import Refusal
from i18n import LANGUAGES, t


async def test_a_button_of_a_game_that_ended_says_the_game_is_over_in_any_language(service):
    c = chat()
    ann, bob = user("Ann"), user("Bob", language="de")
    await start_game(service, c, [ann, bob])
    info = await service.game_info(c)
    mover = (ann, bob)[info.to_move]
    button = next(row[0] for row in (await service.board(c, mover)).buttons if row[0].payload.startswith(("c_", "o_")))
    assert (await service.abort(c, ann)).ok
    # Bob's own language (German) is not the game's (English): the refusal under the game's
    # lock is worded in the game's language, and read as "the game is over" by its code.
    reply = await service.press(c, bob if mover is bob else ann, button.payload)
    assert not reply.ok and reply.refused == "bot.err.game_over", reply
    assert reply.text == t("en", "bot.err.game_over")


async def test_refusals_of_every_kind_carry_their_code(service):
    c = chat()
    ann, bob = user("Ann"), user("Bob")
    assert (await service.join(c, ann)).refused == "bot.err.no_game"
    assert (await service.board(c, ann)).refused == "bot.err.no_game"
    await start_game(service, c, [ann, bob])
    info = await service.game_info(c)
    waiting = (ann, bob)[1 - info.to_move]
    button = next(row[0] for row in (await service.board(c, (ann, bob)[info.to_move])).buttons
                  if row[0].payload.startswith(("c_", "o_")))
    refused = await service.press(c, waiting, button.payload)
    assert not refused.ok and refused.refused and refused.refused.startswith("bot.err."), refused
    assert (await service.join(c, user("Cleo"))).refused is not None


def test_every_refusal_code_has_its_text_in_every_language():
    """A code is its text's catalog key: a refusal added without its text would show the key.
    (No secret is worded by the game itself: ``Presenter.no_secret_text``.)"""
    for code in set(Refusal) - {Refusal.NO_SECRET}:
        for language in LANGUAGES:
            assert t(language, code) != code.value, (code, language)


async def test_a_move_typed_in_a_lobby_is_refused_as_not_started(service):
    # A lobby has no match yet: the typed move is refused, never an error (found by the fuzz test,
    # which met it only on the runs whose random input reached a lobby).
    ann = user("Ann")
    assert (await service.new_game(chat(), ann)).ok
    reply = await service.move(chat(), ann, "1")
    assert not reply.ok and reply.refused == Refusal.NOT_STARTED, reply
    assert (await service.game_info(chat())).status == "lobby"
