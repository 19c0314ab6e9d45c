"""A private step begins no phase (issue 42): Papà Paolo's last seat still planning begins a trip
and takes it back. Before, that left it "alone and outside a decision" and ``begins`` started a new
phase: the public picture was renamed after the real move count, and the phase's deadline and
reminder ran again from then (a seat could push its deadline back forever, a step at a time)."""

from __future__ import annotations

import random

from conformance.twins import moves_to_planning
from service_helpers import chat, start_game, user

from bot.service.board.page import PageRequest

NAMES = ("Ann", "Bob", "Cy")
OPTIONS = {"game": "papa-paolo", "seed": 5, "reminder_minutes": 30, "deadline_minutes": 120}


async def press(service, game_id: int, users, seat: int, text: str) -> None:
    """``seat`` makes the choice written ``text``, as its own page offers it."""
    state = await service.page(PageRequest(game_id, seat, "en"))
    payload = next((item.act for item in state.choices.items() if item.choice == text), None)
    reply = (await service.page_press(game_id, users[seat], payload) if payload is not None
             else await service.move(chat(1), users[seat], text))
    assert reply.ok, (seat, text, reply.text)


def trip_start(state) -> str:
    return next(item.choice for row in state.choices.rows for item in row
                if (item.choice or "").startswith("from "))


async def test_a_trip_taken_back_keeps_the_phase_its_deadline_and_the_pictures_names(service, clock):
    users = [user(name) for name in NAMES]
    game_id = await start_game(service, chat(1), users, options=OPTIONS)
    loaded = await service.store.load(game_id)
    moves = moves_to_planning(loaded.kind.definition, loaded.meta.setup, 0, random.Random(5))
    for mover, text in moves:
        await press(service, game_id, users, mover, text)
    for other in (1, 2):
        await press(service, game_id, users, other, "done")
    timers = sorted((t.kind, t.due, t.move) for t in await service.storage.timers_of(game_id))
    assert {kind for kind, _, _ in timers} == {"reminder", "deadline"}
    group = await service.page(PageRequest(game_id, None, "en"))
    start = (await service.store.load(game_id)).meta.turn.phase.start

    clock.advance(minutes=20)
    await press(service, game_id, users, 0, trip_start(await service.page(PageRequest(game_id, 0, "en"))))
    await press(service, game_id, users, 0, "undo-trip")        # alone, and outside a decision again

    meta = (await service.store.load(game_id)).meta
    assert meta.moves == moves_count(moves) + 4, "the steps were not made: the test tests nothing"
    assert meta.turn.phase.start == start, "taking a trip back began a new phase"
    assert sorted((t.kind, t.due, t.move) for t in await service.storage.timers_of(game_id)) == timers, (
        "taking a trip back moved the deadline or the reminder")
    assert await service.page(PageRequest(game_id, None, "en")) == group


def moves_count(moves: list) -> int:
    return len(moves)
