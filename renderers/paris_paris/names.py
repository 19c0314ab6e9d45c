"""Station names as the pictures write them: the full name, or where room is short its short name.

A short name is defined once per station and stays unambiguous (the two Saints become St-Germain and
St-Nicolas, never "Saint-..." twice). Pictures never cut a station name with an ellipsis: they use the
short name, break it over two lines, or shrink it.
"""

from __future__ import annotations

from engine.paris_paris.board import DISPLAY_NAMES

# Only the names that are too long for a tight spot; every other station keeps its full name.
# (Centre Pompidou keeps its full name, over two lines if need be: the texts and the offer say so.)
_SHORTENED: dict[str, str] = {
    "grands-boulevards": "Gds Boulevards",
    "saint-germain": "St-Germain",
    "jardin-des-plantes": "J. des Plantes",
    "saint-nicolas": "St-Nicolas",
}
SHORT_NAMES: dict[str, str] = {station: _SHORTENED.get(station, name) for station, name in DISPLAY_NAMES.items()}

assert set(SHORT_NAMES) == set(DISPLAY_NAMES)
assert len(set(SHORT_NAMES.values())) == len(SHORT_NAMES), "short names must tell stations apart"


def full_name(station: str) -> str:
    return DISPLAY_NAMES[station]


def short_name(station: str) -> str:
    return SHORT_NAMES[station]
