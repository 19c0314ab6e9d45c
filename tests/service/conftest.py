from __future__ import annotations

import pytest
from service_helpers import FakeTransport

from bot.service import GameService, ManualClock


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
async def service(db_path, clock):
    svc = await GameService.open(db_path, clock=clock)
    yield svc
    await svc.close()


@pytest.fixture
def transport():
    return FakeTransport()
