"""The bot: the platform-neutral game service (``bot.service``) and its adapters
(``bot.telegram``, ``bot.discord``, ``bot.terminal``), glued by ``bot.contract``."""
