"""Where the terminal game keeps its files when the player names none."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from bot.config import Settings
from bot.product import DATA_FOLDER, MAPS_FOLDER, OLD_DATA_FOLDER, env_name

APP_DIR = DATA_FOLDER
DB_NAME = "games.sqlite3"
DEFAULT_MAPS_DIR = MAPS_FOLDER


def user_data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The per-user data folder for this app, following each system's convention.

    Linux and other Unix: ``$XDG_DATA_HOME/boardchat`` (default ``~/.local/share``);
    macOS: ``~/Library/Application Support/boardchat``; Windows: ``%APPDATA%\\boardchat``.
    An earlier version's folder (``paris-paris``) is used while it exists and the new one does
    not, so its games can still be resumed.
    """
    env = os.environ if environ is None else environ
    system = sys.platform if platform is None else platform
    if system.startswith("win"):
        base = env.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    elif system == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder, old = Path(base) / APP_DIR, Path(base) / OLD_DATA_FOLDER
    return old if old.is_dir() and not folder.exists() else folder


def default_db_path(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The SQLite file of terminal games: ``$BOARDCHAT_DB`` if set, else in the data folder."""
    env = os.environ if environ is None else environ
    override = Settings(env, {}).get(env_name("DB"))
    if override:
        return Path(override).expanduser()
    return user_data_dir(env, platform) / DB_NAME
