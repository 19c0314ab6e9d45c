"""The fast paths against the plain rules: ``Playout`` plays the same games as ``Game`` (same
legal choices in the same order, same end and scores, copies included), and both answer the
blocking rule as a plain search of the whole map does, also on crowded boards where it bites."""

import random
from collections import deque

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pc_testkit import NAMES

from engine.paris_connection import board as B
from engine.paris_connection.game import Game
from engine.paris_connection.playout import COMPANIES, HEX_OF, Playout, bits

games = st.tuples(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32))
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CITIES = frozenset(c.id for c in B.cities())


def reaches(game: Game, company: str) -> bool:
    """Whether ``company``'s lines can still be extended to a free city (a plain search)."""
    seen = set(game.networks[company])
    queue = deque(seen)
    while queue:
        for nxt in B.neighbours(queue.popleft()):
            if nxt in seen:
                continue
            here = game.board.get(nxt, [])
            if not here and nxt in CITIES:
                return True
            if len(here) < B.HEXES[nxt].capacity and company not in here:
                seen.add(nxt)
                queue.append(nxt)
    return False


def protected(game: Game) -> list[str]:
    """The companies the blocking rule protects: those whose lines reach no city yet."""
    return [c for c in COMPANIES if CITIES.isdisjoint(game.networks[c])]


def plain_legal_hexes(game: Game, colour: str) -> list[str]:
    """The placement rules read straight from the rules page: next to the colour's lines, room
    on the hex, and no company without a city cut off from every free city."""
    legal = []
    for hex_id in B.HEXES:
        here = game.board.get(hex_id, [])
        if (len(here) >= B.HEXES[hex_id].capacity or colour in here
                or not any(colour in game.board.get(nb, ()) for nb in B.neighbours(hex_id))):
            continue
        game.board[hex_id] = [*here, colour]
        try:
            cut = any(not reaches(game, c) for c in protected(game) if c != colour)
        finally:
            game.board[hex_id] = here
            if not here:
                del game.board[hex_id]
        if not cut:
            legal.append(hex_id)
    return legal


def check_blocking(game: Game) -> None:
    playout = Playout.of(game)
    for c, colour in enumerate(COMPANIES):
        expected = plain_legal_hexes(game, colour)
        assert list(game.legal_hexes(colour)) == expected, colour
        assert [HEX_OF[i] for i in bits(playout.legal_mask(c))] == expected, colour


@SOME
@given(games)
def test_the_playout_state_plays_the_same_games(spec):
    players, seed, choice_seed = spec
    game = Game.new(NAMES[:players], seed=seed)
    playout = Playout.of(game)
    rng = random.Random(choice_seed)
    while not game.finished:
        choices = game.legal_actions()
        assert playout.legal_actions() == choices
        choice = choices[int(rng.random() * len(choices))]
        game.apply(choice)
        playout.advance(choice)
        if rng.random() < 0.05:
            playout = playout.copy()
        assert (playout.to_move, playout.turns, playout.cycle) == (game.to_move, game.turns, game.cycle)
    assert playout.finished and playout.end_reason == game.end_reason
    assert playout.scores() == game.scores() and playout.winners == game.winners


@SOME
@given(games, st.integers(0, 300), st.integers(0, 60))
def test_the_blocking_rule_agrees_with_a_plain_search(spec, cut, crowd):
    """Random positions, some crowded by hand (full rural hexes) so that companies are nearly
    or wholly cut off, as random play rarely does."""
    players, seed, choice_seed = spec
    game = Game.new(NAMES[:players], seed=seed)
    rng = random.Random(choice_seed)
    while not game.finished and len(game.moves) < cut:
        choices = game.legal_actions()
        game.apply(choices[int(rng.random() * len(choices))])
    rural = sorted(h for h, cell in B.HEXES.items() if cell.kind == "rural" and h not in game.board)
    for hex_id in rng.sample(rural, min(crowd, len(rural))):
        game.board[hex_id] = ["black", "brown"] if rng.random() < 0.5 else ["red"]
        for colour in game.board[hex_id]:
            game.networks[colour].add(hex_id)
    game._legal_cache.clear()
    # Crowding by hand may cut a company off already, a position the rule never lets play reach
    # (and on which "would this placement cut it off" has no answer): such positions are skipped.
    assume(all(reaches(game, c) for c in protected(game)))
    check_blocking(game)
