"""One exception family for everything the engine refuses.

Each class is one kind of failure. Every error carries a ``code`` (stable, for
translation by the bot's message catalogs) and ``params`` (the facts the message
names), and its ``str()`` is an English sentence a player can read.
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
    """Text or data that does not even name a move (unknown station, bad syntax)."""

    code = "malformed"


class InvalidSetup(GameError, ValueError):
    """Players, options, stacks or markers that cannot start a game."""

    code = "invalid_setup"


class IllegalMove(GameError):
    """A well-formed move that the rules do not allow now."""

    code = "illegal"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"


class TileNotOnOffer(IllegalMove):
    code = "tile_not_on_offer"


class EvictionChoiceRequired(IllegalMove):
    """The station is a full crossing with two owners: the placer must say whose shop goes."""

    code = "eviction_choice_required"


class InvalidEviction(IllegalMove):
    """The eviction choice names someone without a shop at that crossing."""

    code = "invalid_eviction"


class GameIsOver(IllegalMove):
    code = "game_over"


class InvalidRecord(GameError, ValueError):
    """A game record that breaks a rule; ``move_index`` is None for setup problems."""

    code = "invalid_record"

    def __init__(self, message: str, *, move_index: int | None = None, rule: str = "", **params: Any):
        where = "setup" if move_index is None else f"move {move_index}"
        super().__init__(f"{where}: {message}", move_index=move_index, rule=rule, **params)
        self.move_index = move_index
        self.rule = rule
