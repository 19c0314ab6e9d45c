"""Fixtures for the Telegram adapter tests: the fake Bot API server on 127.0.0.1."""

from __future__ import annotations

import pytest
from fakebotapi import FakeBotAPI
from tgharness import Bot


@pytest.fixture
async def api():
    async with FakeBotAPI(max_poll=0.3) as server:
        yield server


@pytest.fixture
async def bot(api, tmp_path):
    """The bot, started against the fake server with a fresh database; stopped afterwards."""
    running = Bot(api, str(tmp_path / "bot.sqlite3"))
    await running.start()
    yield running
    await running.stop()
