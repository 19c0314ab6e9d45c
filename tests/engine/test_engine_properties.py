"""Invariants over random games (hypothesis): every tile and shop accounted for, capacity,
scores, game length, secrets never leaking, and records replaying to the same game."""

import json
import random
from collections import Counter
from dataclasses import FrozenInstanceError, fields

import pytest
from engine_testkit import box_counts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.paris_paris import COLOURS, Game, Options, Tile, full_game_rounds, result
from engine.paris_paris.board import CAPACITY
from engine.paris_paris.events import (
    BigTour,
    GameStarted,
    Halt,
    MarkerDealt,
    RoundStarted,
    SmallTour,
    TileDiscarded,
    fast_builder,
)
from engine.paris_paris.record import apply_record_move, from_record, setup_from_record, to_record

NAMES = ("ann", "bob", "cat", "dan")
games = st.tuples(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 2**32),
                  st.sampled_from(["markers", "all_lines"]))
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(players: int, seed: int, final_tours: str) -> Game:
    return Game.new(NAMES[:players], seed=seed, options=Options(final_tours=final_tours))


def play(game: Game, choice_seed: int, upto: int | None = None):
    """Yield after each random legal move."""
    rng = random.Random(choice_seed)
    moves = 0
    while not game.is_terminal() and (upto is None or moves < upto):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        moves += 1
        yield game


def tiles_accounted(game: Game) -> None:
    unrevealed = [Tile.of(c) for stack in game.stacks[game.round:] for c in stack]
    leftovers = [e.tile for e in game.log if isinstance(e, TileDiscarded)]
    seen = Counter(unrevealed) + Counter(game.offered_tiles()) + Counter(m.tile for m in game.moves) \
        + Counter(leftovers)
    assert seen == box_counts()
    assert len(unrevealed) + len(game.offer) + len(game.moves) + len(leftovers) == 60
    tours = sum(e.big_tour for e in game.log if isinstance(e, TileDiscarded))
    lying = [t for t in game.view().discard.values() if t is not None]
    assert len(lying) + 2 * tours == len(leftovers)


def shops_accounted(game: Game) -> None:
    on_board = game.shops_on_board()
    for seat in range(game.num_players):
        assert on_board[seat] + game.supply[seat] + game.bag[seat] == 19
        assert game.supply[seat] >= 0
    if game.num_players == 2:
        assert game.bag == [0, 0]


@FAST
@given(games)
def test_invariants_hold_after_every_move(spec):
    players, seed, choices, final_tours = spec
    game = new_game(players, seed, final_tours)
    previous = list(game.scores)
    for _ in play(game, choices):
        tiles_accounted(game)
        shops_accounted(game)
        assert all(len(owners) <= CAPACITY[s] for s, owners in enumerate(game.board))
        assert all(now >= before for now, before in zip(game.scores, previous, strict=True))
        previous = list(game.scores)
        history = game.score_history
        assert all(a <= b for row, nxt in zip(history, history[1:], strict=False)
                   for a, b in zip(row, nxt, strict=True))
    assert game.is_terminal()
    rounds = full_game_rounds(players)
    assert rounds == {2: 20, 3: 15, 4: 12}[players]
    assert len(game.moves) == rounds * players
    assert sum(isinstance(e, RoundStarted) for e in game.log) == rounds
    assert len(game.score_history) == rounds + 1
    assert max(game.scores) == game.scores[game.winners[0]]


def _disguised(game: Game, seat: int | None, rng: random.Random) -> Game:
    """The same moves on a deal that differs only in what ``seat`` may not know: the other
    players' markers and the order of the stacks not yet revealed."""
    record = to_record(game)
    names = record["players"]
    hidden = [name for i, name in enumerate(names) if i != seat]
    known = {record["open_marker"]} | ({record["markers"][names[seat]]} if seat is not None else set())
    pool = [c for c in COLOURS if c not in known]
    rng.shuffle(pool)
    for name, colour in zip(hidden, pool, strict=False):
        record["markers"][name] = colour
    unrevealed = [t for stack in record["stacks"][game.round:] for t in stack]
    rng.shuffle(unrevealed)
    size = game.num_players + 1
    record["stacks"][game.round:] = [unrevealed[i:i + size] for i in range(0, len(unrevealed), size)]
    return from_record(record)


@FAST
@given(games, st.integers(0, 60), st.integers(0, 2**32))
def test_views_and_logs_never_leak_secrets(spec, upto, disguise_seed):
    players, seed, choices, final_tours = spec
    game = new_game(players, seed, final_tours)
    for _ in play(game, choices, upto):
        pass
    rng = random.Random(disguise_seed)
    for seat in [None, *range(players)]:
        view = game.view(seat)
        log = game.log_for(seat)
        assert view.marker == (None if seat is None else COLOURS[game.markers[seat]])
        assert not any(isinstance(e, MarkerDealt) and e.seat != seat for e in log)
        if not game.is_terminal():
            assert view.markers is None and view.bag is None
            assert not hasattr(view, "stacks")
            # What the seat may not know can change without changing anything the seat sees.
            other = _disguised(game, seat, rng)
            assert other.view(seat) == view
            assert other.log_for(seat) == log
            assert [e.to_dict() for e in log] == [e.to_dict() for e in other.log_for(seat)]
        else:
            assert view.markers == tuple(COLOURS[c] for c in game.markers)
            assert view.bag == tuple(game.bag)


@FAST
@given(games, st.integers(0, 60))
def test_record_replay_reproduces_the_game(spec, upto):
    players, seed, choices, final_tours = spec
    game = new_game(players, seed, final_tours)
    for _ in play(game, choices, upto):
        pass
    record = to_record(game)
    text = json.dumps(record)
    assert json.loads(text) == record
    for copy in (from_record(record), from_record(json.loads(text))):
        assert result(copy) == result(game)
        assert to_record(copy) == record
        assert copy.log == game.log
        for seat in [None, *range(players)]:
            assert copy.view(seat) == game.view(seat)
            assert copy.log_for(seat) == game.log_for(seat)


@FAST
@given(games, st.integers(0, 60))
def test_replay_agrees_with_playing_through_the_api(spec, upto):
    players, seed, choices, final_tours = spec
    game = new_game(players, seed, final_tours)
    for _ in play(game, choices, upto):
        pass
    record = to_record(game)
    # Replay by hand: the recorded deal, then each move applied by the named player.
    from engine.paris_paris import Pick
    replayed = from_record({**record, "moves": []})
    events = list(replayed.log)
    for move in record["moves"]:
        seat = record["players"].index(move["player"])
        evict = record["players"].index(move["evict"]) if "evict" in move else None
        events += replayed.apply(Pick(Tile(*move["tile"]), evict), by=seat)
    assert events == game.log == replayed.log
    assert result(replayed) == result(game)
    assert [e.to_dict() for e in events] == [e.to_dict() for e in game.log]


def state(game: Game) -> tuple:
    """Everything a game holds apart from its log."""
    return (game.board, game.supply, game.bag, game.scores, game.offer, game.discard, game.bus, game.picks,
            game.round, game.moves, game.score_history, game.finished, game.winners, game.shops_on_board(),
            game.legal_actions())


@FAST
@given(games, st.integers(0, 60), st.integers(0, 2**32))
def test_quiet_replay_matches_a_replay_with_events(spec, upto, more_choices):
    """``from_record`` replays without events; reading the log rebuilds it. Both must agree with a
    replay that logs every move, before and after further moves (and in copies)."""
    players, seed, choices, final_tours = spec
    game = new_game(players, seed, final_tours)
    for _ in play(game, choices, upto):
        pass
    record = to_record(game)
    logged = setup_from_record(record)
    for index, move in enumerate(record["moves"]):
        apply_record_move(logged, index, move)
    quiet, unread = from_record(record), from_record(record)
    assert state(quiet) == state(logged) == state(game)
    assert result(quiet) == result(logged)
    clone = quiet.copy()
    assert quiet.log == logged.log == game.log
    assert clone.log == game.log and clone.log is not quiet.log
    # Moves after a quiet replay return their events, and the log holds everything.
    seen = len(game.log)
    for _ in play(game, more_choices, 8):
        assert unread.apply(game.moves[-1]) == game.log[seen:]
        seen = len(game.log)
    assert unread.log == game.log and state(unread) == state(game)


@FAST
@given(games, st.integers(0, 60))
def test_copy_is_independent(spec, upto):
    players, seed, choices, final_tours = spec
    game = new_game(players, seed, final_tours)
    for _ in play(game, choices, upto):
        pass
    before = to_record(game), game.view(0), list(game.log)
    clone = game.copy()
    for _ in play(clone, choices + 1):
        pass
    assert (to_record(game), game.view(0), list(game.log)) == before
    assert clone.is_terminal()


def test_events_are_json_ready():
    game = new_game(4, 1, "markers")
    for _ in play(game, 2):
        pass
    data = [e.to_dict() for e in game.log]
    assert json.loads(json.dumps(data)) == data
    opened = next(d for d in data if d["kind"] == "shop_opened")
    assert isinstance(opened["tile"], list) and len(opened["tile"]) == 2
    tour = next(d for d in data if d["kind"] == "big_tour")
    assert set(tour) == {"kind", "colour", "reason", "seat", "halts", "points"}
    assert set(tour["halts"][0]) == {"station", "shops", "adjacent", "points"}



@pytest.mark.parametrize("cls", [GameStarted, RoundStarted, SmallTour, Halt, BigTour])
def test_fast_builder_builds_the_same_event(cls):
    """The engine builds its most frequent events with ``fast_builder``: the same values as the class."""
    values = [(f"value {i}", i) for i in range(len(fields(cls)))]     # all different, hashable
    built = fast_builder(cls)(*values)
    assert type(built) is cls
    assert built == cls(*values) and hash(built) == hash(cls(*values))
    assert [getattr(built, f.name) for f in fields(cls)] == values
    with pytest.raises(FrozenInstanceError):
        setattr(built, fields(cls)[0].name, None)
