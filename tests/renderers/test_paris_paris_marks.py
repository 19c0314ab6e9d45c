"""Paris Paris map marks read as their own station's: an eviction mark sits nearer its station
(or its name) than any other station's name, and the map writes Centre Pompidou as the texts do."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.paris_paris import Game
from engine.paris_paris import events as E
from engine.paris_paris.board import DISPLAY_NAMES
from renderers.paris_paris import layout


@cache
def eviction_maps(n: int, seed: int) -> tuple:
    """(view, events since the last map) after each eviction of a seeded random game."""
    game = Game.new(["Ada", "Blaise", "Cleo", "Dan"][:n], seed=seed)
    rng = random.Random(seed)
    since: list = []
    shown = []
    while not game.finished:
        events = game.apply(rng.choice(game.legal_actions()))
        since = list(events) if any(isinstance(e, E.RoundStarted) for e in since) else since + list(events)
        if any(isinstance(e, E.ShopEvicted) for e in events):
            view = game.view(None)
            shown.append((view, tuple(layout.shown_events(view, since))))
    return tuple(shown)


@pytest.mark.parametrize("n", (2, 3, 4))
def test_eviction_marks_stay_by_their_station(n):
    """"A✕" for Pont Neuf sat beside the Louvre's name. A mark may stray a little where the map is
    crowded (several marks round Hôtel de Ville), never as far as that, and never at Pont Neuf."""
    marks = 0
    for seed in (1, 2, 3, 4):
        for view, events in eviction_maps(n, seed):
            for key, stray in layout.tag_strays(view, events).items():
                if key[1] != "evicted":
                    continue
                marks += 1
                assert stray <= 32, (n, seed, view.round, key[0], stray)
                if key[0] in ("pont-neuf", "quartier-latin"):
                    assert stray == 0, (n, seed, view.round, key[0], stray)
    assert marks >= 20


def test_the_map_writes_centre_pompidou_in_full():
    assert " ".join(layout.labels()["pompidou"].lines) == DISPLAY_NAMES["pompidou"] == "Centre Pompidou"
