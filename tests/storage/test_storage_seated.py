"""A person's unfinished games across chats, and the message ids of slots, on both backends."""

from __future__ import annotations

from storage_kit import PLATFORM, lobby, message, playing

from bot.service.game.model import Changes, Seat


async def test_seated_games_are_the_unfinished_games_where_the_user_holds_a_seat_in_any_chat(storage):
    running, waiting = playing(1, "a"), lobby(2, "b", users=("bob", "ann"))
    finished = playing(3, "c")
    finished.status = "finished"
    handed = playing(4, "d")                       # Ann left: the AI plays her seat, it is not hers now
    handed.seats[0].is_ai, handed.seats[0].ai_reason = True, "left"
    elsewhere = playing(5, "e")
    elsewhere.platform = "other"
    lookalike = lobby(6, "f", users=("annie", "a%n_"))   # ids that a careless text match would confuse
    lookalike.seats.append(Seat("Bot", PLATFORM, None, is_ai=True))
    for meta in (running, waiting, finished, handed, elsewhere, lookalike):
        await storage.commit(Changes(meta=meta), 0.0)
    assert [g.id for g in await storage.seated_games(PLATFORM, "ann")] == [1, 2]
    assert [g.chat_id for g in await storage.seated_games(PLATFORM, "ann")] == ["a", "b"]
    assert [g.id for g in await storage.seated_games(PLATFORM, "a%n_")] == [6]
    assert [g.id for g in await storage.seated_games(PLATFORM, "a%")] == []
    assert await storage.seated_games(PLATFORM, "nobody") == []
    assert (await storage.seated_games(PLATFORM, "bob"))[0] == running


async def test_slot_messages_give_the_platform_ids_of_the_slots_that_have_one(storage):
    await storage.commit(Changes(meta=playing(1)), 0.0)
    ids = await storage.commit(Changes(outbox=[message(1, slot="g1:m0:turn"), message(1, slot="g1:lobby")]), 1.0)
    for out in await storage.outbox_rows(1):
        await storage.mark_sent(out, f"m{out.id}", 2.0)
    got = await storage.slot_messages(PLATFORM, ["g1:m0:turn", "g1:lobby", "g9:turn"])
    assert got == {"g1:m0:turn": f"m{ids[0]}", "g1:lobby": f"m{ids[1]}"}
    assert await storage.slot_messages("other", ["g1:lobby"]) == {}
    assert await storage.slot_messages(PLATFORM, []) == {}
