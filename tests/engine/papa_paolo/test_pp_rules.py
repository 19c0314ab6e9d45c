"""Rules beyond the numbered rulings: set-up, the round's flow, the options, steps and views."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest
from pp_testkit import game, idle_placements, setup

from engine.errors import InvalidOption, InvalidSetup
from engine.papa_paolo import components as C
from engine.papa_paolo import errors as E
from engine.papa_paolo.definition import GAME
from engine.papa_paolo.drafts import ActionDraft, PlanDraft, TripDraft
from engine.papa_paolo.events import OrderChanged, PlanStep, PlanSubmitted
from engine.papa_paolo.game import Game
from engine.papa_paolo.hood import City, Hood, Shop, rotated
from engine.papa_paolo.record import play_move
from engine.papa_paolo.steps import (
    VERBS,
    Act,
    BestPlan,
    BestTrip,
    Done,
    Drop,
    From,
    Invest,
    Late,
    Pizzas,
    Pizzeria,
    Place,
    Put,
    Rotate,
    Split,
    Square,
    Stairs,
    StepTo,
    TileAction,
    Track,
    UndoTrip,
    parse,
)
from engine.papa_paolo.trips import best_plan, check_plan


def test_setup_per_player_count():
    for n, (rows, cols, columns, supply) in {2: (3, 3, 3, 4), 3: (4, 3, 3, 6), 4: (4, 4, 4, 8)}.items():
        g = Game.new(["a", "b", "c", "d"][:n], seed=5)
        assert (g.board.rows, g.board.cols, g.board.stair_columns, len(g.supply)) == (rows, cols, columns, supply)
        assert len(g.grid) == rows * cols and len(g.stairs_tiles) == columns
        assert all(p.lire == 10 and p.hood.pizzas() == 3 for p in g.people)
        first = g.order[0]
        assert C.STARTING_TILES[g.starting[first]].number == min(C.STARTING_TILES[s].number for s in g.starting)
        assert g.order == [(first + i) % n for i in range(n)]
    with pytest.raises(InvalidSetup):
        Game.new(["a"], seed=1)
    with pytest.raises(InvalidSetup):
        Game.new(["a", "b", "c"], seed=1, options={"two_player_preview": True})
    with pytest.raises(InvalidOption):
        GAME.new_match(["a", "b"], seed=1, options={"turbo": True})


def test_phase_one_gives_every_player_four_turns_in_order():
    g = game(3)
    seen = []
    while g.phase == "place":
        seat = g.to_act()[0]
        seen.append(seat)
        free = next(i for i in range(len(g.grid)) if i not in g.markers)
        play_move(g, seat, {"place": [free // 3, free % 3], "action": {"none": {}}})
    assert seen == [0, 1, 2] * 4 and g.phase == "bid"
    with pytest.raises(Exception) as info:
        play_move(game(3), 0, {"place": [0, 1], "action": {"sponsor": {}}})
    assert info.value.code == "action_not_on_space"      # [0, 1] offers only buying


def test_first_player_after_settlement_is_the_leftmost_column():
    g = game(3)
    idle_placements(g)
    a, b, c = g.order
    play_move(g, a, {"stairs": [0, 3]})
    play_move(g, b, {"stairs": [0, 2]})
    play_move(g, c, {"stairs": [0, 1]})
    while g.phase in ("settle", "late"):
        play_move(g, g.to_act()[0], {"invest": g.inv_open[0]} if g.phase == "settle" else {"late": None})
    assert g.order[0] == c


def test_reverse_bid_order():
    g = game(3, options={"reverse_bid_order": True})
    idle_placements(g)
    a, b, c = g.order
    g.people[c].lire = 0
    play_move(g, a, {"stairs": [2, 1]})
    play_move(g, b, {"stairs": [0, 2]})
    assert c in g.out                                 # nothing free is left for 0 Lire
    while g.phase in ("settle", "late"):
        play_move(g, g.to_act()[0], {"invest": g.inv_open[0]} if g.phase == "settle" else {"late": None})
    assert g.order == [c, b, a]                       # outside first, then lowest rank to highest


def test_first_player_coin_sets_the_order_at_once():
    g = game(2, options={"first_player_coin": True}, coins=[3, 1, 1, 1, 1, 2])   # face down: row 0's coin
    for seat, space in [(0, [1, 0]), (1, [0, 0]), (0, [1, 1]), (1, [0, 1]), (0, [1, 2]), (1, [2, 0]),
                        (0, [2, 1]), (1, [2, 2])]:
        play_move(g, seat, {"place": space, "action": {"none": {}}})
    assert g.order == [1, 0] and any(isinstance(e, OrderChanged) for e in g.log)


def test_face_down_coin_hidden_in_views():
    match = GAME.new_match(["a", "b"], seed=2, options={"first_player_coin": True})
    index = match.state.face_down[0]
    assert match.view(None).coins[index] is None and match.view(0).coins[index] is None


def test_money_bonus():
    g = game(3, options={"money_bonus": True})
    for p, lire in zip(g.people, (9, 9, 4), strict=True):
        p.lire = lire
    assert [g.score_parts(s)["money"] for s in range(3)] == [2, 2, 1]


def test_two_player_preview():
    plain = GAME.new_match(["a", "b"], seed=1)
    shown = GAME.new_match(["a", "b"], seed=1, options={"two_player_preview": True})
    assert plain.view(None).next_delivery_tiles is None
    assert shown.view(None).next_delivery_tiles == ("B3", "B4", "B5")


def test_express_ignoring_roads():
    g = game(2, options={"express_ignores_roads": True})
    hood = g.people[0].hood
    hood.cities[(1, 1)] = City("Y01", "yellow", frozenset(), 1)      # no road reaches it
    play_move(g, 0, {"place": [2, 0], "action": {"express": {"from": [0, 0], "path": [], "drops": [[1, 1]]}}})
    assert hood.cities[(1, 1)].served == 1 and hood.cities[(1, 1)].scored
    g2 = game(2)
    with pytest.raises(E.EmptyTrip):                  # without the option a trip follows roads
        play_move(g2, 0, {"place": [2, 0], "action": {"express": {"from": [0, 0], "path": [], "drops": [[1, 0]]}}})


def test_hidden_money_views():
    match = GAME.new_match(["a", "b", "c"], seed=4, options={"hidden_money": True})
    assert match.view(None).lire == (None, None, None)
    assert match.view(1).lire == (None, 10, None)
    assert match.rhythm.public_returns() is not None
    both = GAME.new_match(["a", "b"], seed=4, options={"hidden_money": True, "money_bonus": True})
    assert both.rhythm.public_returns() is None


def test_steps_print_and_parse_back():
    for text in ("place 1,2", "take", "square -1,0", "rotate 3", "pizzas 2", "put 0,0", "pizzeria P4-1",
                 "from 0,0", "step 1,-1", "drop 1,0", "end-trip", "done", "best-plan", "stairs 2,1",
                 "invest IY3", "late IB2", "decline", "track", "action", "nothing", "sponsor"):
        assert str(parse(text)) == text
    with pytest.raises(E.MalformedInput):
        parse("fly 1,2")


def test_each_step_text_parses_to_its_own_class():
    kinds = {"place 1,2": Place, "stairs 1,2": Stairs, "square 1,2": Square, "put 1,2": Put, "from 1,2": From,
             "step 1,2": StepTo, "drop 1,2": Drop, "rotate 2": Rotate, "pizzas 2": Pizzas, "pizzeria p4-1": Pizzeria,
             "invest iy3": Invest, "late iy3": Late, "split 0,0=1": Split, "take": Act, "undo-trip": UndoTrip,
             "best-trip": BestTrip}
    for text, kind in kinds.items():
        step = parse(text.upper())
        assert type(step) is kind and step.verb == text.split(" ")[0] and parse(str(step)) == step
    steps = [parse(t) for t in kinds]
    assert len(set(steps)) == len(steps)                 # the same argument under another verb differs
    assert parse("place 1, 2") == Place((1, 2)) and hash(parse("place 1,2")) == hash(Place((1, 2)))
    assert parse("done") == Done() and parse("done") != BestPlan() and parse("sponsor") == Act("sponsor")
    assert {parse(t) for t in ("track", "track", "action")} == {Track(), TileAction()}
    assert set(VERBS) == {parse(t).verb for t in kinds} | {"sponsor", "buy", "express", "build", "nothing",
                                                           "end-trip", "done", "best-plan", "decline", "track",
                                                           "action"}
    with pytest.raises(E.MalformedInput):
        parse("take 1,2")
    with pytest.raises(E.MalformedInput):
        parse("rotate x")


def test_drafts_show_the_keys_set_so_far():
    space = ActionDraft(0, (1, 2))
    assert space.as_dict() == {"seat": 0, "space": (1, 2), "mode": "choose"}
    buying = replace(space, action="buy", mode="put", n=3, to=(), left=3).put((0, 0), 1).put((1, 0), 1).put((0, 0), 1)
    assert list(buying.as_dict()) == ["seat", "space", "mode", "action", "n", "to", "left"]
    assert buying.as_dict()["to"] == {(0, 0): 2, (1, 0): 1} and buying.left == 0
    plan = PlanDraft((TripDraft((0, 0)).stepped((1, 0)).dropped((1, 0)),), TripDraft((0, 0)))
    assert plan.as_dict() == {"trips": [{"from": (0, 0), "path": [(1, 0)], "drops": [(1, 0)]}],
                              "cur": {"from": (0, 0), "path": [], "drops": []}}
    assert plan.taken() == ({(0, 0): 1}, {(1, 0): 1}, 1)


def test_a_placement_in_steps():
    match = GAME.new_match(["a", "b"], seed=11)
    g = match.state
    seat = match.to_act()[0]
    match.apply(Place((0, 0)), by=seat)
    assert match.rhythm.in_decision(seat) and match.to_act() == (seat,)
    choices = match.legal_choices(seat)
    assert Act("take") in choices and Act("nothing") in choices
    match.apply(Act("take"), by=seat)
    squares = match.legal_choices(seat)
    assert squares and all(s.verb == "square" for s in squares)
    match.apply(squares[0], by=seat)
    rotations = match.legal_choices(seat)
    tile = C.CITY_TILES[g.grid[0]]
    assert all(g.people[seat].hood.placement_fault(squares[0].square, rotated(tile.roads, r.rotation)) is None
               for r in rotations)
    match.apply(rotations[0], by=seat)
    assert not match.rhythm.in_decision(seat) and match.to_act() != (seat,) and len(g.record_moves) == 1
    assert match.moves_by(seat) == 4 and match.move_count == 4


def test_placements_agree_with_the_rule():
    rng = random.Random(3)
    for _ in range(30):
        hood = Hood()
        hood.shops[(0, 0)] = Shop("S1P", 5, 3)
        hood.cities[(1, 0)] = City("S1", "yellow", frozenset("NESW"), 2)
        for _ in range(rng.randrange(12)):
            tile = C.CITY_TILES[rng.choice(C.CITY_IDS)]
            options = hood.placements(tile)
            if options:
                q, r = rng.choice(options)
                hood.cities[q] = City(tile.id, tile.colour, rotated(tile.roads, r), tile.houses)
        tile = C.CITY_TILES[rng.choice(C.CITY_IDS)]
        brute = {(q, r) for q in hood.frontier() for r in range(4)
                 if hood.placement_fault(q, rotated(tile.roads, r)) is None}
        fast = set(hood.placements(tile))
        assert fast <= brute and {(q, rotated(tile.roads, r)) for q, r in fast} == \
            {(q, rotated(tile.roads, r)) for q, r in brute}


def test_simultaneous_deliveries_stay_private_until_all_are_in():
    match = GAME.new_match(["a", "b", "c"], seed=21)
    rng = random.Random(0)
    while match.state.phase != "deliver" or len(match.to_act()) < 2:
        seat = match.to_act()[0]
        choices = match.legal_choices(seat)
        match.apply(choices[int(rng.random() * len(choices))], by=seat)
    planners = match.to_act()
    a, b = planners[0], planners[1]
    assert match.legal_choices(a) and match.legal_choices(b)
    start = next(c for c in match.legal_choices(b) if c.verb == "from")
    before_a = match.moves_by(a)
    match.apply(start, by=b)
    assert match.moves_by(a) == before_a and match.rhythm.in_decision(b)
    assert match.view(b).draft is not None and match.view(a).draft is None and match.view(None).draft is None
    assert all(not isinstance(e, PlanStep) for e in match.log_for(None))
    assert any(isinstance(e, PlanStep) for e in match.log_for(b))
    match.apply(Done() if Done() in match.legal_choices(a) else match.legal_choices(a)[-1], by=a)
    assert any(isinstance(e, PlanSubmitted) and e.seat == a for e in match.log_for(None))
    assert a not in match.to_act() and b in match.to_act()


def _brute_best(hood, trips_allowed, max_pizzas, max_distance):
    """Every plan of whole trails, each drop choice: the best (served, completed)."""
    from engine.papa_paolo.trips import trails
    paths = []
    for start in hood.shops:
        def walk(here, path, used, start=start):
            if path:
                paths.append((start, tuple(path)))
            if len(path) == max_distance:
                return
            for _, nxt in hood.links(here):
                link = frozenset((here, nxt))
                if nxt not in hood.shops and link not in used:
                    walk(nxt, [*path, nxt], used | {link})
        walk(start, [], frozenset())
    assert trails
    best = (0, 0)
    for k in range(1, trips_allowed + 1):
        for combo in itertools.combinations(paths, k):
            squares = sorted({q for _, p in combo for q in p})
            counts_options = [range(hood.cities[q].open + 1) for q in squares]
            for counts in itertools.product(*counts_options):
                drops = [q for q, c in zip(squares, counts, strict=True) for _ in range(c)]
                trips = []
                left = list(drops)
                for start, p in combo:
                    mine = [q for q in left if q in p]
                    take = mine[:hood.shops[start].pizzas]
                    for q in take:
                        left.remove(q)
                    trips.append((start, p, tuple(take)))
                if left:
                    continue
                try:
                    check_plan(hood, trips, trips_allowed=trips_allowed, max_pizzas=max_pizzas,
                               max_distance=max_distance)
                except Exception:
                    continue
                done = sum(1 for q, c in zip(squares, counts, strict=True) if c == hood.cities[q].open)
                best = max(best, (len(drops), done))
    return best


def test_best_plan_is_exact_on_small_neighbourhoods():
    rng = random.Random(8)
    for _ in range(12):
        hood = Hood()
        hood.shops[(0, 0)] = Shop("S1P", 5, rng.randrange(1, 6))
        hood.cities[(1, 0)] = City("S1", "yellow", frozenset("NESW"), 2)
        for _ in range(rng.randrange(2, 5)):
            tile = C.CITY_TILES[rng.choice(C.CITY_IDS)]
            options = hood.placements(tile)
            if options:
                q, r = rng.choice(options)
                hood.cities[q] = City(tile.id, tile.colour, rotated(tile.roads, r), tile.houses)
        trips, pizzas, dist = rng.randrange(1, 3), rng.randrange(2, 6), rng.randrange(2, 4)
        plan = best_plan(hood, trips_allowed=trips, max_pizzas=pizzas, max_distance=dist)
        check_plan(hood, plan, trips_allowed=trips, max_pizzas=pizzas, max_distance=dist)
        served = sum(len(t[2]) for t in plan)
        from collections import Counter
        got = Counter(q for t in plan for q in t[2])
        done = sum(1 for q, c in got.items() if c == hood.cities[q].open)
        assert (served, done) == _brute_best(hood, trips, pizzas, dist)


def test_views_are_json_free_of_stack_order():
    match = GAME.new_match(["a", "b", "c", "d"], seed=9)
    text = repr(match.view(None))
    assert match.state.city_stack[20] not in text or match.state.city_stack[20] in match.state.grid
    assert setup(2)["city_stack"] and json.dumps(match.to_record())


def test_a_tile_is_taken_from_its_square_right_after_the_space():
    """After a grid space its tile's squares are offered at once: a square takes the tile there,
    the rotation comes next unless only one fits (then the move is made at once). The whole move
    is the one "take", the square and the rotation make, so records do not change."""
    seen = {1: 0, 2: 0}
    for seed in range(1, 40):
        match = GAME.new_match(["a", "b"], seed=seed)
        seat = match.to_act()[0]
        space = next(s for s in match.legal_choices(seat) if match.state.grid[s.space[0] * 3 + s.space[1]] is not None)
        match.apply(space, by=seat)
        offered = [s for s in match.legal_choices(seat) if s.verb == "square"]
        if not offered:
            continue
        by_take = match.copy()
        by_take.apply(Act("take"), by=seat)
        assert [s for s in by_take.legal_choices(seat)] == offered      # the same squares either way
        square = offered[-1]
        by_take.apply(square, by=seat)
        rotations = by_take.legal_choices(seat)
        match.apply(square, by=seat)
        if len(rotations) == 1:
            assert not match.rhythm.in_decision(seat) and match.moves_by(seat) == 2
            seen[1] += 1
        else:
            assert match.legal_choices(seat) == rotations
            match.apply(rotations[0], by=seat)
            seen[2] += 1
        by_take.apply(rotations[0], by=seat)
        assert match.state.record_moves == by_take.state.record_moves
        assert match.to_record() == by_take.to_record()
    assert seen[1] and seen[2], seen


def test_a_picture_after_each_phase_that_players_played():
    """Each phase in which players chose closes a stretch of play (the interface's cycle); the
    last deliveries are closed by the end of the game. The round is told apart (round_number)."""
    match = GAME.new_match(["a", "b", "c"], seed=5)
    rng = random.Random(5)
    while not match.is_terminal():
        seat = match.to_act()[0]
        assert match.rhythm.round_number() == match.state.round
        stretches = match.view(None).stretches
        assert match.rhythm.cycle == len(stretches) + 1
        start = match.rhythm.cycle_start(match.rhythm.cycle)
        assert match.log[start - 1].kind == "phase_ended" if stretches else start == 0
        choices = match.legal_choices(seat)
        match.apply(rng.choice(choices) if rng.random() < 0.3 else GAME.choose(match, seat, seed=1), by=seat)
    stretches = match.view(None).stretches
    assert [r for r, _ in stretches] == sorted(r for r, _ in stretches)
    assert {p for _, p in stretches} <= {"place", "bid", "invest", "deliver"}
    for round_ in range(1, C.ROUNDS + 1):
        phases = [p for r, p in stretches if r == round_]
        assert phases[:2] == ["place", "bid"]
        assert phases[-1] == ("deliver" if round_ < C.ROUNDS else phases[-1])
    view = match.view(None)
    assert all(len(h) == C.ROUNDS + 1 and h[0] == C.START_LIRE for h in view.money_history)
    assert [h[-1] for h in view.money_history] == list(view.lire)
    assert match.view(None).money_history and not GAME.new_match(["a", "b"], seed=1).view(None).money_history
