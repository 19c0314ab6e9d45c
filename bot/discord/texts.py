"""Service texts, Discord-style, and Discord's size limits.

The service's catalog names commands the Telegram way ("/new", "/addai"); on Discord
they live under one group, so "/new" becomes "/boardchat new" and "/addai" "/boardchat addbot".

Discord counts every length limit in Unicode code points (``bot.limits.CODE_POINTS``): its API
runs on Python 3 and measures ``len`` of the string (a Discord engineer in
discord/discord-api-docs#1315; discord.py and simcord check the same). An emoji like "🟢" is one,
"⚠️" two (the sign and its presentation selector). The limits, from discord.com/developers/docs:
"""

from __future__ import annotations

import re

from bot.limits import CODE_POINTS
from bot.product import DISCORD_GROUP

MAX_CONTENT = 2000         # a message's content, ephemeral answers and followups included
MAX_LABEL = 80             # a button's label
MAX_CUSTOM_ID = 100        # a component's custom_id
MAX_URL = 512              # a link button's url
MAX_NAME = 100             # a thread's name; a slash command's description and choice names
# Not used by the bot, the same unit should they be: a select's option label, value and
# description 100, its placeholder 150; an embed's title 256, description 4096, field name 256
# and value 1024, footer 2048, author 256, and 6000 over all its texts.


def fit(text: str, limit: int) -> str:
    """``text`` within ``limit`` code points, ending in "…" when cut."""
    return CODE_POINTS.clip(text, limit)


def fits(text: str, limit: int) -> bool:
    return CODE_POINTS.fits(text, limit)

COMMANDS = {
    "new": "new", "join": "join", "leave": "leave", "start": "start", "addai": "addbot",
    "addbot": "addbot", "abort": "abort", "board": "board", "secret": "secret", "marker": "secret",
    "settings": "settings", "stats": "stats", "rating": "rating", "rules": "rules", "help": "help",
}
_COMMAND = re.compile(r"(?<![\w/.:<@#])/(" + "|".join(COMMANDS) + r")\b")


def discord_text(text: str) -> str:
    """``text`` with every bare "/command" written as the group's subcommand."""
    return _COMMAND.sub(lambda m: f"/{DISCORD_GROUP} " + COMMANDS[m.group(1)], text)
