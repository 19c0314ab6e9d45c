"""The Paris Paris board: five bus lines, 25 stations, 10 crossings, 60 tiles.

Everything here is static data derived once at import time from ``LINES`` (RULES.md,
"The board"). Stations and colours have string ids for records and people, and small
integer indices for the engine's hot paths.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("green", "red", "blue", "purple", "yellow")

# Each line from its start arrow to its end (RULES.md).
LINES: Final[dict[str, tuple[str, ...]]] = {
    "green": ("montmartre", "grands-boulevards", "pompidou", "hotel-de-ville", "notre-dame",
              "quartier-latin", "place-d-italie"),
    "red": ("arc-de-triomphe", "concorde", "madeleine", "opera", "montmartre", "gare-du-nord",
            "republique"),
    "blue": ("tour-eiffel", "invalides", "concorde", "louvre", "pont-neuf", "hotel-de-ville",
             "bastille"),
    "purple": ("opera", "palais-royal", "louvre", "saint-germain", "luxembourg", "quartier-latin",
               "jardin-des-plantes"),
    "yellow": ("luxembourg", "odeon", "pont-neuf", "pompidou", "saint-nicolas", "republique",
               "belleville"),
}

DISPLAY_NAMES: Final[dict[str, str]] = {
    "montmartre": "Montmartre",
    "grands-boulevards": "Grands Boulevards",
    "pompidou": "Centre Pompidou",
    "hotel-de-ville": "Hôtel de Ville",
    "notre-dame": "Notre-Dame",
    "quartier-latin": "Quartier Latin",
    "place-d-italie": "Place d'Italie",
    "arc-de-triomphe": "Arc de Triomphe",
    "concorde": "Concorde",
    "madeleine": "Madeleine",
    "opera": "Opéra",
    "gare-du-nord": "Gare du Nord",
    "republique": "République",
    "tour-eiffel": "Tour Eiffel",
    "invalides": "Invalides",
    "louvre": "Louvre",
    "pont-neuf": "Pont Neuf",
    "bastille": "Bastille",
    "palais-royal": "Palais-Royal",
    "saint-germain": "Saint-Germain-des-Prés",
    "luxembourg": "Luxembourg",
    "jardin-des-plantes": "Jardin des Plantes",
    "odeon": "Odéon",
    "saint-nicolas": "Saint-Nicolas",
    "belleville": "Belleville",
}

# Approximate (latitude, longitude), a starting point for schematic maps.
POSITIONS: Final[dict[str, tuple[float, float]]] = {
    "montmartre": (48.8867, 2.3431), "grands-boulevards": (48.8714, 2.3430),
    "pompidou": (48.8607, 2.3522), "hotel-de-ville": (48.8566, 2.3522),
    "notre-dame": (48.8530, 2.3499), "quartier-latin": (48.8487, 2.3436),
    "place-d-italie": (48.8310, 2.3555), "arc-de-triomphe": (48.8738, 2.2950),
    "concorde": (48.8656, 2.3212), "madeleine": (48.8700, 2.3245), "opera": (48.8720, 2.3316),
    "gare-du-nord": (48.8809, 2.3553), "republique": (48.8674, 2.3636),
    "tour-eiffel": (48.8584, 2.2945), "invalides": (48.8566, 2.3126), "louvre": (48.8606, 2.3376),
    "pont-neuf": (48.8571, 2.3414), "bastille": (48.8532, 2.3691),
    "palais-royal": (48.8638, 2.3372), "saint-germain": (48.8540, 2.3339),
    "luxembourg": (48.8462, 2.3372), "jardin-des-plantes": (48.8440, 2.3596),
    "odeon": (48.8520, 2.3390), "saint-nicolas": (48.8655, 2.3545),
    "belleville": (48.8720, 2.3770),
}


def _stations_in_line_order() -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for stops in LINES.values():
        for stop in stops:
            seen.setdefault(stop, None)
    return tuple(seen)


STATIONS: Final[tuple[str, ...]] = _stations_in_line_order()
STATION_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(STATIONS)}
COLOUR_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(COLOURS)}

# Line colour indices through each station (1 or 2).
STATION_LINES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(COLOUR_INDEX[c] for c, stops in LINES.items() if name in stops) for name in STATIONS
)
CROSSINGS: Final[frozenset[str]] = frozenset(
    name for name, lines in zip(STATIONS, STATION_LINES, strict=True) if len(lines) == 2
)
IS_CROSSING: Final[tuple[bool, ...]] = tuple(len(lines) == 2 for lines in STATION_LINES)
CAPACITY: Final[tuple[int, ...]] = tuple(2 if crossing else 1 for crossing in IS_CROSSING)

# Line stops as station indices, per colour index.
LINE_STOPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(STATION_INDEX[s] for s in LINES[c]) for c in COLOURS
)
# The four crossings of each line in the order the bus meets them.
LINE_CROSSINGS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s for s in stops if IS_CROSSING[s]) for stops in LINE_STOPS
)


def _neighbours() -> tuple[tuple[int, ...], ...]:
    result: list[list[int]] = [[] for _ in STATIONS]
    for stops in LINE_STOPS:
        for a, b in zip(stops, stops[1:], strict=False):
            result[a].append(b)
            result[b].append(a)
    return tuple(tuple(sorted(n)) for n in result)


NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = _neighbours()


def _rings() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Stations at distance 1, 2, ... from each station along its own lines, no turning.

    Two lines cross at most once, so no station is reachable along two lines from
    the same start: each station appears in at most one ring.
    """
    result = []
    for s in range(len(STATIONS)):
        by_distance: dict[int, list[int]] = {}
        for stops in LINE_STOPS:
            if s not in stops:
                continue
            here = stops.index(s)
            for j, other in enumerate(stops):
                if j != here:
                    by_distance.setdefault(abs(j - here), []).append(other)
        result.append(tuple(tuple(by_distance[d]) for d in sorted(by_distance)))
    return tuple(result)


# SMALL_TOUR_RINGS[s][d-1]: stations at distance d from s along the lines through s.
SMALL_TOUR_RINGS: Final = _rings()


def _tiles() -> tuple[tuple[int, int], ...]:
    """One tile per end of each line segment at a station, coloured by the segment's line."""
    tiles = []
    for colour, stops in enumerate(LINE_STOPS):
        for i, station in enumerate(stops):
            ends = (i > 0) + (i < len(stops) - 1)
            tiles.extend([(station, colour)] * ends)
    tiles.sort()
    return tuple(tiles)


# The box: 60 (station index, colour index) pairs, duplicates included.
TILES: Final[tuple[tuple[int, int], ...]] = _tiles()


def station_id(name: str) -> int:
    """Index of a station given its id; ``KeyError`` if unknown."""
    return STATION_INDEX[name]


def display_name(station: str) -> str:
    return DISPLAY_NAMES[station]
