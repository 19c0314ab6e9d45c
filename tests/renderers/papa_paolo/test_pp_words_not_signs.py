"""Issue 43: no meaning carried by an emoji alone. Papà Paolo's menus and prompts wrote counts as
signs ("Buy 2 🍕", "🍕3 start here", "2🏠 R14", "🍕≤2, ↔≤2"); without an emoji font, or read
aloud, those say nothing. Over whole seeded games, in every language, every menu item and prompt a
seat is shown says its pizzas, houses and distances in words; an emoji may only decorate."""

from __future__ import annotations

import random

import pytest

from engine.papa_paolo.definition import GAME
from i18n import LANGUAGES
from renderers.papa_paolo.presenter import PRESENTER

SIGNS = ("🍕", "🏠", "↔")       # the signs that stood for a count's unit


def shown_texts(seed: int, language: str) -> list[str]:
    match = GAME.new_match(["Ann", "Bob", "Cy"], seed=seed)
    rng = random.Random(seed)
    texts: list[str] = []
    while not match.is_terminal():
        seat = match.to_act()[0]
        view, choices = match.view(seat), match.legal_choices(seat)
        texts.append(PRESENTER.prompt_line(view, language))
        menu = PRESENTER.menu(view, choices, language)
        texts += [item.label for item in menu.items()]
        for group in {item.group for item in menu.items() if item.group is not None}:
            submenu = PRESENTER.menu(view, choices, language, group)
            texts += [submenu.text or "", *(item.label for item in submenu.items())]
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_menus_and_prompts_say_counts_in_words(language):
    texts = shown_texts(5, language)
    assert len(texts) > 300
    signed = sorted({text for text in texts if any(sign in text for sign in SIGNS)})
    assert not signed, signed[:10]
