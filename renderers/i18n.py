"""Message catalogs: every user-facing text comes from here.

Catalogs are JSON files ``renderers/locales/<language>/<area>.json`` (flat objects of
key -> text with ``str.format`` placeholders). Each area of the code owns its file
(``render.json`` for renderers, ``bot.json`` for the service, ``telegram.json``,
``discord.json``); all files of a language are merged. A key missing in a language
falls back to English, and a key missing everywhere shows as the key itself, so a
gap in a catalog is visible but never crashes a game.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "de", "it", "fr")
DEFAULT_LANGUAGE = "en"
_LOCALES = Path(__file__).with_name("locales")


@cache
def catalog(language: str) -> dict[str, str]:
    """All messages of one language, merged from its area files."""
    merged: dict[str, str] = {}
    folder = _LOCALES / language
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def normalize_language(language: str | None) -> str:
    """A supported language code for any hint ("de-CH" -> "de"; unknown -> English)."""
    if not language:
        return DEFAULT_LANGUAGE
    code = language.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def t(language: str | None, key: str, /, **params: object) -> str:
    """The message ``key`` in ``language``, formatted with ``params``."""
    lang = normalize_language(language)
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(DEFAULT_LANGUAGE).get(key, key)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def missing_keys(language: str) -> set[str]:
    """Keys English has that ``language`` lacks (for the completeness test)."""
    return set(catalog(DEFAULT_LANGUAGE)) - set(catalog(language))


def format_number(value: float, language: str | None, digits: int = 1) -> str:
    """A number with ``digits`` decimals as the language writes it (4.5, 4,5)."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if normalize_language(language) in ("de", "it", "fr") else text
