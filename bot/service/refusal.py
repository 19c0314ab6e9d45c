"""A refused input: the catalog key that says why, and its parameters. Nothing was changed."""

from __future__ import annotations

from typing import Any

from bot.contract import Refusal, Reply
from i18n import t


class Refused(Exception):
    """An input refused: ``key`` says why (its text's catalog key), ``params`` fill the text."""

    def __init__(self, message_key: Refusal, /, **params: Any) -> None:
        super().__init__(message_key)
        self.key = message_key
        self.params = params

    def reply(self, language: str) -> Reply:
        return Reply(t(language, self.key, **self.params), ok=False, alert=True, refused=self.key)
