"""Reproducible Paris Connection positions from AI self-play, for the gallery, the benchmark and tests.

Each scene plays a seeded game between AIs until the wanted moment and returns the match and
the public events since the last picture (a picture is posted when a turn cycle ends).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.paris_connection.ai import choose
from engine.paris_connection.definition import GAME, ConnectionMatch

NAMES = ("Amélie", "Bartholomäus von Überlänge-Hohenstein", "Chiara 🎲", "Дмитрий", "Eun-ji", "François")


@dataclass
class Scene:
    match: ConnectionMatch
    events: list = field(default_factory=list)     # public events since the last picture

    @property
    def view(self):
        return self.match.view(None)


def players(n: int) -> tuple[str, ...]:
    return NAMES[:n]


def _play(n: int, seed: int, stop) -> Scene:
    """Play AI moves until ``stop(match, events_since_picture)``; raises if the game ends first."""
    match = GAME.new_match(players(n), seed=seed)
    rng = random.Random(seed)
    since: list = []
    while True:
        if stop(match, since):
            return Scene(match, since)
        if match.is_terminal():
            raise RuntimeError(f"the game from seed {seed} ended before the wanted moment")
        seat = match.to_act()[0]
        events = [e for e in match.apply(choose(match, seat, seed=rng.randrange(1 << 30)), by=seat)
                  if e.visible_to(None)]
        since = events if any(e.kind == "cycle_ended" for e in since) else since + events


def after_cycle(n: int, cycle: int = 5, seed: int = 1) -> Scene:
    """Just after turn cycle ``cycle`` ended: the picture the bot posts then."""
    return _play(n, seed, lambda m, since: any(e.kind == "cycle_ended" and e.cycle == cycle for e in since))


def building(n: int, placed: int = 2, seed: int = 2) -> Scene:
    """In the middle of a build, ``placed`` locomotives down (from cycle 3 on)."""
    def stop(match, since):
        draft = match.view(None).draft
        return match.rhythm.cycle >= 3 and draft is not None and len(draft.hexes) == placed
    return _play(n, seed, stop)


def final(n: int, seed: int = 3) -> Scene:
    """The finished game; events are those of its last cycle."""
    return _play(n, seed, lambda m, since: m.is_terminal())
