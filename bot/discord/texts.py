"""Service texts, Discord-style.

The service's catalog names commands the Telegram way ("/new", "/addai"); on Discord
they live under one group, so "/new" becomes "/boardchat new" and "/addai" "/boardchat addbot".
"""

from __future__ import annotations

import re

from bot.product import DISCORD_GROUP

COMMANDS = {
    "new": "new", "join": "join", "leave": "leave", "start": "start", "addai": "addbot",
    "addbot": "addbot", "abort": "abort", "board": "board", "secret": "secret", "marker": "secret",
    "settings": "settings", "stats": "stats", "rules": "rules", "help": "help",
}
_COMMAND = re.compile(r"(?<![\w/.:<@#])/(" + "|".join(COMMANDS) + r")\b")


def discord_text(text: str) -> str:
    """``text`` with every bare "/command" written as the group's subcommand."""
    return _COMMAND.sub(lambda m: f"/{DISCORD_GROUP} " + COMMANDS[m.group(1)], text)
