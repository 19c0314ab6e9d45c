"""Station names as the pictures write them: the full name, or where room is short its short name.

A short name is defined once per station and stays unambiguous (the two Saints become St-Germain and
St-Nicolas, never "Saint-..." twice). Pictures never cut a station name with an ellipsis: they use the
short name, break it over two lines, or shrink it.
"""

from __future__ import annotations

from engine.paris_paris.board import DISPLAY_NAMES

SHORT_NAMES: dict[str, str] = {
    "montmartre": "Montmartre",
    "grands-boulevards": "Gds Boulevards",
    "pompidou": "Pompidou",
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
    "saint-germain": "St-Germain",
    "luxembourg": "Luxembourg",
    "jardin-des-plantes": "J. des Plantes",
    "odeon": "Odéon",
    "saint-nicolas": "St-Nicolas",
    "belleville": "Belleville",
}

assert set(SHORT_NAMES) == set(DISPLAY_NAMES)
assert len(set(SHORT_NAMES.values())) == len(SHORT_NAMES), "short names must tell stations apart"


def full_name(station: str) -> str:
    return DISPLAY_NAMES[station]


def short_name(station: str) -> str:
    return SHORT_NAMES[station]
