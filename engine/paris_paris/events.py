"""Typed events: everything that happened, as data, in order.

Players appear as seat numbers (indices into ``Game.players``); stations and colours
as their string ids. Every event says who may see it: ``private_to`` is None for
public events and a seat number for secrets (a dealt marker). ``visible_to(seat)``
is the one test a redacted log needs; ``seat=None`` asks for the public view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

from engine.events import Event as BaseEvent

from .actions import Tile


@dataclass(frozen=True, slots=True)
class Event(BaseEvent):
    """A Paris Paris event: tiles print as [station, colour] in its JSON form."""

    @classmethod
    def jsonable(cls, value: Any) -> Any:
        if isinstance(value, dict):
            # ``asdict`` turns a Tile into {"station", "colour", "code"}; records write [station, colour].
            if set(value) == {"station", "colour", "code"}:
                return [value["station"], value["colour"]]
            return {k: cls.jsonable(v) for k, v in value.items() if k != "code"}
        if isinstance(value, list | tuple):
            return [cls.jsonable(v) for v in value]
        return value


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    players: tuple[str, ...]
    first_player: int
    rounds: int
    final_tours: str


@dataclass(frozen=True, slots=True)
class MarkerDealt(Event):
    """A secret: only ``seat`` may see it."""

    kind: ClassVar[str] = "marker_dealt"
    seat: int
    colour: str

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class OpenMarkerShown(Event):
    """With 2 players one marker lies face up for the whole game."""

    kind: ClassVar[str] = "open_marker_shown"
    colour: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int
    rounds: int
    bus: int
    offer: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class ShopOpened(Event):
    kind: ClassVar[str] = "shop_opened"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class TileTaken(Event):
    """A pick that opens no shop: the player's supply is empty (possible only with 2 players,
    20 picks and 19 shops; RULES.md, "Open shops"). The tile leaves the game all the same."""

    kind: ClassVar[str] = "tile_taken"
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class ShopEvicted(Event):
    """``destination`` is "bag" (evicted by another player, 3-4 players) or "supply"."""

    kind: ClassVar[str] = "shop_evicted"
    station: str
    owner: int
    by: int
    destination: str


@dataclass(frozen=True, slots=True)
class SmallTour(Event):
    """The leftover tile's tour. ``shops`` lists (station, owner) of every scoring shop;
    ``distance`` is 0 for shops at the station itself and None when nobody scored."""

    kind: ClassVar[str] = "small_tour"
    tile: Tile
    distance: int | None
    shops: tuple[tuple[str, int], ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TileDiscarded(Event):
    """The leftover tile goes to the discard area; ``big_tour`` tells if it matched a colour there."""

    kind: ClassVar[str] = "tile_discarded"
    tile: Tile
    big_tour: bool


@dataclass(frozen=True, slots=True)
class Halt:
    """One crossing on a big tour: the shops there and each owner's adjacent shops that counted."""

    station: str
    shops: tuple[int, ...]
    adjacent: tuple[tuple[str, int], ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BigTour(Event):
    """A bus tour of one line. ``reason``: "discard", "marker", "open_marker" or "all_lines";
    ``seat`` is the marker's owner for "marker" tours."""

    kind: ClassVar[str] = "big_tour"
    colour: str
    reason: str
    seat: int | None
    halts: tuple[Halt, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MarkersRevealed(Event):
    kind: ClassVar[str] = "markers_revealed"
    markers: tuple[str, ...]
    open_marker: str | None


@dataclass(frozen=True, slots=True)
class BagScored(Event):
    """The bag's contents per seat, and who scored them (None: no strict majority)."""

    kind: ClassVar[str] = "bag_scored"
    counts: tuple[int, ...]
    seat: int | None
    points: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    scores: tuple[int, ...]
    shops_on_board: tuple[int, ...]
    winners: tuple[int, ...]


_E = TypeVar("_E", bound="DataclassInstance")


def fast_builder(cls: type[_E]) -> Callable[..., _E]:
    """``cls(*values)`` for a frozen, slotted class of 4 or 5 fields, at about half the cost.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, looking
    the slot up by name; this sets the slots through their descriptors directly. The object
    is the same (no ``__post_init__`` to skip: events have none). The engine builds the
    events it makes many of in each game (rounds, tours, halts) this way.
    """
    new = object.__new__
    # One closure per arity, spelled out: a loop over the setters would cost what this saves.
    one, two, three, four, *rest = (getattr(cls, f.name).__set__ for f in fields(cls))
    if not rest:
        def build(a, b, c, d):
            obj = new(cls)
            one(obj, a)
            two(obj, b)
            three(obj, c)
            four(obj, d)
            return obj
        return build
    (five,) = rest

    def build5(a, b, c, d, e):
        obj = new(cls)
        one(obj, a)
        two(obj, b)
        three(obj, c)
        four(obj, d)
        five(obj, e)
        return obj
    return build5
