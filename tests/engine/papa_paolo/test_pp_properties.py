"""The invariants of PAPA_PAOLO.md §10 over random legal games (hypothesis): 2, 3 and 4 players,
every option, checked after every step."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pp_testkit import play_out, random_match

from engine.papa_paolo import components as C
from engine.papa_paolo.definition import GAME
from engine.papa_paolo.events import (
    BidPlaced,
    CoinAwarded,
    DeliveriesMade,
    ExpressDelivered,
    MarkerPlaced,
    RoundStarted,
)
from engine.papa_paolo.hood import SIDES, fits_box, step
from engine.papa_paolo.record import from_record, result

EXAMPLES = 8          # about 20 s on a quiet core for both tests; enough to catch what broke
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw):
    n = draw(st.sampled_from((2, 3, 4)))
    options = {name: draw(st.booleans()) for name in ("hidden_money", "money_bonus", "express_ignores_roads")}
    turn = draw(st.sampled_from(("plain", "first_player_coin", "reverse_bid_order")))
    if turn != "plain":
        options[turn] = True
    if n == 2:
        options["two_player_preview"] = draw(st.booleans())
    return n, draw(st.integers(0, 10**6)), options


def check_state(g) -> None:
    n = g.n
    # 2. Tile conservation.
    owned = [c.tile for p in g.people for c in p.hood.cities.values() if c.tile in C.CITY_TILES]
    on_grid = [t for t in g.grid if t is not None]
    everything = owned + on_grid + g.discarded + list(g.city_stack[g.dealt:])
    assert len(everything) == len(C.CITY_IDS) and set(everything) == set(C.CITY_IDS)
    for seat, person in enumerate(g.people):
        hood = person.hood
        squares = list(hood.squares())
        # 3. Neighbourhood legality.
        assert fits_box((q[0] for q in squares), (q[1] for q in squares))
        for q in hood.shops:
            assert not any(step(q, s) in hood.shops for s in SIDES)
        for q, city in hood.cities.items():
            for s in ("E", "S"):
                other = hood.cities.get(step(q, s))
                if other is not None:
                    assert (s in city.roads) == ({"E": "W", "S": "N"}[s] in other.roads)
        reached = set()
        for q in hood.shops:
            reached |= hood.reachable(q)
        assert set(hood.cities) <= reached
        # 4. Pizzas and houses.
        assert all(0 <= s.pizzas <= s.capacity for s in hood.shops.values())
        assert all(0 <= c.served <= c.houses for c in hood.cities.values())
        # 5, 6. Lire and tracks.
        assert person.lire >= 0
        assert all(0 <= v <= C.TRACK_TOP for v in person.tracks.values())
        assert g.track_steps[seat] == hood.completed()
    # 8. Holdings.
    for seat in range(n):
        assert g.dlv_held[seat] is None or seat in g.pos
    # 7. At the end of bidding each column holds at most one marker; the closed column is empty.
    if g.phase in ("settle", "late", "invest", "deliver"):
        cols = [c for _, c in g.pos.values()]
        assert len(cols) == len(set(cols)) and all(c <= g.board.stair_columns for c in cols)
        assert not set(g.pos) & g.out
    if g.phase == "bid":            # Lire do not change while bidding: every space is affordable
        assert all(C.stair_cost(*space) <= g.people[seat].lire for seat, space in g.pos.items())


def check_log(g) -> None:
    n = g.n
    rounds = [i for i, e in enumerate(g.log) if isinstance(e, RoundStarted)]
    for r, start in enumerate(rounds):
        end = rounds[r + 1] if r + 1 < len(rounds) else len(g.log)
        events = g.log[start:end]
        assert len(events[0].investment_tiles) == 4                       # 8. four revealed
        placed = [e for e in events if isinstance(e, MarkerPlaced)]
        coins = [e for e in events if isinstance(e, CoinAwarded)]
        if coins:
            assert len(placed) == C.MARKERS * n                           # 1. all markers placed
            assert sum(e.value for e in coins if e.seat is not None) == sum(g.coin_setup[r])   # 5.
    # 4. Delivered = houses served, from the events.
    for seat, person in enumerate(g.people):
        dropped = sum(len(e.trip["drops"]) for e in g.log if isinstance(e, ExpressDelivered) and e.seat == seat)
        dropped += sum(e.pizzas for e in g.log if isinstance(e, DeliveriesMade) and e.seat == seat)
        assert dropped == person.hood.delivered()


def check_end(g) -> None:
    # 12. Score formula.
    for seat, person in enumerate(g.people):
        low = min(person.tracks.values())
        expected = (person.hood.delivered() + C.TRACK_VP[low] + 2 * sum(v == 6 for v in person.tracks.values())
                    - person.hood.pizzas())
        if g.options["money_bonus"]:
            ranks = sorted({p.lire for p in g.people}, reverse=True)
            expected += {ranks[0]: 2, **({ranks[1]: 1} if len(ranks) > 1 else {})}.get(person.lire, 0)
        assert g.final[seat] == expected
    best = max(g.final)
    assert g.winners and all(g.final[s] == best for s in g.winners)


def check_hidden(match) -> None:
    """14. Under hidden money no public view or public event holds another player's balance."""
    g = match.state
    if not g.options["hidden_money"] or g.finished:
        return
    assert all(v is None for v in match.view(None).lire)
    for seat in range(g.n):
        lire = match.view(seat).lire
        assert all((v is None) == (s != seat) for s, v in enumerate(lire))
    for event in match.log_for(None):
        assert "balance" not in json.dumps(event.to_dict()) and event.kind != "game_ended"


def check_first_player(g) -> None:
    """9. After settlement the first player owns the leftmost occupied column (standard options)."""
    if g.options["reverse_bid_order"] or g.options["first_player_coin"]:
        return
    if g.pos and g.phase in ("invest", "deliver"):
        assert g.order[0] == min(g.pos, key=lambda s: g.pos[s][1])


@given(games())
@FAST
def test_invariants_hold_in_random_games(case):
    n, seed, options = case
    last = None
    for match in random_match(n, seed, options):
        g = match.state
        check_state(g)
        check_first_player(g)
        check_hidden(match)
        # Only acting seats have choices, and every acting seat has some.
        acting = match.to_act()
        for seat in range(n):
            assert bool(match.legal_choices(seat)) == (seat in acting)
        last = match
    g = last.state
    check_log(g)
    check_end(g)
    bids = [e for e in g.log if isinstance(e, BidPlaced)]
    assert len(bids) <= 10 * n * C.STAIR_ROWS * C.ROUNDS                  # 7. bidding ends


@given(games())
@FAST
def test_replay_is_deterministic_and_records_round_trip(case):
    """13. Same set-up and moves give the same state, from the record and from the stored steps."""
    n, seed, options = case
    match = play_out(n, seed, options)
    g = match.state
    record = json.loads(json.dumps(match.to_record()))
    again = from_record(record)
    assert result(again) == result(g)
    pairs = list(g.moves)
    resumed = GAME.resume(json.loads(json.dumps(match.stored_setup())), pairs)
    assert GAME.result(resumed) == result(g) and resumed.to_record() == match.to_record()
    assert resumed.view(0) == match.view(0)
    # Same seed, same options: the same deal.
    assert GAME.new_match(list(g.players), seed=seed, options=options).stored_setup() == match.stored_setup()
