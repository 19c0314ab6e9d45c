"""Fixtures for the Discord adapter tests: the real GameService on a temporary SQLite
file, the real BoardchatBot, and simcord's offline Discord around it."""

from __future__ import annotations

import pytest
from discord_kit import Table

from bot.discord import BoardchatBot
from bot.service import GameService


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "paris.sqlite3")


@pytest.fixture
def clock():
    """The service's clock: the real one (a test module may put in a ``ManualClock``)."""
    return None


@pytest.fixture
async def service(db_path, clock):
    opened = await GameService.open(db_path, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def simcord_bot(service):
    # Deliver right after each interaction instead of the background loop, so simcord's
    # settling sees every message the bot posts (the loop's idle wait is not settleable).
    return BoardchatBot(service, background_delivery=False)


@pytest.fixture
def table(simcord_env):
    return Table(simcord_env)
