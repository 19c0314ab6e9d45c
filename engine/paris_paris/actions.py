"""Tiles and moves: small frozen values that parse from text and print back.

A move is a ``Pick``: take a tile on offer and open a shop at its station, naming
whose shop to evict when the station is a full crossing held by two owners.
Text form: ``pompidou/green`` or, with an eviction choice, ``pompidou/green!2``
(evict seat 2's shop).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.interface import BoardPlace, Label

from .board import COLOUR_INDEX, COLOURS, STATION_INDEX, STATIONS
from .errors import MalformedInput


@dataclass(frozen=True, slots=True)
class Tile:
    """A station tile: the station and the colour of the line segment it stands for."""

    station: str
    colour: str
    # Dense index (station * 5 + colour) for the engine's hot paths.
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            code = STATION_INDEX[self.station] * 5 + COLOUR_INDEX[self.colour]
        except KeyError:
            bad = self.station if self.station not in STATION_INDEX else self.colour
            raise MalformedInput(f"unknown station or colour: {bad!r}", value=bad) from None
        object.__setattr__(self, "code", code)

    @staticmethod
    def of(code: int) -> Tile:
        """The interned tile for a dense code."""
        return _TILES_BY_CODE[code]

    @classmethod
    def parse(cls, text: str) -> Tile:
        station, sep, colour = text.strip().partition("/")
        if not sep:
            raise MalformedInput(f"a tile is written station/colour, not {text!r}", value=text)
        return cls(station, colour)

    def __str__(self) -> str:
        return f"{self.station}/{self.colour}"


_TILES_BY_CODE: dict[int, Tile] = {
    s * 5 + c: Tile(STATIONS[s], COLOURS[c]) for s in range(len(STATIONS)) for c in range(len(COLOURS))
}
# (station, colour) -> interned tile: parsing records without building and validating new Tiles.
TILES_BY_NAME: dict[tuple[str, str], Tile] = {(t.station, t.colour): t for t in _TILES_BY_CODE.values()}


def tile_named(station: str, colour: str) -> Tile:
    """The interned tile for a station and colour id; ``MalformedInput`` if either is unknown."""
    try:
        return TILES_BY_NAME[station, colour]
    except (KeyError, TypeError):
        return Tile(station, colour)      # raises the readable MalformedInput (or TypeError)


@dataclass(frozen=True, slots=True)
class Pick:
    """Take ``tile`` from the offer and open a shop at its station.

    ``evict`` is the seat whose shop leaves a full crossing held by two different
    owners; it is None everywhere else (and ignored there when given).
    """

    tile: Tile
    evict: int | None = None

    @classmethod
    def parse(cls, text: str) -> Pick:
        tile_text, sep, evict_text = text.strip().partition("!")
        evict = None
        if sep:
            if not (evict_text.isascii() and evict_text.isdigit()):   # '²' is a digit to isdigit()
                raise MalformedInput(f"the eviction choice must be a seat number, not {evict_text!r}",
                                     value=text)
            evict = int(evict_text)
        return cls(Tile.parse(tile_text), evict)

    def __str__(self) -> str:
        return str(self.tile) if self.evict is None else f"{self.tile}!{self.evict}"

    def label(self) -> Label:
        return Label("pick", {"tile": self.tile, "evict": self.evict})

    def place(self) -> BoardPlace:
        """The tile on offer; with an eviction, the evicted seat's shop at the tile's station."""
        if self.evict is None:
            return BoardPlace("offer", str(self.tile))
        return BoardPlace("shop", (self.tile.station, self.evict))


MAX_SEATS = 4
# Interned picks: PLAIN_PICKS[code] takes the tile; EVICTING_PICKS[code][seat] also evicts ``seat``.
PLAIN_PICKS: tuple[Pick, ...] = tuple(Pick(_TILES_BY_CODE[code]) for code in range(len(_TILES_BY_CODE)))
EVICTING_PICKS: tuple[tuple[Pick, ...], ...] = tuple(
    tuple(Pick(_TILES_BY_CODE[code], seat) for seat in range(MAX_SEATS)) for code in range(len(_TILES_BY_CODE))
)


def pick_for(code: int, evict: int | None = None) -> Pick:
    """The interned Pick for a tile code and eviction choice (no allocation on hot paths)."""
    if evict is None:
        return PLAIN_PICKS[code]
    if 0 <= evict < MAX_SEATS:
        return EVICTING_PICKS[code][evict]
    return Pick(_TILES_BY_CODE[code], evict)
