"""Ratings on Telegram (issue 35): the real Application and GameService against the fake Bot API.
A Tiny Hands game (tests/tinygame) ends by deadlines; its final message in the group shows each
person's rating change, and /rating answers in the group (with the group's leaderboard) and in
the private chat."""

from __future__ import annotations

from tgharness import GROUP_ID, Bot, Table
from whole_games import SETTLE_AT_THE_END

from bot.contract import Chat, User
from bot.service import ManualClock
from i18n import t


async def test_the_final_message_shows_the_changes_and_rating_answers_in_group_and_private(api, tmp_path, tiny_game):
    ann_tg = api.add_user(101, "Ann", started=True)
    bob_tg = api.add_user(102, "Bob", started=True)
    group = api.add_group(GROUP_ID, "Tiny fans", owner=ann_tg)
    table = Table(api, group, {"ann": ann_tg, "bob": bob_tg})
    clock = ManualClock(start=1_800_000_000.0)
    bot = Bot(api, str(tmp_path / "rating.sqlite3"), clock=clock)
    await bot.start()
    try:
        service = bot.service
        room = Chat("telegram", str(GROUP_ID), "Tiny fans")
        ann, bob = User("telegram", "101", "Ann"), User("telegram", "102", "Bob")
        assert (await service.new_game(room, ann, options={"game": "tiny-hands", "deadline_minutes": 10,
                                                           "reminder_minutes": 0})).ok
        assert (await service.join(room, bob)).ok
        assert (await service.start(room, ann)).ok
        for _ in range(50):                    # nobody chooses: the AI does at each deadline
            if (await service.game_info(room)) is None or (await service.game_info(room)).status != "playing":
                break
            clock.advance(minutes=11)
            await service.fire_due_timers()
        header = t("en", "bot.rating.changes")
        await api.wait_for(lambda: any(header in m.body for m in table.group_messages()), what="the final message")
        final = next(m.body for m in table.group_messages() if header in m.body)
        assert "Ann 1,200 → " in final and "Bob 1,200 → " in final
        # the whole game's animation follows it (drawn meanwhile): then the group is quiet
        await api.wait_for(lambda: any(m.animation for m in table.group_messages()), what="the animation",
                           timeout=SETTLE_AT_THE_END)

        api.send_text(table.group, ann_tg, "/rating")
        await bot.settle()
        answer = table.group_messages()[-1].body
        assert answer.startswith(t("en", "bot.rating.title", name="Ann"))
        assert t("en", "bot.rating.board_here", game="Tiny Hands") in answer     # this group's board

        api.send_text(api.chats[bob_tg.id], bob_tg, "/rating tiny")
        await bot.settle()
        private = api.last_bot_message(bob_tg).body
        assert private.startswith(t("en", "bot.rating.title", name="Bob"))
        assert t("en", "bot.rating.board", game="Tiny Hands") in private
        assert t("en", "bot.rating.board_here", game="Tiny Hands") not in private   # no group here
    finally:
        await bot.stop()
