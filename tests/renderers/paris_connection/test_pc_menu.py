"""Menus: every legal choice is reachable by buttons, no menu is too big, labels are unique."""

from __future__ import annotations

import pytest
from pc_render_kit import game_steps

from engine.paris_connection.actions import Place, Trade
from engine.paris_connection.board import HEXES
from i18n import LANGUAGES
from renderers.paris_connection.presenter import PRESENTER
from renderers.presenter import ChoiceNotFound


def reachable(view, choices, language) -> tuple[set, list]:
    """Every choice the menu tree offers, and every menu met on the way."""
    found, menus, seen = set(), [], set()
    todo = [None]
    while todo:
        group = todo.pop()
        menu = PRESENTER.menu(view, choices, language, group)
        menus.append((group, menu))
        for item in menu.items():
            if item.choice is not None:
                found.add(item.choice)
            elif item.group not in seen:
                seen.add(item.group)
                todo.append(item.group)
    return found, menus


def check_menus(view, choices, language):
    found, menus = reachable(view, choices, language)
    assert found == set(choices)
    for group, menu in menus:
        items = menu.items()
        assert 0 < len(items) <= 20, (group, len(items))
        assert len(menu.rows) <= 5 and all(len(row) <= 5 for row in menu.rows)
        assert len({item.label for item in items}) == len(items), [item.label for item in items]
        assert (group is None) == (menu.text is None) == (not menu.back)
        for item in items:
            assert (item.choice is None) != (item.group is None)
            assert item.group is None or (item.group.isalnum() and len(item.group) <= 12)
            assert "{" not in item.label and "pc." not in item.label


@pytest.mark.parametrize("players, seed", [(3, 11), (4, 12), (5, 13), (6, 14)])
def test_every_choice_of_a_game_is_reachable_through_the_menus(players, seed):
    for index, (view, _, choices, _) in enumerate(game_steps(players, seed)):
        check_menus(view, choices, LANGUAGES[index % len(LANGUAGES)])


def test_many_legal_hexes_go_into_column_submenus_that_cover_them_all():
    steps = [(view, choices) for players, seed in ((3, 11), (4, 12), (5, 13), (6, 14))
             for view, _, choices, _ in game_steps(players, seed)]
    view, choices = max(steps, key=lambda s: sum(isinstance(c, Place) for c in s[1]))
    places = [c for c in choices if isinstance(c, Place)]
    assert len(places) > 18, "no position in these games has enough legal hexes to need submenus"
    top = PRESENTER.menu(view, choices, "en")
    assert all(item.group and item.group.startswith("h") for item in top.items() if item.choice is None)
    check_menus(view, choices, "en")


def test_hex_buttons_name_the_hex_as_the_map_does_and_the_city_with_its_value():
    for view, _, choices, _ in game_steps(4, 12):
        for item in PRESENTER.menu(view, choices, "en").items():
            if isinstance(item.choice, Place):
                cell = HEXES[item.choice.hex]
                assert item.label.split()[0] == cell.id
                assert item.key is None
                if cell.city:
                    assert item.label == f"{cell.id} {cell.city} ({cell.value})"


def test_top_level_offers_builds_by_colour_with_word_and_emoji_and_a_trade_submenu():
    view, _, choices, _ = game_steps(3, 11)[0]
    top = PRESENTER.menu(view, choices, "en")
    builds = [item for item in top.items() if item.choice is not None]
    assert builds and all(item.label.startswith(("🔴", "🔵", "⚫", "🟤", "🟡", "🟣")) for item in builds)
    assert all(item.choice.colour in item.label and item.colour == item.choice.colour for item in builds)
    trade = next(item for item in top.items() if item.group == "t")
    give = PRESENTER.menu(view, choices, "en", trade.group)
    take = PRESENTER.menu(view, choices, "en", give.items()[0].group)
    assert all(isinstance(item.choice, Trade) for item in take.items())
    for item in take.items():
        assert item.label.endswith(f"Take {item.choice.count} {item.choice.take}")


def test_a_hex_typed_while_hexes_sit_in_submenus_is_found():
    steps = [(view, choices) for view, _, choices, _ in game_steps(6, 14)]
    view, choices = max(steps, key=lambda s: sum(isinstance(c, Place) for c in s[1]))
    place = max((c for c in choices if isinstance(c, Place)), key=lambda c: c.hex)
    assert PRESENTER.find_item(view, choices, place.hex.lower(), "en").choice == place
    with pytest.raises(ChoiceNotFound):
        PRESENTER.find_item(view, choices, "Z99", "en")


def test_an_unknown_group_falls_back_to_the_top_level():
    view, _, choices, _ = game_steps(3, 11)[0]
    assert PRESENTER.menu(view, choices, "en", "nonsense") == PRESENTER.menu(view, choices, "en")


def _busiest(players: int, seed: int):
    steps = [(view, choices) for view, _, choices, _ in game_steps(players, seed)]
    return max(steps, key=lambda s: sum(isinstance(c, Place) for c in s[1]))


@pytest.mark.parametrize("players, seed", [(3, 11), (4, 12), (6, 14)])
def test_hex_pages_say_where_on_the_map_they_lead_by_city_names(players, seed):
    """Pages are named by the cities their hexes lie around, not by ranges of ids ("F18–H19")."""
    from renderers.paris_connection.presenter import chunk_cities, nearest_city

    view, choices = _busiest(players, seed)
    pages = [item for item in PRESENTER.menu(view, choices, "en").items() if item.group]
    assert len(pages) >= 2
    for page in pages:
        hexes = [item.choice.hex for item in PRESENTER.menu(view, choices, "en", page.group).items() if item.choice]
        cities = chunk_cities([Place(h) for h in hexes])
        assert page.label.startswith("🗺️ Around " + cities[0]) and "–" not in page.label, page.label
        assert all(nearest_city(h) in cities for h in hexes)


def test_a_hex_id_or_a_city_name_is_found_at_the_top_of_the_menu():
    view, choices = _busiest(4, 12)
    on_pages = [c for c in choices if isinstance(c, Place)]
    city = next(c for c in on_pages if HEXES[c.hex].city)
    assert PRESENTER.find_item(view, choices, city.hex.lower(), "en").choice == city
    name = HEXES[city.hex].city
    assert PRESENTER.find_item(view, choices, name.lower()[:5], "en").choice == city or \
        sum(HEXES[c.hex].city.casefold().startswith(name.casefold()[:5]) for c in on_pages if HEXES[c.hex].city) > 1
    assert PRESENTER.find_item(view, choices, name, "en").choice == city


def test_fixed_actions_keep_fixed_letters_at_every_step():
    """Undo, Done and Trade are always u, d and t, whatever the number of hexes before them."""
    from engine.paris_connection.actions import Done, Undo

    seen = set()
    for index, (_, view, choices, _) in enumerate(game_steps(4, 12)):
        for item in PRESENTER.menu(view, choices, "en").items():
            wanted = ("u" if isinstance(item.choice, Undo) else "d" if isinstance(item.choice, Done)
                      else "t" if item.group == "t" else None)
            assert item.letter == wanted, (index, item)
            seen.add(wanted)
        if index > 200:
            break
    assert {"u", "d", "t"} <= seen
    view, choices = next((v, c) for _, v, c, _ in game_steps(4, 12) if any(isinstance(x, Undo) for x in c))
    assert isinstance(PRESENTER.find_item(view, choices, "u", "en").choice, Undo)
