"""Settings from the environment, with a git-ignored ``.env`` file as a fallback.

No dependency: ``.env`` is read as ``KEY=value`` lines (``#`` comments, blank lines,
an optional ``export`` prefix and matching single or double quotes around the value
are allowed). A variable set in the real environment always wins over ``.env``, so
an operator can override one value without editing the file. Every adapter (Telegram,
Discord, the terminal) reads its settings through ``setting``/``int_setting``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

DEFAULT_ENV_FILE = ".env"


class ConfigError(ValueError):
    """A required setting is missing or a value cannot be used."""


def parse_env(text: str) -> dict[str, str]:
    """The ``KEY=value`` pairs of a ``.env`` text (later lines win)."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if key.startswith("export "):
            key = key[len("export "):].strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            # an unquoted value may carry a trailing comment
            value = value.split(" #", 1)[0].rstrip()
        if key:
            values[key] = value
    return values


def load_env_file(path: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The pairs in ``path`` (default: ``$PARIS_PARIS_ENV_FILE`` or ``./.env``); {} if absent."""
    target = Path(path or os.environ.get("PARIS_PARIS_ENV_FILE") or DEFAULT_ENV_FILE)
    try:
        return parse_env(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


class Settings:
    """A read-only view: the process environment first, then the ``.env`` pairs."""

    def __init__(self, environ: Mapping[str, str] | None = None, env_file: Mapping[str, str] | None = None):
        self._environ = os.environ if environ is None else environ
        self._file = load_env_file() if env_file is None else env_file

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of ``name``; an empty value counts as unset."""
        for source in (self._environ, self._file):
            value = source.get(name)
            if value is not None and value.strip() != "":
                return value.strip()
        return default

    def require(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise ConfigError(f"{name} is not set: put it in the environment or in .env (see .env.example)")
        return value

    def get_int(self, name: str, default: int | None = None) -> int | None:
        value = self.get(name)
        if value is None:
            return default
        try:
            return int(value)
        except ValueError:
            raise ConfigError(f"{name} must be a whole number, not {value!r}") from None


def settings(environ: Mapping[str, str] | None = None, env_file: Mapping[str, str] | None = None) -> Settings:
    """Today's settings (reads ``.env`` afresh each call, so it is cheap to call once at startup)."""
    return Settings(environ, env_file)


def setting(name: str, default: str | None = None) -> str | None:
    """One setting from the environment or ``.env``."""
    return settings().get(name, default)


def int_setting(name: str, default: int | None = None) -> int | None:
    """One whole-number setting from the environment or ``.env``."""
    return settings().get_int(name, default)


def game_defaults(source: Settings | None = None) -> dict[str, str]:
    """Option defaults for new chats, from PARIS_PARIS_LANGUAGE, PARIS_PARIS_FINAL_TOURS,
    PARIS_PARIS_REMINDER_MINUTES, PARIS_PARIS_DEADLINE_MINUTES and PARIS_PARIS_AI_LEVEL (unset ones
    keep the built-in)."""
    source = source or settings()
    names = {"language": "PARIS_PARIS_LANGUAGE", "final_tours": "PARIS_PARIS_FINAL_TOURS",
             "reminder_minutes": "PARIS_PARIS_REMINDER_MINUTES", "deadline_minutes": "PARIS_PARIS_DEADLINE_MINUTES",
             "ai_level": "PARIS_PARIS_AI_LEVEL"}
    return {key: value for key, name in names.items() if (value := source.get(name))}


def ai_seconds(source: Settings | None = None) -> float | None:
    """Seconds a searching AI level may think per move in chat games, from PARIS_PARIS_AI_SECONDS
    (None when unset: each game's default, 1 s). Chat games are asynchronous, nobody watches
    the clock, so an operator may give the strong AI more time (it plays better with it)."""
    source = source or settings()
    value = source.get("PARIS_PARIS_AI_SECONDS")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= 600:
        raise ConfigError(f"PARIS_PARIS_AI_SECONDS must be a number of seconds above 0 (at most 600), "
                          f"not {value!r}")
    return seconds


def database_target(source: Settings | None = None, default: str = "paris-paris.sqlite3") -> str:
    """Where the games live: PARIS_PARIS_DATABASE_URL (``postgresql://...`` or a SQLite path),
    else the SQLite file PARIS_PARIS_DB, else ``default``. Give the result to
    ``bot.service.storage.storage_for`` / ``open_storage``."""
    source = source or settings()
    return source.get("PARIS_PARIS_DATABASE_URL") or source.get("PARIS_PARIS_DB") or default
