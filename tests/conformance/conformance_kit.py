"""Random legal games through the public interface (engine/interface.py) only, for the conformance suite.

``CONFORMANCE_GAMES`` (environment) sets how many random games each check plays per game and
player count (default 2: the suite stays fast; raise it to hunt for rare breaks).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

from engine.interface import BoardPlace, Choice, GameDefinition, Label, Match

GAMES_PER_COUNT = int(os.environ.get("CONFORMANCE_GAMES", "2"))
MAX_STEPS = 20_000           # a random game that has not ended by then never will
DRAFT_STEPS = 60             # choices a seat makes in a private decision kept under way on purpose
Move = tuple[int, str]


def names(n: int) -> list[str]:
    return [f"P{seat}" for seat in range(n)]


def player_counts(definition: GameDefinition) -> list[int]:
    return sorted({definition.min_players, definition.max_players})


def position_of(match: Match) -> tuple:
    """Where the game stands, as the interface shows it (not how it got there), comparable with ==."""
    seats = range(match.num_players)
    return (json.dumps(match.to_record(), sort_keys=True), match.to_act(), match.returns(), match.is_terminal(),
            match.winners, match.rhythm.cycle, match.view(None), tuple(match.view(s) for s in seats),
            tuple(tuple(map(str, match.legal_choices(s))) for s in seats))


def state_of(match: Match) -> tuple:
    """Everything the interface shows of a match, its history included, comparable with ==."""
    seats = range(match.num_players)
    return (*position_of(match), match.move_count, tuple(match.moves_by(s) for s in seats), tuple(match.log))


def random_move(match: Match, rng: random.Random) -> tuple[int, Any]:
    """A random acting seat and one of its legal choices."""
    acting = match.to_act()
    assert acting, "a game that is not over must have a seat to act"
    seat = rng.choice(acting)
    return seat, rng.choice(match.legal_choices(seat))


def play_random(match: Match, rng: random.Random, *, upto: int = MAX_STEPS,
                on_step: Callable[[Match], None] | None = None) -> list[Move]:
    """Random legal choices until the game ends (or ``upto`` of them); the (seat, text) pairs applied.
    ``on_step`` is called with the match before each choice."""
    moves: list[Move] = []
    while not match.is_terminal() and len(moves) < upto:
        if on_step is not None:
            on_step(match)
        seat, choice = random_move(match, rng)
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))
    return moves


def records_keep_drafts(match: Match) -> bool:
    """Whether the game's records keep a decision under way (Paris Connection: an unfinished build);
    a game whose records hold whole decisions only declares ``records_keep_drafts = False`` on its
    ``Rhythm``."""
    return match.rhythm.records_keep_drafts


def check_choice(match: Match, choice: object) -> None:
    """``choice`` satisfies the ``Choice`` protocol: frozen and hashable, its text (its key) parses back
    to it, it names a label, and its place on the board, if any, is a ``BoardPlace``."""
    assert isinstance(choice, Choice), f"{choice!r} is no Choice (label, place)"
    hash(choice)
    assert match.parse_choice(str(choice)) == choice, f"{choice!r} does not print and parse back"
    label = choice.label()
    assert isinstance(label, Label) and label.kind and isinstance(label.kind, str), (choice, label)
    place = choice.place()
    assert place is None or (isinstance(place, BoardPlace) and place.area), (choice, place)
    hash(place)


def busy_seats(match: Match) -> frozenset[int]:
    """The seats in the middle of a decision of several steps."""
    return frozenset(s for s in range(match.num_players) if match.rhythm.in_decision(s))


def steps_under_way(match: Match, moves: list[Move], busy: list[frozenset[int]]) -> list[Move]:
    """The steps of the decisions still under way in ``match``, in the order applied: for each seat in
    a decision, its moves from the one that began it (the last it made while not in a decision).
    ``busy[i]`` holds the seats that were in a decision before ``moves[i]``."""
    under_way: list[int] = []
    for seat in busy_seats(match):
        began = max(i for i, (s, _) in enumerate(moves) if s == seat and seat not in busy[i])
        under_way += [i for i in range(began, len(moves)) if moves[i][0] == seat]
    return [moves[i] for i in sorted(under_way)]


def replay(match: Match, moves: list[Move]) -> Match:
    """``moves`` applied to ``match`` through their texts, as storage gives them back."""
    for seat, text in moves:
        match.apply(match.parse_choice(text), by=seat)
    return match


def assert_same_for(first: Match, second: Match, seats: list[int], *, logs: bool = True) -> None:
    """What the group and each of ``seats`` may see is the same in both matches (with ``logs``:
    their events too, the dearer part)."""
    assert first.view(None) == second.view(None), "the public view differs"
    assert first.rhythm.public_returns() == second.rhythm.public_returns(), "the public scores differ"
    for seat in seats:
        assert first.view(seat) == second.view(seat), f"seat {seat}'s view differs"
        assert first.legal_choices(seat) == second.legal_choices(seat), f"seat {seat}'s choices differ"
    for seat in [None, *seats] if logs else ():
        assert first.log_for(seat) == second.log_for(seat), f"the events {seat} may see differ"


def walk_twins(definition: GameDefinition, setup: dict, twin_setup: dict, changed: frozenset[int],
               rng: random.Random) -> int:
    """Play the same random choices in a deal and its twin (choices the changed seats may make in
    both) until the game ends; the seats whose secrets did not change, and the group, must see the
    same all along. Returns the number of choices played."""
    return walk_apart(definition, definition.resume(setup, []), definition.resume(twin_setup, []), changed, rng)


def ends_a_decision(match: Match, seat: int, choice: Any) -> bool:
    """Whether ``choice`` would leave ``seat`` with no decision under way (tried on a copy)."""
    trial = match.copy()
    trial.apply(choice, by=seat)
    return not trial.rhythm.in_decision(seat)


def walk_apart(definition: GameDefinition, first: Match, second: Match, changed: frozenset[int],
               rng: random.Random, *, drafts: bool = False) -> int:
    """Play the same random choices in twin matches (choices legal in both) until the game ends or no
    such choice is left; the seats that did not change, and the group, must see the same all along.
    With ``drafts`` (the twins differ in the changed seats' private decisions under way), the changed
    seats only make choices that keep their decision under way: it stays secret until then.
    Returns the number of choices played."""
    others = [s for s in range(first.num_players) if s not in changed]
    steps = drafted = 0
    while not first.is_terminal():
        assert_same_for(first, second, others, logs=steps % 16 == 0)
        acting = first.to_act()
        assert second.to_act() == acting, "who acts differs"
        if steps % 24 == 0:      # the AI plays from what its seat may see: the same in both deals
            level = rng.choice(definition.ai_levels)
            for seat in (s for s in acting if s not in changed):
                mine = definition.choose(first, seat, seed=steps, level=level, budget=20)
                assert mine == definition.choose(second, seat, seed=steps, level=level, budget=20), (
                    f"the {level} AI of seat {seat} chose differently: it saw another seat's secret")
        # A decision that can take its steps back (undo a trip) could stay under way for ever:
        # the changed seats stop drawing it after DRAFT_STEPS choices.
        resting = changed if drafts and drafted >= DRAFT_STEPS else frozenset()
        free = tuple(s for s in acting if s not in resting)
        move = _common_choice(first, second, free, changed, rng, drafts=drafts) if free else None
        if move is None:
            break
        seat, choice = move
        drafted += seat in changed
        first.apply(choice, by=seat)
        second.apply(choice, by=seat)
        steps += 1
    if not first.is_terminal():
        assert_same_for(first, second, others)
    return steps


def _common_choice(first: Match, second: Match, acting: tuple[int, ...], changed: frozenset[int],
                   rng: random.Random, *, drafts: bool) -> tuple[int, Any] | None:
    """A random acting seat and a choice legal for it in both twins (None: there is none). With
    ``drafts`` a changed seat's choice must keep its decision under way, and another seat may act
    when the first one drawn cannot."""
    seats = [rng.choice(acting)]
    if drafts:
        seats += rng.sample([s for s in acting if s != seats[0]], len(acting) - 1)
    for seat in seats:
        theirs = set(map(str, second.legal_choices(seat)))
        both = [c for c in first.legal_choices(seat) if str(c) in theirs]
        if drafts and seat in changed:
            rng.shuffle(both)
            both = [c for c in both[:8] if not ends_a_decision(first, seat, c)]
        if both:
            return seat, rng.choice(both)
    return None
