"""The stored setup of a Paris Paris match: compact deal, the older full form, and the exact record back."""

from __future__ import annotations

from engine.paris_paris.definition import GAME


def _played(seed: int, players: int, moves: int):
    match = GAME.new_match([f"P{i}" for i in range(players)], seed=seed)
    for i in range(moves):
        seat = match.to_act()[0]
        choices = match.legal_choices(seat)
        match.apply(choices[(seed + i) % len(choices)], by=seat)
    return match


def _texts(match) -> list[str]:
    return [str(m) for m in match.state.moves]


def test_record_round_trip_through_the_compact_setup():
    for seed, players, moves in ((1, 2, 0), (2, 3, 25), (3, 4, 48), (4, 2, 40)):
        match = _played(seed, players, moves)
        full = match.to_record()
        setup = match.stored_setup()
        assert "stacks" not in setup and len(setup["deal"]) == 120
        assert GAME.record_of(setup, _texts(match)) == dict(full, seed=seed)
        again = GAME.resume(setup, _texts(match))
        assert again.to_record() == full and again.returns() == match.returns()


def test_older_setups_with_full_stacks_still_load():
    match = _played(5, 3, 10)
    full = match.to_record()
    legacy = {k: v for k, v in full.items() if k != "moves"}
    rebuilt = GAME.resume(legacy, _texts(match))
    assert rebuilt.to_record() == full


def test_a_damaged_stored_game_is_refused_with_a_reason():
    import pytest

    from engine.errors import InvalidRecord

    match = _played(6, 3, 4)
    setup = dict(match.stored_setup(), deal="zz")
    with pytest.raises(InvalidRecord):
        GAME.resume(setup, _texts(match))
