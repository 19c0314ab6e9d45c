"""/mygames and /next through the service: a person's unfinished games across chats, whose turn,
how long it has waited, and a link to the turn's message (from the outbox's slots)."""

from __future__ import annotations

from service_helpers import chat, play_turn, start_game, user

from bot.contract import SlotKind
from bot.games import kind
from bot.replyextra import NextGame
from i18n import t

ANN, BOB, CY = user("Ann"), user("Bob"), user("Cy")
USERS = {u.id: u for u in (ANN, BOB, CY)}


def link(c, message_id: str) -> str:
    return f"https://example.test/{c.id}/{message_id}"


async def until_turn_of(service, c, who) -> None:
    """Play the others' turns until ``who`` is to act in ``c``'s game."""
    for _ in range(20):
        info = await service.game_info(c)
        if info.seats[info.to_move].user_id == who.id:
            return
        await play_turn(service, c, USERS)
    raise AssertionError("never their turn")


async def test_my_games_list_every_unfinished_game_across_chats_waiting_ones_first(service, clock, transport):
    first = await start_game(service, chat(1), [ANN, BOB])
    await until_turn_of(service, chat(1), ANN)
    clock.advance(minutes=150)
    second = await start_game(service, chat(2), [BOB, ANN], ais=1, options={"game": "paris-connection"})
    await until_turn_of(service, chat(2), ANN)
    clock.advance(minutes=30)
    assert (await service.new_game(chat(3), CY)).ok and (await service.join(chat(3), ANN)).ok
    await service.deliver_pending(transport)
    clock.advance(minutes=5)

    reply = await service.my_games(ANN, link=link)
    games = reply.extra.games
    assert [g.game_id for g in games][:2] == [first, second]         # the longest wait first
    assert [g.yours for g in games] == [True, True, False]
    assert games[2].status == "lobby" and games[2].chat.id == "chat3"
    # Each link jumps to the message the turn's slot holds now: the game's live prompt.
    for g in games:
        shown = transport.messages[g.message_id]
        assert shown.chat == g.chat and g.link == link(shown.chat, g.message_id)
    assert transport.messages[games[0].message_id].slot.kind == SlotKind.TURN
    assert t("en", "bot.mine.title", count=3) in reply.text
    row = t("en", "bot.mine.row", game=kind("paris-paris").presenter.title("en"), chat="Chat 1",
            turn=t("en", "bot.mine.your_turn"), waited=t("en", "bot.duration.hours", n=3))
    assert row in reply.text and link(chat(1), games[0].message_id) in reply.text
    assert t("en", "bot.mine.lobby") in reply.text

    # Bob sees the same two running games, where Ann is to play.
    bobs = await service.my_games(BOB)
    assert [(g.game_id, g.yours, g.to_act, g.link) for g in bobs.extra.games] == [
        (first, False, ("Ann",), None), (second, False, ("Ann",), None)]
    assert t("en", "bot.mine.their_turn", names="Ann") in bobs.text
    assert (await service.next_game(BOB)).text == t("en", "bot.mine.next_none")


async def test_next_goes_to_the_game_that_has_waited_longest_for_the_user(service, clock, transport):
    first = await start_game(service, chat(1), [ANN, BOB])
    await until_turn_of(service, chat(1), ANN)
    clock.advance(minutes=10)
    second = await start_game(service, chat(2), [CY, ANN])
    await until_turn_of(service, chat(2), ANN)
    await service.deliver_pending(transport)
    reply = await service.next_game(ANN, link=link)
    assert reply.extra.game.game_id == first
    waiting = sum(g.yours for g in (await service.my_games(ANN)).extra.games)
    assert t("en", "bot.mine.next", waiting=waiting) in reply.text
    assert link(chat(1), reply.extra.game.message_id) in reply.text

    await until_turn_of(service, chat(1), BOB)      # Ann plays: that game waits for Bob now
    after = await service.next_game(ANN, link=link)
    assert after.extra.game.game_id == second


async def test_someone_in_no_game_is_told_so(service):
    assert (await service.my_games(CY)).text == t("en", "bot.mine.none")
    assert (await service.next_game(CY)).extra == NextGame(None)
