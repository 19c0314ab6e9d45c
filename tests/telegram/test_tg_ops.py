"""A Telegram bot without the board whose operator switched the numbers on serves /healthz and
/metrics alone, started and stopped with the bot (the real Application, the fake Bot API)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from fakebotapi import FakeBotAPI

from bot.service import GameService
from bot.telegram.app import build_application, runtime, start_application, stop_application
from bot.web.ops import PrometheusMetrics


async def test_without_the_board_the_health_and_metrics_routes_are_served_alone(tmp_path: Path) -> None:
    async with FakeBotAPI(max_poll=0.2) as api:
        service = await GameService.open(str(tmp_path / "games.sqlite3"), metrics=PrometheusMetrics())
        app = build_application(api.token, service=service, base_url=api.base_url,
                                base_file_url=api.base_file_url, ops=("127.0.0.1", 0))
        await start_application(app, poll_timeout=1)
        try:
            server = runtime(app).ops_server
            assert server is not None and runtime(app).board is None
            base = f"http://127.0.0.1:{server.port}"
            async with aiohttp.ClientSession() as session:
                async with session.get(base + "/healthz") as response:
                    assert response.status == 200 and (await response.text()).strip() == "ok"
                async with session.get(base + "/metrics") as response:
                    assert response.status == 200
                    assert "boardchat_games_running 0.0" in await response.text()
        finally:
            await stop_application(app)
            await service.close()
        assert runtime(app).ops_server is None
