"""What Discord shows in the command picker fits its 100-character limit in every language
(that every text exists in every language is tests/renderers/test_catalogs.py's job)."""

from __future__ import annotations

import pytest

from i18n import LANGUAGES, catalog


@pytest.mark.parametrize("language", LANGUAGES)
def test_picker_texts_fit_discord_limits(language):
    picker = {key: message for key, message in catalog(language).items()
              if key.startswith(("discord.cmd.", "discord.opt.", "discord.choice."))}
    assert len(picker) > 30
    for key, message in picker.items():
        assert message.area == "discord" and not message.count, key
        assert 1 <= len(message.text) <= 100, (language, key, len(message.text))
