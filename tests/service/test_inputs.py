"""Bad input of every kind: a clear refusal and nothing changed."""

from __future__ import annotations

import asyncio

import pytest
from service_helpers import chat, play_turn, snapshot, start_game, user

from bot.service.tokens.payloads import MAX_BYTES
from i18n import number_list, t


async def _current_buttons(service, c, users):
    info = await service.game_info(c)
    mover = users[info.seats[info.to_move].user_id]
    board = await service.board(c, mover)
    return info, mover, [row[0] for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]


async def _two_player_game(service):
    """Ann and Bob's game (seed 4) in chat 1, and the tile buttons of whoever is to move."""
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 4})
    info, mover, tiles = await _current_buttons(service, c, {"ann": ann, "bob": bob})
    return c, ann, bob, info, mover, tiles


async def test_stale_and_duplicate_presses_change_nothing(service):
    c, ann, bob, info, mover, tiles = await _two_player_game(service)
    reply = await service.press(c, mover, tiles[0].payload)
    assert reply.ok
    before = await snapshot(service)
    again = await service.press(c, mover, tiles[0].payload)          # the same press delivered twice
    assert not again.ok and again.alert and again.text == t("en", "bot.err.duplicate")
    other = await service.press(c, mover, tiles[1].payload)          # an old button, other tile
    assert not other.ok and other.alert and other.text == t("en", "bot.err.stale")
    assert await snapshot(service) == before


async def test_simultaneous_presses_apply_once(service):
    c, ann, bob, info, mover, tiles = await _two_player_game(service)
    replies = await asyncio.gather(*(service.press(c, mover, tiles[0].payload) for _ in range(5)))
    assert sum(r.ok for r in replies) == 1
    assert (await service.game_info(c)).moves == info.moves + 1


async def test_foreign_and_outsider_presses(service):
    c, ann, bob, info, mover, tiles = await _two_player_game(service)
    eve = user("Eve")
    waiting = bob if mover is ann else ann
    before = await snapshot(service)
    reply = await service.press(c, waiting, tiles[0].payload)
    assert not reply.ok and reply.alert and mover.name in reply.text
    reply = await service.press(c, eve, tiles[0].payload)
    assert not reply.ok and reply.text == t("en", "bot.err.not_in_game")
    reply = await service.press(chat(2), mover, tiles[0].payload)    # pressed in another chat
    assert not reply.ok and reply.text == t("en", "bot.err.foreign_chat")
    assert await snapshot(service) == before


async def test_forged_payloads(service):
    c, ann, bob, info, mover, tiles = await _two_player_game(service)
    good = tiles[0].payload
    kind, gid, seat, move, since, code, sig = good.split("_")
    other_code = format((int(code, 36) + 5) % 125, "x")
    other_seat = str(1 - int(seat))
    forged = [
        "", "hello", "t", "t_1_0_0", f"{kind}_{gid}_{seat}_{move}_{since}_{code}_{'0' * 16}",
        f"{kind}_{gid}_{seat}_{move}_{since}_{other_code}_{sig}",         # another tile, old signature
        f"{kind}_{gid}_{other_seat}_{move}_{since}_{code}_{sig}",         # another seat, old signature
        f"{kind}_{gid}_{move}_{code}_{'0' * 16}",                          # the old form, unsigned
        f"e_{gid}_{move}_{code}_1_{sig}",                                # made-up eviction
        good + "x", good.upper(), "x" * 500, "t_" + "9" * 60,
        f"s_f_a_{sig}",                                                  # a settings press, unsigned
    ]
    before = await snapshot(service)
    for payload in forged:
        reply = await service.press(c, mover, payload)
        assert not reply.ok and reply.alert, payload
        assert reply.text == t("en", "bot.err.forged"), (payload, reply.text)
    assert await snapshot(service) == before


async def test_unknown_game_and_no_game(service):
    ann = user("Ann")
    c = chat()
    payload = service.codec.encode("c", 999, 0, 0, 0, 3)      # correctly signed, but no such game
    reply = await service.press(c, ann, payload)
    assert not reply.ok and reply.text == t("en", "bot.err.unknown_game")
    for call in (service.join, service.leave, service.start, service.abort, service.add_ai, service.board):
        reply = await call(c, ann)
        assert not reply.ok and reply.text == t("en", "bot.err.no_game"), call
    reply = await service.move(c, ann, "1")
    assert not reply.ok and reply.text == t("en", "bot.err.no_game")
    assert not (await service.secret(ann)).ok


async def test_typed_moves_are_validated(service):
    c, ann, bob, info, mover, tiles = await _two_player_game(service)
    waiting = bob if mover is ann else ann
    before = await snapshot(service)
    for text in ("", "9", "0", "xyz", "nowhere/green", "louvre/pink", "1!zed"):
        reply = await service.move(c, mover, text)
        assert not reply.ok and reply.alert and reply.text, text
    reply = await service.move(c, waiting, "1")
    assert not reply.ok and mover.name in reply.text
    # A tile that exists but is not on offer: the engine's reason, in words.
    offer = {b.payload.split("_")[3] for b in tiles}
    absent = next(s for s in ("louvre/blue", "opera/red", "bastille/blue", "odeon/yellow")
                  if format(_code(s), "x") not in offer)
    reply = await service.move(c, mover, absent)
    assert not reply.ok
    assert await snapshot(service) == before
    assert (await service.move(c, mover, "1")).ok


def _code(text):
    from engine.paris_paris import Tile

    return Tile.parse(text).code


async def test_lobby_rules(service):
    ann, bob, cat, dan, eve = (user(n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve"))
    c = chat()
    assert (await service.new_game(c, ann)).ok
    reply = await service.new_game(c, bob)
    assert not reply.ok and reply.text == t("en", "bot.err.game_exists")
    reply = await service.start(c, ann)
    assert not reply.ok and "1" in reply.text                          # too few seats
    assert not (await service.join(c, ann)).ok                          # already in
    for u in (bob, cat, dan):
        assert (await service.join(c, u)).ok
    reply = await service.join(c, eve)
    assert not reply.ok and reply.text == t("en", "bot.err.full")
    assert not (await service.add_ai(c, ann)).ok
    reply = await service.start(c, bob)
    assert not reply.ok and "Ann" in reply.text                         # only the host
    assert (await service.leave(c, ann)).ok                             # the host leaves: Bob hosts
    assert (await service.game_info(c)).host_id == "bob"
    assert (await service.start(c, bob)).ok
    assert not (await service.join(c, eve)).ok                          # started


async def test_abort_needs_host_or_admin(service):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 1})
    before = await snapshot(service)
    reply = await service.abort(c, bob)
    assert not reply.ok and await snapshot(service) == before
    admin = user("Zed", is_admin=True)
    assert (await service.abort(c, admin)).ok
    assert await service.game_info(c) is None
    assert (await service.storage.timers_of(1)) == []
    assert (await service.new_game(c, bob)).ok                          # the chat is free again


async def test_settings(service):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    reply = await service.settings(c, ann, {"language": "de", "reminder_minutes": 30})
    assert reply.ok and reply.text.startswith(t("de", "bot.reply.settings_saved"))
    assert not (await service.settings(c, ann, {"colour": "pink"})).ok
    assert not (await service.settings(c, ann, {"deadline_minutes": -5})).ok
    assert (await service.new_game(c, ann)).ok
    info = await service.game_info(c)
    assert info.options["language"] == "de" and info.options["reminder_minutes"] == 30
    # A settings button press, bound to this chat.
    bind = f"{c.platform}:{c.id}"
    press = next(b for row in reply.buttons for b in row if b.payload.startswith("s_")
                 and service.chat_settings.change_of(service.codec.decode(b.payload, bind=bind))
                 == {"final_tours": "all_lines"})
    assert (await service.press(c, bob, press.payload)).ok is False     # Bob is not the host
    assert (await service.press(c, ann, press.payload)).ok
    assert (await service.game_info(c)).options["final_tours"] == "all_lines"
    assert not (await service.press(chat(2), ann, press.payload)).ok    # the button of another chat
    assert (await service.join(c, bob)).ok
    assert (await service.start(c, ann)).ok
    reply = await service.settings(c, ann, {"final_tours": "markers"})
    assert not reply.ok and reply.text == t("de", "bot.err.option_locked", option=t("de", "pp.option.final_tours"))


async def test_every_payload_fits_telegram(service):
    users = {u.id: u for u in map(user, ["Ann", "Bob", "Cat", "Dan"])}
    c = chat()
    await start_game(service, c, list(users.values()), options={"seed": 2})
    for _ in range(12):
        await play_turn(service, c, users)
    for row in await service.storage.outbox_rows():
        for buttons in row.body.buttons:
            for b in buttons:
                assert len(b.payload.encode()) <= MAX_BYTES
                assert b.payload.replace("_", "").isalnum()


async def test_old_lobby_buttons_do_not_act_on_a_newer_game(service, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await service.new_game(c, ann)
    await service.deliver_pending(transport)
    old_join = next(b for row in transport.sent[-1].buttons for b in row if b.kind == "join")
    assert (await service.abort(c, ann)).ok
    assert (await service.new_game(c, ann)).ok
    reply = await service.press(c, bob, old_join.payload)
    assert not reply.ok and reply.alert
    assert not (await service.private_started(bob, old_join.payload)).ok
    assert [s.user_id for s in (await service.game_info(c)).seats] == ["ann"]
    assert not (await service.new_game(chat(3), ann, options={"seed": "x"})).ok


@pytest.mark.parametrize(("lang", "said"), [("en", "not on offer now"), ("de", "gerade nicht im Angebot"),
                                            ("it", "adesso non è in offerta"), ("fr", "pas dans l'offre")])
async def test_a_station_not_on_offer_is_answered_as_such(service, lang, said):
    """``louvre`` when the Louvre is not on offer: that it is not on offer now, and what is."""
    c, ann, bob, info, mover, tiles = await _two_player_game(service)
    await service.settings(c, ann, {"language": lang})
    labels = [b.label for b in tiles]
    name = next(n for n in ("Louvre", "Opéra", "Bastille", "Montmartre", "Odéon")
                if not any(n in label for label in labels))
    before = await snapshot(service)
    typed = name.lower().replace("é", "e")[:5]           # as one types it: lower case, no accent, short
    reply = await service.move(c, mover, typed)
    assert not reply.ok and reply.text.startswith(f"{name}: " if lang != "fr" else f"{name} : ")
    assert said in reply.text
    for label in labels:                                  # what can be taken instead, with its number
        assert label in reply.text
    assert t(lang, "bot.err.bad_move", text=typed) != reply.text
    assert await snapshot(service) == before
    # The number that is not on offer names the numbers that are.
    reply = await service.move(c, mover, "9")
    numbers = sorted(int(label.split("·")[0].split()[-1]) for label in labels)
    assert not reply.ok and reply.text == t(lang, "bot.err.bad_choice", numbers=number_list(numbers))
    assert number_list(numbers) in reply.text


async def test_the_start_says_only_the_timers_in_use(service, transport):
    """A game with reminders says so when it starts; one without them says nothing about them."""
    for n, options, said in ((1, None, True), (2, {"reminder_minutes": 0, "deadline_minutes": 0}, False)):
        c = chat(n)
        await start_game(service, c, [user("Ann")], ais=1, options=options)
        await service.deliver_pending(transport)
        started = next(m.text for m in transport.group() if m.chat == c and "🚌" in m.text)
        assert (t("en", "bot.options.reminder", value="4 hours") in started) is said, started
        assert "no reminder" not in started and "no time limit" not in started


async def test_a_hex_typed_that_is_no_choice_now_is_refused_with_the_engine_reason(service, monkeypatch):
    """Paris Connection: a hex id or a city's name typed in a chat means placing there; when
    that is not legal now the refusal says why (no build under way, not next to the line),
    not that the words are unknown; a legal one typed while another page of hexes is open is placed."""
    monkeypatch.setattr("renderers.paris_connection.presenter.MAX_HEXES", 2)     # pages of two hexes
    users = {name.lower(): user(name) for name in ("Ann", "Bob", "Cat")}
    c = chat()
    await start_game(service, c, list(users.values()), options={"game": "paris-connection", "seed": 5})
    info = await service.game_info(c)
    mover = users[info.seats[info.to_move].user_id]
    before = await snapshot(service)
    for typed in ("P22", "marseille"):
        reply = await service.move(c, mover, typed)
        assert not reply.ok and reply.text == t("en", "pc.err.no_build_under_way"), (typed, reply.text)
    assert await snapshot(service) == before
    assert (await service.move(c, mover, "build:red")).ok
    reply = await service.move(c, mover, "Marseille")
    assert not reply.ok and reply.text.startswith("P22 Marseille is not next to"), reply.text
    pages = [b for row in (await service.board(c, mover, private=True)).buttons for b in row if "Around" in b.label]
    assert len(pages) >= 2
    opened = await service.press(c, mover, pages[0].payload)
    on_first = {b.label for row in opened.buttons for b in row}
    other = await service.press(c, mover, pages[1].payload)
    hexes = [b.label.split()[0] for row in other.buttons for b in row if b.label[:1].isalpha()
             and b.label.split()[0][1:].isdigit() and b.label not in on_first]
    await service.press(c, mover, pages[0].payload)         # back on the first page, a hex of the second typed
    reply = await service.move(c, mover, hexes[0].lower())
    assert reply.ok and hexes[0] in reply.text, reply.text


def test_a_payload_naming_a_game_is_signed_once_and_still_checked():
    """A game's board, secret and choices buttons are signed once (``PayloadCodec`` keeps them): the
    same text each time, what a fresh signature gives, read back by this codec only."""
    import hmac

    from bot.service.tokens.payloads import ForgedPayload, PayloadCodec

    codec, other = PayloadCodec(b"k" * 32), PayloadCodec(b"j" * 32)
    for kind in ("w", "m", "h"):
        first = codec.encode(kind, 7)
        assert codec.encode(kind, 7) == first and codec.encode(kind, 8) != first
        body = first.rsplit("_", 1)[0]
        assert first == f"{body}_{hmac.new(b'k' * 32, f'|{body}'.encode(), 'sha256').hexdigest()[:16]}"
        assert codec.decode(first).int(0) == 7
        assert other.encode(kind, 7) != first
        with pytest.raises(ForgedPayload):
            other.decode(first)
