"""Turn-state changes are values returned in ``Changes.turn`` and kept on the game by
``GameStore.commit`` alone (issue 45, item 7): no step assigns the game's turn state in place, and
``Phase`` and ``Bank`` are values whose methods return new ones."""

from __future__ import annotations

import dataclasses

import pytest
from service_helpers import chat, play_turn, start_game, user

from bot.service.game import bank as B
from bot.service.game.model import Changes, GameMeta, Seat
from bot.service.game.phase import Phase
from bot.service.game.turnstate import Bank, TurnState

DAY, HOUR = 86400.0, 3600.0
BANK = {"seed": 6, "clock": "bank", "bank_initial_minutes": 600, "bank_bonus_minutes": 60,
        "bank_cap_minutes": 7 * 1440, "bank_warning_minutes": 720}
DEADLINE = {"seed": 6, "reminder_minutes": 60, "deadline_minutes": 180}


def test_phase_and_bank_are_values():
    phase, bank = Phase(3), Bank(DAY, since=10.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        phase.began_at = 1.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        bank.left = 0.0  # type: ignore[misc]
    assert phase.armed_at(5.0) == Phase(3, 5.0) and phase.reminder_sent() == Phase(3, None, True)
    assert bank.paused_until(10.0 + HOUR, 10.0 + DAY) == Bank(DAY - HOUR, since=10.0 + DAY)
    assert phase == Phase(3) and bank == Bank(DAY, since=10.0)           # the originals as they were


def test_bank_changes_return_a_new_turn_state():
    meta = GameMeta(1, "fake", "c", "C", "playing", "ann", dict(BANK), 6,
                    seats=[Seat("Ann", "fake", "ann"), Seat("Bob", "fake", "bob")])
    running = TurnState(banks={0: Bank(10 * HOUR, since=0.0, move=1)})
    settled = B.settle(meta, running, None, HOUR, {})             # no match running: every turn ended
    assert settled.banks == {0: Bank(10 * HOUR, since=None, move=1), 1: Bank(10 * HOUR)}
    assert running.banks == {0: Bank(10 * HOUR, since=0.0, move=1)}
    assert B.warned(running, 0).banks[0].warned and not running.banks[0].warned
    assert B.paused(running, 1, HOUR, None) is running                    # no bank: nothing to pause


async def test_a_turn_state_without_its_game_is_refused(service):
    with pytest.raises(ValueError):
        await service.store.commit(Changes(turn=TurnState()))


@pytest.mark.parametrize("options", [BANK, DEADLINE], ids=["bank", "deadline"])
async def test_only_the_commit_changes_a_games_turn_state(service, clock, options):
    """Through a game's start, its moves, its warning or reminder and its deadline, each commit
    finds the game's turn state as the commit before left it, and keeps the one it carries."""
    kept: dict[int, TurnState] = {}
    carried: list[TurnState] = []
    commit = service.store.commit

    async def checked(changes, **kw):
        meta = changes.meta
        if meta is not None and meta.id in kept:
            assert meta.turn == kept[meta.id], "a turn state changed outside a commit"
        ids = await commit(changes, **kw)
        if meta is not None:
            kept[meta.id] = meta.turn
            if changes.turn is not None:
                assert meta.turn is changes.turn
                carried.append(changes.turn)
        return ids

    service.store.commit = checked
    people = {u.id: u for u in map(user, ("Ann", "Bob"))}
    c = chat()
    gid = await start_game(service, c, list(people.values()), options=options)
    for _ in range(2):
        await play_turn(service, c, people)
    for _ in range(3):                    # the warning at once (10h left, under 12h) or the reminder; the AI
        clock.advance(2 * HOUR)
        await service.fire_due_timers()
    moves = (await service.game_info(c)).moves
    clock.advance(DAY)
    assert await service.fire_due_timers() >= 1 and (await service.game_info(c)).moves > moves
    assert gid in kept and len(carried) >= 5
