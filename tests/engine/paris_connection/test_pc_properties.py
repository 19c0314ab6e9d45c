"""Invariants over random legal games (hypothesis): every locomotive accounted for, capacities,
values that never fall, views that never leak, records that replay, games that end."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pc_testkit import NAMES, random_choice

from engine.paris_connection import board as B
from engine.paris_connection.events import HoldingsChanged, HoldingsDealt
from engine.paris_connection.game import Game
from engine.paris_connection.record import from_record, to_record

games = st.tuples(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32))
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# A game's steps: builds of up to 5 placements plus an undo now and then; far fewer than this.
MOST_STEPS = 2000


def check_invariants(game: Game) -> None:
    on_board = {c: 0 for c in B.COMPANIES}
    for hex_id, colours in game.board.items():
        cell = B.HEXES[hex_id]
        assert len(set(colours)) == len(colours)
        assert len(colours) <= (1 if cell.kind in ("tower", "start") else cell.capacity)
        for c in colours:
            on_board[c] += 1
    for c in B.COMPANIES:          # 33 a colour: board (start hex, draft) + value track + storage + screens
        assert on_board[c] + 1 + game.storage[c] + sum(h[c] for h in game.holdings) == 33
        assert game.storage[c] >= 0
    assert sum(on_board.values()) + 6 + sum(game.storage.values()) + sum(game.view().screens) == 198


def check_views(game: Game) -> None:
    over = game.finished
    public = game.view()
    assert public.holdings is None
    assert (public.all_holdings is None and public.scores is None) is not over
    for seat in range(game.num_players):
        view = game.view(seat)
        assert view.holdings == game.holdings[seat]
        assert (view.all_holdings is None) is not over
        for event in game.log_for(seat):
            if isinstance(event, HoldingsDealt | HoldingsChanged):
                assert event.seat == seat
    assert not any(isinstance(e, HoldingsDealt | HoldingsChanged) for e in game.log_for(None))


@SOME
@given(games)
def test_random_games_keep_every_invariant_and_end(spec):
    players, seed, choice_seed = spec
    game = Game.new(NAMES[:players], seed=seed)
    rng = random.Random(choice_seed)
    values = dict(game.values)
    screens = game.view().screens
    steps = 0
    while not game.finished:
        game.apply(random_choice(game, rng))
        steps += 1
        assert steps < MOST_STEPS
        check_invariants(game)
        assert all(game.values[c] >= values[c] for c in B.COMPANIES)        # committed values never fall
        assert all(a >= b for a, b in zip(game.view().screens, screens, strict=True))   # screens never shrink
        values, screens = dict(game.values), game.view().screens
        if steps % 7 == 0:
            check_views(game)
    check_views(game)
    assert game.end_reason in ("marseille", "storage") and game.winners
    assert max(game.scores()) == game.scores()[game.winners[0]]


@SOME
@given(games, st.integers(0, 400))
def test_records_replay_to_the_same_state(spec, cut):
    players, seed, choice_seed = spec
    game = Game.new(NAMES[:players], seed=seed)
    rng = random.Random(choice_seed)
    while not game.finished and len(game.moves) < cut:
        game.apply(random_choice(game, rng))
    again = from_record(json.loads(json.dumps(to_record(game))))
    for name in ("board", "values", "storage", "holdings", "to_move", "draft_colour", "draft_hexes", "finished",
                 "turns", "winners", "value_history"):
        assert getattr(again, name) == getattr(game, name), name
    assert again.view(0) == game.view(0)


@SOME
@given(games, st.integers(0, 300))
def test_copies_are_independent(spec, cut):
    players, seed, choice_seed = spec
    game = Game.new(NAMES[:players], seed=seed)
    rng = random.Random(choice_seed)
    while not game.finished and len(game.moves) < cut:
        game.apply(random_choice(game, rng))
    before = game.view(0)
    other = game.copy()
    while not other.finished and len(other.moves) < cut + 30:
        other.apply(random_choice(other, rng))
    assert game.view(0) == before
