"""Game records, ``papa-paolo-record/1`` (PAPA_PAOLO.md §12): export, replay with validation, result.

A record holds the whole shuffled set-up and whole actions, every move naming its player;
play in steps is not in it. ``from_record`` refuses unknown keys anywhere and names the move
(from 1) and the rule a broken record breaks. ``parse_move`` reads a move's JSON object into a
whole move (moves.py), checking its shape; the rules (game.py) check what it does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import components as C
from .errors import GameError, InvalidRecord, MalformedInput
from .events import Event
from .game import OPTIONS, Game, write_moves
from .moves import Move
from .phases import RULES, Phase

FORMAT = "papa-paolo-record/1"
TOP_KEYS = {"format", "players", "options", "setup", "moves"}


def setup_of(game: Game) -> dict[str, Any]:
    names = game.players
    setup: dict[str, Any] = {
        "starting_tiles": {names[s]: t for s, t in enumerate(game.starting)},
        "city_stack": list(game.city_stack),
        "coins": [list(c) for c in game.coin_setup],
        "investment_stacks": {c: list(game.inv_stacks[c]) for c in C.COLOURS},
    }
    if game.face_down is not None:
        setup["face_down_coin"] = list(game.face_down)
    return {"format": FORMAT, "players": list(names), "options": dict(game.options), "setup": setup}


def to_record(game: Game) -> dict[str, Any]:
    moves = [json.loads(move) for move in game.record_moves]
    return {**setup_of(game), "moves": moves}


def game_from_setup(record: Any, seed: int | None = None) -> Game:
    """The game a record's set-up deals, before any move; ``InvalidRecord`` if it cannot."""
    if not isinstance(record, Mapping):
        raise InvalidRecord("a record is a JSON object", rule="setup")
    if record.get("format") != FORMAT:
        raise InvalidRecord(f"the format must be {FORMAT!r}", rule="format")
    extra = set(record) - TOP_KEYS
    if extra:
        raise InvalidRecord(f"unknown key {sorted(extra)[0]!r}"[:80], rule="unknown_key")
    players = record.get("players")
    try:
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedInput("players must be a list of names")
        options = record.get("options", {})
        if not isinstance(options, Mapping) or not set(options) <= set(OPTIONS) \
                or not all(isinstance(v, bool) for v in options.values()):
            raise MalformedInput(f"options map some of {', '.join(OPTIONS)} to true or false")
        setup = record.get("setup")
        if not isinstance(setup, Mapping):
            raise MalformedInput("the record has no setup")
        starts = setup.get("starting_tiles")
        if not isinstance(starts, Mapping) or sorted(starts) != sorted(players):
            raise MalformedInput("starting_tiles names each player's starting tile")
        setup = {**setup, "starting_tiles": [starts[p] for p in players]}
        return Game.from_setup(players, setup, options, seed=seed)
    except (GameError, TypeError) as exc:
        raise InvalidRecord(str(exc), rule="setup") from None


def from_record(record: Any, seed: int | None = None) -> Game:
    """Replay a record; ``InvalidRecord`` names the move (counted from 1) and the rule it breaks."""
    game = game_from_setup(record, seed)
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidRecord("moves must be a list", rule="setup")
    seats = {name: seat for seat, name in enumerate(game.players)}
    # Each move played, as ``play`` would write it: their texts are written when first read
    # (``Game.record_moves``, in one call of the encoder), their events built when first read
    # (``Game.log``): a replay wants the state (``Game.quietly``).
    written: list[Mapping[str, Any]] = []
    with game.quietly() as played:
        for index, move in enumerate(moves):
            try:
                written.append(_replay_move(game, seats, move, played))
            except GameError as exc:
                # The game is thrown away, but the moves before are still encoded: one that JSON
                # cannot encode raises its TypeError first, as when every move was written as played.
                write_moves(written)
                raise InvalidRecord(str(exc), move_index=index, rule=exc.code) from None
    game.write_later(written)
    return game


def _replay_move(game: Game, seats: dict[str, int], move: Any,
                 played: list[tuple[int, Move | str]]) -> Mapping[str, Any]:
    """Play a record's move (``play_move`` of it without its "player") and return it as ``play``
    writes it: the move itself when "player" is its first key (the same text), without taking the
    player out and back in."""
    # (``type(move) is dict`` first: a record's moves are dicts, and an ABC's check is slow)
    player = move.get("player") if type(move) is dict or isinstance(move, Mapping) else None
    seat = seats.get(player) if isinstance(player, str) else None
    if seat is None:
        raise MalformedInput("every move is an object naming its player")
    data = dict(move)
    del data["player"]
    whole = _parse_in_turn(game, seat, data)
    game.play_unwritten(seat, whole)
    played.append((seat, whole))
    if type(move) is dict and next(iter(move)) == "player":
        return move
    return {"player": game.players[seat], **data}


def play_move(game: Game, seat: int, data: Mapping[str, Any]) -> list[Event]:
    """Play a record's move (its JSON object without "player"), kept in the record as written."""
    return game.play(seat, _parse_in_turn(game, seat, data), as_written=data)


def _parse_in_turn(game: Game, seat: int, data: Mapping[str, Any]) -> Move:
    """``parse_move`` of ``data`` in the game's phase; a move out of turn is refused as such,
    whatever its shape."""
    try:
        return parse_move(game.phase, data)
    except GameError:
        game.check_turn(seat)
        raise


# --- Moves --------------------------------------------------------------------------------------

def parse_move(phase: Phase, data: Any) -> Move:
    """The whole move a record's JSON object (without "player") writes in ``phase``;
    ``MalformedInput`` (or ``BadRotation``) when its shape is wrong."""
    if not (type(data) is dict or isinstance(data, Mapping)) or not data:
        raise MalformedInput("a move is an object")
    return RULES[phase].read(data)


def result(game: Game) -> dict[str, Any]:
    """What ``python -m engine replay`` prints (§12)."""
    names = game.players
    out: dict[str, Any] = {
        "finished": game.finished,
        "round": game.round,
        "phase": game.phase_number,
        "order": [names[s] for s in game.order],
        "players": {names[s]: {"lire": p.lire, "tracks": dict(p.tracks), "delivered": p.hood.delivered(),
                               "pizzas_left": p.hood.pizzas(), "completed": p.hood.completed()}
                    for s, p in enumerate(game.people)},
    }
    if game.finished:
        assert game.final is not None, "a finished game has its final scores"
        out["scores"] = dict(zip(names, game.final, strict=True))
        out["winners"] = [names[s] for s in game.winners]
    else:
        out["to_act"] = [names[s] for s in game.to_act()]
    return out
