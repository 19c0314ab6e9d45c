"""Paris Paris choices as players type and read them: every number the map shows, a name as the map
shows it, and an eviction menu that speaks to the one choosing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_testkit import deal, play_round  # noqa: E402

from renderers.i18n import t  # noqa: E402
from renderers.paris_paris.presenter import PRESENTER  # noqa: E402
from renderers.presenter import ChoiceNotFound  # noqa: E402

THREE = ["ann", "bob", "cat"]


def _offer_with_twins():
    """Round 1 offers 1 · Centre Pompidou (green), 2 · Louvre, 3 · Opéra, 4 · Centre Pompidou (green)."""
    return deal(THREE, [(["pompidou/green", "louvre/blue", "opera/red"], "pompidou/green")])


def test_every_number_the_map_shows_is_accepted_for_two_equal_tiles():
    game = _offer_with_twins()
    view = game.view(0)
    assert [slot for slot, tile in view.offer_numbered() if str(tile) == "pompidou/green"] == [1, 4]
    choices = game.legal_actions()
    first = PRESENTER.find_item(view, choices, "1", "en")
    twin = PRESENTER.find_item(view, choices, "4", "en")
    assert twin == first and str(twin.choice.tile) == "pompidou/green"
    with pytest.raises(ChoiceNotFound):
        PRESENTER.find_item(view, choices, "5", "en")


@pytest.mark.parametrize("typed", ["pomp", "Pompidou", "centre", "CENTRE POMP", "centre-pompidou"])
def test_a_name_as_the_map_shows_it_or_any_word_of_it_is_accepted(typed):
    game = _offer_with_twins()
    item = PRESENTER.find_item(game.view(0), game.legal_actions(), typed, "en")
    assert str(item.choice.tile) == "pompidou/green"


def _crossing_with_own_shop():
    """Ann and Bob hold the Louvre crossing; in round 2 Bob (first now) takes a third Louvre tile."""
    game = deal(THREE, [(["louvre/blue", "louvre/purple", "tour-eiffel/blue"], "belleville/yellow"),
                        (["louvre/blue", "arc-de-triomphe/red", "madeleine/red"], "place-d-italie/green")])
    play_round(game, ["louvre/blue", "louvre/purple", "tour-eiffel/blue"])
    return game


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_the_eviction_menu_names_your_own_shop_in_the_first_person_and_warns(language):
    game = _crossing_with_own_shop()
    seat = game.current_player
    view = game.view(seat)
    assert view.players[seat] == "bob"
    item = PRESENTER.find_item(view, game.legal_actions(), "louvre", language)
    assert item.group is not None
    menu = PRESENTER.menu(view, game.legal_actions(), language, item.group)
    labels = {i.choice.evict: i.label for i in menu.items()}
    assert labels[seat].endswith(t(language, "pp.btn.evict_own")) and "bob" not in labels[seat]
    assert labels[0].endswith(t(language, "pp.btn.evict", player="ann"))
    assert t(language, "pp.msg.evict_own_warning", station="Louvre") in menu.text


def test_no_warning_when_neither_shop_is_yours():
    game = _crossing_with_own_shop()
    play_round(game, ["arc-de-triomphe/red"])           # Bob takes another tile; Cat faces the Louvre
    view = game.view(game.current_player)
    assert view.players[game.current_player] == "cat"
    item = PRESENTER.find_item(view, game.legal_actions(), "louvre", "en")
    menu = PRESENTER.menu(view, game.legal_actions(), "en", item.group)
    assert [i.label.split(" ", 1)[-1] for i in menu.items()] == ["Evict ann", "Evict bob"]
    assert "⚠️" not in menu.text


def test_a_twin_offer_labels_its_choice_with_every_number_the_map_shows():
    game = _offer_with_twins()
    labels = [item.label for item in PRESENTER.menu(game.view(0), game.legal_actions(), "en").items()]
    assert any(label.endswith("1/4 · Centre Pompidou") for label in labels), labels
    assert not any("Louvre" in label and "/" in label for label in labels)


@pytest.mark.parametrize(("language", "typed"), [("en", "green"), ("de", "grün"), ("fr", "vert"), ("it", "verde")])
def test_a_colour_word_names_the_one_choice_of_that_colour(language, typed):
    """The twins are one choice: "green" means it; "blue" the Louvre alone."""
    game = _offer_with_twins()
    view, choices = game.view(0), game.legal_actions()
    assert str(PRESENTER.find_item(view, choices, typed, language).choice.tile) == "pompidou/green"
    assert str(PRESENTER.find_item(view, choices, "blue", "en").choice.tile) == "louvre/blue"


def test_a_colour_word_of_several_choices_is_refused_with_them_listed():
    game = deal(THREE, [(["louvre/blue", "tour-eiffel/blue", "opera/red"], "pompidou/green")])
    with pytest.raises(ChoiceNotFound) as miss:
        PRESENTER.find_item(game.view(0), game.legal_actions(), "blue", "en")
    assert miss.value.reason == "ambiguous"
    assert sorted(label.split("· ")[1] for label in miss.value.candidates) == ["Louvre", "Tour Eiffel"]
