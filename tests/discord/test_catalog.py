"""The Discord adapter's texts exist in all four languages with the same placeholders,
and what Discord shows in the command picker fits its 100-character limit."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

LOCALES = Path(__file__).resolve().parents[2] / "renderers" / "locales"


def load(language: str) -> dict[str, str]:
    return json.loads((LOCALES / language / "discord.json").read_text(encoding="utf-8"))


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", ["de", "it", "fr"])
def test_every_text_is_translated_with_the_same_placeholders(language):
    english, other = load("en"), load(language)
    assert set(other) == set(english)
    for key, text in english.items():
        assert fields(other[key]) == fields(text), key
        assert other[key].strip(), key


@pytest.mark.parametrize("language", ["en", "de", "it", "fr"])
def test_picker_texts_fit_discord_limits(language):
    for key, text in load(language).items():
        if key.startswith(("discord.cmd.", "discord.opt.", "discord.choice.")):
            assert 1 <= len(text) <= 100, (language, key, len(text))
