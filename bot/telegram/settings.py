"""Telegram settings from the environment or ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from bot.config import ConfigError, Settings, database_target, metrics_setting, senders_setting, web_settings
from bot.config import settings as load_settings
from bot.product import DEFAULT_DB, env_name

if TYPE_CHECKING:
    from bot.web.server import WebSettings


@dataclass(frozen=True)
class TelegramSettings:
    token: str
    db_path: str = DEFAULT_DB
    webhook_url: str | None = None        # public HTTPS URL: webhook mode; None: long polling
    webhook_port: int = 8443
    webhook_listen: str = "0.0.0.0"
    webhook_secret: str | None = None     # X-Telegram-Bot-Api-Secret-Token; derived from the token if unset
    api_base_url: str | None = None       # a self-hosted Bot API server, e.g. http://localhost:8081/bot
    poll_timeout: int = 30                # getUpdates long-poll seconds
    instance: str | None = None           # BOARDCHAT_INSTANCE: this process's name among several
    senders: int = 1                      # BOARDCHAT_SENDERS: processes sending for this bot
    web: WebSettings | None = None        # BOARDCHAT_WEB_*: the web board, served when its address is set
    metrics: bool = False                 # BOARDCHAT_METRICS: /metrics served (with the board, or alone)

    @classmethod
    def from_env(cls, source: Settings | None = None) -> TelegramSettings:
        env = source or load_settings()
        webhook_url = env.get("TELEGRAM_WEBHOOK_URL")
        if webhook_url and urlparse(webhook_url).scheme != "https":
            raise ConfigError("TELEGRAM_WEBHOOK_URL must be an https:// URL (Telegram only calls HTTPS webhooks)")
        token = env.require("TELEGRAM_BOT_TOKEN")
        return cls(
            token=token,
            # A PostgreSQL URL when several processes share one database, else the SQLite file.
            db_path=database_target(env),
            webhook_url=webhook_url,
            webhook_port=env.get_int("TELEGRAM_WEBHOOK_PORT", 8443) or 8443,
            webhook_listen=env.get("TELEGRAM_WEBHOOK_LISTEN", "0.0.0.0") or "0.0.0.0",
            webhook_secret=env.get("TELEGRAM_WEBHOOK_SECRET"),
            api_base_url=env.get("TELEGRAM_API_BASE_URL"),
            instance=env.get(env_name("INSTANCE")),
            senders=senders_setting(env),
            web=web_settings(env, telegram_token=token),
            metrics=metrics_setting(env),
        )

    @property
    def webhook_path(self) -> str:
        """The path the local webhook server listens on: the path of the public URL."""
        return urlparse(self.webhook_url or "").path.strip("/")

    @property
    def secret_token(self) -> str:
        if self.webhook_secret:
            return self.webhook_secret
        # The salt keeps its first product's name: the secret must not change under a running webhook.
        return hashlib.sha256(b"paris-paris-webhook:" + self.token.encode()).hexdigest()[:48]
