"""The map: its elements and that every city can be reached from every start hex."""

from collections import deque

import pytest

from engine.paris_connection import board as B


def test_tower_start_hexes_and_kinds():
    kinds = [cell.kind for cell in B.HEXES.values()]
    assert kinds.count("tower") == 1 and B.HEXES[B.TOWER].kind == "tower"
    assert len(B.START_HEXES) == 6 and len(set(B.START_HEXES)) == 6
    assert all(B.HEXES[h].kind == "start" for h in B.START_HEXES)
    assert sorted(B.neighbours(B.TOWER)) == sorted(B.START_HEXES)
    assert set(kinds) == {"tower", "start", "rural", "city"}


def test_city_values():
    values = [c.value for c in B.cities()]
    assert [c.city for c in B.cities() if c.value == 4] == ["Marseille"]
    assert set(values) == {1, 2, 3, 4}
    assert values.count(1) > values.count(2) > values.count(3) > 1
    assert all(cell.value == 0 and cell.city is None for cell in B.HEXES.values() if cell.kind != "city")
    assert len({c.city for c in B.cities()}) == len(B.cities())


def test_marseille_is_in_the_far_south():
    marseille = B.HEXES[B.marseille()]
    assert marseille.r >= max(cell.r for cell in B.HEXES.values()) - 2


def test_ids_are_short_and_coordinates_unique():
    assert all(1 < len(h) <= 3 and cell.id == h for h, cell in B.HEXES.items())
    assert len({(c.q, c.r) for c in B.HEXES.values()}) == len(B.HEXES)


def test_adjacency_is_symmetric_and_barriers_lie_between_neighbours():
    for h in B.HEXES:
        for nb in B.neighbours(h):
            assert h in B.neighbours(nb)
    for pair in B.BARRIERS:
        a, b = sorted(pair)
        ca, cb = B.HEXES[a], B.HEXES[b]
        dq, dr = ca.q - cb.q, ca.r - cb.r
        assert (dq, dr) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
        assert b not in B.neighbours(a)
    assert 10 <= len(B.BARRIERS) <= 80


@pytest.mark.parametrize("start", B.START_HEXES)
def test_every_city_is_reachable_from_every_start_hex(start):
    seen, queue = {start}, deque([start])
    while queue:
        for nb in B.neighbours(queue.popleft()):
            if nb not in seen and B.HEXES[nb].kind in ("rural", "city"):
                seen.add(nb)
                queue.append(nb)
    assert {c.id for c in B.cities()} <= seen
    assert {h for h, c in B.HEXES.items() if c.kind == "rural"} <= seen     # no stranded hex either
