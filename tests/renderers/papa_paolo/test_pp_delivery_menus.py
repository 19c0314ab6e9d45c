"""Issue 32: the delivery menus say what each choice does, the prompt names only the choices on
offer, a pizzeria reads the pizzas left once the planned trips took theirs, each surface has its
own words, and the neighbourhood prints as a text grid whose columns line up."""

from __future__ import annotations

import random
import re

from engine.papa_paolo.definition import GAME
from engine.papa_paolo.steps import EndTrip, From
from i18n import LANGUAGES
from renderers.papa_paolo.hoodtext import HEIGHT, WIDTH
from renderers.papa_paolo.presenter import PRESENTER
from renderers.presenter import CHAT, TERMINAL


def at_deliveries(seed: int, players: int = 3):
    """A match at its first delivery phase and a seat that can start a trip."""
    match = GAME.new_match(["Ann", "Bob", "Cy", "Di"][:players], seed=seed)
    rng = random.Random(seed)
    while match.state.phase != "deliver":
        seat = match.to_act()[0]
        choices = match.legal_choices(seat)
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
    seat = next(s for s in match.to_act() if any(c.verb == "from" for c in match.legal_choices(s)))
    return match, seat


def labels(match, seat, language="en") -> list[str]:
    return [item.label for item in PRESENTER.menu(match.view(seat), match.legal_choices(seat), language).items()]


def plan_one_trip(match, seat) -> None:
    match.apply(next(c for c in match.legal_choices(seat) if c.verb == "from"), by=seat)
    while not any(c.verb == "drop" for c in match.legal_choices(seat)):
        match.apply(next(c for c in match.legal_choices(seat) if c.verb == "step"), by=seat)
    match.apply(next(c for c in match.legal_choices(seat) if c.verb == "drop"), by=seat)
    match.apply(EndTrip(), by=seat)


def test_a_pizzeria_reads_the_pizzas_left_after_the_planned_trips():
    match, seat = at_deliveries(21)
    person = match.state.people[seat]
    person.tracks["green"] = 2                      # two trips allowed, so a second one is offered
    start = next(c for c in match.legal_choices(seat) if c.verb == "from")
    pizzas = person.hood.shops[start.square].pizzas
    assert f"· {pizzas} pizza{'' if pizzas == 1 else 's'}: start here" in " ".join(labels(match, seat))
    plan_one_trip(match, seat)
    if From(start.square) in match.legal_choices(seat):
        assert f"· {pizzas - 1} pizza{'' if pizzas == 2 else 's'}: start here" in " ".join(labels(match, seat))
    grid = PRESENTER.render_private_text(match.view(seat), "en")
    assert f"P {pizzas - 1}/" in grid and "+1" in grid


def test_the_prompt_names_only_the_ways_on_offer_and_each_choice_says_what_it_is():
    checked = 0
    for seed in range(21, 27):
        match, seat = at_deliveries(seed)
        rng = random.Random(seed)
        while seat in match.to_act() and checked < 400:
            view, choices = match.view(seat), match.legal_choices(seat)
            prompt = PRESENTER.prompt_line(view, "en", TERMINAL)
            verbs = {c.verb for c in choices}
            assert ("numbered square" in prompt) == ("step" in verbs), (prompt, verbs)
            assert ("drop a pizza" in prompt) == ("drop" in verbs), (prompt, verbs)
            assert ("best plan" in prompt.lower()) == ("best-plan" in verbs), (prompt, verbs)
            assert ("take back" in prompt or "cancel" in prompt) == ("undo-trip" in verbs), (prompt, verbs)
            shown = labels(match, seat)
            assert not any(label.isdigit() for label in shown), shown       # not a bare "1"
            match.apply(rng.choice([c for c in choices if c.verb not in ("best-plan", "done")] or choices), by=seat)
            checked += 1
    assert checked > 30


def test_each_surface_has_its_own_words():
    match, seat = at_deliveries(21)
    view = match.view(seat)
    assert "tap" in PRESENTER.prompt_line(view, "en", CHAT)
    assert "tap" not in PRESENTER.prompt_line(view, "en", TERMINAL)
    for language in LANGUAGES:
        assert PRESENTER.prompt_line(view, language, CHAT) != PRESENTER.prompt_line(view, language, TERMINAL)
    # the rules and the help are read on every surface: they name choices, not taps or buttons
    shared = PRESENTER.rules_text("en") + PRESENTER.help_text("en")
    assert not re.search(r"\btaps?\b|\bbuttons?\b", shared), shared


def test_the_text_grid_lines_up_in_every_language():
    match, seat = at_deliveries(22, players=4)
    plan_one_trip(match, seat)
    for language in LANGUAGES:
        grid = PRESENTER.render_private_text(match.view(seat), language).splitlines()[:-1]   # the legend apart
        assert len(grid) % HEIGHT == 0
        assert all(len(line) <= WIDTH * 6 and line.isprintable() for line in grid)
        assert all(ord(ch) < 0x2600 for line in grid for ch in line)      # no emoji: one column each
