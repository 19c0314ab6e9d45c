"""What an operator watches: ``/metrics`` (Prometheus text, off by default), ``/healthz``, and
``boardchat health`` asking the board's health route (a local server only)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families
from service_helpers import FakeTransport, chat, play_turn, start_game, user

from bot.cli import main
from bot.config import ConfigError, Settings, metrics_setting, service_metrics
from bot.contract import RetryLater
from bot.service import GameService, ManualClock
from bot.web.ops import PrometheusMetrics, add_ops_routes
from bot.web.server import WebSettings, make_app


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample of a scrape: (name, its labels) -> value."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def client_for(service: GameService, pages_open: int = 0) -> TestClient:
    app = web.Application()
    add_ops_routes(app, service, lambda: pages_open)
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


async def test_the_service_counts_what_an_operator_watches(tmp_path: Path) -> None:
    metrics = PrometheusMetrics()
    service = await GameService.open(str(tmp_path / "games.sqlite3"), clock=ManualClock(), metrics=metrics)
    client = await client_for(service, pages_open=3)
    try:
        c, ann, bob = chat(), user("Ann"), user("Bob")
        await start_game(service, c, [ann, bob])
        await play_turn(service, c, {ann.id: ann, bob.id: bob})
        transport = FakeTransport()
        transport.failures = [RetryLater(0, "flood control", refused=True), RetryLater(0, "a network error")]
        for _ in range(4):
            await service.deliver_pending(transport)
            service.clock.advance(1)
        response = await client.get("/metrics")
        assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
        got = samples(await response.text())
    finally:
        await client.close()
        await service.close()
    fake = (("platform", "fake"),)
    assert got["boardchat_press_seconds_count", fake] >= 1
    assert got["boardchat_moves_total", fake] >= 1
    assert got["boardchat_platform_refusals_total", fake] == 1           # the 429, not the network error
    assert got["boardchat_send_retries_total", fake] == 2
    assert got["boardchat_messages_sent_total", fake] == len(transport.sent) > 0
    assert got["boardchat_games_running", ()] == 1
    assert got["boardchat_drawing_queue", ()] == 0
    assert got["boardchat_pages_open", ()] == 3
    assert ("boardchat_outbox_backlog", fake) not in got or got["boardchat_outbox_backlog", fake] == 0


async def test_the_boards_own_metrics_route_counts_its_open_pages(tmp_path: Path) -> None:
    """The board's app serves /metrics too, the pages open read at each scrape (not once, when
    the app was made: a number where a function is due failed every scrape)."""
    service = await GameService.open(str(tmp_path / "games.sqlite3"), clock=ManualClock(),
                                     metrics=PrometheusMetrics())
    client = TestClient(TestServer(make_app(service, WebSettings())))
    await client.start_server()
    try:
        response = await client.get("/metrics")
        assert response.status == 200
        assert samples(await response.text())["boardchat_pages_open", ()] == 0
    finally:
        await client.close()
        await service.close()


async def test_the_outbox_backlog_and_its_age_are_read_at_each_scrape(tmp_path: Path) -> None:
    clock = ManualClock()
    service = await GameService.open(str(tmp_path / "games.sqlite3"), clock=clock, metrics=PrometheusMetrics())
    client = await client_for(service)
    try:
        await start_game(service, chat(), [user("Ann"), user("Bob")])     # its messages not delivered
        clock.advance(42)
        got = samples(await (await client.get("/metrics")).text())
    finally:
        await client.close()
        await service.close()
    assert got["boardchat_outbox_backlog", (("platform", "fake"),)] > 0
    assert got["boardchat_outbox_oldest_seconds", (("platform", "fake"),)] >= 42


async def test_metrics_are_off_by_default_and_the_health_route_says_whether_the_database_answers(
        tmp_path: Path) -> None:
    service = await GameService.open(str(tmp_path / "games.sqlite3"))
    client = await client_for(service)
    try:
        assert (await client.get("/metrics")).status == 404
        healthy = await client.get("/healthz")
        assert healthy.status == 200 and (await healthy.text()).strip() == "ok"
        await service.storage.close()                 # the database goes away
        assert (await client.get("/healthz")).status == 503
    finally:
        await client.close()
        await service.close()


def test_the_metrics_setting_is_off_unless_switched_on() -> None:
    assert metrics_setting(Settings({}, {})) is False and service_metrics(Settings({}, {})) is None
    assert metrics_setting(Settings({"BOARDCHAT_METRICS": "on"}, {})) is True
    assert isinstance(service_metrics(Settings({}, {"BOARDCHAT_METRICS": "1"})), PrometheusMetrics)
    with pytest.raises(ConfigError, match="BOARDCHAT_METRICS must be on or off"):
        metrics_setting(Settings({"BOARDCHAT_METRICS": "maybe"}, {}))


@pytest.fixture
def board_health(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A real service's health route served on a local port, in a thread of its own (the health
    command runs its own event loop): the board's address and its database."""
    db = str(tmp_path / "games.sqlite3")
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    state: dict = {}

    async def up() -> None:
        state["service"] = await GameService.open(db)
        app = web.Application()
        add_ops_routes(app, state["service"])
        state["runner"] = runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        state["port"] = runner.addresses[0][1]

    def run() -> None:
        loop.run_until_complete(up())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    yield f"http://127.0.0.1:{state['port']}", db

    async def down() -> None:
        await state["runner"].cleanup()
        await state["service"].close()
    asyncio.run_coroutine_threadsafe(down(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def test_health_says_the_board_answers_and_whether_the_mini_app_is_named(
        board_health: tuple[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    url, db = board_health
    monkeypatch.setenv("BOARDCHAT_WEB_URL", url)
    monkeypatch.delenv("BOARDCHAT_TELEGRAM_APP", raising=False)
    assert main(["health", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["database", "board", "Mini App"]
    assert lines[1].startswith(f"board: ok: answers at {url}/healthz")
    assert lines[2].startswith("Mini App: --: BOARDCHAT_TELEGRAM_APP is not set")
    monkeypatch.setenv("BOARDCHAT_TELEGRAM_APP", "board")
    assert main(["health", "--db", db]) == 0
    assert "Mini App: ok: BOARDCHAT_TELEGRAM_APP=board" in capsys.readouterr().out


def test_health_fails_in_one_line_when_the_board_does_not_answer(
        board_health: tuple[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    url, db = board_health
    monkeypatch.setenv("BOARDCHAT_WEB_URL", "http://127.0.0.1:9")      # nothing listens there
    assert main(["health", "--db", db]) == 1
    out = capsys.readouterr().out
    assert "board: FAILED: the board does not answer at http://127.0.0.1:9/healthz" in out
    assert "database: ok" in out
    monkeypatch.setenv("BOARDCHAT_WEB_URL", "https://board.example.org")     # never asked: --local asks here
    monkeypatch.setenv("BOARDCHAT_WEB_PORT", url.rsplit(":", 1)[1])
    assert main(["health", "--db", db, "--local"]) == 0
    assert f"board: ok: answers at http://127.0.0.1:{url.rsplit(':', 1)[1]}/healthz" in capsys.readouterr().out
