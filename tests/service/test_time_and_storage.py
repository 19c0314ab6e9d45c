"""Timers with a manual clock, seats handed to the AI, restarts, the outbox, migrations."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from service_helpers import FakeTransport, chat, play_to_end, play_turn, snapshot, start_game, user

from bot.contract import RetryLater, SlotKind
from bot.service import GameService
from bot.service.storage import SCHEMA_VERSION, Conflict, SqliteStorage
from i18n import t

OPTS = {"seed": 6, "reminder_minutes": 60, "deadline_minutes": 180}


async def test_reminder_then_deadline(service, clock, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    gid = await start_game(service, c, [ann, bob], options=OPTS)
    await service.deliver_pending(transport)
    info = await service.game_info(c)
    mover = info.seats[info.to_move]
    assert await service.fire_due_timers() == 0
    clock.advance(minutes=59)
    assert await service.fire_due_timers() == 0
    clock.advance(minutes=2)
    assert await service.fire_due_timers() == 1                     # the reminder
    await service.deliver_pending(transport)
    reminder = transport.sent[-1]
    assert reminder.chat is not None and [u.id for u in reminder.mentions] == [mover.user_id]
    status = t("en", "pp.msg.round_header", round=1, rounds=20, stacks=19)
    assert reminder.text == t("en", "bot.msg.reminder_now", player=mover.name, status=status)
    assert await service.fire_due_timers() == 0                     # fires once
    assert (await service.game_info(c)).moves == info.moves
    clock.advance(minutes=120)
    assert await service.fire_due_timers() == 1                     # the deadline: the AI moves
    after = await service.game_info(c)
    assert after.moves == info.moves + 1
    assert after.seats[info.to_move].is_ai is False        # the seat stays human
    await service.deliver_pending(transport)
    prompt = transport.sent[-1]
    assert t("en", "bot.msg.deadline", player=mover.name, choice="").split(":")[0] in prompt.text
    async with service.storage.db.execute("SELECT actor FROM moves WHERE game_id = ?", (gid,)) as cur:
        assert [r[0] for r in await cur.fetchall()] == ["deadline"]
    # New timers for the next player, relative to now.
    timers = await service.storage.timers_of(gid)
    assert {t_.kind for t_ in timers} == {"reminder", "deadline"}
    assert all(t_.move == after.moves and t_.due > clock.now() for t_ in timers)
    # The note stays with its round: the round's closing text still tells it.
    note = prompt.text.splitlines()[1]
    await play_turn(service, c, {"ann": ann, "bob": bob})
    await service.deliver_pending(transport)
    closing = [m for m in transport.sent if m.slot and m.slot.kind == SlotKind.TURN and m.edit_message_id][-1]
    assert note in closing.text and "1/20" in closing.text.splitlines()[0]


async def test_second_reminder_in_a_round_goes_privately(service, clock, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options=OPTS)
    users = {"ann": ann, "bob": bob}
    clock.advance(minutes=61)
    assert await service.fire_due_timers() == 1
    await play_turn(service, c, users)                               # same round, next player
    clock.advance(minutes=61)
    assert await service.fire_due_timers() == 1
    await service.deliver_pending(transport)
    # in the order they were committed (the outbox keeps the order within each chat only)
    reminders = sorted((m for m in transport.sent if "⏰" in m.text), key=lambda m: m.id)
    assert [m.chat is not None for m in reminders] == [True, False]


async def test_timers_survive_a_restart(db_path, clock):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    service = await GameService.open(db_path, clock=clock)
    await start_game(service, c, [ann, bob], options=OPTS)
    moves = (await service.game_info(c)).moves
    await service.close()
    clock.advance(minutes=200)
    service = await GameService.open(db_path, clock=clock)
    try:
        assert await service.fire_due_timers() == 2                 # reminder and deadline, both due
        assert (await service.game_info(c)).moves == moves + 1
    finally:
        await service.close()


async def test_host_hands_an_absent_players_seat_to_the_ai(service, transport):
    ann, bob, cat = user("Ann"), user("Bob"), user("Cat")
    c = chat()
    await start_game(service, c, [ann, bob, cat], options={"seed": 9})
    info = await service.game_info(c)
    before = await snapshot(service)
    assert not (await service.hand_to_ai(c, bob, "cat")).ok          # not the host
    assert not (await service.hand_to_ai(c, ann, "nobody")).ok
    assert await snapshot(service) == before
    absent = info.seats[info.to_move].user_id
    host = ann if absent != "ann" else user("Admin", is_admin=True)
    reply = await service.hand_to_ai(c, host, absent)
    assert reply.ok
    after = await service.game_info(c)
    seat = [s.user_id for s in after.seats].index(absent)
    assert after.seats[seat].is_ai
    assert after.moves > info.moves                             # the AI played the turn at once
    assert after.seats[after.to_move].is_ai is False
    # The AI keeps that seat to the end; the game finishes.
    humans = {u.id: u for u in (ann, bob, cat) if u.id != absent}
    await play_to_end(service, c, humans, transport)
    assert (await service.game_info(game_id=after.game_id)).status == "finished"


async def test_leaving_mid_game_hands_the_seat_to_the_ai(service):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    gid = await start_game(service, c, [ann, bob], options={"seed": 9})
    assert (await service.leave(c, bob)).ok
    info = await service.game_info(game_id=gid)
    assert info.seats[1].is_ai
    assert (await service.secret(bob, c)).ok is False                # no longer a player
    await play_to_end(service, c, {"ann": ann})
    assert (await service.game_info(game_id=gid)).status == "finished"


async def test_restart_mid_game_and_continue(db_path, clock, transport):
    users = {u.id: u for u in map(user, ["Ann", "Bob", "Cat"])}
    c = chat()
    service = await GameService.open(db_path, clock=clock)
    gid = await start_game(service, c, list(users.values()), options={"seed": 13})
    for _ in range(17):
        await play_turn(service, c, users)
    info = await service.game_info(c)
    view = (await service.board(c, users["ann"])).text
    await service.close()

    service = await GameService.open(db_path, clock=clock)
    try:
        assert await service.game_info(c) == info                    # rebuilt exactly
        assert (await service.board(c, users["ann"])).text == view
        await play_to_end(service, c, users, transport)
        assert (await service.game_info(game_id=gid)).status == "finished"
        # Nothing was lost across the restart: the start, a map per round, the standings, the whole
        # game's animation, all delivered.
        rows = await service.storage.outbox_rows(gid)
        assert sum(1 for r in rows if r.body.render is not None) == 1 + 15 + 1 + 1
        assert all(r.state == "sent" for r in rows)
    finally:
        await service.close()


async def test_eager_restore_loads_every_active_game(db_path, clock):
    service = await GameService.open(db_path, clock=clock)
    for n in range(5):
        await start_game(service, chat(n), [user(f"A{n}"), user(f"B{n}")], options={"seed": n})
    await service.close()
    service = await GameService.open(db_path, clock=clock)
    try:
        assert await service.restore_all() == 5
    finally:
        await service.close()


async def test_eviction_choice_keyboard(service, transport):
    """Play until a tile needs an eviction choice; the keyboard offers exactly the two owners."""
    users = {u.id: u for u in map(user, ["Ann", "Bob", "Cat"])}
    c = chat()
    seen = False
    for seed in range(40):
        if seen:
            break
        await start_game(service, c, list(users.values()), options={"seed": seed})
        while (info := await service.game_info(c)) is not None:
            mover = users[info.seats[info.to_move].user_id]
            board = await service.board(c, mover)
            tiles = [row[0] for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]
            choice = None
            for b in tiles:
                reply = await service.press(c, mover, b.payload)
                if reply.ok and reply.buttons and reply.buttons[0][0].payload.startswith("c_"):
                    choice = reply
                    break
                if reply.ok:
                    break
            if choice is None:
                continue
            seen = True
            evicts = choice.buttons[0]
            assert len(evicts) == 2 and choice.buttons[1][0].payload.startswith("b_")
            before = await snapshot(service)
            back = await service.press(c, mover, choice.buttons[1][0].payload)   # back: no move
            assert back.ok and (await snapshot(service))[1] == before[1]
            moves = info.moves
            assert (await service.press(c, mover, evicts[1].payload)).ok
            assert (await service.game_info(c)).moves == moves + 1
            stale = await service.press(c, mover, evicts[0].payload)
            assert not stale.ok
            break
        if (await service.game_info(c)) is not None:
            await service.abort(c, users["ann"])
    assert seen


async def test_outbox_retries_and_reroutes(service, clock):
    transport = FakeTransport()
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    transport.closed_private.add("bob")
    transport.failures = [RetryLater(30)]
    await start_game(service, c, [ann, bob], options={"seed": 3})
    assert await service.deliver_pending(transport) == 1           # only Ann's marker: group waits, Bob closed
    # The group's first message hit a rate limit: nothing for that chat before 30 s.
    assert not transport.group()
    clock.advance(29)
    await service.deliver_pending(transport)
    assert not transport.group()
    clock.advance(2)
    await service.deliver_pending(transport)
    assert transport.group()
    # Bob's marker is held; the prompt tells the group and offers the private-chat button.
    await service.deliver_pending(transport)
    prompt = [m for m in transport.group() if m.slot and m.slot.kind == SlotKind.TURN][-1]
    assert "Bob" in prompt.text and any(b.kind == "open_private" for row in prompt.buttons for b in row)
    assert [m.private_to.id for m in transport.private()] == ["ann"]
    # Other failures are retried with backoff.
    transport.closed_private.clear()
    flaky = {"bob"}                     # Bob's marker fails once (whatever else goes out first)
    deliver = transport.deliver

    async def once_flaky(message):
        if message.private_to is not None and message.private_to.id in flaky:
            flaky.clear()
            raise ConnectionError("flaky")
        return await deliver(message)
    transport.deliver = once_flaky
    reply = await service.private_started(bob)
    assert reply.ok and "1" in reply.text
    await service.deliver_pending(transport)
    assert [m.private_to.id for m in transport.private()] == ["ann"]
    clock.advance(5)
    await service.deliver_pending(transport)
    assert sorted(m.private_to.id for m in transport.private()) == ["ann", "bob"]
    prompt = [m for m in transport.group() if m.slot and m.slot.kind == SlotKind.TURN][-1]
    assert not any(b.kind == "open_private" for row in prompt.buttons for b in row)
    rows = await service.storage.outbox_rows()
    assert all(r.state == "sent" for r in rows)


async def test_edit_of_a_deleted_message_posts_anew(service, transport):
    ann, bob = user("Ann"), user("Bob")
    users = {"ann": ann, "bob": bob}
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 3})
    await service.deliver_pending(transport)
    transport.messages.clear()                                      # someone deleted every message
    await play_turn(service, c, users)
    await service.deliver_pending(transport)
    await service.deliver_pending(transport)
    last = transport.sent[-1]
    assert last.edit_message_id is None and last.slot.kind == SlotKind.TURN
    assert all(r.state == "sent" for r in await service.storage.outbox_rows())


async def test_delivery_is_idempotent_per_outbox_id(service, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 3})
    first = await service.deliver_pending(transport)
    assert first > 0 and await service.deliver_pending(transport) == 0
    assert len({m.id for m in transport.sent}) == len(transport.sent)


async def test_migrations_upgrade_an_old_database(db_path, clock):
    storage = SqliteStorage(db_path)
    Path(db_path).touch()
    await storage.open_existing()               # an empty file, opened without migrating
    await storage.migrate(target=1)
    await storage.db.execute(
        "INSERT INTO games (id, platform, chat_id, chat_title, status, host_id, options, seed, seats, "
        "moves, created, updated) VALUES (7, 'fake', 'chat1', '', 'lobby', 'ann', ?, 5, ?, 0, 0, 0)",
        (json.dumps({"final_tours": "markers", "reminder_minutes": 0, "deadline_minutes": 0,
                     "language": "en"}),
         json.dumps([{"name": "Ann", "platform": "fake", "user_id": "ann", "is_ai": False,
                      "ai_reason": None, "language": None}])))
    await storage.close()
    service = await GameService.open(db_path, clock=clock)
    try:
        assert await service.storage.schema_version() == SCHEMA_VERSION == 8
        info = await service.game_info(chat())
        assert info.game_id == 7 and info.seats[0].name == "Ann"
        assert (await service.join(chat(), user("Bob"))).ok
        assert (await service.start(chat(), user("Ann"))).ok
    finally:
        await service.close()


async def test_edit_merged_while_delivering_is_not_lost(service, transport):
    """A move committed after the prompt row was first read but before delivery claimed it:
    the edit merged into the row is what goes out (the claim reads and marks it at once)."""
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 3})
    stale = [r for r in await service.storage.unsent(transport.platform) if r.slot and r.slot.endswith(":turn")]
    assert stale and stale[0].mode == "new"
    await play_turn(service, c, {"ann": ann, "bob": bob})          # its edit merges into the pending row
    await service.deliver_pending(transport)
    [sent] = [m for m in transport.sent if m.id == stale[0].id]
    info = await service.game_info(c)
    assert info.seats[info.to_move].name in sent.text.splitlines()[-1]
    assert sent.text != stale[0].body.text


async def test_group_commit_isolates_a_failing_change(db_path):
    from bot.service.game.model import Changes, GameMeta

    storage = SqliteStorage(db_path)
    await storage.open()
    try:
        def lobby(gid, chat_id):
            return GameMeta(id=gid, platform="fake", chat_id=chat_id, chat_title="", status="lobby",
                            host_id="ann", options={}, seed=1)
        results = await asyncio.gather(
            storage.commit(Changes(meta=lobby(1, "a")), 0.0),
            storage.commit(Changes(meta=lobby(2, "a")), 0.0),     # a second lobby in chat a: refused
            storage.commit(Changes(meta=lobby(3, "b")), 0.0),
            return_exceptions=True)
        assert results[0] == [] and results[2] == []
        assert isinstance(results[1], Conflict)
        assert await storage.active_game_id("fake", "a") == 1
        assert await storage.active_game_id("fake", "b") == 3
        assert await storage.load_game(2) is None
    finally:
        await storage.close()


async def test_delivered_messages_are_pruned_after_a_week(service, clock, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 3, "reminder_minutes": 0, "deadline_minutes": 0})
    await service.deliver_pending(transport)
    sent = len(await service.storage.outbox_rows())
    await play_turn(service, c, {"ann": ann, "bob": bob})        # one more message, not delivered yet
    assert await service.storage.prune_outbox(clock.now() - 7 * 86400) == 0
    clock.advance(minutes=8 * 1440)
    assert await service.storage.prune_outbox(clock.now() - 7 * 86400) == sent
    rows = await service.storage.outbox_rows()
    assert len(rows) == 1 and rows[0].state == "pending"           # undelivered messages are kept


async def test_a_player_takes_their_seat_back_from_the_ai(service, transport):
    ann, bob, eve = user("Ann"), user("Bob"), user("Eve")
    c = chat()
    gid = await start_game(service, c, [ann, bob], options={"seed": 9})
    assert (await service.leave(c, bob)).ok
    await play_turn(service, c, {"ann": ann})
    before = await snapshot(service)
    refused = await service.join(c, eve)                               # never sat here: no seat to take
    assert not refused.ok and refused.text == t("en", "bot.err.not_lobby")
    assert await snapshot(service) == before
    back = await service.join(c, bob)
    assert back.ok and back.text == t("en", "bot.reply.seat_back", name="Bob")
    info = await service.game_info(game_id=gid)
    assert info.seats[1].is_ai is False
    await service.deliver_pending(transport)
    assert any(t("en", "bot.msg.seat_back", player="Bob") in m.text for m in transport.group())
    # From now on the game waits for Bob's own moves again.
    users = {"ann": ann, "bob": bob}
    movers = set()
    for _ in range(4):
        info = await service.game_info(c)
        movers.add(info.seats[info.to_move].user_id)
        await play_turn(service, c, users)
    assert movers == {"ann", "bob"}
