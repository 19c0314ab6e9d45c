"""Where the terminal game keeps its files when the player names none."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR = "paris-paris"
DB_NAME = "games.sqlite3"
DEFAULT_MAPS_DIR = "paris-paris-maps"


def user_data_dir(environ: dict[str, str] | None = None, platform: str | None = None) -> Path:
    """The per-user data folder for this app, following each system's convention.

    Linux and other Unix: ``$XDG_DATA_HOME/paris-paris`` (default ``~/.local/share``);
    macOS: ``~/Library/Application Support/paris-paris``; Windows: ``%APPDATA%\\paris-paris``.
    """
    env = os.environ if environ is None else environ
    system = sys.platform if platform is None else platform
    if system.startswith("win"):
        base = env.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    elif system == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR


def default_db_path(environ: dict[str, str] | None = None, platform: str | None = None) -> Path:
    """The SQLite file of terminal games: ``$PARIS_PARIS_DB`` if set, else in the data folder."""
    env = os.environ if environ is None else environ
    override = env.get("PARIS_PARIS_DB")
    if override:
        return Path(override).expanduser()
    return user_data_dir(env, platform) / DB_NAME
