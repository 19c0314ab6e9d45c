"""Every AI level of every game answers with a legal move when its budget runs out at once.

A time budget may end a search before every candidate was tried once (issue 44: the strong
Paris Paris AI divided by zero then). A budget of a nanosecond ends it after the first
playout, at every move of a short game, for every level and every player count's extremes.
"""

from __future__ import annotations

import pytest

from engine.interface import GameDefinition, Match
from engine.registry import GAMES

TINY = 1e-9          # seconds: spent before the second candidate of any search is played
MOVES = 24           # moves played a level at a time: past the first round of every game


def _cases() -> list[pytest.param]:
    return [pytest.param(definition, level, players, id=f"{definition.id}-{level}-{players}")
            for definition in GAMES.values() for level in definition.ai_levels
            for players in sorted({definition.min_players, definition.max_players})]


def _play(definition: GameDefinition, match: Match, level: str) -> int:
    """Let ``level`` play ``MOVES`` moves with the tiny budget, checking each; the moves made."""
    made = 0
    while made < MOVES and not match.is_terminal():
        seat = match.to_act()[0]        # in a simultaneous phase, one acting seat after another
        choice = definition.choose(match, seat, seed=made, level=level, budget=TINY)
        assert choice in match.legal_choices(seat), (definition.id, level, made, choice)
        match.apply(choice, by=seat)
        made += 1
    return made


@pytest.mark.parametrize(("definition", "level", "players"), _cases())
def test_a_tiny_budget_still_gives_legal_moves(definition: GameDefinition, level: str, players: int) -> None:
    match = definition.new_match([f"p{i}" for i in range(players)], seed=players)
    assert _play(definition, match, level) > 0
