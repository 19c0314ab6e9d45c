"""The terminal adapter: ``boardchat play`` (see docs/terminal.md).

``run_play(PlayOptions(...))`` runs one session against ``bot.service.GameService``;
``TerminalTransport`` prints the service's outbox (platform "terminal").
"""

from .play import PlayOptions, TerminalSession, run_play
from .transport import TerminalTransport

__all__ = ["PlayOptions", "TerminalSession", "TerminalTransport", "run_play"]
