"""The stored setup: compact deal, the older full form, and the exact record back."""

from __future__ import annotations

from bot.service import records
from engine.paris_paris import Game


def _played(seed: int, players: int, moves: int) -> Game:
    game = Game.new([f"P{i}" for i in range(players)], seed=seed)
    for i in range(moves):
        actions = game.legal_actions()
        game.apply(actions[(seed + i) % len(actions)])
    return game


def test_record_round_trip_through_the_compact_setup():
    for seed, players, moves in ((1, 2, 0), (2, 3, 25), (3, 4, 48), (4, 2, 40)):
        game = _played(seed, players, moves)
        full = game.to_record()
        setup = records.compact_setup(full, seed)
        assert "stacks" not in setup and len(setup["deal"]) == 120
        texts = [str(m) for m in game.moves]
        assert records.record_of(setup, texts) == dict(full, seed=seed)
        again = records.replay(setup, texts)
        assert again.to_record() == full and again.scores == game.scores


def test_older_setups_with_full_stacks_still_load():
    game = _played(5, 3, 10)
    full = game.to_record()
    legacy = {k: v for k, v in full.items() if k != "moves"}
    rebuilt = records.replay(legacy, [str(m) for m in game.moves])
    assert rebuilt.to_record() == full
