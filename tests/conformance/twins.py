"""Twin deals: a game's stored setup changed only in secrets, for the tests that no secret leaks.

``TWINS[game id](setup, seat, rng)`` returns ``(twin setup, changed seats)``: a setup that deals
``seat`` a different secret and leaves everything public as it was. Where the rules tie one seat's
secret to what is public (Paris Connection: the storage boards show how many locomotives of each
colour all screens hide together), the twin also changes one other seat's secret; ``changed``
names every seat whose secret differs. Everything the other seats and the group see must then be
the same in both deals until the game reveals the secret.

A game with secrets (``information == "imperfect"``) needs an entry here; the conformance suite
says so when it is missing.
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
