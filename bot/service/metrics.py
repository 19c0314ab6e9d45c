"""What the service tells an operator's monitoring, through an object handed to it.

The service, the delivery and the adapters call a ``Metrics``; this base class does nothing,
and is what runs unless an operator switches the numbers on (``BOARDCHAT_METRICS``). The
Prometheus one (``bot.web.ops.PrometheusMetrics``) counts into the ``prometheus_client`` library
and is read at ``/metrics``; nothing here imports that library, so the engine, the service and
the adapters run without it.

Events are told as they happen (a press answered, moves made, a platform's refusal); levels
(games running, the outbox's backlog, the drawing queue) are read when asked for
(``GameService.readings``; the web board's pages open, from its hub), so nothing has to keep
them up to date.
"""

from __future__ import annotations

from dataclasses import dataclass


class Metrics:
    """Does nothing: the default. A subclass counts what it is told."""

    def press_answered(self, platform: str, seconds: float) -> None:
        """A button press (or a choice on the web board) answered after ``seconds``."""

    def moves_made(self, platform: str, count: int) -> None:
        """``count`` moves committed in a game of ``platform`` (players' and AI seats' alike)."""

    def sent(self, platform: str) -> None:
        """A message of the outbox delivered to ``platform``."""

    def refused(self, platform: str) -> None:
        """``platform`` refused a send for going too fast (HTTP 429): the pacing fell short."""

    def retried(self, platform: str) -> None:
        """A send rescheduled to be tried again (a refusal, or a transient failure)."""


NO_METRICS = Metrics()


@dataclass(frozen=True, slots=True)
class Backlog:
    """A platform's outbox now: messages not yet delivered, and how long the oldest has waited."""

    platform: str
    messages: int
    oldest_seconds: float


@dataclass(frozen=True, slots=True)
class Readings:
    """The service's levels at one moment (``GameService.readings``)."""

    games_running: int
    backlogs: tuple[Backlog, ...]
    drawing_queue: int
