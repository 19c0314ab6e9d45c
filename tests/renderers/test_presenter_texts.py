"""Every registered game's own texts exist in every language: a presenter that falls back on
a catalog key it never defined would show the key itself ("papa.help.board") to players."""

from __future__ import annotations

import pytest

from i18n import LANGUAGES
from renderers.registry import PRESENTERS


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_a_games_own_texts_are_written_in_every_language(game_id, language):
    presenter = PRESENTERS[game_id]
    texts = {
        "title": presenter.title(language),
        "rules": presenter.rules_text(language),
        "help": presenter.help_text(language),
        "board help": presenter.board_help(language),
        "secret help": presenter.secret_help(language),
    }
    for what, text in texts.items():
        assert text and not text.startswith(f"{presenter.text_prefix}."), (game_id, language, what, text)
