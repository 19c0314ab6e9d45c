"""The time bank (initial, bonus, cap, one warning, the AI at zero, each seat's own where seats act
at once) and /away (the AI plays, or the clock stops), with a manual clock, across a restart."""

from __future__ import annotations

import pytest
from service_helpers import chat, play_turn, start_game, user
from test_deadline_phases import NAMES, opening

from bot.replyextra import AwayNote
from bot.service import GameService
from bot.service.game.bank import BankRules, compact
from bot.service.refusal import Refused
from bot.service.table.away import parse_duration
from engine.registry import GAMES
from i18n import t

DAY, HOUR = 86400.0, 3600.0
BANK = {"seed": 6, "clock": "bank", "bank_initial_minutes": 3 * 1440, "bank_bonus_minutes": 1440,
        "bank_cap_minutes": 7 * 1440, "bank_warning_minutes": 720}


def users_of(*names):
    return {u.id: u for u in map(user, names)}


async def timers(service, gid):
    return {t_.kind: t_ for t_ in await service.storage.timers_of(gid)}


async def mover(service, c):
    info = await service.game_info(c)
    return info.to_move, info.seats[info.to_move]


async def play_until(service, c, people, seat):
    """Turns until ``seat`` is to move (Paris Paris goes 0, 1, 1, 0, 0, 1, ...)."""
    while (await service.game_info(c)).to_move != seat:
        await play_turn(service, c, people)


async def actors(service, gid):
    async with service.storage.db.execute("SELECT actor FROM moves WHERE game_id = ? ORDER BY n", (gid,)) as cur:
        return [r[0] for r in await cur.fetchall()]


def test_bonus_and_cap_arithmetic():
    rules = BankRules(initial=3 * DAY, bonus=DAY, cap=7 * DAY, warning=12 * HOUR)
    assert rules.after_turn(3 * DAY, 5 * HOUR) == 4 * DAY - 5 * HOUR      # used, then the bonus
    assert rules.after_turn(6.5 * DAY, HOUR) == 7 * DAY                     # never above the cap
    assert rules.after_turn(2 * HOUR, 9 * HOUR) == DAY                      # never below zero, then the bonus
    assert rules.after_turn(DAY, -HOUR) == 2 * DAY                          # a pause (since in the future) costs nothing
    assert BankRules(DAY, DAY, 0, 0).after_turn(30 * DAY, 0) == 31 * DAY    # a cap of 0: none


def test_compact_form():
    assert compact(2 * DAY + 4 * HOUR + 59, "en") == "2d 4h"
    assert compact(3 * DAY, "en") == "3d"
    assert compact(5 * HOUR + 30 * 60, "en") == "5h 30m"
    assert compact(20, "en") == "1m" and compact(0, "en") == "0m"
    assert compact(2 * DAY + 4 * HOUR, "de") == "2 T. 4 Std."


def test_away_durations():
    assert parse_duration("5d") == 5 * DAY and parse_duration("12h") == 12 * HOUR
    assert parse_duration("1d 12h") == 1.5 * DAY and parse_duration("90m") == 5400 and parse_duration("2") == 2 * DAY
    assert parse_duration("off") is None
    for bad in ("soon", "5x", "-3d", "d"):
        with pytest.raises(Refused):
            parse_duration(bad)
    with pytest.raises(Refused):
        parse_duration("61d")


async def test_a_bank_runs_down_while_its_seat_acts_and_earns_the_bonus_up_to_the_cap(service, clock, transport):
    people = users_of("Ann", "Bob")
    c = chat()
    gid = await start_game(service, c, list(people.values()), options=BANK)
    seat, who = await mover(service, c)
    armed = await timers(service, gid)
    assert set(armed) == {f"bank:{seat}", f"warn:{seat}"}                 # no reminder, no deadline
    assert armed[f"bank:{seat}"].due == clock.now() + 3 * DAY
    assert armed[f"warn:{seat}"].due == clock.now() + 3 * DAY - 12 * HOUR
    await service.deliver_pending(transport)
    left = t("en", "bot.bank.left", player=who.name, left="3d")
    assert t("en", "bot.bank.line", seats=left) in transport.group()[-1].text.splitlines()
    clock.advance(5 * HOUR)
    await play_turn(service, c, people)
    loaded = await service.store.load(gid)
    banks = loaded.meta.turn.banks
    assert banks[seat].left == 4 * DAY - 5 * HOUR and banks[seat].since is None
    other, _ = await mover(service, c)
    assert (await timers(service, gid))[f"bank:{other}"].due == clock.now() + 3 * DAY
    for _ in range(8):                                                    # quick turns: the cap
        await play_turn(service, c, people)
    banks = (await service.store.load(gid)).meta.turn.banks
    assert banks[seat].left == 7 * DAY and banks[other].left == 7 * DAY


async def test_the_warning_goes_once_then_the_ai_plays_at_zero(service, clock, transport):
    people = users_of("Ann", "Bob")
    c = chat()
    gid = await start_game(service, c, list(people.values()), options=BANK)
    seat, who = await mover(service, c)
    moves = (await service.game_info(c)).moves
    await service.deliver_pending(transport)
    clock.advance(3 * DAY - 12 * HOUR + 1)
    assert await service.fire_due_timers() == 1                           # the warning
    await service.deliver_pending(transport)
    warning = transport.sent[-1]
    assert warning.text == t("en", "bot.bank.warning", player=who.name, left="11h 59m")
    assert [u.id for u in warning.mentions] == [who.user_id]
    assert await service.fire_due_timers() == 0                           # once
    assert set(await timers(service, gid)) == {f"bank:{seat}"}
    clock.advance(12 * HOUR)
    assert await service.fire_due_timers() == 1                           # zero: the AI plays
    assert (await service.game_info(c)).moves == moves + 1
    assert await actors(service, gid) == ["deadline"]                     # not a leaver: rated still
    bank = (await service.store.load(gid)).meta.turn.banks[seat]
    assert bank.left == DAY and bank.warned is False                # the bonus lifts it above the warning
    assert await service.fire_due_timers() == 0


async def test_a_low_bank_is_warned_once_not_every_turn(service, clock):
    people = users_of("Ann", "Bob")
    c = chat()
    options = dict(BANK, bank_initial_minutes=600, bank_bonus_minutes=60, bank_warning_minutes=720)
    gid = await start_game(service, c, list(people.values()), options=options)
    seat, _ = await mover(service, c)
    assert await service.fire_due_timers() == 1                           # 10h left, under 12h: at once
    assert await service.fire_due_timers() == 0
    await play_until(service, c, people, 1 - seat)
    await play_until(service, c, people, seat)                            # its next turn: 11h left
    assert set(await timers(service, gid)) == {f"bank:{seat}"}            # no second warning


async def test_a_restart_in_the_middle_fires_the_bank_once(db_path, clock):
    people = users_of("Ann", "Bob")
    c = chat()
    first = await GameService.open(db_path, clock=clock)
    gid = await start_game(first, c, list(people.values()), options=dict(BANK, bank_warning_minutes=0))
    moves = (await first.game_info(c)).moves
    clock.advance(DAY)
    await first.close()
    clock.advance(2 * DAY + 1)
    second = await GameService.open(db_path, clock=clock)
    try:
        assert await second.fire_due_timers() == 1
        assert (await second.game_info(c)).moves == moves + 1
        assert await second.fire_due_timers() == 0
    finally:
        await second.close()
    third = await GameService.open(db_path, clock=clock)
    try:
        assert await third.fire_due_timers() == 0
        assert await actors(third, gid) == ["deadline"]
    finally:
        await third.close()


async def test_seats_acting_at_once_each_spend_their_own_bank(service, clock):
    """Papà Paolo's planning: the seats' earlier turns took different times, so their banks reach
    zero at different moments; at the first, the AI completes that seat alone."""
    definition = GAMES["papa-paolo"]
    seed, moves, acting = next((s, *got[::2]) for s in range(10) if (got := opening(definition, s)) is not None)
    people = {name: user(name) for name in NAMES}
    c = chat()
    options = dict(BANK, game="papa-paolo", seed=seed, bank_bonus_minutes=0, bank_cap_minutes=0,
                   bank_warning_minutes=0, bank_initial_minutes=14 * 1440)
    gid = await start_game(service, c, list(people.values()), options=options)
    for seat, text in moves:
        clock.advance((seat + 1) * 3 * HOUR)                              # seat 2 thinks longest
        assert (await service.move(c, people[NAMES[seat]], text)).ok
    match = (await service.store.load(gid)).match
    assert match.to_act() == acting
    armed = await timers(service, gid)
    zeros = {s: armed[f"bank:{s}"].due for s in acting}
    assert len(set(zeros.values())) == len(acting)                        # each its own
    first = min(zeros, key=zeros.get)
    before = {s: match.moves_by(s) for s in acting}
    clock.advance(zeros[first] - clock.now())
    assert await service.fire_due_timers() == 1
    match = (await service.store.load(gid)).match
    assert match.moves_by(first) > before[first]
    assert all(match.moves_by(s) == before[s] for s in acting if s != first)
    armed = await timers(service, gid)
    assert all(armed[f"bank:{s}"].due == zeros[s] for s in acting if s != first)


async def test_away_the_ai_plays_their_turns_and_the_group_is_told_once(service, clock, transport):
    people = users_of("Ann", "Bob")
    c = chat()
    gid = await start_game(service, c, list(people.values()), options={"seed": 6})
    seat, who = await mover(service, c)
    away = people[who.user_id]
    await service.deliver_pending(transport)
    posted = len(transport.group())
    reply = await service.away(away, "5d")
    assert reply.ok and reply.extra.games == 1
    assert reply.text == t("en", "bot.away.set", duration="5 days", count=1)
    assert await service.fire_due_timers() == 1                           # their turn, played at once
    await service.deliver_pending(transport)
    told = [m.text for m in transport.group()[posted:] if "🏖" in m.text]
    assert told == [t("en", "bot.away.group_ai", player=who.name, duration="5 days")]
    assert not any("⌛" in m.text for m in transport.group()[posted:])     # no deadline note each turn
    await play_until(service, c, people, seat)                            # the other player's turns
    assert await service.fire_due_timers() == 1                           # their next turn too
    assert await actors(service, gid) == ["deadline", "human", "human", "deadline"]
    assert (await service.game_info(c)).to_move == seat                # Paris Paris: two in a row
    assert (await service.away(away, "off")).ok
    assert set(await timers(service, gid)) == {"reminder", "deadline"}    # theirs again
    await service.deliver_pending(transport)
    assert t("en", "bot.away.group_back", player=who.name) in [m.text for m in transport.group()]
    assert len([m for m in transport.group() if "🏖" in m.text]) == 1


async def test_away_pauses_the_bank_when_the_chat_chooses_so(service, clock):
    people = users_of("Ann", "Bob")
    c = chat()
    gid = await start_game(service, c, list(people.values()), options=dict(BANK, away_mode="pause"))
    seat, who = await mover(service, c)
    clock.advance(DAY)                                                    # 2d left
    assert (await service.away(people[who.user_id], "4d")).ok
    assert (await timers(service, gid))[f"bank:{seat}"].due == clock.now() + 4 * DAY + 2 * DAY
    clock.advance(2 * DAY)
    assert await service.fire_due_timers() == 0                           # past the old zero: paused
    assert (await service.away(people[who.user_id], "off")).ok        # back early: runs from now
    assert (await timers(service, gid))[f"bank:{seat}"].due == clock.now() + 2 * DAY
    # A turn that begins while its person is away waits for them: the other player's bank.
    other = next(u for u in people.values() if u.id != who.user_id)
    await play_turn(service, c, people)
    assert (await service.away(other, "2d")).ok is True
    assert (await service.game_info(c)).to_move != seat
    assert (await timers(service, gid))[f"bank:{1 - seat}"].due == clock.now() + 2 * DAY + 3 * DAY
    await play_turn(service, c, people)                                   # played while away: no charge
    bank = (await service.store.load(gid)).meta.turn.banks[1 - seat]
    assert bank.left == 4 * DAY


async def test_away_pauses_a_deadline_when_the_chat_chooses_so(service, clock):
    people = users_of("Ann", "Bob")
    c = chat()
    gid = await start_game(service, c, list(people.values()),
                           options={"seed": 6, "away_mode": "pause", "reminder_minutes": 60, "deadline_minutes": 180})
    _, who = await mover(service, c)
    assert (await service.away(people[who.user_id], "1d")).ok
    armed = await timers(service, gid)
    assert armed["deadline"].due == clock.now() + DAY + 3 * HOUR
    assert armed["reminder"].due == clock.now() + DAY + HOUR


async def test_away_without_a_duration_says_how_and_a_bad_one_is_refused(service, clock):
    ann = user("Ann")
    assert (await service.away(ann)).text == t("en", "bot.away.usage", days=60)
    refused = await service.away(ann, "soon")
    assert not refused.ok and refused.refused == "bot.away.bad"
    assert (await service.away(ann, "36h")).extra == AwayNote(games=0, until=clock.now() + 36 * HOUR)
    assert (await service.away(ann)).text == t("en", "bot.away.status", duration="36 hours")


async def test_switching_a_running_game_to_the_bank_arms_the_banks(service, clock):
    people = users_of("Ann", "Bob")
    c = chat()
    gid = await start_game(service, c, list(people.values()), options={"seed": 6})
    seat, who = await mover(service, c)
    assert set(await timers(service, gid)) == {"reminder", "deadline"}
    reply = await service.settings(c, people[who.user_id], {"clock": "bank"})
    assert reply.ok
    assert set(await timers(service, gid)) == {f"bank:{seat}", f"warn:{seat}"}
    labels = [b.label for row in reply.buttons for b in row]
    assert t("en", "bot.btn.clock_deadline") in labels and t("en", "bot.btn.bank_bonus", value="2 days") in labels
    assert t("en", "bot.btn.bank_bonus", value="1 day") not in labels           # the current value
