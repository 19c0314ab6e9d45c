"""The Discord adapter (discord.py 2.x): /boardchat slash commands, persistent buttons, a Transport.

Public API: ``BoardchatBot`` (a ``commands.Bot`` around a game service), ``DiscordTransport``,
``run_discord()`` (the ``boardchat discord`` entry point). See docs/discord.md.
"""

from .app import BoardchatBot, ShardedBoardchatBot, intents
from .run import DiscordConfig, run_discord
from .transport import DiscordTransport

__all__ = ["DiscordConfig", "DiscordTransport", "BoardchatBot", "ShardedBoardchatBot", "intents", "run_discord"]
