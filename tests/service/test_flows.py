"""Adapter-facing flows: the delivery loop, deep-link joins, the marker button, stats of taken-over seats."""

from __future__ import annotations

import asyncio

from service_helpers import FakeTransport, chat, play_to_end, start_game, user

from bot.contract import RetryLater
from bot.service import GameService
from i18n import t


async def test_run_delivery_sends_soon_after_each_commit(db_path):
    service = await GameService.open(db_path)          # the real clock: this loop really waits
    transport = FakeTransport()
    task = asyncio.create_task(service.run_delivery(transport, max_sleep=5))
    try:
        ann, bob = user("Ann"), user("Bob")
        c = chat()
        await start_game(service, c, [ann, bob], options={"seed": 1})
        for _ in range(100):
            if len(transport.sent) >= 4:                # lobby/start, 2 markers, the first prompt
                break
            await asyncio.sleep(0.02)
        assert len(transport.sent) >= 4
        # A temporary failure is retried by the loop on its own (the first game's start map
        # may still be on its way: count only the second chat's messages).
        transport.failures = [RetryLater(0.1)]
        await service.join(chat(2), ann)                # refused: no message
        await service.new_game(chat(2), ann)
        second = []
        for _ in range(100):
            second = [m for m in transport.sent if m.chat == chat(2)]
            if second:
                break
            await asyncio.sleep(0.02)
        assert len(second) == 1 and not transport.failures
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await service.close()


async def test_deep_link_join_and_marker_button(service, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await service.new_game(c, ann, options={"seed": 5})
    await service.deliver_pending(transport)
    lobby = transport.sent[-1]
    join = next(b for row in lobby.buttons for b in row if b.kind == "join")
    reply = await service.private_started(bob, join.payload)     # Telegram: /start <payload>
    assert reply.ok and reply.text.startswith(t("en", "bot.reply.joined"))
    assert not (await service.private_started(bob, join.payload)).ok   # already in
    assert not (await service.private_started(bob, join.payload[:-1] + "0")).ok
    assert (await service.start(c, ann)).ok
    await service.deliver_pending(transport)
    prompt = transport.group()[-1]
    marker = next(b for row in prompt.buttons for b in row if b.kind == "secret")
    game = (await service.game_info(c)).game_id
    record = await service.record(game)
    for u in (ann, bob):
        reply = await service.press(c, u, marker.payload)
        colour = record["markers"][u.name]
        assert reply.ok and t("en", "pp.colour." + colour) in reply.text
    reply = await service.press(c, user("Eve"), marker.payload)
    assert not reply.ok


async def test_a_seat_taken_over_never_wins_for_its_player(service):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    gid = await start_game(service, c, [ann, bob], options={"seed": 12})
    assert (await service.leave(c, bob)).ok
    await play_to_end(service, c, {"ann": ann})
    results = await service.storage.chat_results(c.platform, c.id)
    bob_row = next(r for r in results if r.user_id == "bob")
    assert not bob_row.won and bob_row.game_id == gid
    history = await service.stats(c, bob)
    assert history.extra.games == 1 and history.extra.wins == 0


async def test_a_failing_ai_never_stalls_a_game(db_path, clock):
    calls = []

    def broken_ai(match, seat, *, seed, level):
        calls.append(seed)
        raise RuntimeError("the AI fell over")

    service = await GameService.open(db_path, clock=clock, ai=broken_ai)
    try:
        host = user("Host")
        c = chat()
        await service.new_game(c, host, options={"join": False, "seed": 5})
        for _ in range(3):
            await service.add_ai(c, host)
        assert (await service.start(c, host)).ok
        assert len(calls) == 45 and await service.game_info(c) is None   # finished regardless
    finally:
        await service.close()


async def test_choice_buttons_carry_the_key_their_game_shows(service):
    """A menu item's key (Paris Paris: the offer number the map shows) reaches the adapters on
    the button, so the terminal numbers choices by it instead of reading labels."""
    from bot.terminal.choices import numbering

    c, ann, bob = chat(7), user("Ann"), user("Bob")
    await start_game(service, c, [ann, bob], options={"seed": 3})
    info = await service.game_info(c)
    mover = {"ann": ann, "bob": bob}[info.seats[info.to_move].user_id]
    buttons = [b for row in (await service.board(c, mover)).buttons for b in row if b.payload.startswith("c_")]
    keys = [b.key for b in buttons]
    assert buttons and all(k is not None for k in keys)
    assert all(f" {b.key} · " in f" {b.label}" for b in buttons)          # the number its label shows
    assert numbering(keys) == keys
