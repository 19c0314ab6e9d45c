"""A person's shortcuts (an action with its amount, a buy's whole split, the best express trip):
each ends in a whole move the step-by-step path (the AI's, and older games') reaches too, so
records do not change; each decision they start ends within three steps where nothing is left
to choose but a square or a split; the AI never sees them."""

from __future__ import annotations

import json
import random

from engine.papa_paolo.definition import GAME, _WholeTake
from engine.papa_paolo.drafts import ActionDraft
from engine.papa_paolo.stepper import SHORTCUTS, without_shortcuts
from engine.papa_paolo.steps import Split, Square, parse

NODES = 4000            # steps tried at most when searching the step-by-step path to a move


def _old_paths(match, seat, found: set[str], budget: list[int]) -> None:
    """Every whole move the steps without shortcuts lead to from here (depth first)."""
    for step in without_shortcuts(match.state, seat, match.legal_choices(seat)):
        if budget[0] <= 0:
            return
        budget[0] -= 1
        branch = match.copy()
        moves = len(branch.state.record_moves)
        branch.apply(step, by=seat)
        if len(branch.state.record_moves) > moves:
            found.add(json.dumps(branch.to_record()["moves"][-1], sort_keys=True))
        else:
            _old_paths(branch, seat, found, budget)


def _finish_quickly(match, seat) -> int:
    """Complete the decision under way with the first split or square offered (never one pizza
    or one square of a trip at a time); the steps it took."""
    taken = 0
    while match.rhythm.in_decision(seat) and seat in match.to_act():
        choices = match.legal_choices(seat)
        step = next((c for c in choices if c.verb in ("split", "square", "rotate")), None)
        assert step is not None, [str(c) for c in choices]
        match.apply(step, by=seat)
        taken += 1
    return taken


def _decision_starts(seed: int, players: int, options=None):
    """Random games (random steps, the AI's half the time); yields (match, seat) at each
    phase-1 space chosen and each phase-4 investment to resolve."""
    match = GAME.new_match(["a", "b", "c", "d"][:players], seed=seed, options=options)
    rng = random.Random(seed)
    while not match.is_terminal():
        seat = match.to_act()[0]
        g = match.state
        if g.phase == "invest" and seat not in g.drafts or g.phase == "place" and isinstance(
                g.drafts.get(seat), ActionDraft) and g.drafts[seat].mode == "choose":
            yield match, seat
        choices = match.legal_choices(seat)
        step = rng.choice(choices) if rng.random() < 0.5 else GAME.choose(match, seat, seed=seed)
        match.apply(step, by=seat)


def test_each_shortcut_makes_a_move_the_step_by_step_path_makes():
    tried: dict[str, int] = {}
    searched_out = 0
    for seed, players, options in [(1, 2, None), (2, 3, None), (3, 4, {"express_ignores_roads": True}),
                                   (4, 2, {"express_ignores_roads": True})]:
        for match, seat in _decision_starts(seed, players, options):
            shortcuts = [s for s in match.legal_choices(seat) if isinstance(s, SHORTCUTS) and not isinstance(s, Square)]
            if not shortcuts:
                continue
            old: set[str] = set()
            budget = [NODES]
            _old_paths(match, seat, old, budget)
            for step in shortcuts:
                branch = match.copy()
                before = len(branch.state.record_moves)
                branch.apply(step, by=seat)
                taps = 1 + _finish_quickly(branch, seat) + (match.state.phase == "place")    # the space's tap
                assert taps <= 3, (str(step), taps)
                assert len(branch.state.record_moves) == before + 1
                move = json.dumps(branch.to_record()["moves"][-1], sort_keys=True)
                if budget[0] > 0:
                    assert move in old, (str(step), move)
                else:
                    searched_out += 1
                tried[step.verb] = tried.get(step.verb, 0) + 1
                # The record replays to the same game.
                assert GAME.from_record(branch.to_record()).to_record() == branch.to_record()
    assert {"pizzas", "pizzeria", "best-trip"} <= set(tried), tried
    assert searched_out <= sum(tried.values()) // 4, (searched_out, tried)


def test_a_buy_offers_its_whole_splits_only_where_several_pizzerias_have_room():
    seen = {"split": 0, "at_once": 0}
    for match, seat in _decision_starts(5, 3):
        for step in [s for s in match.legal_choices(seat) if s.verb == "pizzas"]:
            branch = match.copy()
            branch.apply(step, by=seat)
            if not branch.rhythm.in_decision(seat):
                seen["at_once"] += 1            # one pizzeria had room: the pizzas went there
                continue
            choices = branch.legal_choices(seat)
            puts = [c for c in choices if c.verb == "put"]
            splits = [c for c in choices if c.verb == "split"]
            assert len(puts) >= 2 and 1 <= len(splits) <= 6, [str(c) for c in choices]
            assert all(parse(str(c)) == c for c in splits)          # a split's text parses back
            left = branch.state.drafts[seat].left
            assert all(sum(k for _, k in c.parts) == left for c in splits)
            seen["split"] += 1
    assert seen["split"] and seen["at_once"], seen


def test_the_ai_never_sees_a_shortcut():
    for match, seat in _decision_starts(6, 3):
        choices = _WholeTake(match).legal_choices(seat)
        assert not any(isinstance(c, SHORTCUTS) for c in choices)
        assert not isinstance(GAME.choose(match, seat, seed=1), SHORTCUTS)
        assert not isinstance(GAME.choose(match, seat, seed=1, level="strong", budget=2), SHORTCUTS)


def test_a_split_is_written_one_way():
    assert parse("split 0,0=2; 1,-1=1") == Split((((1, -1), 1), ((0, 0), 2)))        # reading order: y, then x
    assert str(parse("split 0,0=3")) == "split 0,0=3"
