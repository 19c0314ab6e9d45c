"""Six players get six colours that stay apart for colour-blind viewers, each with its own
name in every language and, on the pieces, the player's initial."""

from __future__ import annotations

import itertools
import math

from i18n import LANGUAGES, t
from renderers.players import colour, initials

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
DICHROMACY = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
    "normal vision": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}
APART = 35     # least distance (sRGB units) between two players' colours as each viewer sees them


def _linear(c: int) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def seen(rgb, matrix) -> tuple[float, ...]:
    linear = [_linear(c) for c in rgb]
    return tuple(_srgb(sum(m * v for m, v in zip(row, linear, strict=True))) for row in matrix)


def test_six_seats_get_six_distinct_colours_that_do_not_wrap():
    six = [colour(seat) for seat in range(6)]
    assert len({c.name for c in six}) == 6 and len({c.rgb for c in six}) == 6


def test_the_six_colours_stay_apart_for_colour_blind_viewers():
    six = [colour(seat) for seat in range(6)]
    for viewer, matrix in DICHROMACY.items():
        for a, b in itertools.combinations(six, 2):
            distance = math.dist(seen(a.rgb, matrix), seen(b.rgb, matrix))
            assert distance >= APART, (viewer, a.name, b.name, round(distance))


def test_each_colour_has_a_name_and_each_player_a_distinct_mark():
    for language in LANGUAGES:
        names = [t(language, f"player_colour_{colour(seat).name}") for seat in range(6)]
        assert len(set(names)) == 6 and not any(name.startswith("player_colour_") for name in names)
    assert len(set(initials(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]))) == 6
    assert len(set(initials(["Ann", "Anna", "Bob", "Bea", "Cy", "Cy"]))) == 6    # clashes get seat numbers
