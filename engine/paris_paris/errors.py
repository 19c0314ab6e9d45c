"""Paris Paris's refusals: the shared family (engine/errors.py) plus its own kinds of illegal move."""

from __future__ import annotations

from engine.errors import (
    GameError,
    GameIsOver,
    IllegalMove,
    InvalidOption,
    InvalidRecord,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
)


class TileNotOnOffer(IllegalMove):
    code = "tile_not_on_offer"


class EvictionChoiceRequired(IllegalMove):
    """The station is a full crossing with two owners: the placer must say whose shop goes."""

    code = "eviction_choice_required"


class InvalidEviction(IllegalMove):
    """The eviction choice names someone without a shop at that crossing."""

    code = "invalid_eviction"


__all__ = [
    "EvictionChoiceRequired", "GameError", "GameIsOver", "IllegalMove", "InvalidEviction", "InvalidOption",
    "InvalidRecord", "InvalidSetup", "MalformedInput", "NotYourTurn", "TileNotOnOffer",
]
