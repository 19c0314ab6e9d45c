"""Play the games in Telegram groups: a thin python-telegram-bot (v22) adapter.

``run_telegram()`` runs the bot from the environment/.env; ``build_application`` wires an
Application to a GameService (tests and embedding); ``TelegramTransport`` delivers the
service's outbox.
"""

from bot.telegram.app import build_application, run_telegram, start_application, stop_application
from bot.telegram.settings import TelegramSettings
from bot.telegram.transport import TelegramTransport

__all__ = ["TelegramSettings", "TelegramTransport", "build_application", "run_telegram", "start_application",
           "stop_application"]
