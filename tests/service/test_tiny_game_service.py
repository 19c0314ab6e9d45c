"""Tiny Hands (tests/tinygame) through the service: a game with a simultaneous phase, private
multi-step decisions and secrets, as a platform plays it (issue 17).

Three humans press at once (asyncio.gather) on their own private turn messages; deadlines run per
phase and complete each absent seat once; the group reads who is still to choose, never what.
"""

from __future__ import annotations

import asyncio
import random

from service_helpers import chat, start_game, user
from twin_streams import NAMES, turn_buttons

from i18n import name_list, t

BACK = "b"                          # the payload kind of a submenu's Back button


def newest_private_menu(transport, u) -> list:
    """The choice buttons of the newest private message to ``u`` that offers any (its turn message,
    edited in place as it steps through a decision)."""
    for _, message in sorted(transport.messages.items(), key=lambda item: -int(item[0])):
        if message.private_to is not None and message.private_to.id == u.id and turn_buttons(message.buttons):
            return [b for b in turn_buttons(message.buttons) if b.payload.split("_")[0] != BACK]
    return []


async def acting_users(service, game_id: int, users: dict) -> list:
    info = await service.game_info(game_id=game_id)
    return [users[info.seats[s].user_id] for s in info.to_act]


async def test_three_humans_pressing_at_once_play_to_the_end(service, transport, tiny_game):
    users = {u.id: u for u in map(user, NAMES)}
    c = chat(1)
    game_id = await start_game(service, c, list(users.values()), options={"game": "tiny-hands", "seed": 5})
    rng, rounds_of_presses, at_once = random.Random(5), 0, 0
    while (await service.game_info(game_id=game_id)).status != "finished":
        assert rounds_of_presses < 200, "the game never ended"
        await service.deliver_pending(transport)
        acting = await acting_users(service, game_id, users)
        menus = [newest_private_menu(transport, u) for u in acting]
        assert all(menus), f"a seat to act has no private menu: {[u.name for u in acting]}"
        # Everyone presses a button of the menu they see now, all at once: one seat's steps
        # never make another seat's buttons stale.
        pressed = [rng.choice(menu) for menu in menus]
        replies = await asyncio.gather(*(service.press(c, u, b.payload) for u, b in zip(acting, pressed, strict=True)))
        assert all(r.ok for r in replies), [r.text for r in replies]
        rounds_of_presses += 1
        at_once = max(at_once, len(acting))
    await service.deliver_pending(transport)
    assert at_once == 3

    record = await service.record(game_id)
    match = tiny_game.from_record(record)
    assert match.is_terminal() and match.winners
    assert {m["player"] for m in record["moves"]} == set(NAMES)            # the record names every mover
    group = "\n".join(m.text for m in transport.group())
    assert t("en", "bot.msg.waiting", players="")[:3] in group             # the waiting line
    assert "Your hand" not in group and "Which card?" not in group          # hands and menus stay private
    for seat, name in enumerate(record["players"]):
        dealt = [m.text for m in transport.private() if m.private_to.name == name and "Your hand in" in m.text]
        cards = " ".join(f"[{c}]" for c in record["hands"][seat])
        assert dealt and dealt[0].endswith(cards), (name, dealt[:1], cards)   # each got their own hand
    assert all(any(m.image for m in transport.private() if m.private_to.id == u) for u in users)  # own boards
    assert [m for m in transport.group() if m.image]                         # the public pictures


async def test_a_deadline_completes_each_absent_seat_once_and_tells_the_group(service, transport, clock, tiny_game):
    users = {u.id: u for u in map(user, NAMES)}
    c = chat(1)
    options = {"game": "tiny-hands", "seed": 8, "reminder_minutes": 60, "deadline_minutes": 180}
    game_id = await start_game(service, c, list(users.values()), options=options)
    ann, bob = users["ann"], users["bob"]

    async def press(u, label_start: str):
        await service.deliver_pending(transport)
        button = next(b for b in newest_private_menu(transport, u) if b.label.startswith(label_start))
        reply = await service.press(c, u, button.payload)
        assert reply.ok, reply.text

    clock.advance(minutes=30)
    await press(ann, "🂠 Play")                    # Ann chooses one card and stops: a decision under way
    await press(ann, "🂠 ")
    clock.advance(minutes=70)
    assert await service.fire_due_timers() == 1    # the reminder only
    await press(bob, "🂠 Play")                    # Bob's steps do not push the phase's deadline back
    await press(bob, "🂠 ")
    await press(bob, "✅")
    clock.advance(minutes=79)
    assert await service.fire_due_timers() == 0
    clock.advance(minutes=2)                       # 181 minutes after the phase began
    assert await service.fire_due_timers() == 1
    await service.deliver_pending(transport)

    record = await service.record(game_id)
    moves = [(m["player"], m["move"]) for m in record["moves"]]
    assert [m for m in moves if m[1] == "done"] and sorted(p for p, m in moves if m == "done") == ["Ann", "Bob", "Cy"]
    assert moves[0][0] == "Ann" and moves[0][1].startswith("play:")        # Ann's own card stayed hers
    group = [m.text for m in transport.group()]
    notes = [line for text in group for line in text.splitlines() if line.startswith("⌛")]
    told = {t("en", "bot.msg.deadline_private_several", player=name_list(names, "en"))   # "Ann and Cy did not…"
            for names in (["Ann", "Cy"], ["Cy", "Ann"])}
    assert len(notes) == 1 and notes[0] in told, notes                                 # once, naming Ann and Cy
    assert not any("play:" in text for text in group)
    assert any("Revealed:" in text for text in group)            # the phase resolved and the cards showed

    # The claim phase is sequential: its deadline runs from when its first seat began to act and
    # completes that seat alone.
    before = len(record["moves"])
    clock.advance(minutes=181)
    await service.fire_due_timers()
    after = (await service.record(game_id))["moves"]
    assert len(after) == before + 1 and after[-1]["move"].startswith("take:")
