"""Building Papà Paolo positions for tests: scripted set-ups, quick phase-1 play, random games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.papa_paolo import components as C
from engine.papa_paolo.definition import GAME
from engine.papa_paolo.game import Game
from engine.papa_paolo.phases import Phase
from engine.papa_paolo.record import play_move

NAMES = ("Ann", "Bob", "Cat", "Dan")
ALL_OPTIONS = ("hidden_money", "first_player_coin", "reverse_bid_order", "money_bonus", "two_player_preview",
               "express_ignores_roads")


def setup(n: int, grid: Sequence[str] = (), *, starts: Sequence[str] | None = None,
          coins: Sequence[int] | None = None, options: dict | None = None) -> dict:
    """A set-up whose first round deals ``grid`` (row by row) before the rest of the box."""
    rest = [t for t in C.CITY_IDS if t not in grid]
    base = sorted(C.BOARDS[n].coins)
    out = {"starting_tiles": list(starts or [f"S{i + 1}" for i in range(n)]),
           "city_stack": [*grid, *rest],
           "coins": [list(coins or base)] + [list(base)] * (C.ROUNDS - 1),
           "investment_stacks": {c: list(C.INVESTMENT_BY_COLOUR[c]) for c in C.COLOURS}}
    if (options or {}).get("first_player_coin"):
        out["face_down_coin"] = [0] * C.ROUNDS
    return out


def game(n: int = 2, grid: Sequence[str] = (), *, options: dict | None = None, **kw) -> Game:
    return Game.from_setup(NAMES[:n], setup(n, grid, options=options, **kw), options or {})


def space_of(g: Game, index: int) -> list[int]:
    return [index // g.board.cols, index % g.board.cols]


def idle_placements(g: Game) -> None:
    """Every remaining phase-1 turn: the first free space, no action."""
    while g.phase == Phase.PLACE:
        seat = g.to_act()[0]
        free = next(i for i in range(len(g.grid)) if i not in g.markers)
        play_move(g, seat, {"place": space_of(g, free), "action": {"none": {}}})


def random_match(n: int, seed: int, options: dict | None = None):
    """A match played to the end with random legal steps (the acting seat drawn at random too);
    yields the match after every step."""
    match = GAME.new_match(list(NAMES[:n]), seed=seed, options=options or {})
    rng = random.Random(seed)
    yield match
    while not match.is_terminal():
        seat = rng.choice(match.to_act())
        choices = match.legal_choices(seat)
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
        yield match


def play_out(n: int, seed: int, options: dict | None = None):
    """The match of ``random_match`` once it is over."""
    *_, last = random_match(n, seed, options)
    return last
