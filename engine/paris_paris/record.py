"""Game records (RULES.md, "Game records"): export, import with validation, and results."""

from __future__ import annotations

from dataclasses import fields
from itertools import chain
from typing import Any

from . import board as B
from .actions import EVICTING_PICKS, PLAIN_PICKS, TILES_BY_NAME, Pick, Tile, pick_for
from .errors import GameError, InvalidRecord, MalformedInput
from .game import Game, Options

FORMAT = "paris-paris-record/1"

# (station, colour) -> tile code: records' tiles are read without building Tiles.
_CODES: dict[tuple[str, str], int] = {name: tile.code for name, tile in TILES_BY_NAME.items()}
# station -> colour -> tile code: a whole deal is read with two plain lookups a tile.
_CODES_AT: dict[str, dict[str, int]] = {}
for (_station, _colour), _code in _CODES.items():
    _CODES_AT.setdefault(_station, {})[_colour] = _code
_LIST = {list}


def to_record(game: Game) -> dict[str, Any]:
    """The JSON record of a game, finished or in progress (all stacks, including unrevealed)."""
    names = game.players
    return {
        "format": FORMAT,
        "players": list(names),
        "options": game.options.to_dict(),
        "stacks": [[[Tile.of(c).station, Tile.of(c).colour] for c in stack] for stack in game.stacks],
        "markers": {names[seat]: B.COLOURS[c] for seat, c in enumerate(game.markers)},
        "open_marker": None if game.open_marker is None else B.COLOURS[game.open_marker],
        "first_player": names[game.first_player],
        "moves": [_move_to_json(game, index, m) for index, m in enumerate(game.moves)],
    }


def _move_to_json(game: Game, index: int, move: Pick) -> dict[str, Any]:
    # The mover is derivable, but records name it so a reader needs no engine. Move ``index``
    # is pick ``index % n`` of round ``index // n``, whose bus holder is first_player + round.
    n = game.num_players
    seat = (game.first_player + index // n + index % n) % n
    data: dict[str, Any] = {"player": game.players[seat], "tile": [move.tile.station, move.tile.colour]}
    if move.evict is not None:
        data["evict"] = game.players[move.evict]
    return data


def _setup_error(message: str) -> InvalidRecord:
    return InvalidRecord(message, rule="setup")


def _tile(value: Any, where: str) -> Tile:
    # Fast path: a [station, colour] pair naming a real tile is looked up, not rebuilt.
    if type(value) is list and len(value) == 2:
        try:
            return TILES_BY_NAME[value[0], value[1]]
        except (KeyError, TypeError):
            pass
    if not (isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise MalformedInput(f"{where}: a tile is [station, colour], not {value!r}")
    return Tile(value[0], value[1])


def _stack_codes(stacks: list) -> list[tuple[int, ...]]:
    try:  # Fast path: lists of [station, colour] lists naming real tiles, looked up at once.
        if set(map(type, stacks)) <= _LIST and set(map(type, chain.from_iterable(stacks))) <= _LIST:
            return [tuple([_CODES_AT[station][colour] for station, colour in stack]) for stack in stacks]
    except (KeyError, TypeError, ValueError):
        pass
    for i, stack in enumerate(stacks):
        if not isinstance(stack, list):
            raise _setup_error(f"stack {i} must be a list of tiles, not {stack!r}"[:120])
    return [tuple([_tile(t, f"stack {i}").code for t in stack]) for i, stack in enumerate(stacks)]


def from_record(record: Any) -> Game:
    """Build and replay a record; raise ``InvalidRecord`` naming the move and rule it breaks.

    The replay is quiet: it builds no events (``game.log`` is rebuilt when first read).
    """
    game = _setup(record, logged=False)
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise _setup_error("moves must be a list")
    names = game.players
    n = len(names)
    seats = {name: seat for seat, name in enumerate(names)}
    board = game.board
    supply = game.supply
    move_quietly = game._move
    for index, move in enumerate(moves):
        # The common move is checked here, inline: a well-formed pick of a tile on offer by the
        # player to move, naming whose shop it evicts exactly where the rules ask
        # (or naming a player where they do not, or where an empty supply opens no shop: ignored).
        # Any other move goes through ``_record_pick``, which raises the exact error or normalises it.
        pick = None
        if type(move) is dict and not game.finished:
            tile = move.get("tile")
            player = move.get("player")
            evict = move.get("evict")
            seat = (game.bus + game.picks) % n
            if type(tile) is list and (evict is None or type(evict) is str) and (
                    type(player) is str and player == names[seat]):
                try:
                    code = _CODES.get(tuple(tile))     # a list of two ids naming a tile
                except TypeError:                     # an unhashable station or colour
                    code = None
                if code is not None and code in game.offer:
                    owners = board[code // 5]
                    if len(owners) == 2 and owners[0] != owners[1] and supply[seat]:
                        holder = None if evict is None else seats.get(evict)
                        if holder is not None and holder in owners:
                            pick = EVICTING_PICKS[code][holder]
                    elif evict is None or evict in seats:
                        pick = PLAIN_PICKS[code]
        move_quietly(pick if pick is not None else _record_pick(game, index, move, seats), None)
    return game


def setup_from_record(record: Any) -> Game:
    """The game a record deals, before any of its moves (with its event log)."""
    return _setup(record, logged=True)


def _setup(record: Any, *, logged: bool) -> Game:
    if not isinstance(record, dict):
        raise _setup_error("a record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise _setup_error(f"unknown record format {record.get('format')!r}")
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _setup_error("players must be a list of names")
    try:
        options = _options(record.get("options"))
        stacks = record.get("stacks")
        if not isinstance(stacks, list):
            raise _setup_error("stacks must be a list")
        codes = _stack_codes(stacks)
        markers = record.get("markers")
        if not isinstance(markers, dict) or set(markers) != set(players):
            raise _setup_error("markers must give every player's marker")
        first = record.get("first_player")
        if first not in players:
            raise _setup_error(f"first_player {first!r} is not a player")
        return Game._from_codes(players, codes, [markers[p] for p in players], record.get("open_marker"),
                                players.index(first), options, record.get("seed"), logged=logged)
    except InvalidRecord:
        raise
    except (GameError, TypeError) as exc:
        raise InvalidRecord(str(exc), rule="setup") from None


def _options(given: Any) -> Options:
    """The record's options (none given: the defaults), or ``InvalidRecord`` naming what is wrong."""
    if given is None:
        return Options()
    known = tuple(field.name for field in fields(Options))
    if not isinstance(given, dict):
        raise _setup_error(f"options must be an object naming options ({', '.join(known)}), "
                           f"not {type(given).__name__}")
    unknown = [name for name in given if name not in known]
    if unknown:
        raise _setup_error(f"unknown option {unknown[0]!r}; Paris Paris has the options {', '.join(known)}")
    return Options(**given)


def apply_record_move(game: Game, index: int, move: Any, seats: dict[str, int] | None = None) -> None:
    """Apply move ``index`` of a record; ``seats`` (name -> seat) may be passed to save work."""
    if seats is None:
        seats = {name: seat for seat, name in enumerate(game.players)}
    game.apply(_record_pick(game, index, move, seats))


def _record_pick(game: Game, index: int, move: Any, seats: dict[str, int]) -> Pick:
    """Move ``index`` of a record as a legal Pick in normal form, or ``InvalidRecord``."""
    try:
        if type(move) is not dict:
            raise MalformedInput("a move is an object with player and tile")
        tile = _tile(move.get("tile"), "tile")
        player = move.get("player")
        if player is None:      # every move names its player: an unnamed one is no one's turn
            raise MalformedInput("a move names its player")
        seat = seats.get(player) if type(player) is str else None
        if seat is None:
            raise MalformedInput(f"{player!r} is not a player")
        evict_name = move.get("evict")
        evict = None
        if evict_name is not None:
            evict = seats.get(evict_name) if type(evict_name) is str else None
            if evict is None:
                raise MalformedInput(f"evict names {evict_name!r}, who is not a player")
        # An eviction choice where the rules ask none is ignored (``check`` drops it).
        return game.check(pick_for(tile.code, evict), by=seat)
    except GameError as exc:
        raise InvalidRecord(str(exc), move_index=index, rule=exc.code) from None


def result(game: Game) -> dict[str, Any]:
    """The replay result of RULES.md."""
    names = game.players
    out: dict[str, Any] = {
        "finished": game.finished,
        "scores": {names[s]: game.scores[s] for s in range(len(names))},
        "shops_on_board": dict(zip(names, game.shops_on_board(), strict=True)),
        "board": {B.STATIONS[s]: sorted(names[o] for o in owners)
                  for s, owners in enumerate(game.board) if owners},
    }
    if game.finished:
        out["winners"] = [names[s] for s in game.winners]
        out["bag"] = dict(zip(names, game.bag, strict=True))
    else:
        out["to_move"] = names[game.seat_to_move]
        out["offer"] = [[t.station, t.colour] for t in game.offered_tiles()]
    out["round"] = game.round
    out["rounds"] = game.rounds
    return out
