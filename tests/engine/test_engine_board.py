"""Structural facts of the board (RULES.md, "The board" and "The tiles")."""

from collections import Counter
from itertools import combinations

from engine.paris_paris import board as B


def test_five_lines_of_seven_stops_in_colour_order():
    assert tuple(B.LINES) == B.COLOURS == ("green", "red", "blue", "purple", "yellow")
    for stops in B.LINES.values():
        assert len(stops) == 7
        assert len(set(stops)) == 7


def test_each_pair_of_lines_crosses_exactly_once():
    for a, b in combinations(B.LINES, 2):
        assert len(set(B.LINES[a]) & set(B.LINES[b])) == 1, (a, b)


def test_ten_crossings_and_25_stations():
    assert len(B.CROSSINGS) == 10
    assert len(B.STATIONS) == 25 == len(set(B.STATIONS))
    assert set(B.DISPLAY_NAMES) == set(B.STATIONS) == set(B.POSITIONS)
    on_two_lines = {s for s in B.STATIONS if sum(s in stops for stops in B.LINES.values()) == 2}
    assert on_two_lines == B.CROSSINGS
    assert all(sum(s in stops for stops in B.LINES.values()) in (1, 2) for s in B.STATIONS)


def test_four_crossings_a_line_in_bus_order():
    for colour, stops in B.LINES.items():
        crossings = [s for s in stops if s in B.CROSSINGS]
        assert len(crossings) == 4
        assert [B.STATIONS[i] for i in B.LINE_CROSSINGS[B.COLOUR_INDEX[colour]]] == crossings


def test_the_crossings_of_rules_md():
    expected = {"montmartre", "pompidou", "hotel-de-ville", "quartier-latin", "concorde",
                "opera", "republique", "louvre", "pont-neuf", "luxembourg"}
    assert expected == B.CROSSINGS


def test_capacity_two_at_crossings_one_elsewhere():
    for i, name in enumerate(B.STATIONS):
        assert B.CAPACITY[i] == (2 if name in B.CROSSINGS else 1)


def test_sixty_tiles_twelve_a_colour():
    assert len(B.TILES) == 60
    per_colour = Counter(B.COLOURS[c] for _, c in B.TILES)
    assert per_colour == {c: 12 for c in B.COLOURS}


def test_tiles_per_station_equal_roads_into_it():
    tiles = Counter(B.STATIONS[s] for s, _ in B.TILES)
    roads = Counter()
    for stops in B.LINES.values():
        for a, b in zip(stops, stops[1:], strict=False):
            roads[a] += 1
            roads[b] += 1
    assert tiles == roads
    assert tiles["tour-eiffel"] == 1          # a line end
    assert tiles["madeleine"] == 2            # a plain stop
    assert tiles["montmartre"] == 3           # crossing at the green line's start
    assert tiles["louvre"] == 4               # crossing in the middle of both lines
    assert len(B.NEIGHBOURS[B.STATION_INDEX["louvre"]]) == 4
    # A station has as many neighbours as roads into it.
    for i, name in enumerate(B.STATIONS):
        assert len(B.NEIGHBOURS[i]) == tiles[name]


def test_tile_colours_follow_the_segments():
    tiles = Counter((B.STATIONS[s], B.COLOURS[c]) for s, c in B.TILES)
    assert tiles[("montmartre", "green")] == 1
    assert tiles[("montmartre", "red")] == 2
    assert tiles[("pompidou", "yellow")] == 2
    assert tiles[("pompidou", "green")] == 2
    assert ("pompidou", "red") not in tiles


def test_small_tour_rings_walk_both_lines_without_turning():
    rings = B.SMALL_TOUR_RINGS[B.STATION_INDEX["pompidou"]]
    named = [sorted(B.STATIONS[s] for s in ring) for ring in rings]
    assert named[0] == ["grands-boulevards", "hotel-de-ville", "pont-neuf", "saint-nicolas"]
    assert named[1] == ["montmartre", "notre-dame", "odeon", "republique"]
    assert named[2] == ["belleville", "luxembourg", "quartier-latin"]
    assert named[3] == ["place-d-italie"]
    # An end of line: one direction only, six stops.
    rings = B.SMALL_TOUR_RINGS[B.STATION_INDEX["tour-eiffel"]]
    assert [[B.STATIONS[s] for s in ring] for ring in rings] == [[s] for s in B.LINES["blue"][1:]]
