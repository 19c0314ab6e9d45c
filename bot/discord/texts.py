"""Service texts, Discord-style.

The service's catalog names commands the Telegram way ("/new", "/addai"); on Discord
they live under one group, so "/new" becomes "/paris new" and "/addai" "/paris addbot".
"""

from __future__ import annotations

import re

COMMANDS = {
    "new": "new", "join": "join", "leave": "leave", "start": "start", "addai": "addbot",
    "addbot": "addbot", "abort": "abort", "board": "board", "secret": "secret", "marker": "secret",
    "settings": "settings", "stats": "stats", "rules": "rules", "help": "help",
}
_COMMAND = re.compile(r"(?<![\w/.:<@#])/(" + "|".join(COMMANDS) + r")\b")


def discord_text(text: str) -> str:
    """``text`` with every bare "/command" written as the /paris subcommand."""
    return _COMMAND.sub(lambda m: "/paris " + COMMANDS[m.group(1)], text)
