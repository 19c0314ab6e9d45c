"""Shared helpers for the Paris Connection tests: set-ups with a known deal, whole builds,
random legal play."""

from __future__ import annotations

import random

from engine.paris_connection.actions import DONE, Build, Place, Undo
from engine.paris_connection.board import COMPANIES, START_HEXES
from engine.paris_connection.game import Game

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
# red M7, blue L6, black K6, brown K7, yellow K8, purple L8 (the tower is L7).
STARTS = dict(zip(COMPANIES, START_HEXES, strict=True))
# Marseille from purple's start hex (L8) through rural hexes only: 14 locomotives.
TO_MARSEILLE = ("L9", "L10", "M11", "M12", "M13", "M14", "N15", "N16", "O17", "O18", "P19", "P20", "P21", "P22")


def dealt(players: int, **counts: int) -> list[dict[str, int]]:
    """Every player gets ``counts`` (blue fills up the rest of each hand)."""
    size = {3: 10, 4: 8, 5: 6, 6: 5}[players]
    hand = dict(counts)
    hand["blue"] = hand.get("blue", 0) + size - sum(counts.values())
    return [dict(hand) for _ in range(players)]


def fixed_game(players: int = 3, deal: list[dict[str, int]] | None = None, first: int = 0) -> Game:
    return Game.from_setup(NAMES[:players], STARTS, deal or dealt(players, black=2, brown=2), first)


def build(game: Game, colour: str, *hexes: str) -> list:
    """One whole build by the player to move; ``done`` unless it ended by itself."""
    events = game.apply(Build(colour))
    for hex_id in hexes:
        events += game.apply(Place(hex_id))
    if game.building:
        events += game.apply(DONE)
    return events


def random_choice(game: Game, rng: random.Random):
    """A random legal step, undoing rarely so that games stay short."""
    choices = game.legal_actions()
    if game.building and len(choices) > 1 and rng.random() < 0.9:
        choices = [c for c in choices if not isinstance(c, Undo)] or choices
    return choices[int(rng.random() * len(choices))]


def random_game(players: int, seed: int, upto: int | None = None) -> Game:
    game = Game.new(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    while not game.finished and (upto is None or len(game.moves) < upto):
        game.apply(random_choice(game, rng))
    return game
