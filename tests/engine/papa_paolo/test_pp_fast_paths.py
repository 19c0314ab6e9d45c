"""The engine's remembered and shortcut answers equal the rules read plainly, in real games.

Placements and pizzeria squares are kept by a neighbourhood's geometry, best plans and express
trips by its contents, and the "best-trip" shortcut is offered without searching for the trip;
placements are found on a board of bits, one pizzeria's drops by a table, a chosen step is
checked without listing every choice, a space's action and its amounts are offered from one
reading of each rule (engine/papa_paolo/hood.py, trips.py, stepper.py). Each is checked here against the plain rule
on every position of random games, and against a neighbourhood changed in place (as the AI
changes its own to weigh a tile), so an answer kept for an older state cannot pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields

from pp_testkit import play_out, random_match

from engine.papa_paolo import components as C
from engine.papa_paolo import trips
from engine.papa_paolo.events import ExpressDelivered
from engine.papa_paolo.game import RECURRING, STAIR_COST, Phase, compact_json
from engine.papa_paolo.hood import City, Hood, Shop, rotated
from engine.papa_paolo.record import from_record, game_from_setup, play_move, to_record, write_moves
from engine.papa_paolo.stepper import _amounts, _express_serves, _offer, _surely_offered, legal_steps
from engine.papa_paolo.steps import Act
from engine.shared import is_shared, shared_new


def _plain_placements(hood: Hood, tile: C.CityTile) -> list:
    """``placements`` as the rule reads: the frontier in order, the first rotation of each road set."""
    out = []
    for q in hood.frontier():
        seen = []
        for r in range(4):
            roads = rotated(tile.roads, r)
            if roads not in seen:
                seen.append(roads)
                if hood.placement_fault(q, roads) is None:
                    out.append((q, r))
    return out


def _contents(hood: Hood) -> tuple:
    """Everything a neighbourhood holds, in order: the plain rules' answers are a function of it."""
    return (tuple(sorted((q, c.tile, c.colour, c.roads, c.houses, c.served, c.scored) for q, c in hood.cities.items())),
            tuple(sorted((q, s.id, s.capacity, s.pizzas) for q, s in hood.shops.items())))


def _positions():
    for n, seed in ((2, 5), (3, 6), (4, 7)):
        for match in random_match(n, seed, {"express_ignores_roads": seed == 6}):
            yield match.state


def _hoods(every: int):
    """Each player's neighbourhood in every ``every``-th of ``_positions`` (neighbourhoods change
    slowly, and the searches checked are dear)."""
    for i, g in enumerate(_positions()):
        if i % every == 0:
            for person in g.people:
                yield person.hood


def test_remembered_answers_equal_the_plain_rules():
    """Kept and shortcut answers equal the plain rules in every position of random games: also
    ``Game._may_move``, asked by every move instead of building ``to_act``."""
    tiles = [C.CITY_TILES[t] for t in C.CITY_IDS[::7]]
    checked = 0
    # The plain answers for a neighbourhood's contents, worked out once: a neighbourhood stays the
    # same over most moves (only its owner changes it), and the plain searches are dear. The kept
    # answers are still asked, and compared, in every position.
    plain: dict[tuple, object] = {}

    def plainly(key: tuple, rule: Callable[..., object], *args: object, **kwargs: object) -> object:
        if key not in plain:
            plain[key] = rule(*args, **kwargs)
        return plain[key]

    for g in _positions():
        for seat, person in enumerate(g.people):
            hood = person.hood
            contents = _contents(hood)
            for tile in tiles:
                assert hood.placements(tile) == plainly((contents, tile.id), _plain_placements, hood, tile)
            assert hood.shop_squares() == [q for q in hood.frontier() if hood.shop_fault(q) is None]
            red = person.value("red")
            for ignore in (False, True):
                assert trips.best_express(hood, max_drops=red, ignore_roads=ignore) == plainly(
                    (contents, "express", red, ignore), trips._best_express, hood, max_drops=red, ignore_roads=ignore)
            assert trips.best_plan(hood, trips_allowed=2, max_pizzas=4, max_distance=3) == plainly(
                (contents, "plan"), trips._best_plan, hood, trips_allowed=2, max_pizzas=4, max_distance=3)
            if not g.finished:
                ignore = g.options["express_ignores_roads"]
                found = plainly((contents, "express", red, ignore), trips._best_express, hood, max_drops=red,
                                ignore_roads=ignore)
                assert _express_serves(g, seat) == (found is not None)
                assert g._may_move(seat) == (seat in g.to_act())
            checked += 1
    assert checked > 500


def test_a_neighbourhood_changed_in_place_is_answered_afresh():
    hood = Hood()
    hood.shops[(0, 0)] = Shop("S1P", 5, 3)
    hood.cities[(1, 0)] = City("S1", "yellow", frozenset("NESW"), 2)
    tile = C.CITY_TILES[C.CITY_IDS[0]]
    before = hood.placements(tile)
    plan_before = trips.best_plan(hood, trips_allowed=1, max_pizzas=3, max_distance=3)
    hood.cities[(2, 0)] = City("X", "yellow", frozenset("NESW"), 1)        # as the AI weighs a tile
    assert hood.placements(tile) == _plain_placements(hood, tile) != before
    assert trips.best_plan(hood, trips_allowed=1, max_pizzas=3, max_distance=3) == \
        trips._best_plan(hood, trips_allowed=1, max_pizzas=3, max_distance=3) != plan_before
    del hood.cities[(2, 0)]
    assert hood.placements(tile) == before
    hood.cities[(1, 0)].served = 2                                          # served: no plan left
    assert trips.best_plan(hood, trips_allowed=1, max_pizzas=3, max_distance=3) == []


def test_one_pizzerias_drops_equal_the_general_search():
    """The table for trips from one pizzeria gives the drops the search over splits gives."""
    checked = 0
    for hood in _hoods(every=8):
        for start in hood.shops:
            for covered in trips.trails(hood, start, 4):
                for max_pizzas in (2, 5):
                    assert trips._allocate_one(hood, start, covered, max_pizzas) == \
                        trips._allocate_many(hood, {start: covered}, max_pizzas)
                    checked += 1
    assert checked > 150


def _plain_allocate_many(hood: Hood, cover: dict, max_pizzas: int):
    """``trips._allocate_many`` as the rule reads: the squares in order, each split among the
    pizzerias that reach it in ``_splits``' order, the first best (served, completed) kept."""
    shops = sorted(cover)
    squares = sorted({q for qs in cover.values() for q in qs})
    who = [tuple(i for i, p in enumerate(shops) if q in cover[p]) for q in squares]
    opens = [hood.cities[q].open for q in squares]

    known: dict = {}

    def best(i: int, stock: tuple, left: int):
        if (i, stock, left) not in known:
            known[i, stock, left] = weigh(i, stock, left)
        return known[i, stock, left]

    def weigh(i: int, stock: tuple, left: int):
        if i == len(squares) or left == 0:
            return (0, 0), ()
        result = ((-1, -1), ())
        for amounts in trips._splits(opens[i], [stock[j] for j in who[i]], left):
            nxt = list(stock)
            for j, a in zip(who[i], amounts, strict=True):
                nxt[j] -= a
            (served, done), rest = best(i + 1, tuple(nxt), left - sum(amounts))
            value = (served + sum(amounts), done + (sum(amounts) == opens[i]))
            if value > result[0]:
                result = (value, ((i, amounts), *rest))
        return result

    value, chosen = best(0, tuple(hood.shops[p].pizzas for p in shops), max_pizzas)
    drops: dict = {p: {} for p in shops}
    for i, amounts in chosen:
        for j, a in zip(who[i], amounts, strict=True):
            if a:
                drops[shops[j]][squares[i]] = a
    return value, drops


def test_several_pizzerias_drops_equal_the_plain_search():
    """The search over splits, each position weighed once, gives the drops of the plain search."""
    checked = 0
    for hood in _hoods(every=8):
        reach = {start: list(trips.trails(hood, start, 4)) for start in hood.shops}
        starts = [start for start in reach if reach[start]]
        for a, b in zip(starts, starts[1:], strict=False):
            for covered_a in reach[a][:3]:
                for covered_b in reach[b][:3]:
                    cover = {a: covered_a, b: covered_b}
                    for max_pizzas in (2, 4, 9):
                        assert trips._allocate_many(hood, cover, max_pizzas) == \
                            _plain_allocate_many(hood, cover, max_pizzas)
                        checked += 1
    assert checked > 150


def test_a_set_of_trips_serves_no_more_than_its_value_bound():
    """The search passes a set of trips whose ``_value_bound`` cannot beat the best found: that is
    safe because no placing of its pizzas is worth more."""
    checked = 0
    for hood in _hoods(every=8):
        options, opens = trips._options(hood, 4)
        for a in options[:6]:
            for b in options[:6]:
                cover = {a[0]: a[1] | b[1]} if a[0] == b[0] else {a[0]: a[1], b[0]: b[1]}
                for max_pizzas in (1, 3, 9):
                    assert trips._allocate(hood, cover, max_pizzas)[0] <= \
                        trips._value_bound(hood, cover, opens, max_pizzas)
                    checked += 1
    assert checked > 300


def test_one_trips_best_equals_the_search():
    """With one trip allowed, each trip weighed in turn (richest first, stopped once none can
    beat the best) gives the plan the branch and bound gives."""
    checked = 0
    for hood in _hoods(every=4):
        for max_distance in (2, 4, 60):
            options, opens = trips._options(hood, max_distance)
            for max_pizzas in (1, 3, 6):
                limit = min(max_pizzas, sum(hood.shops[p].pizzas for p in {o[0] for o in options}))
                assert trips._best_trip(hood, options, opens, limit, max_pizzas) == \
                    trips._search(hood, options, opens, limit, 1, max_pizzas)
                checked += bool(options)
    assert checked > 300


def test_a_step_passed_without_the_list_is_in_the_list():
    """``check_step`` passes common steps without listing every choice: each one it passes is
    listed, among every step offered at some point of the games (most of them not offered now)."""
    pool: set = set()
    passed = 0
    for g in _positions():
        for seat in g.to_act():
            offered = legal_steps(g, seat)
            pool.update(offered)
            for step in pool:
                if _surely_offered(g, seat, step):
                    assert step in offered, (step, g.phase, g.drafts.get(seat))
                    passed += 1
    assert passed > 1000


def test_a_spaces_action_offers_what_its_rules_say():
    """``_offer`` reads each rule once for an action and its amounts: the same steps as asking
    whether the action can be taken, then for its amounts."""
    checked = 0
    for g in _positions():
        if g.finished:
            continue
        for seat in range(g.n):
            bonus = g.bonus_now(seat)
            for action in C.ACTIONS:
                plain = [*_amounts(g, seat, action), Act(action)] if g.can_act(seat, action, bonus) else []
                assert _offer(g, seat, action, bonus) == plain
                checked += 1
    assert checked > 1000


def test_a_neighbourhood_off_the_board_of_bits_is_read_plainly():
    """Placements are found on a board of bits around (0, 0); a neighbourhood reaching beyond it
    (only a test builds one) gets the plain rules' answers."""
    hood = Hood()
    hood.shops[(6, 0)] = Shop("S1P", 5, 3)
    for x in (7, 8):
        hood.cities[(x, 0)] = City("S1", "yellow", frozenset("EW"), 2)
    tiles = [C.CITY_TILES[t] for t in C.CITY_IDS[::9]]
    for tile in tiles:
        assert hood.placements(tile) == _plain_placements(hood, tile)
    assert any(hood.placements(tile) for tile in tiles) and hood.shop_squares()
    assert hood.shop_squares() == [q for q in hood.frontier() if hood.shop_fault(q) is None]


def test_a_move_is_written_as_json_dumps_writes_it():
    """The record's moves, written by ``json``'s C encoder made once, read as ``json.dumps`` writes them."""
    game = play_out(4, 11).state
    moves = [json.loads(text) for text in game.record_moves]
    odd = {"player": "Zoë \"the\" 🍕", "place": [0, -1], "action": {"build": ["P1", [2, 3]]}, "n": None, "t": True}
    for move in [*moves, odd]:
        assert compact_json(move) == json.dumps(move, separators=(",", ":"))
    assert [compact_json(move) for move in moves] == game.record_moves



def test_a_replay_writes_its_moves_as_play_writes_them():
    """A replay writes all its moves' texts in one call (``write_moves``): the same texts as one
    ``compact_json`` a move, also with a "player" inside a move (a piece too many), a move not
    starting with its "player", and both together (a piece too many and one too few); and a record
    replayed reads back as it was."""
    game = play_out(4, 11).state
    record_ = to_record(game)
    replayed = from_record(record_)
    assert replayed.record_moves == game.record_moves and to_record(replayed) == record_
    moves = [json.loads(text) for text in game.record_moves]
    inside = {"player": "ann", "deliver": [{"a": 1}, {"player": "bob"}]}
    assert '},{"player":' in compact_json(inside)
    late = {"late": None, "player": "ann"}
    for some in ([], moves[:1], moves, [*moves[:3], inside, *moves[3:5]], [late], [*moves[:2], inside, late]):
        assert write_moves(some) == [compact_json(move) for move in some]
    reordered = {**record_, "moves": [{**{k: v for k, v in m.items() if k != "player"}, "player": m["player"]}
                                      for m in record_["moves"]]}
    assert from_record(reordered).record_moves == game.record_moves


def test_the_staircase_checks_equal_the_listed_spaces():
    """A bid is checked (``stair_open``) and a bidder kept (``_can_bid``) without listing the
    staircase spaces: the same answers as ``stair_spaces``, for every seat in every bidding
    position of random games; costs grow upward in each column, which ``_can_bid`` relies on."""
    assert all(STAIR_COST[row][col] <= STAIR_COST[row + 1][col]
               for row in range(C.STAIR_ROWS - 1) for col in range(len(STAIR_COST[0])))
    checked = 0
    for n, seed in ((2, 15), (3, 16), (4, 17)):
        for match in random_match(n, seed):
            g = match.state
            if g.finished or g.phase not in (Phase.BID, Phase.SETTLE):
                continue
            for seat in range(g.n):
                spaces = g.stair_spaces(seat)
                assert g._can_bid(seat) == bool(spaces)
                for row in range(-1, C.STAIR_ROWS + 1):
                    for col in range(0, g.board.stair_columns + 2):
                        assert g.stair_open(seat, row, col) == ((row, col) in spaces)
                checked += 1
    assert checked > 100


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def test_events_found_by_their_fields_are_the_shared_copies():
    """A game that shares finds a recurring event by its fields (``shared_new``) instead of making
    it: the same log as a game that shares nothing, each event after the set-up the shared copy
    itself (``is_shared``); a value that cannot be hashed is made and kept as it is."""
    record_ = to_record(play_out(3, 21).state)
    game = from_record(record_)
    plain = game_from_setup(record_)
    plain.shares = False
    for move in record_["moves"]:
        play_move(plain, plain.players.index(move["player"]),
                  {k: v for k, v in move.items() if k != "player"})
    assert plain.log == game.log and plain.record_moves == game.record_moves
    for event in game.log[len(game_from_setup(record_).log):]:
        assert is_shared(event) or not _hashable(event)      # a delivery holds dicts: kept as made
        if type(event) in RECURRING:
            assert shared_new(type(event), *(getattr(event, f.name) for f in fields(event))) is event
    unhashable = shared_new(ExpressDelivered, 0, 1, {"from": [0, 0]})
    assert unhashable == ExpressDelivered(0, 1, {"from": [0, 0]})


def test_the_cycle_counts_the_phases_ended_in_the_log():
    """``rhythm.cycle`` reads a counter kept by the rules instead of counting the log's "phase_ended"."""
    checked = 0
    for n, seed in ((2, 5), (4, 6)):
        for match in random_match(n, seed):
            plain = 1 + sum(1 for e in match.state.log if e.kind == "phase_ended")
            assert match.rhythm.cycle == plain
            checked += 1
    assert plain > 10 and checked > 200
