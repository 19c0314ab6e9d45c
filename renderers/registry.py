"""Every game's presenter, by game id (the renderers' counterpart of engine/registry.py)."""

from __future__ import annotations

import importlib
from types import ModuleType

from .papa_paolo.presenter import PRESENTER as PAPA_PAOLO
from .paris_connection.presenter import PRESENTER as PARIS_CONNECTION
from .paris_paris.presenter import PRESENTER as PARIS_PARIS
from .presenter import Presenter

PRESENTERS: dict[str, Presenter] = {p.game_id: p for p in (PARIS_PARIS, PARIS_CONNECTION, PAPA_PAOLO)}


def sample_modules() -> dict[str, ModuleType]:
    """Each game's ``samples`` module (its gallery and bench pictures), found beside its presenter."""
    return {game_id: importlib.import_module(type(p).__module__.rsplit(".", 1)[0] + ".samples")
            for game_id, p in PRESENTERS.items()}
