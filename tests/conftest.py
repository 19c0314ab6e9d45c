"""Fixtures for every test directory (this file also puts tests/ on sys.path, so ``import tinygame`` works)."""

from __future__ import annotations

import pytest
from tinygame import GAME, registered


@pytest.fixture
def tiny_game():
    """Tiny Hands (tests/tinygame) in every registry for one test: the bot can host it."""
    with registered():
        yield GAME
