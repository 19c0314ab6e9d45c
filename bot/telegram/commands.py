"""The command menus Telegram clients show (setMyCommands), per chat kind and language."""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import TelegramError

from bot.telegram.formatting import command_description
from bot.telegram.handlers import GROUP_COMMANDS, PRIVATE_COMMANDS
from i18n import DEFAULT_LANGUAGE, LANGUAGES, t

log = logging.getLogger(__name__)


def command_list(commands: tuple[str, ...], language: str) -> list[BotCommand]:
    return [BotCommand(name, command_description(t(language, f"tg.cmd.{name}"))) for name in commands]


async def register_commands(bot: Bot) -> None:
    """Group and private menus in every catalog language (English is also the default)."""
    scopes = ((BotCommandScopeAllGroupChats(), GROUP_COMMANDS), (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS))
    for scope, names in scopes:
        for language in LANGUAGES:
            try:
                await bot.set_my_commands(command_list(names, language), scope=scope,
                                          language_code=None if language == DEFAULT_LANGUAGE else language)
            except TelegramError as exc:   # a menu is a convenience: never stop the bot for it
                log.warning("telegram: setMyCommands(%s, %s) failed: %s", scope.type, language, exc)
