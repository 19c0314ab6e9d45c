"""The exception family every game engine raises when it refuses an input.

Each class is one kind of failure. Every error carries a ``code`` (stable, for translation
by the message catalogs) and ``params`` (the facts the message names), and its ``str()`` is
an English sentence a player can read. Games add their own subclasses of ``IllegalMove``
(Paris Paris: ``TileNotOnOffer``; Paris Connection: ``NotAdjacent`` ...) in their package.
"""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """Base class: the engine refused an input and changed nothing."""

    code = "error"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.params = params


class MalformedInput(GameError, ValueError):
    """Text or data that does not even name a choice (unknown station, bad syntax)."""

    code = "malformed"


class InvalidSetup(GameError, ValueError):
    """Players, options or a deal that cannot start a game."""

    code = "invalid_setup"


class InvalidOption(InvalidSetup):
    """An option name the game does not declare, or a value it does not allow."""

    code = "invalid_option"


class IllegalMove(GameError):
    """A well-formed choice that the rules do not allow now."""

    code = "illegal"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"


class GameIsOver(IllegalMove):
    code = "game_over"


class InvalidRecord(GameError, ValueError):
    """A game record that breaks a rule; ``move_index`` (0-based) is None for setup problems.

    Messages count moves from 1, as people do: ``move_index`` 0 reads "move 1".
    """

    code = "invalid_record"

    def __init__(self, message: str, *, move_index: int | None = None, rule: str = "", **params: Any):
        where = "setup" if move_index is None else f"move {move_index + 1}"
        super().__init__(f"{where}: {message}", move_index=move_index, rule=rule, **params)
        self.move_index = move_index
        self.rule = rule
