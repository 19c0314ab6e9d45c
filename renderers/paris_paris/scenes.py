"""Reproducible game positions for the gallery, the benchmark and the tests.

Each scene plays a seeded game with a seeded choice of legal moves until the wanted
moment, and returns what a caller would pass to a renderer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.paris_paris import Game
from engine.paris_paris import events as E

NAMES = ("Amélie", "Bartholomäus von Überlänge-Hohenstein", "Chiara 🎲", "Дмитрий")


@dataclass
class Scene:
    game: Game
    events: list = field(default_factory=list)    # since the previous map
    pending_tile: object = None


def _play(players, seed: int, stop) -> Scene:
    """Play seeded random moves until ``stop(game, events_since_map)`` is true."""
    for attempt in range(200):
        game = Game.new(list(players), seed=seed + attempt)
        rng = random.Random(seed + attempt)
        since: list = []
        while not game.finished:
            found = stop(game, since)
            if found:
                return found if isinstance(found, Scene) else Scene(game, since)
            events = game.apply(rng.choice(game.legal_actions()))
            # A map is posted when a round starts: events since then belong to the next map.
            if any(isinstance(e, E.RoundStarted) for e in since):
                since = list(events)
            else:
                since = since + list(events)
        found = stop(game, since)
        if found:
            return found if isinstance(found, Scene) else Scene(game, since)
    raise RuntimeError("no game reached the wanted moment")


def players(n: int, names=NAMES) -> tuple[str, ...]:
    return tuple(names[:n])


def mid_round(n: int, seed: int = 1, names=NAMES) -> Scene:
    """Half-way through the game, after the first pick of a round."""
    def stop(game, since):
        return game.round >= game.rounds // 2 and 0 < len(game.offer) < n + 1 and not game.finished
    return _play(players(n, names), seed, stop)


def big_tour(n: int, seed: int = 2, names=NAMES) -> Scene:
    """Right after a round that ended with a big tour (and a small tour that scored)."""
    def stop(game, since):
        return (game.round >= 4 and any(isinstance(e, E.BigTour) for e in since)
                and any(isinstance(e, E.RoundStarted) for e in since) and not game.finished)
    return _play(players(n, names), seed, stop)


def eviction_pending(n: int, seed: int = 3, names=NAMES) -> Scene:
    """The player to move looks at an offered tile at a full crossing held by two owners."""
    def stop(game, since):
        if game.finished or game.round < 3:
            return None
        for tile in game.offered_tiles():
            if game.eviction_options(tile):
                return Scene(game, since, tile)
        return None
    return _play(players(n, names), seed, stop)


def eviction_done(n: int, seed: int = 4, names=NAMES) -> Scene:
    """Just after a shop was evicted."""
    def stop(game, since):
        return any(isinstance(e, E.ShopEvicted) for e in since) and not game.finished and game.round > 5
    return _play(players(n, names), seed, stop)


def final(n: int, seed: int = 5, names=NAMES) -> Scene:
    """The finished game; events are the last move's (markers, final tours, bag, end)."""
    def stop(game, since):
        return game.finished
    return _play(players(n, names), seed, stop)
