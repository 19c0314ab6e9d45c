"""Fixtures for the Telegram adapter tests: the fake Bot API server on 127.0.0.1."""

from __future__ import annotations

import pytest
from fakebotapi import FakeBotAPI


@pytest.fixture
async def api():
    async with FakeBotAPI(max_poll=0.3) as server:
        yield server
