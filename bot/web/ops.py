"""What an operator's tools read over HTTP, beside the board: ``/healthz`` and ``/metrics``.

  GET /healthz   200 "ok" while the service runs and its database answers, 503 otherwise:
                 for a container orchestrator's or a load balancer's health check, and for
                 ``boardchat health`` (which asks it at ``BOARDCHAT_WEB_URL``)
  GET /metrics   the service's numbers in the Prometheus text format, only when the operator
                 switched them on (``BOARDCHAT_METRICS``): see docs/deployment.md, "Numbers to
                 watch", for what each one means

Registered on the board's server with one line (``add_ops_routes``), or served alone when the
board is not (``serve_ops``). The service counts into a ``metrics.Metrics`` handed to it;
``PrometheusMetrics`` is the one that keeps the counts for ``/metrics`` (the engine, the service
and the adapters never import ``prometheus_client``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from bot.service.metrics import Metrics, Readings

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"
# Seconds from a press to its answer: most take milliseconds, a move with an AI's search a second
# or more; a busy bot shows in the upper buckets.
PRESS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class OpsService(Protocol):
    """What the ops routes ask of the service (``bot.service.GameService``)."""

    metrics: Metrics

    async def health(self) -> bool: ...
    async def readings(self) -> Readings: ...


class PrometheusMetrics(Metrics):
    """The service's numbers kept for ``/metrics`` in a registry of their own (not the library's
    global one: two services in one process, as in the tests, keep their counts apart)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.presses = Histogram("boardchat_press_seconds", "Seconds from a button press (or a choice on "
                                 "the board) to its answer", ["platform"], buckets=PRESS_BUCKETS, registry=r)
        self.moves = Counter("boardchat_moves", "Moves made in games (players' and AI seats')",
                             ["platform"], registry=r)
        self.sends = Counter("boardchat_messages_sent", "Messages of the outbox delivered", ["platform"], registry=r)
        self.refusals = Counter("boardchat_platform_refusals", "Sends the platform refused for going too "
                                "fast (HTTP 429)", ["platform"], registry=r)
        self.retries = Counter("boardchat_send_retries", "Sends rescheduled to be tried again (a refusal "
                               "or a transient failure)", ["platform"], registry=r)
        self.games = Gauge("boardchat_games_running", "Games under way (started, not over)", registry=r)
        self.backlog = Gauge("boardchat_outbox_backlog", "Messages committed and not yet delivered",
                             ["platform"], registry=r)
        self.backlog_age = Gauge("boardchat_outbox_oldest_seconds", "Seconds the oldest message not yet "
                                 "delivered has waited", ["platform"], registry=r)
        self.drawing = Gauge("boardchat_drawing_queue", "Pictures waiting to be drawn", registry=r)
        self.pages = Gauge("boardchat_pages_open", "Web board pages connected now", registry=r)

    def press_answered(self, platform: str, seconds: float) -> None:
        self.presses.labels(platform).observe(seconds)

    def moves_made(self, platform: str, count: int) -> None:
        self.moves.labels(platform).inc(count)

    def sent(self, platform: str) -> None:
        self.sends.labels(platform).inc()

    def refused(self, platform: str) -> None:
        self.refusals.labels(platform).inc()

    def retried(self, platform: str) -> None:
        self.retries.labels(platform).inc()

    def read(self, readings: Readings, pages_open: int) -> None:
        """Set the levels from the service's readings at the moment of a scrape."""
        self.games.set(readings.games_running)
        self.drawing.set(readings.drawing_queue)
        self.pages.set(pages_open)
        # A platform whose outbox emptied reads 0, not its last backlog.
        for gauge in (self.backlog, self.backlog_age):
            gauge.clear()
        for backlog in readings.backlogs:
            self.backlog.labels(backlog.platform).set(backlog.messages)
            self.backlog_age.labels(backlog.platform).set(backlog.oldest_seconds)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def add_ops_routes(app: web.Application, service: OpsService, pages_open: Callable[[], int] = lambda: 0) -> None:
    """``/healthz`` on ``app``, and ``/metrics`` when the service counts for Prometheus.
    ``pages_open``: how many board pages are connected (the board's hub)."""

    async def healthz(request: web.Request) -> web.Response:
        healthy = await service.health()
        return web.Response(text="ok\n" if healthy else "the database does not answer\n",
                            status=200 if healthy else 503, headers={"Cache-Control": "no-store"})

    app.router.add_get(HEALTH_PATH, healthz)
    metrics = service.metrics
    if isinstance(metrics, PrometheusMetrics):
        async def scrape(request: web.Request) -> web.Response:
            metrics.read(await service.readings(), pages_open())
            return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST,
                                                                    "Cache-Control": "no-store"})
        app.router.add_get(METRICS_PATH, scrape)


class OpsServer:
    """``/healthz`` and ``/metrics`` served alone, where no board is (``serve_ops``)."""

    def __init__(self, runner: web.AppRunner, host: str, port: int) -> None:
        self.runner = runner
        self.host = host
        self.port = port

    async def stop(self) -> None:
        await self.runner.cleanup()


async def serve_ops(service: OpsService, host: str, port: int) -> OpsServer:
    """Serve the ops routes on ``host:port`` (a bot without the board whose operator switched the
    numbers on: ``BOARDCHAT_METRICS``)."""
    app = web.Application()
    add_ops_routes(app, service)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    bound = runner.addresses[0][1]
    log.info("health and metrics: listening on %s:%s (%s, %s)", host, bound, HEALTH_PATH, METRICS_PATH)
    return OpsServer(runner, host, bound)
