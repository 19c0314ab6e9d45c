"""What a Papà Paolo match weighs in memory (issue 31): a bot keeps every running game.

Measured as the Python allocations that stay after many half-played games are resumed from
their stored moves, as the bot restores them; 83 KiB a game before the histories were kept as
compact text and shared values (``engine/shared.py``).
"""

from __future__ import annotations

import gc
import random
import tracemalloc

from engine.papa_paolo.definition import GAME

GAMES, MOVES = 30, 130        # three players; a game has about 260 moves
LIMIT_KIB = 45


def half_played(seed: int) -> tuple[dict, list[tuple[int, str]]]:
    match = GAME.new_match(["Ann", "Bob", "Cy"], seed=seed)
    rng = random.Random(seed)
    moves = []
    while not match.is_terminal() and len(moves) < MOVES:
        acting = match.to_act()
        seat = acting[rng.randrange(len(acting))]
        choices = match.legal_choices(seat)
        choice = choices[rng.randrange(len(choices))]
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))
    return match.stored_setup(), moves


def test_a_resumed_match_keeps_little_memory_and_its_record():
    stored = [half_played(seed) for seed in range(GAMES)]
    gc.collect()
    tracemalloc.start()
    try:
        matches = [GAME.resume(setup, moves) for setup, moves in stored]
        gc.collect()
        per_game = tracemalloc.get_traced_memory()[0] / GAMES / 1024
    finally:
        tracemalloc.stop()
    assert per_game <= LIMIT_KIB, f"{per_game:.1f} KiB a game"
    # Kept lighter, the history still gives the same moves and a record that replays to itself.
    for match, (_, moves) in zip(matches, stored, strict=True):
        assert list(match.state.moves) == moves
        record = match.to_record()
        assert GAME.from_record(record).to_record() == record
