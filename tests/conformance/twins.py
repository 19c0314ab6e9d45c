"""Twin deals: a game's stored setup changed only in secrets, for the tests that no secret leaks.

``TWINS[game id](setup, seat, rng)`` returns ``(twin setup, changed seats)``: a setup that deals
``seat`` a different secret and leaves everything public as it was. Where the rules tie one seat's
secret to what is public (Paris Connection: the storage boards show how many locomotives of each
colour all screens hide together), the twin also changes one other seat's secret; ``changed``
names every seat whose secret differs. Everything the other seats and the group see must then be
the same in both deals until the game reveals the secret.

A game whose only secrets are private choices, not dealt ones (Papà Paolo: nothing is dealt to one
seat alone, every Lira moves by a public act, and a delivery plan is secret only while it is drawn),
gives a draft twin in ``DRAFT_TWINS`` instead: ``DRAFT_TWINS[game id](definition, setup, seat, rng)``
returns two lists of ``(seat, choice text)`` moves from ``setup`` that differ only in the steps of
``seat``'s private decision, which is under way at the end of both. The other seats and the group
must see the same while it stays under way.

A game with secrets (``information == "imperfect"``) needs an entry in one of them; the conformance
suite says so when it is missing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

Setup = dict[str, Any]
TwinDeal = Callable[[Setup, int, random.Random], tuple[Setup, frozenset[int]]]

PARIS_PARIS_COLOURS = ("green", "red", "blue", "purple", "yellow")


def paris_paris(setup: Setup, seat: int, rng: random.Random) -> tuple[Setup, frozenset[int]]:
    """The seat's secret marker becomes a colour nobody holds (there is always one: 5 colours,
    at most 4 markers, or 2 and the open one)."""
    twin = copy.deepcopy(setup)
    name = twin["players"][seat]
    used = set(twin["markers"].values()) | {twin.get("open_marker")}
    twin["markers"][name] = rng.choice([c for c in PARIS_PARIS_COLOURS if c not in used])
    return twin, frozenset({seat})


def paris_connection(setup: Setup, seat: int, rng: random.Random) -> tuple[Setup, frozenset[int]]:
    """The seat and another one swap a locomotive of one colour for one of another colour, one to
    three times: every screen holds as many as before and every colour's total is unchanged."""
    players = setup["players"]
    other = rng.choice([s for s in range(len(players)) if s != seat])
    while True:
        twin = copy.deepcopy(setup)
        mine, theirs = twin["deal"][players[seat]], twin["deal"][players[other]]
        for _ in range(rng.randint(1, 3)):
            give = rng.choice(sorted(c for c, k in mine.items() if k))
            take = rng.choice(sorted(c for c, k in theirs.items() if k and c != give) or [give])
            for held, out, into in ((mine, give, take), (theirs, take, give)):
                held[out] -= 1
                held[into] = held.get(into, 0) + 1
        for held in (mine, theirs):
            for colour in [c for c, k in held.items() if not k]:
                del held[colour]
        if mine != setup["deal"][players[seat]]:
            return twin, frozenset({seat, other})


def tiny_hands(setup: Setup, seat: int, rng: random.Random) -> tuple[Setup, frozenset[int]]:
    """One to three cards of the seat's hand are replaced by cards it did not hold."""
    twin = copy.deepcopy(setup)
    hand = twin["hands"][seat]
    for _ in range(rng.randint(1, 3)):
        hand[rng.randrange(len(hand))] = rng.choice([c for c in range(1, 13) if c not in hand])
    hand.sort()
    if hand == setup["hands"][seat]:
        return tiny_hands(setup, seat, rng)
    return twin, frozenset({seat})


TWINS: dict[str, TwinDeal] = {"paris-paris": paris_paris, "paris-connection": paris_connection,
                              "tiny-hands": tiny_hands}

Move = tuple[int, str]
DraftTwin = Callable[[Any, Setup, int, random.Random], tuple[list[Move], list[Move]]]


def papa_paolo_plan(definition: Any, setup: Setup, seat: int, rng: random.Random) -> tuple[list[Move], list[Move]]:
    """Random play up to a delivery phase (5) of round 2 to 4 (bigger neighbourhoods, longer plans) in
    which the seat and another one are to plan; there the seat draws two different first trips
    (pizzeria, squares, drops, end of trip), its plan under way."""
    for from_round in (rng.randint(2, 4), 1):
        found = _plan_from_round(definition, setup, seat, rng, from_round)
        if found:
            return found
    raise AssertionError("the game ended before the seat planned a delivery with another seat")


def _plan_from_round(definition: Any, setup: Setup, seat: int, rng: random.Random,
                     from_round: int) -> tuple[list[Move], list[Move]] | None:
    match = definition.resume(setup, [])
    moves: list[Move] = []
    while True:
        acting = match.to_act()
        if not acting:
            return None
        public = match.view(None)
        if public.phase == "deliver" and public.round >= from_round and seat in acting and len(acting) > 1:
            drafts = _two_first_trips(match, seat, rng)
            if drafts:
                return moves + drafts[0], moves + drafts[1]
        mover = rng.choice(acting)
        choice = rng.choice(match.legal_choices(mover))
        match.apply(choice, by=mover)
        moves.append((mover, str(choice)))


def moves_to_planning(definition: Any, setup: Setup, seat: int, rng: random.Random,
                      from_round: int = 1) -> list[Move] | None:
    """Random play from ``setup`` to a delivery phase of round ``from_round`` or later in which
    ``seat`` and the other seats are all to plan, none of them begun (None: the game ended first):
    the public moves after which the web twins (tests/web/test_twin_pages.py) part."""
    match = definition.resume(setup, [])
    moves: list[Move] = []
    while acting := match.to_act():
        public = match.view(None)
        if public.phase == "deliver" and public.round >= from_round and seat in acting \
                and len(acting) == len(match.players):
            return moves
        mover = rng.choice(acting)
        choice = rng.choice(match.legal_choices(mover))
        match.apply(choice, by=mover)
        moves.append((mover, str(choice)))
    return None


def _two_first_trips(match: Any, seat: int, rng: random.Random) -> list[list[Move]] | None:
    """The steps of two first trips of ``seat`` that leave it different plans (None: none found)."""
    drafts: list[tuple[Any, list[Move]]] = []
    for _ in range(40):
        drawn, steps = match.copy(), []
        while not steps or steps[-1][1] != "end-trip":
            going_on = [c for c in drawn.legal_choices(seat) if str(c) not in ("done", "best-plan", "undo-trip")]
            if not going_on:
                break
            choice = rng.choice(going_on)
            drawn.apply(choice, by=seat)
            steps.append((seat, str(choice)))
        if steps and steps[-1][1] == "end-trip" and all(drawn.view(seat) != v for v, _ in drafts):
            drafts.append((drawn.view(seat), steps))
            if len(drafts) == 2:
                return [steps for _, steps in drafts]
    return None


DRAFT_TWINS: dict[str, DraftTwin] = {"papa-paolo": papa_paolo_plan}
