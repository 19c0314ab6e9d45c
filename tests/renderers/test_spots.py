"""``Presenter.spots``: where each legal choice sits on the pictures the presenter draws.

Random play of every registered game checks the contract at many positions, for the acting seat,
at both layouts: every spot names a legal choice that is a place on the board (the engine's
``Choice.place()``), its box lies inside the picture actually drawn
and is not empty, and two different choices never share a box. Known positions of each game check
that the choices that are places do get spots, where the drawing puts those things.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image

from engine.interface import Match
from engine.registry import GAMES
from renderers.registry import PRESENTERS

LAYOUTS = ("landscape", "portrait")
LANGUAGES = ("en", "de", "it", "fr")
POSITIONS = 16          # positions checked per game and player count (each drawn at both layouts)


def _events(match: Match, seat: int | None) -> list:
    """The events of the current cycle ``seat`` may see (what the bot draws with)."""
    return [e for e in match.log[match.rhythm.cycle_start(match.rhythm.cycle):] if e.visible_to(seat)]


def _picture(game_id: str, match: Match, seat: int, picture: str, layout: str, language: str) -> Image.Image:
    presenter = PRESENTERS[game_id]
    if picture == "seat":
        png = presenter.render_private(match.view(seat), _events(match, seat), language, layout=layout)
    else:
        png = presenter.render("map", match.view(None), _events(match, None), language, layout=layout)
    return Image.open(io.BytesIO(png))


def _pictures(game_id: str) -> tuple[str, ...]:
    return ("map", "seat") if PRESENTERS[game_id].private_pictures else ("map",)


def check_spots(game_id: str, match: Match, seat: int, language: str = "en") -> int:
    """The contract at one position for ``seat``; the number of spots found."""
    presenter = PRESENTERS[game_id]
    choices = match.legal_choices(seat)
    found = 0
    for picture in _pictures(game_id):
        for layout in LAYOUTS:
            spots = presenter.spots(picture, match.view(seat), choices, layout=layout)
            if not spots:
                continue
            width, height = _picture(game_id, match, seat, picture, layout, language).size
            owner: dict[tuple, object] = {}
            for spot in spots:
                assert spot.picture == picture
                assert any(spot.choice is c or spot.choice == c for c in choices), spot
                assert spot.choice.place() is not None, f"{spot.choice} has a spot but is no place"
                left, top, right, bottom = spot.box
                assert 0 <= left < right <= width and 0 <= top < bottom <= height, (spot, (width, height))
                assert owner.setdefault(spot.box, spot.choice) == spot.choice, (spot, owner[spot.box])
            found += len(spots)
    return found


def _random_positions(game_id: str, players: int, seed: int, count: int) -> list[tuple[Match, int]]:
    """``count`` positions of a seeded random game, spread over it, each with an acting seat."""
    definition = GAMES[game_id]
    match = definition.new_match([f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    kept: list[tuple[Match, int]] = []
    while not match.is_terminal():
        seat = rng.choice(match.to_act())
        if rng.random() < 0.2:
            kept.append((match.copy(), seat))
        match.apply(rng.choice(match.legal_choices(seat)), by=seat)
    return [kept[i] for i in sorted(rng.sample(range(len(kept)), min(count, len(kept))))]


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_spots_name_legal_choices_inside_the_picture(game_id: str) -> None:
    definition = GAMES[game_id]
    found = 0
    for players in sorted({definition.min_players, definition.max_players}):
        for i, (match, seat) in enumerate(_random_positions(game_id, players, seed=players, count=POSITIONS)):
            found += check_spots(game_id, match, seat, LANGUAGES[i % len(LANGUAGES)])
    assert found, f"{game_id}: no spot at any position"


def test_spots_do_not_depend_on_language() -> None:
    """The boxes are the same however the picture is worded (the spots take no language at all);
    the pictures keep their size where the boxes are, so they still fit (a long German word)."""
    for game_id in sorted(PRESENTERS):
        (match, seat), = _random_positions(game_id, GAMES[game_id].max_players, seed=11, count=1)
        for language in LANGUAGES:
            check_spots(game_id, match, seat, language)


def test_a_game_without_spots_has_none() -> None:
    """The default: a presenter that does not place its choices gives none (they stay in the menu)."""
    from tests.tinygame.presenter import PRESENTER

    assert PRESENTER.spots("map", None, ["a", "b"]) == []


def play_until(game_id: str, players: int, want: Callable[[Match, int], bool], *, seed: int = 1,
               attempts: int = 40) -> tuple[Match, int]:
    """A seeded random game played until ``want(match, seat)`` holds for an acting seat."""
    definition = GAMES[game_id]
    for attempt in range(attempts):
        match = definition.new_match([f"P{i}" for i in range(players)], seed=seed + attempt)
        rng = random.Random(seed + attempt)
        while not match.is_terminal():
            for seat in match.to_act():
                if want(match, seat):
                    return match, seat
            seat = rng.choice(match.to_act())
            match.apply(rng.choice(match.legal_choices(seat)), by=seat)
    raise LookupError(f"{game_id}: no such position in {attempts} games")


def spots_by_choice(game_id: str, match: Match, seat: int, picture: str = "map",
                    layout: str = "landscape") -> dict[str, list[tuple[int, int, int, int]]]:
    out: dict[str, list] = {}
    for spot in PRESENTERS[game_id].spots(picture, match.view(seat), match.legal_choices(seat), layout=layout):
        out.setdefault(str(spot.choice), []).append(spot.box)
    return out


def centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


# ---- Paris Paris -------------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
def test_paris_paris_every_tile_on_offer_sits_on_its_badge_and_its_row(layout: str) -> None:
    from renderers.paris_paris import layout as L
    from renderers.paris_paris.spots import map_width

    match = GAMES["paris-paris"].new_match(["A", "B", "C"], seed=3)
    seat = match.to_act()[0]
    offer = match.view(seat).offer
    spots = spots_by_choice("paris-paris", match, seat, layout=layout)
    assert set(spots) == {str(c) for c in match.legal_choices(seat)}
    for i, tile in enumerate(offer):
        badge = L.offer_badge_xy(offer, i, map_width(layout))
        boxes = spots[str(tile)]
        assert any(abs(centre(b)[0] - badge[0]) <= 1 and abs(centre(b)[1] - badge[1]) <= 1 for b in boxes)
        assert len(boxes) == 1 + offer.count(tile)      # its badges and its row in the panel


def test_paris_paris_an_eviction_sits_on_the_shop_it_evicts() -> None:
    from renderers.paris_paris import layout as L

    def evicting(match, seat):
        return any(c.evict is not None for c in match.legal_choices(seat))

    match, seat = play_until("paris-paris", 4, evicting, seed=3)
    view = match.view(seat)
    picks = [c for c in match.legal_choices(seat) if c.evict is not None]
    spots = spots_by_choice("paris-paris", match, seat)
    for pick in picks:
        owners = view.board[pick.tile.station]
        shops = [L.house_xy(pick.tile.station, slot, len(owners)) for slot, o in enumerate(owners) if o == pick.evict]
        assert spots[str(pick)], pick
        for box in spots[str(pick)]:
            assert min(abs(centre(box)[0] - x) + abs(centre(box)[1] - y) for x, y in shops) <= 1, (pick, box)


# ---- Paris Connection --------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
def test_paris_connection_every_hex_a_build_may_take_sits_on_that_hex(layout: str) -> None:
    from engine.paris_connection.actions import Place
    from renderers.paris_connection.mapimage import hex_xy

    def placing(match, seat):
        return sum(isinstance(c, Place) for c in match.legal_choices(seat)) >= 2

    match, seat = play_until("paris-connection", 4, placing)
    spots = spots_by_choice("paris-connection", match, seat, layout=layout)
    places = [c for c in match.legal_choices(seat) if isinstance(c, Place)]
    for place in places:
        (box,) = spots[str(place)]
        x, y = hex_xy(place.hex, 1280, layout)
        assert abs(centre(box)[0] - x) <= 1 and abs(centre(box)[1] - y) <= 1


@pytest.mark.parametrize("layout", LAYOUTS)
def test_paris_connection_every_company_to_build_sits_on_its_row(layout: str) -> None:
    from engine.paris_connection.actions import Build
    from engine.paris_connection.board import COMPANIES

    match = GAMES["paris-connection"].new_match(["A", "B", "C"], seed=1)
    seat = match.to_act()[0]
    builds = [c for c in match.legal_choices(seat) if isinstance(c, Build)]
    assert builds
    spots = spots_by_choice("paris-connection", match, seat, layout=layout)
    rows = [spots[str(b)][0] for b in sorted(builds, key=lambda b: COMPANIES.index(b.colour))]
    assert all(a[3] <= b[1] for a, b in zip(rows, rows[1:], strict=False))      # top to bottom, apart
    assert min(box[0] for box in rows) > (1280 * 0.5 if layout == "landscape" else -1)   # in the panel


# ---- Papà Paolo --------------------------------------------------------------------------------

def _papa_choosing(verb: str, players: int = 3) -> tuple[Match, int]:
    def wanted(match, seat):
        return sum(str(c).split(" ")[0] == verb for c in match.legal_choices(seat)) >= 2
    return play_until("papa-paolo", players, wanted, seed=4)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("verb", ["place", "stairs", "invest"])
def test_papa_paolo_board_choices_sit_on_the_board(verb: str, layout: str) -> None:
    from renderers import style

    match, seat = _papa_choosing(verb)
    choices = [c for c in match.legal_choices(seat) if c.verb == verb]
    spots = spots_by_choice("papa-paolo", match, seat, layout=layout)
    assert all(len(spots.get(str(c), ())) == 1 for c in choices), (choices, spots)
    if verb == "stairs":        # each space's own box: the panel colour inside, under its cost
        img = _picture("papa-paolo", match, seat, "map", layout, "en").convert("RGB")
        for c in choices:
            (box,) = spots[str(c)]
            assert img.getpixel((box[0] + 3, box[3] - 3)) == style.PANEL


@pytest.mark.parametrize("verb", ["square", "rotate", "step", "from"])
def test_papa_paolo_seat_choices_sit_on_the_seats_picture(verb: str) -> None:
    match, seat = _papa_choosing(verb)
    choices = [c for c in match.legal_choices(seat) if c.verb == verb]
    for layout in LAYOUTS:
        spots = spots_by_choice("papa-paolo", match, seat, "seat", layout)
        assert all(len(spots.get(str(c), ())) == 1 for c in choices), (choices, spots)
        assert not spots_by_choice("papa-paolo", match, seat, "map", layout)
    check_spots("papa-paolo", match, seat)
