"""Fixtures for every test directory (this file also puts tests/ on sys.path, so ``import tinygame`` works)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from animation_stand_in import draw_stand_in
from tinygame import GAME, registered

from bot.service.posts import animation


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_animation: the test looks at the whole-game animation, so its "
                                       "service draws it for real (tests/animation_stand_in.py)")


@pytest.fixture(autouse=True)
def animation_stand_in(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole-game animation as a one-frame stand-in, unless the test is marked ``real_animation``."""
    if request.node.get_closest_marker("real_animation") is None:
        monkeypatch.setattr(animation, "draw", draw_stand_in)


@pytest.fixture
def tiny_game() -> Iterator[object]:
    """Tiny Hands (tests/tinygame) in every registry for one test: the bot can host it."""
    with registered():
        yield GAME
