"""Building, starting and stopping the Telegram bot.

``build_application`` wires a python-telegram-bot ``Application`` to a GameService:
handlers, a ``TelegramTransport``, and the service's delivery loop, started after startup
(``post_init``) and stopped before the HTTP client closes (``post_stop``; a send in flight
is let finish). That loop also runs the service's timers (reminders and deadlines). ``run_telegram``
is the entry point behind ``boardchat telegram``: long polling by default, a webhook
server when ``TELEGRAM_WEBHOOK_URL`` is set. With ``BOARDCHAT_WEB_URL`` set the web board
(``bot.web``) is served too, started with the service and stopped before it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from telegram import Bot, Update
from telegram.error import InvalidToken, NetworkError
from telegram.ext import Application, ApplicationBuilder, Updater

from bot.config import ConfigError
from bot.contract import GameServiceAPI
from bot.outage import Outage
from bot.product import COMMAND
from bot.telegram.commands import register_commands
from bot.telegram.handlers import AdminCache, TelegramHandlers
from bot.telegram.settings import TelegramSettings
from bot.telegram.transport import TelegramTransport

if TYPE_CHECKING:
    from bot.web.ops import OpsServer
    from bot.web.server import WebBoard, WebSettings

log = logging.getLogger(__name__)

RUNTIME_KEY = "boardchat"        # our state in the Application's bot_data (in memory only)
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
RESTART_DELAY = 5.0
CONCURRENT_UPDATES = 16
REACH_FIRST_DELAY = 1.0      # seconds before the first retry when Telegram cannot be reached
REACH_MAX_DELAY = 60.0       # ... doubling up to this


@dataclass
class Runtime:
    """What the running bot holds besides the Application."""

    service_factory: Callable[[], Awaitable[GameServiceAPI]] | None
    service: GameServiceAPI | None = None
    owns_service: bool = False
    transport: TelegramTransport | None = None
    register_commands: bool = True
    tasks: list[asyncio.Task] = field(default_factory=list)
    web: WebSettings | None = None      # the web board's settings: served while the bot runs
    board: WebBoard | None = None
    ops: tuple[str, int] | None = None  # where /healthz and /metrics listen alone (no board, metrics on)
    ops_server: OpsServer | None = None

    def require_service(self) -> GameServiceAPI:
        if self.service is None:
            raise RuntimeError("the game service is not open yet")
        return self.service


def runtime(application: Application) -> Runtime:
    return application.bot_data[RUNTIME_KEY]


def build_application(token: str, *, service: GameServiceAPI | None = None,
                      service_factory: Callable[[], Awaitable[GameServiceAPI]] | None = None,
                      base_url: str | None = None, base_file_url: str | None = None,
                      register_menu: bool = True,
                      admin_cache: AdminCache | None = None, web: WebSettings | None = None,
                      ops: tuple[str, int] | None = None) -> Application:
    """An Application for ``token`` playing on ``service`` (or one opened by ``service_factory``
    at startup and closed at shutdown). ``base_url`` points at another Bot API server (tests).
    ``web``: serve the web board too (the service then offers its links: ``GameService.open``'s
    ``web_url``), and render its Mini App's links; ``ops``: without the board, serve /healthz and
    /metrics alone at this host and port (``bot.web.ops``)."""
    if (service is None) == (service_factory is None):
        raise ValueError("give exactly one of service and service_factory")
    builder = ApplicationBuilder().token(token)
    if base_url:
        builder = builder.base_url(base_url)
    if base_file_url:
        builder = builder.base_file_url(base_file_url)
    # Updates from different groups are handled side by side; the service serialises each chat.
    builder = builder.concurrent_updates(CONCURRENT_UPDATES)
    builder = builder.post_init(_post_init).post_stop(_post_stop).post_shutdown(_post_shutdown)
    application = builder.build()
    state = Runtime(service_factory=service_factory, service=service, register_commands=register_menu, web=web,
                    ops=ops)
    application.bot_data[RUNTIME_KEY] = state
    TelegramHandlers(state.require_service, lambda: application.bot.username, admin_cache,
                     mini_app=web.telegram_app if web else None).register(application)
    return application


# ---- lifecycle hooks ------------------------------------------------------------------

async def _post_init(application: Application) -> None:
    state = runtime(application)
    if state.service is None and state.service_factory is not None:
        state.service = await state.service_factory()
        state.owns_service = True
    service = state.require_service()
    state.transport = transport = TelegramTransport(application.bot, application.bot.username,
                                                    state.web.telegram_app if state.web else None)
    if state.web is not None:
        # imported late: only a bot that serves the board needs aiohttp
        from bot.web.server import serve_board

        state.board = await serve_board(service, state.web)
    elif state.ops is not None:
        from bot.web.ops import OpsService, serve_ops

        # The GameService behind the contract answers the ops routes too (health, readings).
        state.ops_server = await serve_ops(cast("OpsService", service), *state.ops)
    if state.register_commands:
        await register_commands(application.bot)
    # run_delivery also starts the service's timer loop: the process runs exactly one.
    state.tasks = [
        asyncio.create_task(_supervised("delivery", lambda: service.run_delivery(transport)),
                            name="telegram-delivery"),
    ]
    log.info("telegram: @%s is up: add it to a group and send /newgame there", application.bot.username)


async def _post_stop(application: Application) -> None:
    """Stop the background loops and the web board while the bot's HTTP client is still open."""
    state = runtime(application)
    tasks, state.tasks = state.tasks, []
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    board, state.board = state.board, None
    if board is not None:
        await board.stop()
    ops, state.ops_server = state.ops_server, None
    if ops is not None:
        await ops.stop()


async def _post_shutdown(application: Application) -> None:
    state = runtime(application)
    if state.owns_service and state.service is not None:
        await state.service.close()
        state.service = None
        state.owns_service = False


async def _supervised(name: str, loop: Callable[[], Awaitable[None]]) -> None:
    """Run a background loop forever: a crash is logged and the loop restarts after a pause."""
    while True:
        try:
            await loop()
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("telegram: the %s loop failed; restarting in %.0fs", name, RESTART_DELAY)
            await asyncio.sleep(RESTART_DELAY)


# ---- running without run_polling (tests, embedding) -----------------------------------

async def start_application(application: Application, *, poll_timeout: int = 10,
                            poll_interval: float = 0.0, webhook: dict | None = None) -> None:
    """What ``run_polling``/``run_webhook`` do before they block, without taking over the event
    loop: long polling, or the webhook server when ``webhook`` (see ``webhook_options``) is given."""
    await application.initialize()
    if application.post_init:
        await application.post_init(application)
    if webhook is not None:
        await _updater(application).start_webhook(**webhook, allowed_updates=ALLOWED_UPDATES,
                                                  drop_pending_updates=False)
    else:
        await _updater(application).start_polling(poll_interval=poll_interval, timeout=poll_timeout,
                                                  allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False)
    await application.start()


def _updater(application: Application) -> Updater:
    """The application's updater: ``build_application`` keeps the builder's (it sets none of its own)."""
    assert application.updater is not None, "built with ApplicationBuilder's default updater"
    return application.updater


def webhook_options(config: TelegramSettings) -> dict:
    """Where the local webhook server listens and what Telegram is told (setWebhook)."""
    return {"listen": config.webhook_listen, "port": config.webhook_port, "url_path": config.webhook_path,
            "webhook_url": config.webhook_url, "secret_token": config.secret_token}


async def stop_application(application: Application) -> None:
    """What ``run_polling`` does after it is told to stop."""
    if _updater(application).running:
        await _updater(application).stop()
    if application.running:
        await application.stop()
        if application.post_stop:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown:
        await application.post_shutdown(application)


# ---- the entry point ------------------------------------------------------------------

def _open_service_factory(config: TelegramSettings) -> Callable[[], Awaitable[GameServiceAPI]]:
    async def open_service() -> GameServiceAPI:
        from bot.config import (
            ai_seconds,
            drawing_processes_setting,
            game_defaults,
            live_matches_setting,
            service_metrics,
        )
        from bot.service import GameService  # imported late: the adapter itself needs only the contract

        return await GameService.open(config.db_path, platforms=("telegram",), defaults=game_defaults(),
                                      metrics=service_metrics(),
                                      ai_seconds=ai_seconds(), owner=config.instance, send_share=1 / config.senders,
                                      drawing_processes=drawing_processes_setting(), live_matches=live_matches_setting(),
                                      web_url=config.web.public_url if config.web else None,
                                      telegram_app=config.web.telegram_app if config.web else None)
    return open_service


async def wait_for_telegram(token: str, base_url: str | None = None) -> None:
    """Return once the Bot API answers (getMe), so a bot started before the network comes up
    by itself: retried after 1, 2, 4 ... at most 60 s, told in the log once, every few minutes
    while it lasts, and when Telegram answers (``Outage``).
    A refused token raises ``InvalidToken``."""
    outage = Outage(log, f"Telegram at {base_url or 'api.telegram.org'}")
    delay = REACH_FIRST_DELAY
    while True:
        bot = Bot(token, base_url=base_url) if base_url else Bot(token)
        try:
            async with bot:          # initialize() asks getMe
                outage.reached()
                return
        except NetworkError as exc:  # timeouts included
            outage.failed(exc.message)
        await asyncio.sleep(delay)
        delay = min(delay * 2, REACH_MAX_DELAY)


def _reach(loop: asyncio.AbstractEventLoop, config: TelegramSettings) -> bool:
    """Wait (on ``loop``) until Telegram answers; False when stopped meanwhile (Ctrl+C, SIGTERM)."""
    waiting = loop.create_task(wait_for_telegram(config.token, config.api_base_url))
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, waiting.cancel)
    try:
        loop.run_until_complete(waiting)
        return True
    except (KeyboardInterrupt, asyncio.CancelledError):
        waiting.cancel()
        with contextlib.suppress(BaseException):
            loop.run_until_complete(waiting)
        return False
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGTERM)


def run_telegram(config: TelegramSettings | None = None) -> int:
    """Run the Telegram bot until interrupted (``boardchat telegram``); the exit status."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)    # it logs every request, token included
    try:
        config = config or TelegramSettings.from_env()
    except ConfigError as exc:
        print(f"{COMMAND} telegram: {exc}", file=sys.stderr)
        return 2
    # One event loop for the wait and the bot (run_polling/run_webhook use and close it).
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        if not _reach(loop, config):
            log.info("stopped")
            return 0
        from bot.config import ops_address

        application = build_application(config.token, service_factory=_open_service_factory(config),
                                        base_url=config.api_base_url, web=config.web,
                                        ops=ops_address() if config.metrics and config.web is None else None)
        if config.webhook_url:
            options = webhook_options(config)
            log.info("telegram: webhook mode, listening on %s:%s/%s", options["listen"], options["port"],
                     options["url_path"])
            application.run_webhook(**options, allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False)
        else:
            log.info("telegram: long polling")
            application.run_polling(allowed_updates=ALLOWED_UPDATES, timeout=config.poll_timeout,
                                    drop_pending_updates=False)
        log.info("stopped")          # Ctrl+C or SIGTERM ended the run, as the Discord bot says too
    except InvalidToken:
        print(f"{COMMAND} telegram: Telegram refused TELEGRAM_BOT_TOKEN; copy the token from BotFather "
              "(/mybots -> API Token)", file=sys.stderr)
        return 2
    finally:
        if not loop.is_closed():
            loop.close()
    return 0
