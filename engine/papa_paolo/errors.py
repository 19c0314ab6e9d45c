"""Papà Paolo's refusals: the shared family (engine/errors.py) plus one class per rule broken,
so a message (and a record's ``rule``) names what was wrong."""

from __future__ import annotations

from engine.errors import (  # noqa: F401  (re-exported for the package)
    GameError,
    GameIsOver,
    IllegalMove,
    InvalidOption,
    InvalidRecord,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
)


class StepNotOffered(IllegalMove):
    """A step that does not fit the decision under way (a rotation before a square...)."""

    code = "step_not_offered"


class SpaceTaken(IllegalMove):
    code = "space_taken"


class NoSuchSpace(IllegalMove):
    code = "no_such_space"


class NoTileThere(IllegalMove):
    code = "no_tile_there"


class NoLegalPlacement(IllegalMove):
    """Ruling 18: a tile with no legal placement cannot be taken."""

    code = "no_legal_placement"


class ActionNotOnSpace(IllegalMove):
    code = "action_not_on_space"


class SquareTaken(IllegalMove):
    code = "square_taken"


class NotAdjacent(IllegalMove):
    code = "not_adjacent"


class RoadCut(IllegalMove):
    """Ruling 3: roads of adjacent city squares must line up."""

    code = "road_cut"


class NotConnected(IllegalMove):
    """Ruling 4: a new tile's road must reach a pizzeria or a connected road."""

    code = "not_connected"


class TooLarge(IllegalMove):
    """Ruling 1: the neighbourhood fits in 4 by 5 squares."""

    code = "too_large"


class PizzeriasAdjacent(IllegalMove):
    code = "pizzerias_adjacent"


class BadRotation(IllegalMove):
    code = "bad_rotation"


class NotAffordable(IllegalMove):
    code = "not_affordable"


class NoRoom(IllegalMove):
    """Ruling 15: the pizzas paid for must fit on the player's pizzerias."""

    code = "no_room"


class BadDistribution(IllegalMove):
    code = "bad_distribution"


class NotInSupply(IllegalMove):
    code = "not_in_supply"


class NothingToServe(IllegalMove):
    """Ruling 16: an express delivery must be able to serve a house."""

    code = "nothing_to_serve"


class NotAPizzeria(IllegalMove):
    code = "not_a_pizzeria"


class EmptyTrip(IllegalMove):
    code = "empty_trip"


class NoRoad(IllegalMove):
    code = "no_road"


class EntersPizzeria(IllegalMove):
    """Ruling 6: a trip never enters a pizzeria."""

    code = "enters_pizzeria"


class RoadTwice(IllegalMove):
    """Ruling 7: a road link is crossed at most once a trip."""

    code = "road_twice"


class TooFar(IllegalMove):
    code = "too_far"


class TooManyTrips(IllegalMove):
    code = "too_many_trips"


class TooManyPizzas(IllegalMove):
    code = "too_many_pizzas"


class NoPizzasLeft(IllegalMove):
    """Ruling 8: a trip's pizzas come from its own pizzeria's stock."""

    code = "no_pizzas_left"


class HouseServed(IllegalMove):
    """Ruling 9: a house takes one pizza in the whole game."""

    code = "house_served"


class DropOffPath(IllegalMove):
    code = "drop_off_path"


class StairsIllegal(IllegalMove):
    code = "stairs_illegal"


class TileNotOpen(IllegalMove):
    code = "tile_not_open"


class TrackFull(IllegalMove):
    """Ruling 21: a track at its last position cannot advance."""

    code = "track_full"


class WrongInvestmentAction(IllegalMove):
    code = "wrong_investment_action"


class NoPlanUnderWay(IllegalMove):
    code = "no_plan_under_way"


FAULTS: dict[str, type[IllegalMove]] = {cls.code: cls for cls in (
    SquareTaken, NotAdjacent, RoadCut, NotConnected, TooLarge, PizzeriasAdjacent, NotAPizzeria, EmptyTrip,
    NoRoad, EntersPizzeria, RoadTwice, TooFar)}

MESSAGES = {
    "square_taken": "that square of the neighbourhood is already used",
    "not_adjacent": "the square is not next to the neighbourhood",
    "road_cut": "a road would be cut: roads of neighbouring city squares must line up",
    "not_connected": "the tile's roads would not reach a pizzeria or a connected road",
    "too_large": "the neighbourhood would no longer fit in 4 by 5 squares",
    "pizzerias_adjacent": "two pizzerias may not be orthogonally adjacent",
    "not_a_pizzeria": "a trip starts at one of the player's pizzerias",
    "empty_trip": "a trip enters at least one square",
    "no_road": "no road links those squares",
    "enters_pizzeria": "a trip never enters a pizzeria",
    "road_twice": "a trip crosses each road once",
    "too_far": "the trip is longer than the delivery tile allows",
}


def fault(code: str, where: str = "") -> IllegalMove:
    """The error for a geometry fault code from hood.py."""
    text = MESSAGES[code] + (f" ({where})" if where else "")
    return FAULTS[code](text)
