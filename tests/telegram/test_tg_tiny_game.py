"""Tiny Hands (tests/tinygame) end to end on Telegram: the real Application and GameService against
the fake Bot API. Three players tap in their private chats at the same moment; the group reads
only who is still to choose; a player who does not choose in time has the AI choose for them."""

from __future__ import annotations

import asyncio
import random

import pytest
from tgharness import GROUP_ID, Bot, Table, private_turn

from bot.service import ManualClock
from i18n import t

CHOICE, BACK = ("c_", "o_"), "b_"


@pytest.fixture
def table(api) -> Table:
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", started=True)
    cat = api.add_user(103, "Cat", started=True)
    group = api.add_group(GROUP_ID, "Tiny fans", owner=ann)
    return Table(api, group, {"ann": ann, "bob": bob, "cat": cat})




async def tap_at_once(api, bot: Bot, taps) -> list[dict]:
    """Every (user, message, button) tapped before the bot handles any of them; their answers."""
    queries = [api.press(user, msg, button) for user, msg, button in taps]
    answers = await asyncio.gather(*(api.answer_of(q) for q in queries))
    await bot.settle()
    return list(answers)


async def test_tiny_hands_by_taps_three_players_at_once_and_a_deadline(api, table, tmp_path, tiny_game):
    clock = ManualClock(start=1_800_000_000.0)
    bot = Bot(api, str(tmp_path / "tiny.sqlite3"), clock=clock)
    await bot.start()
    try:
        ann = table.users["ann"]
        api.send_text(table.group, ann, "/newgame tiny")
        await bot.settle()
        for name in ("bob", "cat"):
            api.follow_url(table.users[name], table.lobby().button("Join")["url"])
            await bot.settle()
        lobby = table.lobby()
        answers = await tap_at_once(api, bot, [(ann, lobby, lobby.button("Start"))])
        assert answers[0].get("text") == t("en", "bot.reply.started"), answers

        # Round 1: Ann and Bob choose, Cat is away; at the deadline the AI chooses for Cat, once.
        rng = random.Random(4)
        for _ in range(12):
            taps = []
            for user in (ann, table.users["bob"]):
                msg = private_turn(api, user)
                if msg is not None:
                    choices = [b for b in msg.buttons() if not b["callback_data"].startswith(BACK)]
                    taps.append((user, msg, rng.choice(choices)))
            if not taps:
                break
            assert all(a.get("show_alert") is not True for a in await tap_at_once(api, bot, taps))
        assert private_turn(api, ann) is None and private_turn(api, table.users["bob"]) is None
        waiting = table.group_messages()[-1].body
        assert t("en", "bot.msg.waiting", players="Cat") in waiting
        clock.advance(minutes=24 * 60 + 1)                 # the default deadline
        bot.service.timers.wake.set()                      # a manual clock's jump wakes nobody by itself
        note = t("en", "bot.msg.deadline_private", player="Cat")
        await api.wait_for(lambda: any(note in m.body for m in table.group_messages()), what="the deadline")
        await bot.settle()

        # Then all three tap at once, in their private chats, to the end.
        for _ in range(150):
            taps = [(u, msg, rng.choice([b for b in msg.buttons() if not b["callback_data"].startswith(BACK)]))
                    for u in table.users.values() if (msg := private_turn(api, u)) is not None]
            if not taps:
                break
            assert all(a.get("show_alert") is not True for a in await tap_at_once(api, bot, taps))
        info = await bot.service.game_info(game_id=1)
        assert info.status == "finished" and info.winners, info
    finally:
        await bot.stop()
    group = "\n".join(m.body for m in table.group_messages())
    assert "Revealed:" in group and "🏁 Game over." in group
    assert "Your hand" not in group and "Which card?" not in group        # hands and menus stay private
    assert sum(note in m.body for m in table.group_messages()) == 1
    for user in table.users.values():                                     # each saw their own hand
        assert any("Your hand" in m.body for m in api.bot_messages(user))
    assert len(api.answers) == len(api.calls_of("answerCallbackQuery"))
