"""What each seat may see: its own holdings only, the draft for everyone, secrets at the end."""

import pytest
from pc_testkit import build, fixed_game, random_game

from engine.paris_connection.actions import Build, Place
from engine.paris_connection.view import Draft


def test_public_and_private_views_before_the_end():
    game = fixed_game()
    public, own, other = game.view(), game.view(0), game.view(1)
    assert public.holdings is None and public.all_holdings is None and public.scores is None
    assert own.holdings == game.holdings[0] and other.holdings == game.holdings[1]
    assert own.screens == (10, 10, 10)
    assert public.start_hexes == game.start_hexes and public.board == {h: (c,) for c, h in game.start_hexes.items()}
    with pytest.raises(ValueError):
        game.view(3)


def test_the_draft_is_shown_to_everyone_and_not_as_built():
    game = fixed_game()
    game.apply(Build("yellow"))
    game.apply(Place("J8"))
    for seat in (None, 0, 1):
        view = game.view(seat)
        assert view.draft == Draft("yellow", ("J8",), 1)
        assert "J8" not in view.board and view.values["yellow"] == 0
        assert "J9" in view.legal_hexes
    game.apply(Place("J9"))
    build_done = game.view()
    assert build_done.draft == Draft("yellow", ("J8", "J9"), 1)


def test_committed_build_shows_on_the_board():
    game = fixed_game()
    build(game, "yellow", "J8")
    view = game.view()
    assert view.board["J8"] == ("yellow",) and view.draft is None and view.legal_hexes == ()
    assert view.values["yellow"] == 1 and view.to_move == 1


def test_logs_keep_holdings_private():
    game = random_game(4, seed=3, upto=60)
    for seat in (None, 0, 1, 2, 3):
        for event in game.log_for(seat):
            owner = getattr(event, "private_to", None)
            assert owner is None or owner == seat


def test_everything_is_shown_once_over():
    game = random_game(3, seed=8)
    view = game.view()
    assert view.finished and view.end_reason in ("marseille", "storage")
    assert view.all_holdings == tuple(game.holdings) and view.scores == game.scores()
    assert view.penalties == game.penalties() and view.winners == game.winners and view.to_move is None
    assert view.value_history[-1] == game.values
