"""``boardchat health``: is the bot able to serve its players? One line per check, exit 1 when
any fails (a container's health check, a monitoring probe, an operator setting up).

- database: it answers, its schema is this code's, and no message or timer is more than
  ``late`` seconds overdue (some process is delivering and firing);
- board: with ``BOARDCHAT_WEB_URL`` set, its ``/healthz`` answers 200 there (or, ``local``,
  where the board listens on this machine: a container asks itself, not the way in from outside);
- Mini App: whether ``BOARDCHAT_TELEGRAM_APP`` names the bot's Mini App (without it Telegram
  groups get a plain link to the board: said, not a failure; a malformed name fails).

``as_json`` prints one JSON line with what it found instead (for monitoring).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .config import ConfigError, database_target, default_database, settings, web_settings
from .product import env_name
from .terminal.paths import default_db_path

BOARD_TIMEOUT = 5.0         # seconds the board may take to answer: it answers in milliseconds when up
HEALTH_PATH = "/healthz"    # bot.web.ops.HEALTH_PATH (not imported: the check needs no aiohttp)


@dataclass
class Check:
    """One check's answer: ``ok`` None when it does not apply (said, not a failure)."""

    name: str
    ok: bool | None
    line: str
    details: dict = field(default_factory=dict)


def run_health(target: str | None, late: float, *, local: bool = False, as_json: bool = False) -> int:
    checks = [asyncio.run(database_check(target, late)), *board_checks(local)]
    if as_json:
        report: dict = {}
        for check in checks:
            report.update(check.details)
        failed = [c for c in checks if c.ok is False]
        report["ok"] = not failed
        if failed:
            report["error"] = "; ".join(c.details.get("error", c.line) for c in failed)
        print(json.dumps(report))
    else:
        for check in checks:
            mark = "ok" if check.ok else "--" if check.ok is None else "FAILED"
            print(f"{check.name}: {mark}: {check.line}")
    return 1 if any(c.ok is False for c in checks) else 0


async def database_check(target: str | None, late: float) -> Check:
    from .service.storage import SCHEMA_VERSION, is_postgres_url, storage_for

    # Nothing named: the chat bots' default file, which lies in the folder they run in.
    by_default = target is None and database_target() == default_database()
    target = target or database_target()
    kind = "postgresql" if is_postgres_url(target) else "sqlite"
    report: dict = {"database": kind}
    storage = storage_for(target)
    try:
        # Never create nor migrate: a mistyped path must not pass as an empty, healthy database.
        await asyncio.wait_for(storage.open_existing(), timeout=10)
        report["schema"] = await storage.schema_version()
        if report["schema"] == 0:
            report["error"] = "empty database: no bot has set it up (a mistyped path or URL?)"
        elif report["schema"] != SCHEMA_VERSION:
            report["error"] = f"schema {report['schema']}, this code needs {SCHEMA_VERSION}"
        else:
            now = time.time()
            report["late_messages"], report["late_timers"] = await storage.late_work(now - late, now)
            if report["late_messages"] or report["late_timers"]:
                report["error"] = (f"{report['late_messages']} messages and {report['late_timers']} timers "
                                   f"overdue for more than {late:g} s: no process is keeping up")
    except FileNotFoundError as exc:
        report["error"] = _no_default_database(target) if by_default else f"{type(exc).__name__}: {exc}"[:300]
    except Exception as exc:  # noqa: BLE001 - any failure is unhealthy, and said so
        report["error"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        with contextlib.suppress(Exception):
            await storage.close()
    if "error" in report:
        return Check("database", False, report["error"], report)
    return Check("database", True, f"{kind} answers, schema {report['schema']}, nothing overdue", report)


def board_checks(local: bool) -> list[Check]:
    """The board's and the Mini App's checks, from BOARDCHAT_WEB_* and BOARDCHAT_TELEGRAM_APP."""
    url_name, app_name = env_name("WEB_URL"), env_name("TELEGRAM_APP")
    try:
        web = web_settings(settings())
    except ConfigError as exc:
        return [Check("board", False, str(exc), {"board": "misconfigured", "error": str(exc)})]
    if web is None or web.public_url is None:
        return [Check("board", None, f"{url_name} is not set: no board is served, chats get no link to it",
                      {"board": "off"}),
                Check("Mini App", None, f"{app_name} is not set (it needs the board)", {"mini_app": None})]
    base = f"http://{_local_host(web.host)}:{web.port}" if local else web.public_url
    board = probe(base + HEALTH_PATH)
    if web.telegram_app:
        app = Check("Mini App", True, f"{app_name}={web.telegram_app}: Telegram groups open the board in the bot's "
                    f"Mini App (BotFather's URL for it: {web.public_url}/board)", {"mini_app": web.telegram_app})
    else:
        app = Check("Mini App", None, f"{app_name} is not set: Telegram groups get a plain link to the board "
                    "(docs/telegram.md, \"The board in Telegram\")", {"mini_app": None})
    return [board, app]


def probe(url: str, timeout: float = BOARD_TIMEOUT) -> Check:
    """GET ``url`` (the board's health route): ok when it answers 200 within ``timeout``."""
    started = time.perf_counter()
    details: dict = {"board": url}
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:     # noqa: S310 - the operator's own URL
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        details["error"] = f"the board does not answer at {url}: {reason}"
        return Check("board", False, details["error"], details)
    seconds = time.perf_counter() - started
    if status != 200:
        details["error"] = f"the board answers {status} at {url} (its database does not answer?)"
        return Check("board", False, details["error"], details)
    return Check("board", True, f"answers at {url} in {seconds:.2f} s", details)


def _local_host(host: str) -> str:
    """Where to reach a server listening on ``host`` from this machine."""
    return "127.0.0.1" if host in ("0.0.0.0", "", "::") else host


def _no_default_database(target: str) -> str:
    """Why ``health`` found no file when none was named: the chat bots' default is relative to
    the folder they run in, and the terminal's games live elsewhere; both are named."""
    return (f"no database file at {Path(target).absolute()}: the chat bots' default, {target} in the folder "
            f"they run in. Terminal games are in {default_db_path()}. Name the bots' database with --db PATH "
            f"or {env_name('DATABASE_URL')} (docs/deployment.md)")

