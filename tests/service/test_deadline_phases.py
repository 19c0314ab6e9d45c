"""A deadline in a phase where several seats act at once (issue 31), for every game that has such
phases, whoever made the last move before the phase: the first seat of the phase, a later one,
the last one, or a seat that does not act in it.

The seat that made that move (Papà Paolo's last investor, Tiny Hands' last claimer) may act in
the new phase too. At the deadline every seat still acting in the phase has its decision
completed once by the AI, the phase resolves, and the group is told once, naming exactly those
seats. (Found by an end-to-end run: that seat, when not first in order, was left acting, with a
fresh deadline, while the notice named it.)
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from service_helpers import chat, start_game, user
from tinygame import GAME as TINY

from bot.service import GameService, ManualClock
from engine.interface import Dynamics
from engine.registry import GAMES

NAMES = ("Ann", "Bob", "Cy")
DEADLINE_MINUTES = 60
SEEDS = range(10)            # random games searched, each up to its first phase of several seats
MAX_MOVES = 400
# Rare in random games, so named here: (seed, which phase of several seats, the mover's place).
# Papà Paolo's last investor plans deliveries last in turn order when they have something to
# deliver; seed 98's third deliveries are planned without them (found by searching seeds: any change to
# the choices offered, such as undoing a trip, moves random games onto other paths).
RARE = {"papa-paolo": [(98, 3, "not acting")]}
PLACES = ("first", "middle", "last", "not acting")
# Written by the code before the phase's start was stored (tests/fixtures/make_phase_fixture.py).
BEFORE_31 = Path(__file__).resolve().parents[1] / "fixtures" / "phases-before-31.sqlite3"
SIMULTANEOUS = [g.id for g in (*GAMES.values(), TINY) if g.dynamics == Dynamics.SIMULTANEOUS]


def mover_place(mover: int, acting: tuple[int, ...]) -> str:
    """Where the seat that began the phase stands among the phase's seats, in turn order."""
    if mover not in acting:
        return "not acting"
    return {0: "first"}.get(acting.index(mover), "last" if acting.index(mover) == len(acting) - 1 else "middle")


def opening(definition, seed: int, nth: int = 1):
    """A random game of ``definition`` (3 players, ``seed``) up to the beginning of its ``nth``
    phase of several seats (one of them newly acting): its moves, the place of the seat that made
    the last of them, and the phase's seats; None if it has no such phase."""
    match, rng, moves = definition.new_match(NAMES, seed=seed), random.Random(seed), []
    while not match.is_terminal() and len(moves) < MAX_MOVES:
        before = match.to_act()
        seat = rng.choice(before)
        choice = rng.choice(match.legal_choices(seat))
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))
        acting = match.to_act()
        if len(acting) > 1 and set(acting) - set(before):
            nth -= 1
            if not nth:
                return moves, mover_place(seat, acting), acting
    return None


def phase_cases(definition) -> dict[str, tuple[int, list[tuple[int, str]], tuple[int, ...]]]:
    """For each place of the last mover the searched games show: the seed, the moves up to the
    phase's beginning and the phase's seats."""
    found = {}
    for seed in SEEDS:
        if (got := opening(definition, seed)) is not None:
            found.setdefault(got[1], (seed, got[0], got[2]))
    for seed, nth, place in RARE.get(definition.id, ()):
        moves, got, acting = opening(definition, seed, nth)
        assert got == place, f"seed {seed} no longer shows a mover {place}: name another case in RARE"
        found.setdefault(place, (seed, moves, acting))
    return found


def deadline_note_lines(transport, since: int) -> list[str]:
    """The group's lines from message ``since`` on that tell of a deadline (⌛)."""
    return [line for m in transport.group()[since:] for line in m.text.splitlines() if line.startswith("⌛")]


@pytest.mark.parametrize("game_id", SIMULTANEOUS)
async def test_a_deadline_completes_every_seat_of_the_phase_whoever_moved_last_before_it(
        service, transport, clock, tiny_game, game_id):
    users = {u.name: u for u in map(user, NAMES)}
    cases = phase_cases(GAMES[game_id])
    # The case of the report is among them: the seat that began the phase acts in it, not first.
    assert {"middle", "last"} & set(cases), (game_id, sorted(cases))
    for number, (place, (seed, moves, acting)) in enumerate(sorted(cases.items())):
        c = chat(number)
        game_id_ = await start_game(service, c, list(users.values()), options={
            "game": game_id, "seed": seed, "reminder_minutes": 0, "deadline_minutes": DEADLINE_MINUTES})
        for seat, text in moves:                     # the same moves, typed by their players
            reply = await service.move(c, users[NAMES[seat]], text)
            assert reply.ok, (seat, text, reply.text)
        await service.deliver_pending(transport)
        posted = len(transport.group())
        match = (await service.store.load(game_id_)).match
        assert match.to_act() == acting
        own_before = {s: match.moves_by(s) for s in acting}

        clock.advance(minutes=DEADLINE_MINUTES + 1)
        assert await service.fire_due_timers() == 1, (game_id, seed, place)
        await service.deliver_pending(transport)

        match = (await service.store.load(game_id_)).match
        case = (game_id, seed, place, [NAMES[s] for s in acting])
        # Every seat of the phase had its choices made, and nothing after the phase resolved
        # (the next phase, all human, began with the deadline's last move).
        assert all(match.moves_by(s) > own_before[s] for s in acting), case
        (timer,) = [t_ for t_ in await service.storage.timers_of(game_id_) if t_.kind == "deadline"]
        assert timer.move == match.move_count > len(moves), (case, timer, match.move_count)
        assert timer.due == clock.now() + DEADLINE_MINUTES * 60, case
        # The group is told once (its prompt and closing edits repeat the note), naming exactly
        # the seats the AI chose for.
        notes = deadline_note_lines(transport, posted)
        assert len(set(notes)) == 1, (case, notes)
        assert {name for name in NAMES if name in notes[0]} == {NAMES[s] for s in acting}, (case, notes)
        assert (await service.abort(c, users[NAMES[0]])).ok      # its timers go: the next case's clock jump is its own


async def test_games_stored_before_the_phase_was_kept_complete_their_phases_at_the_old_deadlines(tmp_path, transport):
    """Papà Paolo's first deliveries as the old code stored them, with the deadlines it armed: in
    chat1 nobody has planned yet; in chat2 Cy and Ann have, and Bob (the last investor, who kept
    his older mark) plans alone. Both deadlines fire; every seat still planning is completed once
    and the group is told of those seats alone."""
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(BEFORE_31, path)
    clock = ManualClock(1_700_000_000.0)
    service = await GameService.open(str(path), clock=clock)
    try:
        planning = {1: (2, 0, 1), 2: (1,)}
        before = {}
        for game_id, seats in planning.items():
            match = (await service.store.load(game_id)).match
            assert match.to_act() == seats
            before[game_id] = {s: match.moves_by(s) for s in seats}
        armed = [t_ for game_id in planning for t_ in await service.storage.timers_of(game_id)]
        clock.advance(max(t_.due for t_ in armed) - clock.now())
        assert await service.fire_due_timers() == 2
        await service.deliver_pending(transport)
        for game_id, seats in planning.items():
            match = (await service.store.load(game_id)).match
            assert all(match.moves_by(s) > before[game_id][s] for s in seats), game_id
            (timer,) = await service.storage.timers_of(game_id)
            assert timer.move == match.move_count and timer.due == clock.now() + 3600, (game_id, timer)
            notes = {line for m in transport.group() if m.chat.id == f"chat{game_id}"
                     for line in m.text.splitlines() if line.startswith("⌛")}
            assert len(notes) == 1, (game_id, notes)
            (note,) = notes
            assert {name for name in NAMES if name in note} == {NAMES[s] for s in seats}, (game_id, note)
    finally:
        await service.close()
