"""The final standings image."""

from __future__ import annotations

import pytest
from render_testkit import count_colour, load, near_colour

from engine.paris_paris import Game, Tile
from renderers import paris_paris as renderers
from renderers import style
from renderers.paris_paris import final as F
from renderers.paris_paris import scenes
from renderers.players import colour as player_colour


@pytest.mark.parametrize("n", (2, 3, 4))
@pytest.mark.parametrize("lang", ("en", "de"))
def test_final_standings(n, lang):
    scene = scenes.final(n)
    view = scene.game.view(None)
    assert view.finished
    img = load(renderers.render_final(view, events=scene.events, language=lang))
    assert img.size == (1280, 800)
    # Rows are in ranking order: each row's house has that player's colour.
    order = sorted(range(n), key=lambda s: -view.scores[s])
    for place, seat in enumerate(order):
        if place and view.scores[seat] == view.scores[order[place - 1]]:
            continue  # tied rows may come in either order
        x, y = F.house_centre(place, n)
        assert near_colour(img, (x - 12, y + 12), player_colour(seat).rgb, radius=2), (place, seat)
    # Every player has a line in the chart.
    for seat in range(n):
        assert count_colour(img, F.CHART_BOX, player_colour(seat).rgb, 25) > 300, seat


def test_final_at_other_width():
    scene = scenes.final(3)
    img = load(renderers.render_final(scene.game.view(None), events=scene.events, width=800))
    assert img.size == (800, 500)


def test_final_with_shared_victory_and_short_game():
    # A one-round game: nobody can score in a small tour with an empty board, so 0:0 is a tie.
    players = ["ann", "bob", "cat"]
    stack = [Tile("bastille", "blue"), Tile("belleville", "yellow"), Tile("tour-eiffel", "blue"),
             Tile("arc-de-triomphe", "red")]
    game = Game.from_setup(players, stacks=[stack], markers=["green", "red", "purple"], open_marker=None,
                           first_player=0)
    events = []
    while not game.finished:
        events = game.apply(game.legal_actions()[0])
    img = load(renderers.render_final(game.view(None), events=events, language="it"))
    assert img.size == (1280, 800)
    view = game.view(None)
    assert view.scores == (0, 0, 0) and view.winners == (0, 1, 2)
    # Every winner's row is highlighted.
    for place in range(3):
        _, y = F.house_centre(place, 3)
        assert near_colour(img, (200, y + 25), style.HIGHLIGHT, radius=1, tolerance=12), place


def test_final_rows_highlight_only_the_winner():
    scene = scenes.final(4)
    view = scene.game.view(None)
    assert len(view.winners) == 1
    img = load(renderers.render_final(view, events=scene.events))
    highlighted = [near_colour(img, (200, F.house_centre(p, 4)[1] + 25), style.HIGHLIGHT, radius=1, tolerance=12)
                   for p in range(4)]
    assert highlighted == [True, False, False, False]
