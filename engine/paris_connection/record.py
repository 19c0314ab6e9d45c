"""Game records (PARIS_CONNECTION.md, "Game records"): export, replay with validation, results.

A record lists whole builds (``{"colour", "hexes"}``) and trades; the engine plays a build
as steps (``build:red``, ``place:...``, ``done``), so a replay breaks each build back into
them. A record of a game in progress may end with the build under way, marked
``"unfinished": true`` (its steps so far, without ``done``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import board as B
from .actions import DONE, Build, Place, Trade
from .errors import GameError, InvalidRecord, MalformedInput
from .game import Game

FORMAT = "paris-connection-record/1"


def setup_of(game: Game) -> dict[str, Any]:
    """The record's setup part: everything but the moves."""
    names = game.players
    return {
        "format": FORMAT,
        "players": list(names),
        "map": B.MAP_ID,
        "start_hexes": dict(game.start_hexes),
        "deal": {names[seat]: {c: k for c, k in dealt.items() if k} for seat, dealt in enumerate(game.deal)},
        "first_player": names[game.first_player],
    }


def to_record(game: Game) -> dict[str, Any]:
    """The JSON record of a game, finished or in progress (every secret included)."""
    names = game.players
    moves: list[dict[str, Any]] = []
    for seat, what, data in game.record_moves:
        if what == "build":
            moves.append({"player": names[seat], "build": {"colour": data[0], "hexes": list(data[1])}})
        else:
            moves.append({"player": names[seat], "trade": {"return": data[0], "take": data[1], "count": data[2]}})
    if game.building:
        moves.append({"player": names[game.to_move], "unfinished": True,
                      "build": {"colour": game.draft_colour, "hexes": list(game.draft_hexes)}})
    return {**setup_of(game), "moves": moves}


def game_from_setup(setup: Any) -> Game:
    """The game a record's setup deals, before any move; ``InvalidRecord`` (rule "setup") if it cannot."""
    if not isinstance(setup, Mapping):
        raise InvalidRecord("a record is a JSON object", rule="setup")
    if setup.get("format") != FORMAT:
        raise InvalidRecord(f"the format must be {FORMAT!r}", rule="format")
    if setup.get("map", B.MAP_ID) != B.MAP_ID:
        raise InvalidRecord(f"this engine plays the map {B.MAP_ID!r}, not {setup.get('map')!r}", rule="map")
    players = setup.get("players")
    try:
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise MalformedInput("players must be a list of names")
        deal = setup.get("deal")
        if not isinstance(deal, Mapping) or sorted(deal) != sorted(players):
            raise MalformedInput("deal must give every player's drawn locomotives")
        first = setup.get("first_player")
        if first not in players:
            raise MalformedInput(f"first_player {first!r} is not a player")
        start_hexes = setup.get("start_hexes")
        if not isinstance(start_hexes, Mapping):
            raise MalformedInput("start_hexes must map each company to its start hex")
        seed = setup.get("seed")
        return Game.from_setup(players, start_hexes, [deal[p] for p in players], players.index(first),
                               seed=seed if type(seed) is int else None)
    except (GameError, TypeError) as exc:
        raise InvalidRecord(str(exc), rule="setup") from None


def from_record(record: Any) -> Game:
    """Replay a record; ``InvalidRecord`` names the move (counted from 1) and the rule it breaks."""
    game = game_from_setup(record)
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidRecord("moves must be a list", rule="setup")
    for index, move in enumerate(moves):
        try:
            _replay(game, move, last=index == len(moves) - 1)
        except GameError as exc:
            rule = exc.rule if isinstance(exc, InvalidRecord) else exc.code
            message = str(exc).partition(": ")[2] if isinstance(exc, InvalidRecord) else str(exc)
            raise InvalidRecord(message, move_index=index, rule=rule) from None
    return game


def _replay(game: Game, move: Any, *, last: bool) -> None:
    if not isinstance(move, Mapping) or ("build" in move) == ("trade" in move):
        raise MalformedInput("a move is an object with a player and either a build or a trade")
    player = move.get("player")
    if player is None:      # every move names its player: an unnamed one is no one's turn
        raise MalformedInput("a move names its player")
    if not isinstance(player, str) or player not in game.players:
        raise MalformedInput(f"{player!r} is not a player")
    if not game.finished and player != game.players[game.to_move]:
        raise InvalidRecord(f"it is {game.players[game.to_move]}'s turn, not {player}'s", rule="not_your_turn")
    if "trade" in move:
        trade = move["trade"]
        if not isinstance(trade, Mapping) or not all(isinstance(trade.get(k), str) for k in ("return", "take")) \
                or type(trade.get("count")) is not int:
            raise MalformedInput("a trade is {\"return\": colour, \"take\": colour, \"count\": 1 or 2}")
        game.apply(Trade(trade["return"], trade["take"], trade["count"]))
        return
    build = move["build"]
    if not isinstance(build, Mapping) or not isinstance(build.get("colour"), str) \
            or not isinstance(build.get("hexes"), list) or not all(isinstance(h, str) for h in build["hexes"]):
        raise MalformedInput("a build is {\"colour\": colour, \"hexes\": [hex, ...]}")
    unfinished = move.get("unfinished") is True
    if unfinished and not last:
        raise MalformedInput("only the last move may be an unfinished build")
    hexes = build["hexes"]
    if not hexes and not unfinished:
        raise InvalidRecord("a build places at least one locomotive", rule="nothing_placed")
    game.apply(Build(build["colour"]))
    for placed, hex_id in enumerate(hexes):
        if not game.building:
            raise InvalidRecord(f"the build had already ended after {placed} locomotives; {hex_id} is one too "
                                f"many", rule="build_ended")
        game.apply(Place(hex_id))
    if game.building and not unfinished:
        game.apply(DONE)


def result(game: Game) -> dict[str, Any]:
    """What ``python -m engine replay`` prints (PARIS_CONNECTION.md)."""
    names = game.players
    out: dict[str, Any] = {"finished": game.finished, "values": dict(game.values), "storage": dict(game.storage),
                           "cycle": game.cycle}
    if game.finished:
        out["end_reason"] = game.end_reason
        out["holdings"] = {names[s]: dict(h) for s, h in enumerate(game.holdings)}
        out["scores"] = dict(zip(names, game.scores(), strict=True))
        out["penalties"] = dict(zip(names, game.penalties(), strict=True))
        out["winners"] = [names[s] for s in game.winners]
    else:
        out["to_move"] = names[game.to_move]
    return out
