"""The stored form of a game's record, and the way back to a game and to RULES.md's record.

A game is stored as its setup (the record of RULES.md without moves, plus the seed) and its
moves, one row each. The setup keeps every field of the record except ``stacks``, which is
stored compactly as ``deal``: the tile codes of all stacks in reveal order, two hex digits
each (reading a 60-tile list of [station, colour] pairs back was the largest part of
restoring thousands of games). ``record_of`` expands it into the exact record again.
"""

from __future__ import annotations

from typing import Any

from engine.paris_paris import Game, Pick, Tile

_PICKS: dict[str, Pick] = {}   # stored move text -> move (a few hundred distinct values; moves are immutable)


def compact_setup(record: dict[str, Any], seed: int | None) -> dict[str, Any]:
    """The setup to store for a game record (its moves are stored separately)."""
    setup = {k: v for k, v in record.items() if k not in ("moves", "stacks")}
    setup["deal"] = "".join(f"{Tile(s, c).code:02x}" for stack in record["stacks"] for s, c in stack)
    setup["seed"] = seed
    return setup


def _stacks(setup: dict[str, Any]) -> list[list[Tile]]:
    if "deal" not in setup:
        return [[Tile(s, c) for s, c in stack] for stack in setup["stacks"]]
    deal = setup["deal"]
    size = len(setup["players"]) + 1
    tiles = [Tile.of(int(deal[i:i + 2], 16)) for i in range(0, len(deal), 2)]
    return [tiles[i:i + size] for i in range(0, len(tiles), size)]


def pick(text: str) -> Pick:
    found = _PICKS.get(text)
    if found is None:
        found = _PICKS[text] = Pick.parse(text)
    return found


def replay(setup: dict[str, Any], moves: list[str], *, upto: int | None = None) -> Game:
    """The game after its first ``upto`` moves (all when None), through the engine's record
    replay: it validates every move and builds the event log only when it is first read."""
    return Game.from_record(record_of(setup, moves if upto is None else moves[:upto]))


def mover(first_player: int, players: int, index: int) -> int:
    """The seat that makes move ``index``: the bus moves on one seat a round, and each round
    is played in seat order from the bus holder."""
    return (first_player + index // players + index % players) % players


def record_of(setup: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    """The game record of RULES.md (with ``seed``), as ``python -m engine replay`` reads it."""
    record = {k: v for k, v in setup.items() if k != "deal"}
    record["stacks"] = [[[t.station, t.colour] for t in stack] for stack in _stacks(setup)]
    players = setup["players"]
    first = players.index(setup["first_player"])
    out = []
    for index, text in enumerate(moves):
        move = pick(text)
        entry: dict[str, Any] = {"player": players[mover(first, len(players), index)],
                                 "tile": [move.tile.station, move.tile.colour]}
        if move.evict is not None:
            entry["evict"] = players[move.evict]
        out.append(entry)
    record["moves"] = out
    return record
