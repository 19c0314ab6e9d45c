"""What docs/games/papa-paolo.md says against what the engine does (issue 32): the reverse bid
order, the last column's two actions, when the staircase is paid, a trip the menus never offer,
and what the best-plan search promises."""

from __future__ import annotations

import re
from pathlib import Path

from pp_testkit import game, idle_placements

from engine.papa_paolo import components as C
from engine.papa_paolo.events import StairsPaid
from engine.papa_paolo.hood import City, Hood, Shop
from engine.papa_paolo.record import play_move
from engine.papa_paolo.trips import SEARCH_CAP, check_plan

PAGE = (Path(__file__).resolve().parents[3] / "docs" / "games" / "papa-paolo.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = PAGE.index(title)
    end = PAGE.find("\n#", start + len(title))
    return PAGE[start:end if end > 0 else None]


def ruling(number: int) -> str:
    found = re.search(rf"^{number}\. (.+?)(?=^\d+\. |^#|\Z)", PAGE, re.M | re.S)
    assert found, number
    return " ".join(found.group(1).split())


def test_reverse_bid_order_reverses_the_settlement_rank_row_first():
    """A 6-Lire place on row 4 comes before a 5-Lire place on row 5, as the page says."""
    g = game(4, options={"reverse_bid_order": True})
    idle_placements(g)
    for seat in range(4):
        g.people[seat].lire = 20
    a, b, c, d = g.order
    for seat, space in ((a, [4, 4]), (b, [5, 1]), (c, [0, 2]), (d, [0, 3])):
        play_move(g, seat, {"stairs": space})
    assert C.stair_cost(4, 4) == 6 and C.stair_cost(5, 1) == 5
    while g.phase == "settle":
        play_move(g, g.to_act()[0], {"invest": g.inv_open[0]})
    assert g.order.index(a) < g.order.index(b)
    row = next(line for line in PAGE.splitlines() if line.startswith("| reverse bid order"))
    assert "cheapest place to the best" not in row and "6-Lire place on row 4 thus comes before" in row


def test_at_two_or_three_players_the_last_column_offers_express_or_build():
    for players in (2, 3):
        board = C.BOARDS[players]
        assert {"express", "build"} <= set(board.actions_at(0, board.cols - 1))
    assert "With 2 or 3 players the last column carries two\n  actions, express delivery or build" in PAGE


def test_each_staircase_player_pays_at_their_own_settlement_turn():
    g = game(2)
    idle_placements(g)
    first, second = g.order
    play_move(g, first, {"stairs": [2, 1]})
    play_move(g, second, {"stairs": [0, 2]})
    settler = g.to_act()[0]
    other = second if settler == first else first
    assert [e.seat for e in g.log if isinstance(e, StairsPaid)] == [settler]   # the other has not paid yet
    play_move(g, settler, {"invest": g.inv_open[0]})
    assert [e.seat for e in g.log if isinstance(e, StairsPaid)] == [settler, other]
    assert "at their own settlement turn" in ruling(12) and "end of bidding" not in ruling(12)


def test_a_trip_from_an_empty_pizzeria_is_no_rule_breach():
    """Ruling 27: the menus never offer it, but a plan (a record) holding it is legal."""
    hood = Hood()
    hood.shops[(0, 0)] = Shop("S1P", 5, 0)                          # no pizzas left
    hood.cities[(1, 0)] = City("S1", "yellow", frozenset("NESW"), 2)
    check_plan(hood, [((0, 0), ((1, 0),), ())], trips_allowed=1, max_pizzas=3, max_distance=2)
    assert "a limit of the menus, not a rule" in ruling(27) and "replays" in ruling(27)


def test_the_page_says_the_same_of_the_best_plan_search_in_both_places():
    phase_five = " ".join(section("### 5. Deliveries").split())
    for text in (phase_five, ruling(28)):
        assert f"exact unless it has weighed {SEARCH_CAP} sets of trips" in text, text
        assert "SEARCH_CAP" in text and "best plan found so far" in text
    assert "exactly" not in phase_five
