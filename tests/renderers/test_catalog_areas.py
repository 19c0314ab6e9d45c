"""The bot's own catalogs hold only texts of shared code: a text that only one game's package
asks for lives in that game's catalog (Paris Paris's in paris_paris.po, Paris Connection's in
paris_connection.po), so that no game's words sit in the bot's catalog."""

from __future__ import annotations

import ast
from pathlib import Path

from i18n import DEFAULT_LANGUAGE, catalog

ROOT = Path(__file__).resolve().parents[2]
GAME_PACKAGES = {path.parent.name for path in (ROOT / "renderers").glob("*/presenter.py")}
SHARED_AREAS = ("bot", "service", "telegram", "discord", "terminal")


def _strings(paths) -> set[str]:
    return {node.value for path in paths for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def _asked(strings: set[str], key: str) -> bool:
    """``key`` is asked for as it is, or built from a prefix ending in a dot or underscore."""
    return key in strings or any(key.startswith(s) and s[-1:] in "._" and len(s) > 3 for s in strings)


def test_shared_catalogs_hold_no_text_only_a_game_asks_for():
    shared_code = _strings([p for p in (ROOT / "bot").rglob("*.py")]
                           + [p for p in (ROOT / "renderers").glob("*.py")])
    assert {"paris_paris", "paris_connection"} <= GAME_PACKAGES
    only_games = sorted(key for key, message in catalog(DEFAULT_LANGUAGE).items()
                        if message.area in SHARED_AREAS and not _asked(shared_code, key))
    assert only_games == []
