"""Issue 46: Papà Paolo's names for a newcomer. A delivery tile is never named like a space of the
city grid, the staircase's choices say column, tile, step and price in words, and the scores so
far come with what makes them."""

from __future__ import annotations

import random

from engine.papa_paolo import components as C
from engine.papa_paolo.definition import GAME
from i18n import LANGUAGES, t
from renderers.papa_paolo.presenter import PRESENTER
from renderers.papa_paolo.text import delivery_limits, delivery_name, delivery_text, space_name


def test_a_delivery_tile_is_never_named_like_a_grid_space():
    spaces = {space_name((r, c)) for board in C.BOARDS.values() for r in range(board.rows) for c in range(board.cols)}
    assert {"A1", "B2", "D3"} <= spaces
    for tile in C.DELIVERY_TILES.values():
        assert delivery_name(tile.id) not in spaces
        for language in LANGUAGES:
            for shown in (delivery_text(tile.id, language), delivery_limits(tile.id, language)):
                assert tile.id not in shown and not any(space in shown for space in spaces), shown
    assert delivery_text("A2", "en") == "T1 (🍕≤2, ↔≤2)"      # the seat's board picture: signs
    assert delivery_limits("A2", "en") == "T1 (up to 2 pizzas, 2 squares)"     # prompts and log: words


def at_the_staircase(seed: int = 3):
    match = GAME.new_match(["Ann", "Bob"], seed=seed)
    rng = random.Random(seed)
    while not any(s.startswith("stairs") for s in match.view(match.to_act()[0]).legal):
        seat = match.to_act()[0]
        match.apply(match.parse_choice(rng.choice(match.view(seat).legal)), by=seat)
    return match


def test_the_staircase_choices_read_as_words():
    match = at_the_staircase()
    seat = match.to_act()[0]
    menu = PRESENTER.menu(match.view(seat), match.legal_choices(seat), "en")
    labels = [item.label for item in menu.items()]
    assert "T1, step 1: 0 L" in labels, labels
    assert not any("·" in label for label in labels)


def test_the_scores_so_far_say_why():
    match = at_the_staircase()
    view = match.view(None)
    line = PRESENTER.scores_line(view, [-3, -7], "en")
    first, why = line.splitlines()
    assert first == "Scores so far: Ann -3 and Bob -7"
    assert why.startswith("Why: Ann: ") and "pizzas left (−1 each)" in why, why
    for language in LANGUAGES:
        assert len(PRESENTER.scores_line(view, [0, 0], language).splitlines()) == 2
    assert t("en", "papa.why.left", count=1) == "−1 for 1 pizza left (−1 each)"


def test_the_text_neighbourhood_draws_each_square_as_a_box():
    from test_pp_delivery_menus import at_deliveries

    match, seat = at_deliveries(5)
    grid = PRESENTER.render_private_text(match.view(seat), "en").splitlines()[:-1]
    # no road line left on its own ("│" or "───" floating beside a square): lines are boxes, their
    # contents between two sides, and the numbers to type above them
    for line in grid:
        stripped = line.strip()
        assert not stripped or stripped[0] in "┌└│═[·" and stripped[-1] in "┐┘│═]·", grid
    assert any("═" in line or "║" in line for line in grid)       # a road through a side
