"""The tiny game is in every registry inside the fixture and nowhere outside it."""

from __future__ import annotations

from bot import games
from engine.registry import GAMES
from renderers.registry import PRESENTERS


def test_the_fixture_registers_the_tiny_game_and_takes_it_away(tiny_game):
    assert GAMES[tiny_game.id] is tiny_game
    assert PRESENTERS[tiny_game.id].game_id == tiny_game.id
    assert games.find("tiny").definition is tiny_game


def test_outside_the_fixture_no_registry_knows_it():
    assert "tiny-hands" not in GAMES and "tiny-hands" not in PRESENTERS and "tiny-hands" not in games.KINDS


def test_a_seat_picture_shows_its_own_hand_and_the_public_one_shows_none(tiny_game):
    from tinygame import PRESENTER

    match = tiny_game.new_match(["Ann", "Bob", "Cy"], seed=3)
    own = PRESENTER.board_text(match.view(0), "en")
    assert "Your hand" in own and "Your hand" not in PRESENTER.board_text(match.view(None), "en")
    assert PRESENTER.render("map", match.view(None), match.log_for(None), "en").startswith(b"\x89PNG")
