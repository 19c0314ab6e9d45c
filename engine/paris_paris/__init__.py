"""Paris Paris rules engine: pure Python, no I/O, no global randomness.

    >>> from engine.paris_paris import Game
    >>> game = Game.new(["ann", "bob", "cat"], seed=7)
    >>> events = game.apply(game.legal_actions()[0])
"""

from .actions import Pick, Tile
from .board import COLOURS, CROSSINGS, DISPLAY_NAMES, LINES, STATIONS
from .errors import (
    EvictionChoiceRequired,
    GameError,
    GameIsOver,
    IllegalMove,
    InvalidEviction,
    InvalidRecord,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
    TileNotOnOffer,
)
from .events import Event
from .game import Game, Options, full_game_rounds
from .record import from_record, result, to_record
from .view import GameView

__all__ = [
    "COLOURS", "CROSSINGS", "DISPLAY_NAMES", "LINES", "STATIONS",
    "Event", "EvictionChoiceRequired", "Game", "GameError", "GameIsOver", "GameView", "IllegalMove",
    "InvalidEviction", "InvalidRecord", "InvalidSetup", "MalformedInput", "NotYourTurn", "Options",
    "Pick", "Tile", "TileNotOnOffer", "full_game_rounds", "result", "from_record", "to_record",
]
