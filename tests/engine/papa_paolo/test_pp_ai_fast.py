"""The normal AI's quick readings equal the plain ones, in real games.

The strong AI's rollouts ask the normal AI thousands of choices a decision, so the normal AI
reads a ``Sight`` (the view's fields it weighs) and the seat's own squares instead of a whole
view, keeps what a neighbourhood's geometry decides (``_Layout``) across choices, weighs a road
pattern's placements once for all its tiles, and the pizzas of a best plan by what the plan
reads (engine/papa_paolo/ai.py, view.py, ai_search.py). Each is checked here against the plain
reading on positions of random games, and against a neighbourhood changed in place, so an answer
kept for another geometry cannot pass; and a rollout's choice against ``ai.choose`` on the match.
"""

from __future__ import annotations

from pp_testkit import random_match

from engine.papa_paolo import ai
from engine.papa_paolo import components as C
from engine.papa_paolo.ai import HOUSE, ROAD_END, _Mind, choose, distances, hood_of
from engine.papa_paolo.ai_search import _normal_choice, _own_hood
from engine.papa_paolo.definition import _WholeTake
from engine.papa_paolo.hood import City, Hood, rotated
from engine.papa_paolo.trips import best_plan
from engine.papa_paolo.view import Sight, sight_of, view_of

OPTIONS = ({}, {"hidden_money": True, "first_player_coin": True}, {"express_ignores_roads": True})


def _positions(every: int = 1):
    for k, (n, seed) in enumerate(((2, 11), (3, 12), (4, 13))):
        for i, match in enumerate(random_match(n, seed, OPTIONS[k])):
            if i % every == 0:
                yield match.state


def _squares(hood: Hood) -> list:
    return ([(p, c.tile, c.colour, c.roads, c.houses, c.served, c.scored) for p, c in hood.cities.items()],
            [(p, s.id, s.capacity, s.pizzas) for p, s in hood.shops.items()])


def test_a_sight_and_the_own_squares_are_what_the_view_shows():
    checked = 0
    for g in _positions():
        for seat in range(g.n):
            view, sight = view_of(g, seat), sight_of(g, seat)
            for field in Sight.__dataclass_fields__:
                assert getattr(sight, field) == getattr(view, field), field
            assert _squares(_own_hood(g, seat)) == _squares(hood_of(view, seat))
            checked += 1
    assert checked > 1000


def test_a_rollouts_choice_is_the_normal_ais_choice_on_the_match():
    checked = 0
    for k, (n, seed) in enumerate(((2, 21), (3, 22), (4, 23))):
        for i, match in enumerate(random_match(n, seed, OPTIONS[k])):
            if match.is_terminal():
                break
            for seat in match.to_act():
                assert _normal_choice(match.state, seat, i) == choose(_WholeTake(match), seat, seed=i)
                checked += 1
    assert checked > 500


def _open_ends_plainly(hood: Hood) -> int:
    """Road ends toward free squares a tile could still fill (inside the largest box)."""
    count = 0
    for q, city in hood.cities.items():
        for side in city.roads:
            dx, dy = C.DELTA[side]
            nxt = (q[0] + dx, q[1] + dy)
            if not hood.occupied(nxt) and hood.fits_with(nxt):
                count += 1
    return count


def _placed_worth_plainly(mind: _Mind, tile: C.CityTile, square, roads) -> float:
    """The worth of a placement read as the rule says: the tile placed, the road distances and
    open ends of the neighbourhood then."""
    hood = mind.hood
    placed = Hood()
    placed.cities, placed.shops = dict(hood.cities), dict(hood.shops)
    placed.cities[square] = City(tile.id, tile.colour, roads, tile.houses)
    dist = distances(placed).get(square, 9)
    reach = max(0.2, 1.0 - 0.15 * max(0, dist - 2))
    ranked = sorted(mind.tracks.values())
    colour = ai.COLOUR_NEED[min(ranked.index(mind.tracks[tile.colour]), 3)]
    easy_complete = 0.3 if tile.houses == 1 else 0.0
    late = 0.5 if mind.rounds_left <= 1 else 1.0
    gained = _open_ends_plainly(placed) - _open_ends_plainly(hood)
    return late * (tile.houses * HOUSE * reach + colour + easy_complete) + ROAD_END * gained * late


def _check_placements(mind: _Mind, tiles) -> int:
    hood, checked = mind.hood, 0
    for tile in tiles:
        plain = {}
        for square in hood.frontier():
            for rot in range(4):
                roads = rotated(tile.roads, rot)
                if hood.placement_fault(square, roads) is None:
                    worth = _placed_worth_plainly(mind, tile, square, roads)
                    plain[square] = max(plain.get(square, worth), worth)
                    assert mind.placement_worth(tile, square, rot) == worth
                    checked += 1
        assert mind.take_worth(tile) == (max(plain.values()) if plain else -1.0)
        for square, worth in plain.items():
            assert mind.square_worth(tile, square) == worth
    return checked


def test_a_placements_worth_equals_the_tile_placed():
    tiles = [C.CITY_TILES[t] for t in C.CITY_IDS[::10]]
    checked = 0
    for g in _positions(every=10):
        for seat in range(g.n):
            view = view_of(g, seat)
            checked += _check_placements(_Mind(view, hood_of(view, seat), seat, 0, easy=False), tiles)
    assert checked > 1000


def test_a_neighbourhood_changed_in_place_is_weighed_afresh():
    """The layouts are kept by geometry: a city added to the same neighbourhood is weighed anew,
    and taken off again it is weighed as before."""
    g = next(g for g in _positions() if g.round == 2)
    view = view_of(g, 0)
    hood = hood_of(view, 0)
    tiles = [C.CITY_TILES[t] for t in C.CITY_IDS[::3]]
    before = [_Mind(view, hood, 0, 0, easy=False).take_worth(t) for t in tiles]
    square, rot = hood.placements(tiles[0])[0]
    hood.cities[square] = City("X", "red", rotated(tiles[0].roads, rot), 2)
    _check_placements(_Mind(view, hood, 0, 0, easy=False), tiles)
    del hood.cities[square]
    assert [_Mind(view, hood, 0, 0, easy=False).take_worth(t) for t in tiles] == before


def test_a_coins_worth_and_a_plans_pizzas_equal_the_plain_counts():
    checked = 0
    for g in _positions(every=3):
        for seat in range(g.n):
            view = view_of(g, seat)
            mind = _Mind(view, hood_of(view, seat), seat, 0, easy=False)
            rows, cols = view.grid_size
            for r in range(rows):
                for c in range(cols):
                    total = 0.0
                    for line in ([(r, j) for j in range(cols)], [(i, c) for i in range(rows)]):
                        coin = view.coins[r] if line[0][0] == line[-1][0] else view.coins[rows + c]
                        counts = [sum(1 for s in line if view.markers.get(s) == o) for o in range(g.n)]
                        if counts[seat] + 1 > max(n for o, n in enumerate(counts) if o != seat):
                            total += (coin if coin is not None else 2) * mind.lira * ai.COIN_SHARE
                    assert mind.coin_worth(r, c) == total
                    checked += 1
            for limits in ((1, 3, 2), (1, 3, 4), (1, 5, 2), (2, 3, 2)):     # one limit changed at a time
                plan = best_plan(mind.hood, trips_allowed=limits[0], max_pizzas=limits[1], max_distance=limits[2])
                assert ai._plan_serves(mind.hood, *limits) == sum(len(t[2]) for t in plan)
    assert checked > 5000
