"""Paris Connection's refusals: the shared family (engine/errors.py) plus its own kinds of
illegal move, one class per rule, so a message (and a record's ``rule``) names what was wrong."""

from __future__ import annotations

from engine.errors import (
    GameError,
    GameIsOver,
    IllegalMove,
    InvalidRecord,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
)


class BuildUnderWay(IllegalMove):
    """A trade or a new build while a build is under way: finish it (done) or undo it first."""

    code = "build_under_way"


class NoBuildUnderWay(IllegalMove):
    """place, undo or done with no build started."""

    code = "no_build_under_way"


class StorageEmpty(IllegalMove):
    """A build from a storage board that holds no locomotive."""

    code = "storage_empty"


class NoPlacement(IllegalMove):
    """A build of a colour that has nowhere legal to put a locomotive."""

    code = "no_placement"


class ForbiddenHex(IllegalMove):
    """The Eiffel Tower and the six start hexes never take a locomotive."""

    code = "forbidden_hex"


class ColourAlreadyThere(IllegalMove):
    """A hex never holds two locomotives of one colour."""

    code = "colour_already_there"


class HexFull(IllegalMove):
    """A city holds 1 locomotive, a rural hex 2."""

    code = "hex_full"


class NotAdjacent(IllegalMove):
    """A locomotive goes next to one of its colour, never across a barrier."""

    code = "not_adjacent"


class WouldBlock(IllegalMove):
    """The blocking rule: a company with no city yet must keep a way to a free city."""

    code = "would_block"


class NothingPlaced(IllegalMove):
    """done before placing any locomotive (undo cancels the build instead)."""

    code = "nothing_placed"


class NotHeld(IllegalMove):
    """A trade giving back a colour the player has none of behind the screen."""

    code = "not_held"


class SameColour(IllegalMove):
    """A trade takes a colour different from the one it gives back."""

    code = "same_colour"


class NotEnoughInStorage(IllegalMove):
    """A trade taking more locomotives than the storage board holds."""

    code = "not_enough_in_storage"


__all__ = [
    "BuildUnderWay", "ColourAlreadyThere", "ForbiddenHex", "GameError", "GameIsOver", "HexFull", "IllegalMove",
    "InvalidRecord", "InvalidSetup", "MalformedInput", "NoBuildUnderWay", "NoPlacement", "NotAdjacent",
    "NotEnoughInStorage", "NotHeld", "NotYourTurn", "NothingPlaced", "SameColour", "StorageEmpty", "WouldBlock",
]
