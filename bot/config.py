"""Settings from the environment, with a git-ignored ``.env`` file as a fallback.

No dependency: ``.env`` is read as ``KEY=value`` lines (``#`` comments, blank lines,
an optional ``export`` prefix and matching single or double quotes around the value
are allowed). A variable set in the real environment always wins over ``.env``, so
an operator can override one value without editing the file. Every adapter (Telegram,
Discord, the terminal) reads its settings through ``setting``/``int_setting``.

Our own variables carry the product's prefix (``BOARDCHAT_DB``, see bot/product.py). The names
of earlier versions (``PARIS_PARIS_DB``) are still read, so an existing deployment keeps working;
when both are set the new one wins, and ``renamed_notice`` says at start which names to change.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from . import product
from .games import KINDS
from .product import env_name, env_names
from .service.storage.store import LIVE_MATCHES
from .service.table.chat_settings import BOT_SETTINGS

if TYPE_CHECKING:
    from bot.service.metrics import Metrics
    from bot.web.connections import ConnectionLimits
    from bot.web.guard import VisitorLimits
    from bot.web.server import WebSettings

DEFAULT_ENV_FILE = ".env"


class ConfigError(ValueError):
    """A required setting is missing or a value cannot be used."""


def parse_env(text: str) -> dict[str, str]:
    """The ``KEY=value`` pairs of a ``.env`` text (later lines win)."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if key.startswith("export "):
            key = key[len("export "):].strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            # an unquoted value may carry a trailing comment
            value = value.split(" #", 1)[0].rstrip()
        if key:
            values[key] = value
    return values


def load_env_file(path: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The pairs in ``path`` (default: ``$BOARDCHAT_ENV_FILE`` or ``./.env``); {} if absent."""
    target = Path(path or Settings(os.environ, {}).get(env_name("ENV_FILE")) or DEFAULT_ENV_FILE)
    try:
        return parse_env(target.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


class Settings:
    """A read-only view: the process environment first, then the ``.env`` pairs."""

    def __init__(self, environ: Mapping[str, str] | None = None, env_file: Mapping[str, str] | None = None):
        self._environ = os.environ if environ is None else environ
        self._file = load_env_file() if env_file is None else env_file

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of ``name``; an empty value counts as unset. For one of our variables the
        name it had before the rename is read when the new one is unset anywhere."""
        for wanted in env_names(name):
            for source in (self._environ, self._file):
                value = source.get(wanted)
                if value is not None and value.strip() != "":
                    return value.strip()
        return default

    def renamed(self) -> dict[str, str]:
        """The old variable names set here (environment or ``.env``) -> the name to use instead."""
        found = {}
        for source in (self._environ, self._file):
            for key, value in source.items():
                if key.startswith(product.OLD_ENV_PREFIX) and value.strip():
                    found[key] = product.ENV_PREFIX + key[len(product.OLD_ENV_PREFIX):]
        return dict(sorted(found.items()))

    def require(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise ConfigError(f"{name} is not set: put it in the environment or in .env (see .env.example)")
        return value

    def get_int(self, name: str, default: int | None = None) -> int | None:
        value = self.get(name)
        if value is None:
            return default
        try:
            return int(value)
        except ValueError:
            raise ConfigError(f"{name} must be a whole number, not {value!r}") from None


def settings(environ: Mapping[str, str] | None = None, env_file: Mapping[str, str] | None = None) -> Settings:
    """Today's settings (reads ``.env`` afresh each call, so it is cheap to call once at startup)."""
    return Settings(environ, env_file)


def setting(name: str, default: str | None = None) -> str | None:
    """One setting from the environment or ``.env``."""
    return settings().get(name, default)


def int_setting(name: str, default: int | None = None) -> int | None:
    """One whole-number setting from the environment or ``.env``."""
    return settings().get_int(name, default)


def renamed_notice(source: Settings | None = None) -> str | None:
    """One line for the start of a run when old variable names are in use; None otherwise."""
    renamed = (source or settings()).renamed()
    if not renamed:
        return None
    pairs = ", ".join(f"{old} -> {new}" for old, new in renamed.items())
    return (f"{product.COMMAND}: please rename {pairs} (the old names still work; a new name wins "
            f"when both are set)")


def game_defaults(source: Settings | None = None) -> dict[str, str]:
    """Option defaults for new chats: ``BOARDCHAT_<NAME>`` for each chat setting (language,
    reminder and deadline minutes, AI level) and for each option a game declares
    (``BOARDCHAT_FINAL_TOURS``, ``BOARDCHAT_HIDDEN_MONEY``, ...); unset ones keep the built-in.
    The service checks the values at start (``checked_defaults``)."""
    source = source or settings()
    options = (spec.name for kind in KINDS.values() for spec in kind.definition.options)
    names = dict.fromkeys((*BOT_SETTINGS, *options))
    return {name: value for name in names if (value := source.get(env_name(name.upper())))}


def default_database(folder: str | os.PathLike[str] = ".") -> str:
    """The chat bots' SQLite file when none is configured: ``boardchat.sqlite3``, or the file of
    an earlier version (``paris-paris.sqlite3``) when only that one exists, so its games go on."""
    new, old = Path(folder) / product.DEFAULT_DB, Path(folder) / product.OLD_DEFAULT_DB
    chosen = product.OLD_DEFAULT_DB if old.exists() and not new.exists() else product.DEFAULT_DB
    return chosen if Path(folder) == Path(".") else str(Path(folder) / chosen)


def ai_seconds(source: Settings | None = None) -> float | None:
    """Seconds a searching AI level may think per move in chat games, from BOARDCHAT_AI_SECONDS
    (None when unset: each game's default, 1 s). Chat games are asynchronous, nobody watches
    the clock, so an operator may give the strong AI more time (it plays better with it)."""
    source = source or settings()
    name = env_name("AI_SECONDS")
    value = source.get(name)
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= 600:
        raise ConfigError(f"{name} must be a number of seconds above 0 (at most 600), "
                          f"not {value!r}")
    return seconds


def database_target(source: Settings | None = None, default: str | None = None) -> str:
    """Where the games live: BOARDCHAT_DATABASE_URL (``postgresql://...`` or a SQLite path),
    else the SQLite file BOARDCHAT_DB, else ``default`` (``default_database()``). Give the result
    to ``bot.service.storage.storage_for`` / ``open_storage``."""
    source = source or settings()
    return (source.get(env_name("DATABASE_URL")) or source.get(env_name("DB"))
            or default or default_database())


def _count_setting(source: Settings | None, suffix: str, *, default: int, least: int) -> int:
    """A whole-number setting of at least ``least`` (``default`` when unset)."""
    source = source or settings()
    name = env_name(suffix)
    count = source.get_int(name, default)
    if count is None or count < least:
        raise ConfigError(f"{name} must be {least} or more, not {count}")
    return count


def senders_setting(source: Settings | None = None) -> int:
    """BOARDCHAT_SENDERS: how many processes send for one bot (each takes that share of the
    platform's overall send budget; see docs/deployment.md). Default 1."""
    return _count_setting(source, "SENDERS", default=1, least=1)


def drawing_processes_setting(source: Settings | None = None) -> int:
    """BOARDCHAT_DRAWING_PROCESSES: processes that draw the pictures, so drawing maps does not
    hold back the bot's presses and sends (0: draw in a thread of the bot's process). Default 2."""
    return _count_setting(source, "DRAWING_PROCESSES", default=2, least=0)


def live_matches_setting(source: Settings | None = None) -> int:
    """BOARDCHAT_LIVE_MATCHES: how many games (the most recently used) keep their match live in
    memory; the others keep it packed, a fifth of the memory, and unpack it on use in about
    0.3 ms (docs/storage.md). Default 256."""
    return _count_setting(source, "LIVE_MATCHES", default=LIVE_MATCHES, least=1)


TELEGRAM_APP_NAME = re.compile(r"^[A-Za-z0-9_]{3,30}$")     # BotFather's rule for a Mini App's short name
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def web_settings(source: Settings | None = None, *, telegram_token: str | None = None) -> WebSettings | None:
    """The web board's settings (``bot.web.server.WebSettings``), or None when BOARDCHAT_WEB_URL is
    unset: then no chat offers a link to it. BOARDCHAT_WEB_URL: its public HTTPS address (a
    reverse proxy forwards to BOARDCHAT_WEB_HOST:BOARDCHAT_WEB_PORT, default 127.0.0.1:8080);
    BOARDCHAT_TELEGRAM_APP: the short name of the bot's Mini App (BotFather /newapp), if any;
    BOARDCHAT_WEB_INIT_DATA_SECONDS: how old a Mini App's login (initData) may be (default 3600);
    BOARDCHAT_WEB_PAGE_PASS_SECONDS: how long a page pass lasts (default 900).
    ``telegram_token``: the Telegram bot's, which signs a Mini App's login."""
    from bot.web.server import WebSettings  # imported late: only a bot that serves the board needs aiohttp

    source = source or settings()
    url_name, app_name = env_name("WEB_URL"), env_name("TELEGRAM_APP")
    url = source.get(url_name)
    app = source.get(app_name)
    if url is None:
        if app is not None:
            raise ConfigError(f"{app_name} needs {url_name}: the public HTTPS address the Mini App opens")
        return None
    parts = urlsplit(url)
    local = parts.scheme == "http" and parts.hostname in LOCAL_HOSTS
    if (parts.scheme != "https" and not local) or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(f"{url_name} must be the board's public address, like https://board.example.org "
                          f"(https: Telegram opens nothing else; http only for localhost), not {url!r}")
    if app is not None and not TELEGRAM_APP_NAME.match(app):
        raise ConfigError(f"{app_name} must be the Mini App's short name as BotFather has it (3 to 30 letters, "
                          f"digits or underscores: the last part of t.me/<bot>/<name>), not {app!r}")
    port_name = env_name("WEB_PORT")
    port = source.get_int(port_name, 8080)
    if port is None or not 1 <= port <= 65535:
        raise ConfigError(f"{port_name} must be a port number from 1 to 65535, not {port}")
    from bot.service.tokens.passes import PAGE_PASS_SECONDS
    from bot.web.auth import INIT_DATA_SECONDS

    return WebSettings(host=source.get(env_name("WEB_HOST"), "127.0.0.1") or "127.0.0.1", port=port,
                       public_url=url.rstrip("/"), telegram_token=telegram_token, telegram_app=app,
                       init_data_seconds=_count_setting(source, "WEB_INIT_DATA_SECONDS", default=INIT_DATA_SECONDS,
                                                        least=60),
                       page_pass_seconds=_count_setting(source, "WEB_PAGE_PASS_SECONDS", default=PAGE_PASS_SECONDS,
                                                        least=120),
                       limits=visitor_limits(source), connections=connection_limits(source))


def visitor_limits(source: Settings | None = None) -> VisitorLimits:
    """The web board's bounds per visitor (``bot.web.guard.VisitorLimits``, docs/web.md):
    BOARDCHAT_WEB_PICTURES_PER_PASS, _SOCKETS_PER_PASS, _SOCKETS_PER_ADDRESS,
    _MESSAGES_PER_MINUTE, _LOGINS_PER_HOUR (each a whole number, 1 or more) and
    BOARDCHAT_WEB_TRUSTED_PROXIES (the reverse proxies' addresses, comma-separated)."""
    from bot.web.guard import VisitorLimits

    source = source or settings()
    default = VisitorLimits()
    proxies = source.get(env_name("WEB_TRUSTED_PROXIES"))
    return VisitorLimits(
        pictures_per_pass=_count_setting(source, "WEB_PICTURES_PER_PASS", default=default.pictures_per_pass, least=1),
        sockets_per_pass=_count_setting(source, "WEB_SOCKETS_PER_PASS", default=default.sockets_per_pass, least=1),
        sockets_per_address=_count_setting(source, "WEB_SOCKETS_PER_ADDRESS", default=default.sockets_per_address,
                                           least=1),
        messages_per_minute=_count_setting(source, "WEB_MESSAGES_PER_MINUTE", default=default.messages_per_minute,
                                           least=1),
        logins_per_hour=_count_setting(source, "WEB_LOGINS_PER_HOUR", default=default.logins_per_hour, least=1),
        trusted_proxies=default.trusted_proxies if proxies is None
        else frozenset(p.strip() for p in proxies.split(",") if p.strip()))


def connection_limits(source: Settings | None = None) -> ConnectionLimits:
    """The web board's bounds on connections (``bot.web.connections.ConnectionLimits``,
    docs/web.md): BOARDCHAT_WEB_CONNECTIONS (open at once) and BOARDCHAT_WEB_HEADER_SECONDS
    (how long a new connection may take to send its request's headers)."""
    from bot.web.connections import ConnectionLimits

    source = source or settings()
    default = ConnectionLimits()
    return ConnectionLimits(
        connections=_count_setting(source, "WEB_CONNECTIONS", default=default.connections, least=1),
        header_seconds=_count_setting(source, "WEB_HEADER_SECONDS", default=int(default.header_seconds), least=1))


ON = frozenset({"1", "true", "on", "yes"})
OFF = frozenset({"0", "false", "off", "no"})


def metrics_setting(source: Settings | None = None) -> bool:
    """BOARDCHAT_METRICS: whether the bot serves its numbers at /metrics in the Prometheus text
    format (on the board's address, or alone on BOARDCHAT_WEB_HOST:BOARDCHAT_WEB_PORT when no
    board is served; docs/deployment.md). Off by default."""
    source = source or settings()
    name = env_name("METRICS")
    value = (source.get(name) or "off").lower()
    if value not in ON | OFF:
        raise ConfigError(f"{name} must be on or off, not {value!r}")
    return value in ON


def service_metrics(source: Settings | None = None) -> Metrics | None:
    """What the service counts into: the Prometheus keeper when BOARDCHAT_METRICS is on, else
    None (nothing counted)."""
    if not metrics_setting(source):
        return None
    from bot.web.ops import PrometheusMetrics  # imported late: only a bot that serves /metrics needs it

    return PrometheusMetrics()


def ops_address(source: Settings | None = None) -> tuple[str, int]:
    """Where /healthz and /metrics listen when no board is served: BOARDCHAT_WEB_HOST and
    BOARDCHAT_WEB_PORT (default 127.0.0.1 and 8080, as the board's)."""
    source = source or settings()
    port_name = env_name("WEB_PORT")
    port = source.get_int(port_name, 8080)
    if port is None or not 1 <= port <= 65535:
        raise ConfigError(f"{port_name} must be a port number from 1 to 65535, not {port}")
    return source.get(env_name("WEB_HOST"), "127.0.0.1") or "127.0.0.1", port
