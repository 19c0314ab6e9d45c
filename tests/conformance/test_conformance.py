"""One contract, every game (OpenSpiel's random_sim_test): random legal games through the public
interface only. A game added to engine/registry.py is covered here without a line of its own
(a game with secrets also gives its twin deal in twins.py).
"""

from __future__ import annotations

import json
import random

import pytest
from conformance_kit import (
    GAMES_PER_COUNT,
    MAX_STEPS,
    busy_seats,
    check_choice,
    names,
    play_random,
    position_of,
    random_move,
    records_keep_drafts,
    replay,
    state_of,
    steps_under_way,
    walk_apart,
    walk_twins,
)
from twins import DRAFT_TWINS, TWINS

from engine.errors import GameError, MalformedInput
from engine.interface import Information
from engine.registry import by_record_format


def seeds(salt: int) -> list[int]:
    return [salt * 1000 + k for k in range(GAMES_PER_COUNT)]


def test_random_games_end_and_only_the_seats_to_act_have_choices_each_a_choice(case):
    definition, n = case

    def acting_seats_and_no_others(match):
        acting = match.to_act()
        assert list(acting) == sorted(set(acting), key=list(acting).index), "to_act names a seat twice"
        for seat in range(n):
            choices = match.legal_choices(seat)
            assert bool(choices) == (seat in acting), (seat, acting, choices)
            for choice in choices:
                check_choice(match, choice)
        assert sum(match.moves_by(s) for s in range(n)) == match.move_count

    for seed in seeds(1):
        match = definition.new_match(names(n), seed=seed)
        moves = play_random(match, random.Random(seed), on_step=acting_seats_and_no_others)
        assert match.is_terminal(), f"a random game of {len(moves)} choices has not ended"
        assert len(moves) < MAX_STEPS
        assert match.to_act() == () and all(match.legal_choices(s) == [] for s in range(n))
        assert match.winners and set(match.winners) <= set(range(n)) and len(match.returns()) == n
        assert [match.moves_by(s) for s in range(n)] == [sum(1 for m in moves if m[0] == s) for s in range(n)]


def test_the_declared_rounds_and_score_history_hold_over_a_game(case):
    definition, n = case

    def within_the_rounds(match):
        rounds = match.rhythm.rounds()
        assert rounds is None or 1 <= match.rhythm.round_number() <= rounds, (match.rhythm.round_number(), rounds)

    for seed in seeds(7):
        match = definition.new_match(names(n), seed=seed)
        rounds = match.rhythm.rounds()
        assert rounds is None or (isinstance(rounds, int) and rounds > 0)
        play_random(match, random.Random(seed), on_step=within_the_rounds)
        history = match.rhythm.score_history()
        if history is not None:
            assert all(len(scores) == n for scores in history)
            assert history[-1] == tuple(match.returns())        # the last entry: the final scores
        if rounds is not None:
            assert match.rhythm.round_number() == rounds               # a game of fixed rounds ends in its last


def test_each_cycle_starts_in_the_log_with_the_move_that_began_it(case):
    """``rhythm.cycle_start(c)`` (where the bot reads a cycle's events for its picture and summary)
    lies among the events of the move after which ``rhythm.cycle`` first said ``c``."""
    definition, n = case
    for seed in seeds(8):
        match = definition.new_match(names(n), seed=seed)
        rng = random.Random(seed)
        began: dict[int, tuple[int, int]] = {1: (0, 0)}     # cycle -> log length before and after its first move
        while not match.is_terminal():
            before = len(match.log)
            seat, choice = random_move(match, rng)
            match.apply(choice, by=seat)
            began.setdefault(match.rhythm.cycle, (before, len(match.log)))
        assert len(began) > 2, "a random game closed fewer than two cycles"
        for cycle, (before, after) in began.items():
            start = match.rhythm.cycle_start(cycle)
            assert (cycle == 1 and start == 0) or before < start <= after, (cycle, before, start, after)


def test_check_agrees_with_apply_and_a_refusal_changes_nothing(case):
    definition, n = case
    refused = 0

    def try_every_seat_on_the_choices_now(match):
        nonlocal refused
        if rng.random() > 0.1:            # a sample of the positions keeps the suite fast
            return
        candidates = {str(c): c for s in match.to_act() for c in match.legal_choices(s)}
        for seat in range(n):
            legal = match.legal_choices(seat)
            for choice in rng.sample(list(candidates.values()), min(len(candidates), 12)):
                if match.is_legal(choice, by=seat):
                    assert match.check(choice, by=seat) in legal, (seat, choice)
                    continue
                with pytest.raises(GameError) as checked:
                    match.check(choice, by=seat)
                before = state_of(match)
                with pytest.raises(type(checked.value)):
                    match.apply(choice, by=seat)
                assert state_of(match) == before, f"refusing {choice} by seat {seat} changed the match"
                refused += 1
                break
        with pytest.raises(MalformedInput):
            match.parse_choice("no such choice §")

    for seed in seeds(2):
        rng = random.Random(seed)
        play_random(definition.new_match(names(n), seed=seed), rng, on_step=try_every_seat_on_the_choices_now)
    assert refused, "no refusal was tried: the check tested nothing"


def test_a_copy_is_independent(case):
    definition, n = case
    for seed in seeds(3):
        rng = random.Random(seed)
        match = definition.new_match(names(n), seed=seed)
        while not match.is_terminal():
            before = state_of(match)
            twin = match.copy()
            assert state_of(twin) == before
            seat, choice = random_move(twin, rng)
            twin.apply(choice, by=seat)
            assert state_of(match) == before, "a choice applied to a copy changed the original"
            match.apply(choice, by=seat)
            assert state_of(match) == state_of(twin)
            play_random(match, rng, upto=rng.randint(0, 40))


def test_same_seed_and_moves_give_the_same_state(case):
    definition, n = case
    for seed in seeds(4):
        first, second = (definition.new_match(names(n), seed=seed) for _ in range(2))
        assert state_of(first) == state_of(second)
        moves = play_random(first, random.Random(seed), upto=random.Random(seed).randint(1, 400))
        assert state_of(replay(second, moves)) == state_of(first)
        stored = json.loads(json.dumps(first.stored_setup()))
        assert state_of(definition.resume(stored, moves)) == state_of(first)


def test_the_record_round_trips_and_replays_to_the_same_state(case):
    definition, n = case
    for seed in seeds(5):
        rng = random.Random(seed)
        match = definition.new_match(names(n), seed=seed)
        keeps_drafts = records_keep_drafts(match)
        moves: list = []
        busy: list = []         # before each move, the seats in the middle of a decision
        while True:             # records of games in progress (a decision half made) and of the finished game
            # A record may keep whole decisions (a build's hexes, not its undone steps): replayed, it
            # gives the same position and the same record, though maybe not the same count of steps.
            # A game whose records hold whole decisions only (records_keep_drafts = False) leaves out
            # the decisions under way: replayed, the record gives the position before them, and their
            # steps played on it give the same position again.
            under_way = [] if keeps_drafts else steps_under_way(match, moves, busy)
            record = json.loads(json.dumps(match.to_record()))
            replayed = definition.from_record(record)
            assert definition.from_record(record).to_record() == record
            if not keeps_drafts:
                assert not busy_seats(replayed), "the record kept a decision under way: declare it"
            assert position_of(replay(replayed, under_way)) == position_of(match)
            stored = definition.record_of(match.stored_setup(), moves)
            assert position_of(replay(definition.from_record(stored), under_way)) == position_of(match)
            assert by_record_format(record["format"]) is definition
            if match.is_terminal():
                break
            moves += play_random(match, rng, upto=rng.randint(1, 60), on_step=lambda m, into=busy: into.append(busy_seats(m)))
        assert definition.result(match) == definition.result(definition.from_record(match.to_record()))


def test_the_ai_chooses_a_legal_choice_for_every_seat_to_act(case):
    definition, n = case
    for seed in seeds(6):
        rng = random.Random(seed)
        match = definition.new_match(names(n), seed=seed)
        while not match.is_terminal():
            before = state_of(match)
            for seat in match.to_act():
                level = rng.choice(definition.ai_levels)
                choice = definition.choose(match, seat, seed=seed, level=level, budget=20)
                assert choice in match.legal_choices(seat), (level, seat, choice)
            assert state_of(match) == before, "choosing changed the match"
            play_random(match, rng, upto=rng.randint(1, 80))


def test_every_game_with_secrets_can_deal_twins(case):
    definition, _ = case
    if definition.information == Information.IMPERFECT:
        assert definition.id in TWINS or definition.id in DRAFT_TWINS, (
            f"add a twin deal (or a draft twin) for {definition.id} to tests/conformance/twins.py")


def test_no_view_holds_a_secret_of_another_seat(case):
    """Deals that differ only in one seat's secret, played alike: the others and the group see the same."""
    definition, n = case
    twin = TWINS.get(definition.id)
    if twin is None:
        pytest.skip(f"{definition.id} deals no secrets" + (" (its drafts are tested below)" * (
            definition.id in DRAFT_TWINS)))
    steps = 0
    for seed in seeds(7):
        rng = random.Random(seed)
        setup = json.loads(json.dumps(definition.new_match(names(n), seed=seed).stored_setup()))
        for seat in rng.sample(range(n), 2):       # two seats a deal: the seeds vary which
            twin_setup, changed = twin(setup, seat, rng)
            assert seat in changed
            assert definition.resume(setup, []).view(seat) != definition.resume(twin_setup, []).view(seat), (
                "the twin deal changed nothing the seat sees: it tests nothing")
            steps += walk_twins(definition, setup, twin_setup, changed, rng)
    assert steps > 20 * GAMES_PER_COUNT, "the twins parted at once: the check saw hardly any play"


def test_no_view_holds_a_private_decision_of_another_seat(case):
    """Twins that differ only in one seat's private decision under way (a delivery plan half drawn),
    played alike while it stays under way: the others and the group see the same."""
    definition, n = case
    draft_twin = DRAFT_TWINS.get(definition.id)
    if draft_twin is None:
        pytest.skip(f"{definition.id} has no private decisions apart from dealt secrets")
    steps = 0
    for seed in seeds(8):
        rng = random.Random(seed)
        setup = json.loads(json.dumps(definition.new_match(names(n), seed=seed).stored_setup()))
        for seat in rng.sample(range(n), 2):
            moves, twin_moves = draft_twin(definition, setup, seat, rng)
            first, second = definition.resume(setup, moves), definition.resume(setup, twin_moves)
            assert first.rhythm.in_decision(seat) and second.rhythm.in_decision(seat), "the draft twin's decision is not under way"
            assert first.view(seat) != second.view(seat), "the draft twin changed nothing the seat sees"
            steps += walk_apart(definition, first, second, frozenset({seat}), rng, drafts=True)
    assert steps > 2 * 2 * GAMES_PER_COUNT, "the twins parted at once: the check saw hardly any play"
