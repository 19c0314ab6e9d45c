"""Several seats acting at once, and menus that depend on a seat's secrets, through the service
(issue 17): buttons bound to their seat and its own steps, another person's press refused
privately, stale and duplicate presses per seat, a phase's deadline not pushed back by steps,
every acting seat reported, the Trade menus of Paris Connection only in private, and public
pictures drawn from public events only."""

from __future__ import annotations

from service_helpers import chat, snapshot, start_game, user
from twin_streams import turn_buttons

from bot.contract import SlotKind
from bot.games import kind
from bot.service.game.outmessage import RenderRequest
from i18n import t

TRADE = t("en", "pc.btn.trade")
NAMES = ("Ann", "Bob", "Cy")


def newest_private_menu(transport, u) -> list:
    """The turn buttons of the newest private message to ``u`` that offers any."""
    for message in reversed(transport.sent):
        if message.private_to is not None and message.private_to.id == u.id and turn_buttons(message.buttons):
            return turn_buttons(message.buttons)
    return []


def labelled(buttons, start: str):
    return next(b for b in buttons if b.label.startswith(start))


async def tiny_table(service, transport):
    users = [user(n) for n in NAMES]
    c = chat(1)
    game_id = await start_game(service, c, users, options={"game": "tiny-hands", "seed": 5,
                                                           "reminder_minutes": 60, "deadline_minutes": 180})
    await service.deliver_pending(transport)
    return c, users, game_id


async def test_buttons_are_bound_to_their_seat_and_its_own_steps(service, transport, tiny_game):
    c, (ann, bob, cy), game_id = await tiny_table(service, transport)
    ann_menu, bob_menu = newest_private_menu(transport, ann), newest_private_menu(transport, bob)
    assert ann_menu and bob_menu
    for seat, menu in ((0, ann_menu), (1, bob_menu)):
        for b in menu:
            fields = service.codec.decode(b.payload).fields
            assert int(fields[1], 36) == seat and int(fields[2], 36) == 0    # the seat, and its steps so far
            assert len(b.payload.encode()) <= 64                           # Telegram's callback_data limit

    # Ann opens her card submenu and plays a card: one step of hers.
    opened = await service.press(c, ann, labelled(ann_menu, "🂠 Play").payload)
    assert opened.ok and opened.buttons
    card = labelled([b for row in opened.buttons for b in row], "🂠 ")
    assert (await service.press(c, ann, card.payload)).ok

    # Bob's buttons, issued before Ann's step, still work: her steps are not his.
    assert (await service.press(c, bob, labelled(bob_menu, "🂠 Play").payload)).ok

    await service.deliver_pending(transport)
    before = await snapshot(service)
    # The same card button again, by Ann: her press arriving twice.
    again = await service.press(c, ann, card.payload)
    assert not again.ok and again.text == t("en", "bot.err.duplicate")
    # Ann's menu from before her step: stale, for her.
    stale = await service.press(c, ann, labelled(ann_menu, "🂠 Play").payload)
    assert not stale.ok and stale.text == t("en", "bot.err.stale")
    # Bob presses a button of Ann's that is still good: refused to him alone, nothing changes.
    await service.deliver_pending(transport)
    foreign = await service.press(c, bob, newest_private_menu(transport, ann)[0].payload)
    assert not foreign.ok and foreign.alert
    assert foreign.text == t("en", "bot.err.not_your_buttons", player="Ann")
    assert await snapshot(service) == before

    info = await service.game_info(game_id=game_id)
    assert info.to_act == (0, 1, 2)                                  # Ann's decision is under way


async def test_every_acting_seat_is_reported_and_choices_come_privately(service, transport, tiny_game):
    c, (ann, bob, cy), game_id = await tiny_table(service, transport)
    info = await service.game_info(c)
    assert info.to_act == (0, 1, 2) and info.to_move == 0
    board = await service.board(c, bob)
    assert board.extra.to_act == (0, 1, 2)
    assert t("en", "bot.msg.waiting", players="Ann, Bob, Cy") in board.text
    # In a group the board's answer may be read by all: it carries only "my choices".
    assert [b.payload.split("_")[0] for row in board.buttons for b in row] == ["h"]
    own = await service.board(c, bob, private=True)
    assert own.buttons and all(service.codec.decode(b.payload).fields[1] == "1"
                               for row in own.buttons for b in row)
    # "My choices" brings the seat's own menu (a reply only Bob sees, and his private chat).
    sent = len(transport.sent)
    mine = await service.press(c, bob, board.buttons[0][0].payload)
    assert mine.ok and mine.buttons
    await service.deliver_pending(transport)
    fresh = transport.sent[sent:]
    assert [m.private_to.id for m in fresh] == ["bob", "bob"] and turn_buttons(fresh[-1].buttons)
    assert fresh[0].edit_message_id is not None and not fresh[0].buttons     # the older one loses its buttons
    assert fresh[-1].edit_message_id is None                                  # the menu comes anew
    # The group's turn message names who is still to choose, with no choice buttons.
    prompt = [m for m in transport.group() if m.slot and m.slot.kind == SlotKind.TURN][-1]
    assert t("en", "bot.msg.waiting", players="Ann, Bob, Cy") in prompt.text
    assert {b.payload.split("_")[0] for row in prompt.buttons for b in row} <= {"h", "m"}
    # Someone outside the game gets no menu.
    assert not (await service.press(c, user("Eve"), board.buttons[0][0].payload)).ok


async def test_a_phase_deadline_is_not_pushed_back_by_any_step(service, transport, clock, tiny_game):
    c, (ann, bob, cy), game_id = await tiny_table(service, transport)
    timers = {t_.kind: (t_.due, t_.move) for t_ in await service.storage.timers_of(game_id)}
    assert set(timers) == {"reminder", "deadline"}
    clock.advance(minutes=20)
    opened = await service.press(c, ann, labelled(newest_private_menu(transport, ann), "🂠 Play").payload)
    card = labelled([b for row in opened.buttons for b in row], "🂠 ")
    assert (await service.press(c, ann, card.payload)).ok
    clock.advance(minutes=20)
    await service.deliver_pending(transport)
    opened = await service.press(c, bob, labelled(newest_private_menu(transport, bob), "🂠 Play").payload)
    assert (await service.press(c, bob, labelled([b for row in opened.buttons for b in row], "🂠 ").payload)).ok
    after = {t_.kind: (t_.due, t_.move) for t_ in await service.storage.timers_of(game_id)}
    assert after == timers


async def test_secret_buttons_and_waiting_lines_follow_the_declarations(service, transport, tiny_game,
                                                                        monkeypatch):
    """A game that declares no secrets gets no "my secret" button; a sequential game no waiting line."""
    monkeypatch.setattr(tiny_game, "information", "perfect")
    c, users, game_id = await tiny_table(service, transport)
    prompt = [m for m in transport.group() if m.slot and m.slot.kind == SlotKind.TURN][-1]
    assert "m" not in {b.payload.split("_")[0] for row in prompt.buttons for b in row}
    assert t("en", "bot.msg.waiting", players="Ann, Bob, Cy") in prompt.text

    c2 = chat(2)
    await start_game(service, c2, [user("Dee"), user("Eli")], options={"game": "paris-paris", "seed": 3})
    await service.deliver_pending(transport)
    pp = [m for m in transport.group() if m.chat.id == c2.id and m.slot and m.slot.kind == SlotKind.TURN][-1]
    assert "m" in {b.payload.split("_")[0] for row in pp.buttons for b in row}        # markers are secret
    assert t("en", "bot.msg.waiting", players="")[:3] not in pp.text


async def test_paris_connection_trade_menus_never_reach_the_group(service, transport):
    """Which colours a player may return tells what they hold: the Trade submenus open only in
    their private chat; the group reads that they are choosing in private, nothing more."""
    users = {n.lower(): user(n) for n in NAMES}
    c = chat(1)
    await start_game(service, c, list(users.values()), options={"game": "paris-connection", "seed": 0})
    await service.deliver_pending(transport)
    info = await service.game_info(c)
    mover = users[info.seats[info.to_move].user_id]
    group_before = len(transport.group())
    prompt = [m for m in transport.group() if m.slot and m.slot.kind == SlotKind.TURN][-1]
    trade = labelled([b for row in prompt.buttons for b in row], "🔁")
    assert trade.label.endswith(TRADE.split(" ", 1)[-1])

    answer = await service.press(c, mover, trade.payload)
    assert answer.ok and answer.text.startswith(t("en", "bot.reply.choices_private"))
    gives = [b for row in answer.buttons for b in row if b.payload.startswith("o_")]
    assert gives                                                   # the colours held, for the mover only
    await service.deliver_pending(transport)
    private = [m for m in transport.private() if m.private_to.id == mover.id and m.slot]
    assert private and {b.label for row in private[-1].buttons for b in row} >= {b.label for b in gives}
    # Deeper, from the private chat (no chat): still private, edited in place.
    takes = await service.press(None, mover, gives[0].payload)
    assert takes.ok and takes.buttons
    back = next(b for row in takes.buttons for b in row if b.payload.startswith("b_"))
    assert (await service.press(None, mover, back.payload)).ok
    await service.deliver_pending(transport)
    edits = [m for m in transport.private() if m.private_to.id == mover.id and m.slot == private[-1].slot]
    # (pending edits of one message are sent as one, its latest)
    assert len(edits) >= 2 and all(m.edit_message_id is not None for m in edits[1:])
    assert any(b.label == trade.label for row in edits[-1].buttons for b in row)      # back at the top

    group = transport.group()[group_before:]
    assert group, "the group was told the player is choosing in private"
    assert t("en", "bot.msg.choosing_privately", player=mover.name, what=trade.label) in group[-1].text
    for message in group:
        labels = {b.label for row in message.buttons for b in row}
        assert not labels & {b.label for b in gives}
        assert t("en", "pc.ask.give") not in message.text


async def test_public_pictures_get_only_public_events(service, transport, monkeypatch):
    """Paris Paris deals every player a secret marker as the first events of round 1: its first
    map gets the round's public events alone, and the public view."""
    c = chat(1)
    game_id = await start_game(service, c, [user("Ann"), user("Bob")], options={"seed": 4})
    presenter = kind("paris-paris").presenter
    got = []

    def recorder(what, view, events, language, *, layout="landscape"):
        got.append((view, list(events)))
        return b"png"

    monkeypatch.setattr(presenter, "render", recorder)
    assert (await service.pictures.render(RenderRequest("map", game_id, 0, 1),
                                          "en", "fake")).image == b"png"
    loaded = await service.store.load(game_id)
    log = loaded.match.log[loaded.match.rhythm.cycle_start(1):]
    assert any(not e.visible_to(None) for e in log)                # the round did begin with secrets
    (view, events), = got
    assert events and all(e.visible_to(None) for e in events)
    assert len(events) == sum(1 for e in log if e.visible_to(None))
    assert view == loaded.match.view(None)


async def test_a_turn_button_of_the_old_form_is_stale_not_forged(service, transport):
    c = chat(1)
    game_id = await start_game(service, c, [user("Ann"), user("Bob")], options={"seed": 4})
    body = f"c_{game_id}_0_0"                     # gid move index, as issued before seats were named
    old = f"{body}_{service.codec._sig(body, '')}"
    reply = await service.press(c, user("Ann"), old)
    assert not reply.ok and reply.text == t("en", "bot.err.stale")
    forged = await service.press(c, user("Ann"), f"{body}_{'0' * 16}")
    assert not forged.ok and forged.text == t("en", "bot.err.forged")


async def test_two_turns_in_a_row_are_two_phases(service, transport, clock):
    """In a two-player Paris Paris the bus can give one player two turns in a row: the second
    turn's deadline runs from its own start, and the first turn's buttons are stale."""
    from bot.games import kind as kind_of

    c = chat(1)
    ann, bob = user("Ann"), user("Bob")
    game_id = await start_game(service, c, [ann, bob], options={"seed": 4, "deadline_minutes": 60})
    users = {"ann": ann, "bob": bob}
    definition = kind_of("paris-paris").definition
    for _ in range(12):
        info = await service.game_info(game_id=game_id)
        seat = info.to_act[0]
        board = await service.board(c, users[info.seats[seat].user_id])
        loaded = await service.store.load(game_id)
        choice = definition.choose(loaded.match, seat, seed=1, level="easy")
        clock.advance(minutes=5)
        assert (await service.move(c, users[info.seats[seat].user_id], str(choice))).ok
        after = await service.game_info(game_id=game_id)
        if after.to_act == (seat,):                                   # the same player again
            (deadline,) = [t_ for t_ in await service.storage.timers_of(game_id) if t_.kind == "deadline"]
            assert deadline.due == clock.now() + 3600 and deadline.move == after.moves
            first = [b for row in board.buttons for b in row if b.payload.startswith("c_")][0]
            again = await service.press(c, users[info.seats[seat].user_id], first.payload)
            assert not again.ok and again.text in (t("en", "bot.err.stale"), t("en", "bot.err.duplicate"))
            return
    raise AssertionError("no player had two turns in a row")
