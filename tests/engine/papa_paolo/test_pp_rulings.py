"""One test per ruling of PAPA_PAOLO.md §8 (numbered as there), through the engine's public API."""

from __future__ import annotations

import pytest
from pp_testkit import game, idle_placements

from engine.papa_paolo import errors as E
from engine.papa_paolo.drafts import ActionDraft
from engine.papa_paolo.events import CoinAwarded, LeftStaircase, PizzasBought, StairsPaid, TrackAdvanced
from engine.papa_paolo.hood import City, Hood, Shop, rotated, trip_fault
from engine.papa_paolo.record import play_move
from engine.papa_paolo.stepper import legal_steps
from engine.papa_paolo.steps import Act, Decline
from engine.papa_paolo.trips import check_plan

CROSS = frozenset("NESW")


def start_hood() -> Hood:
    hood = Hood()
    hood.shops[(0, 0)] = Shop("S1P", 5, 3)
    hood.cities[(1, 0)] = City("S1", "yellow", CROSS, 2)
    return hood


def cross(hood: Hood, *squares) -> Hood:
    for q in squares:
        hood.cities[q] = City("Y19", "yellow", CROSS, 1)
    return hood


# 1. 4x5 is the bounding box of every own square, either orientation.
def test_r01_neighbourhood_fits_four_by_five_either_way():
    wide = cross(start_hood(), (2, 0), (3, 0), (4, 0))                 # 5 wide, 1 high
    assert wide.placement_fault((5, 0), CROSS) == "too_large"
    assert cross(wide, (1, 1), (1, 2)).placement_fault((1, 3), CROSS) is None   # 5 x 4
    assert cross(wide, (1, 3)).placement_fault((1, 4), CROSS) == "too_large"    # would be 5 x 5
    tall = cross(start_hood(), (1, 1), (1, 2), (1, 3), (1, 4))          # 2 wide, 5 high
    assert tall.placement_fault((1, 5), CROSS) == "too_large"
    assert tall.shop_fault((1, 5)) == "too_large"


# 2. Tiles rotate freely: a dead end east of the town square must point west (rotation 3).
def test_r02_tiles_rotate_when_placed():
    g = game(2, ["Y01"])
    person = g.people[0]
    assert (2, 0) in [q for q, _ in person.hood.placements(__import__("engine.papa_paolo.components",
                                                                         fromlist=["x"]).CITY_TILES["Y01"])]
    with pytest.raises(E.RoadCut):
        play_move(g, 0, {"place": [0, 0], "take": {"square": [2, 0], "rotation": 0}})
    play_move(g, 0, {"place": [0, 0], "take": {"square": [2, 0], "rotation": 3}})
    assert person.hood.cities[(2, 0)].roads == frozenset("W") == rotated("N", 3)


# 3. Roads must line up only with adjacent city squares; a pizzeria side takes a road or none.
def test_r03_road_continuity_against_cities_only():
    hood = cross(start_hood(), (1, 1))
    assert hood.placement_fault((0, 1), frozenset("E")) is None          # blocked pizzeria entrance: fine
    assert hood.placement_fault((0, 1), frozenset("NE")) is None         # entrance used: fine too
    assert hood.placement_fault((0, 1), frozenset("N")) == "road_cut"    # (1, 1) has a road west
    assert hood.placement_fault((2, 0), frozenset("E")) == "road_cut"    # the town square's road east


# 4. Connection: a road of the new tile meets a pizzeria entrance or a connected road.
def test_r04_new_tile_connects_to_a_pizzeria():
    hood = start_hood()
    assert hood.placement_fault((0, -1), frozenset("S")) is None        # into the pizzeria
    assert hood.placement_fault((0, -1), frozenset("N")) == "not_connected"
    assert hood.placement_fault((1, -1), frozenset("S")) is None        # onto the town square's road
    assert hood.placement_fault((3, 3), frozenset("N")) == "not_adjacent"


# 5. Distance counts the squares entered after leaving the pizzeria.
def test_r05_distance_is_squares_entered():
    hood = cross(start_hood(), (2, 0), (3, 0))
    assert trip_fault(hood, (0, 0), [(1, 0)], 1) is None
    assert trip_fault(hood, (0, 0), [(1, 0), (2, 0)], 2) is None
    assert trip_fault(hood, (0, 0), [(1, 0), (2, 0), (3, 0)], 2) == "too_far"


# 6. A trip never enters a pizzeria, not even to pass through or return home.
def test_r06_no_passing_a_pizzeria():
    hood = start_hood()
    hood.shops[(2, 0)] = Shop("P4-1", 4, 2)
    assert trip_fault(hood, (0, 0), [(1, 0), (2, 0)], 5) == "enters_pizzeria"
    assert trip_fault(hood, (0, 0), [(1, 0), (0, 0)], 5) == "enters_pizzeria"


# 7. A road link is crossed once per trip; squares may be revisited by other links.
def test_r07_no_road_twice():
    hood = cross(start_hood(), (2, 0), (2, 1), (1, 1))
    assert trip_fault(hood, (0, 0), [(1, 0), (2, 0), (1, 0)], 5) == "road_twice"
    loop = [(1, 0), (2, 0), (2, 1), (1, 1), (1, 0)]
    assert trip_fault(hood, (0, 0), loop, 5) is None
    assert trip_fault(hood, (0, 0), [*loop, (2, 0)], 6) == "road_twice"


# 8. A trip's pizzas come from its own start pizzeria only.
def test_r08_pizzas_from_the_start_pizzeria():
    hood = cross(start_hood(), (2, 0), (1, 1), (1, -1))
    hood.shops[(3, 0)] = Shop("P4-1", 4, 0)
    hood.cities[(2, 0)] = City("Y21", "yellow", CROSS, 2)
    first = ((0, 0), ((1, 0),), ((1, 0), (1, 0)))
    second = ((0, 0), ((1, 0), (2, 0)), ((2, 0), (2, 0)))
    with pytest.raises(E.NoPizzasLeft):          # 3 pizzas at (0, 0): 2 + 2 do not come from it
        check_plan(hood, [first, second], trips_allowed=2, max_pizzas=9, max_distance=3)
    from_empty = ((3, 0), ((2, 0),), ((2, 0),))
    with pytest.raises(E.NoPizzasLeft):
        check_plan(hood, [from_empty], trips_allowed=2, max_pizzas=9, max_distance=3)


# 9. A house takes one pizza in the whole game; a square is scored once.
def test_r09_one_pizza_a_house_and_one_score_a_square():
    hood = start_hood()
    with pytest.raises(E.HouseServed):
        check_plan(hood, [((0, 0), ((1, 0),), ((1, 0),) * 3)], trips_allowed=1, max_pizzas=5, max_distance=2)
    g = game(2)
    g.people[0].tracks["red"] = 1                     # express drops 2
    play_move(g, 0, {"place": [2, 0], "action": {"express": {"from": [0, 0], "path": [[1, 0]],
                                                       "drops": [[1, 0], [1, 0]]}}})
    assert g.people[0].tracks["yellow"] == 1 and g.people[0].hood.cities[(1, 0)].scored
    while not g.finished:                            # the rest of the game never scores it again
        _finish_round_idly(g)
    steps = [e for e in g.log if isinstance(e, TrackAdvanced) and e.seat == 0 and e.square == (1, 0)]
    assert len(steps) == 1


def _finish_round_idly(g):
    idle_placements(g)
    while g.phase in ("bid", "settle", "late", "invest", "deliver"):
        seat = g.to_act()[0]
        if g.phase == "bid":
            play_move(g, seat, {"stairs": list(g.stair_spaces(seat)[0])})
        elif g.phase == "settle":
            play_move(g, seat, {"invest": g.inv_open[0]})
        elif g.phase == "late":
            play_move(g, seat, {"late": None})
        elif g.phase == "invest":
            play_move(g, seat, {"resolve": "track"} if "track" in g.resolutions(seat) else {"resolve": {"sponsor": {}}})
        else:
            play_move(g, seat, {"deliver": []})


# 10. Coin ties: the tied player with the marker nearest the coin takes it.
def test_r10_coin_tie_goes_to_the_nearest_marker():
    g = game(2, coins=[3, 1, 1, 1, 1, 2])              # row 0's coin is the 3
    for seat, space in [(0, [0, 2]), (1, [0, 0]), (0, [1, 0]), (1, [1, 1]), (0, [1, 2]), (1, [2, 0]),
                        (0, [2, 1]), (1, [2, 2])]:
        play_move(g, seat, {"place": space, "action": {"none": {}}})
    row0 = next(e for e in g.log if isinstance(e, CoinAwarded) and e.line == "row" and e.index == 0)
    assert (row0.value, row0.seat) == (3, 1)
    col2 = next(e for e in g.log if isinstance(e, CoinAwarded) and e.line == "col" and e.index == 2)
    assert col2.seat == 0                             # [0, 2] Ann, [1, 2] Ann, [2, 2] Bob: majority


# 11. An outbid player must move if any affordable legal space exists; else leaves. An unaffordable
#     first placement leaves too.
def test_r11_outbid_must_move_or_leave():
    g = game(2)
    idle_placements(g)
    g.people[0].lire, g.people[1].lire = 10, 10
    play_move(g, 0, {"stairs": [0, 1]})
    play_move(g, 1, {"stairs": [1, 1]})
    assert g.to_act() == (0,) and g.outbid(0)
    assert all(s.verb == "stairs" for s in legal_steps(g, 0))
    assert (0, 2) in g.stair_spaces(0)               # sideways at the same row is legal
    g2 = game(2)
    idle_placements(g2)
    g2.people[0].lire, g2.people[1].lire = 0, 1
    play_move(g2, 0, {"stairs": [0, 1]})
    play_move(g2, 1, {"stairs": [1, 1]})                   # Ann is outbid with 0 Lire: she leaves
    assert 0 in g2.out and any(isinstance(e, LeftStaircase) and e.seat == 0 for e in g2.log)
    g3 = game(2)
    idle_placements(g3)
    g3.people[0].lire, g3.people[1].lire = 0, 0
    play_move(g3, 0, {"stairs": [0, 1]})                   # Bob can afford nothing: out at once
    assert 1 in g3.out and g3.phase != "bid"


# 12. Staircase costs are paid at settlement.
def test_r12_costs_paid_at_settlement():
    g = game(2)
    idle_placements(g)
    before = g.people[0].lire
    play_move(g, 0, {"stairs": [2, 1]})
    assert g.people[0].lire == before
    play_move(g, 1, {"stairs": [0, 2]})
    paid = [e for e in g.log if isinstance(e, StairsPaid)]
    assert (paid[0].seat, paid[0].cost) == (0, 2) and g.people[0].lire == before - 2


# 13. Settlement order ties (same row): dearer first, then leftmost.
def test_r13_settlement_order():
    g = game(3)
    idle_placements(g)
    for s in range(3):
        g.people[s].lire = 20
    first = g.to_act()[0]
    seats = list(g.order)
    play_move(g, seats[0], {"stairs": [1, 1]})             # cost 1
    play_move(g, seats[1], {"stairs": [1, 3]})             # cost 2
    play_move(g, seats[2], {"stairs": [1, 2]})             # cost 2, left of column 3
    assert first == seats[0]
    assert g.rank() == [seats[2], seats[1], seats[0]]


# 14. Taking an investment tile at settlement is mandatory; the late purchase is optional.
def test_r14_settlement_mandatory_late_optional():
    g = game(2)
    idle_placements(g)
    g.people[0].lire, g.people[1].lire = 0, 5
    play_move(g, 0, {"stairs": [0, 1]})
    play_move(g, 1, {"stairs": [1, 1]})                    # Ann leaves (no Lire), Bob settles
    assert g.phase == "settle" and all(s.verb == "invest" for s in legal_steps(g, 1))
    play_move(g, 1, {"invest": g.inv_open[0]})
    assert g.phase != "late"                         # Ann has no Lira: nothing is asked
    g = game(2)
    idle_placements(g)
    g.people[0].lire, g.people[1].lire = 1, 5
    play_move(g, 0, {"stairs": [1, 1]})
    play_move(g, 1, {"stairs": [2, 1]})
    play_move(g, 1, {"invest": g.inv_open[0]})             # Ann had to leave: 2 is too dear
    assert g.phase == "late" and Decline() in legal_steps(g, 0)
    play_move(g, 0, {"late": None})
    assert g.inv_held[0] is None


# 15. Buying: n >= 1, the paid pizzas must fit, free pizzas that do not fit are lost.
def test_r15_buying_ingredients():
    g = game(2)
    g.people[0].tracks["blue"] = 3                   # 2 free pizzas a buy
    with pytest.raises(E.NoRoom):
        play_move(g, 0, {"place": [0, 0], "action": {"buy": {"pizzas": 3, "to": [[0, 0, 2]]}}})
    with pytest.raises(E.MalformedInput):
        play_move(g, 0, {"place": [0, 0], "action": {"buy": {"pizzas": 0, "to": []}}})
    play_move(g, 0, {"place": [0, 0], "action": {"buy": {"pizzas": 2, "to": [[0, 0, 2]]}}})
    bought = next(e for e in g.log if isinstance(e, PizzasBought))
    assert (bought.cost, bought.lost, g.people[0].hood.shops[(0, 0)].pizzas) == (3, 2, 5)


# 16. Express: must be able to serve a house; the fee is paid even if fewer pizzas are dropped.
def test_r16_express_fee_and_a_house_to_serve():
    g = game(2)
    g.people[0].tracks["red"] = 3                    # may drop 3
    play_move(g, 0, {"place": [2, 0], "action": {"express": {"from": [0, 0], "path": [[1, 0]], "drops": [[1, 0]]}}})
    assert g.people[0].lire == 8
    g.people[1].hood.cities[(1, 0)].served = 2       # Bob's only houses are served
    assert Act("express") not in [s for s in _space_steps(g, 1, [2, 2])]
    with pytest.raises(E.NothingToServe):
        play_move(g, 1, {"place": [2, 2], "action": {"express": {"from": [0, 0], "path": [[1, 0]], "drops": []}}})


def _space_steps(g, seat, space):
    g.drafts[seat] = ActionDraft(seat, tuple(space))
    try:
        return legal_steps(g, seat)
    finally:
        del g.drafts[seat]


# 17. A phase-1 turn may end with no action; the marker still counts (see 10).
def test_r17_nothing_is_a_turn():
    g = game(2)
    play_move(g, 0, {"place": [1, 1], "action": {"none": {}}})
    assert g.markers == {4: 0} and g.to_act() == (1,)


# 18. A tile with no legal placement cannot be taken; its space's actions stay usable.
def test_r18_unplaceable_tile():
    g = game(2, ["Y01"])
    hood = g.people[0].hood
    for x in range(5):
        for y in range(4):
            if (x, y) not in ((0, 0), (1, 0)):
                hood.cities[(x, y)] = City("Y19", "yellow", CROSS, 1)
    with pytest.raises(E.NoLegalPlacement):
        play_move(g, 0, {"place": [0, 0], "take": {"square": [5, 0], "rotation": 3}})
    steps = _space_steps(g, 0, [0, 0])
    assert Act("take") not in steps and Act("sponsor") in steps


# 19. Unused investment tiles are discarded at the end of the round.
def test_r19_unused_investments_discarded():
    g = game(2)
    round1 = list(g.inv_open)
    _finish_round_idly(g)
    assert g.round == 2 and not set(round1) & set(g.inv_open)
    assert g.inv_open == [g.inv_stacks[c][1] for c in ("yellow", "blue", "red", "green")]


# 20. No pizzeria left in the supply: building is not offered.
def test_r20_empty_supply():
    g = game(2)
    g.people[0].lire = 50
    assert Act("build") in _space_steps(g, 0, [2, 2])
    g.supply.clear()
    assert Act("build") not in _space_steps(g, 0, [2, 2])
    with pytest.raises(E.NotInSupply):
        play_move(g, 0, {"place": [2, 2], "action": {"build": {"pizzeria": "P4-1", "square": [0, 2]}}})


# 21. Track steps beyond the last position are lost.
def test_r21_track_capped():
    g = game(2)
    g.people[0].tracks["yellow"] = 6
    play_move(g, 0, {"place": [2, 0], "action": {"express": {"from": [0, 0], "path": [[1, 0]], "drops": [[1, 0]]}}})
    g.people[0].hood.cities[(1, 0)].served = 2
    g.people[0].hood.cities[(1, 0)].scored = False
    _finish_round_idly(g)
    assert g.people[0].tracks["yellow"] == 6
    assert any(isinstance(e, TrackAdvanced) and e.seat == 0 and e.position == 6 for e in g.log)


# 22. Phase-4 actions follow phase-1 legality; bonuses only cut costs (never below 0) or add Lire.
def test_r22_investment_actions_with_bonus():
    from pp_testkit import setup

    from engine.papa_paolo.game import Game
    s = setup(2)
    s["investment_stacks"]["red"] = ["IR5", "IR1", "IR2", "IR3", "IR4"]
    s["investment_stacks"]["yellow"] = ["IY5", "IY1", "IY2", "IY3", "IY4"]
    g = Game.from_setup(["Ann", "Bob"], s, {})
    idle_placements(g)
    g.people[0].lire, g.people[1].lire = 0, 0
    play_move(g, 0, {"stairs": [0, 1]})                    # Bob cannot afford anything
    g.people[1].lire = 1
    play_move(g, 0, {"invest": "IR5"})
    play_move(g, 1, {"late": "IY5"})
    assert g.phase == "invest" and g.to_act()[0] == 0
    play_move(g, 0, {"resolve": {"express": {"from": [0, 0], "path": [[1, 0]], "drops": [[1, 0]]}}})
    assert g.people[0].lire == 0                     # fee 2 - 2 = 0
    with pytest.raises(E.WrongInvestmentAction):
        play_move(g, 1, {"resolve": {"buy": {"pizzas": 1, "to": [[0, 0, 1]]}}})
    play_move(g, 1, {"resolve": {"sponsor": {}}})
    assert g.people[1].lire == 3 + 2                 # yellow value 3, bonus 2
