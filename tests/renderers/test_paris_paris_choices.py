"""Paris Paris choices as players type and read them: every number the map shows, a name as the map
shows it, and an eviction menu that speaks to the one choosing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_testkit import deal, play_round  # noqa: E402

from engine.paris_paris.actions import Pick  # noqa: E402
from i18n import t  # noqa: E402
from renderers.paris_paris import text  # noqa: E402
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
    assert t(language, "pp.msg.evict_own_warning", station="Louvre", other="ann") in menu.text


def test_the_warning_says_what_evicting_your_own_shop_does():
    """Bob evicts his own shop at the Louvre, which Ann shares: his new shop takes its place,
    the old one goes back to his supply, and both still hold the Louvre (issue 32)."""
    game = _crossing_with_own_shop()
    bob = game.current_player
    view = game.view(bob)
    item = PRESENTER.find_item(view, game.legal_actions(), "louvre", "en")
    warning = PRESENTER.menu(view, game.legal_actions(), "en", item.group).text.splitlines()[-1]
    assert warning == ("⚠️ One of the two shops is yours: evict it and your new shop only takes its place "
                       "(the old one goes back to your supply). You and ann each keep one shop at Louvre: "
                       "nothing changes on the board.")
    before, supply = sorted(view.board["louvre"]), view.supply[bob]
    play_round(game, [f"louvre/blue!{bob}"])
    after = game.view(bob)
    assert sorted(after.board["louvre"]) == before and after.supply[bob] == supply     # as the warning says


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_a_pick_that_only_replaces_your_own_shop_says_so_on_its_label(language):
    """Ann holds Odéon (a stop: room for one shop) and one shop of the Louvre (a crossing): in
    round 3 another Odéon would only put her new shop in place of her own (issue 32)."""
    game = deal(THREE, [(["odeon/yellow", "tour-eiffel/blue", "madeleine/red"], "belleville/yellow"),
                        (["montmartre/red", "bastille/blue", "louvre/blue"], "gare-du-nord/red"),
                        (["pont-neuf/yellow", "louvre/purple", "arc-de-triomphe/red"], "odeon/yellow")])
    play_round(game, ["odeon/yellow", "tour-eiffel/blue", "madeleine/red"])
    play_round(game, ["montmartre/red", "bastille/blue", "louvre/blue"])
    play_round(game, ["pont-neuf/yellow"])                  # Cat first; then Ann
    ann = game.current_player
    view = game.view(ann)
    assert view.players[ann] == "ann" and view.board["odeon"] == (ann,) and view.board["louvre"] == (ann,)
    labels = {str(i.choice.tile): i.label for i in PRESENTER.menu(view, game.legal_actions(), language).items()}
    plain = text.tile_label(Pick.parse("odeon/yellow").tile, 4, language=language)
    assert labels["odeon/yellow"] == t(language, "pp.label.replaces_own", label=plain)
    if language == "en":
        assert labels["odeon/yellow"] == "🟡 4 · Odéon · only replaces your own shop"
    # The Louvre has room for her second shop, the Arc de Triomphe is new to her: plain labels.
    assert labels["louvre/purple"].endswith("· Louvre") and labels["arc-de-triomphe/red"].endswith("Triomphe")
