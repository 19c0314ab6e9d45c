"""Paris Paris behind the game interface (engine/interface.py): ``GAME`` and its ``Match``.

A thin wrapper: the rules live in ``Game``, which stays the fast object the AI and the
benchmarks use directly. The stored setup keeps the deal compactly (the tile codes of all
stacks in reveal order, two hex digits each): reading 60 [station, colour] pairs back was
the largest part of restoring thousands of games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import InvalidRecord, InvalidSetup, MalformedInput
from engine.interface import (
    Dynamics,
    GameDefinition,
    Information,
    Match,
    OptionSpec,
    Rhythm,
    SeatedMove,
    SequentialMatch,
    seated_moves,
)

from .actions import Pick, Tile
from .events import RoundStarted
from .game import FINAL_TOURS, Game, Options
from .record import FORMAT, from_record, result, to_record

_PICKS: dict[str, Pick] = {}   # stored move text -> move (a few hundred distinct values; moves are immutable)


def parse_pick(text: str) -> Pick:
    found = _PICKS.get(text)
    if found is None:
        if not isinstance(text, str):
            raise MalformedInput(f"not a move: {text!r}")
        found = Pick.parse(text)
        if len(_PICKS) < 4096:
            _PICKS[text] = found
    return found


class ParisParisMatch(SequentialMatch[Game]):
    """One game of Paris Paris through the interface; ``state`` is the engine's own state."""

    __slots__ = ()

    @property
    def definition(self) -> GameDefinition:
        return GAME

    @property
    def rhythm(self) -> ParisParisRhythm:
        return ParisParisRhythm(self)

    def parse_choice(self, text: str) -> Pick:
        return parse_pick(text)

    def moves_by(self, seat: int) -> int:
        """The mover of every pick is known from the deal (the bus moves on one seat a round,
        then seat order), so this holds however the match was made (a record, a copy)."""
        game, n = self.state, self._n
        return sum(1 for index in range(len(game.moves)) if mover(game.first_player, n, index) == seat)

    @property
    def _n(self) -> int:
        return len(self.state.players)

    def returns(self) -> tuple[int, ...]:
        return tuple(self.state.scores)

    def to_record(self) -> dict[str, Any]:
        return to_record(self.state)

    def stored_setup(self) -> dict[str, Any]:
        record = to_record(self.state)
        setup = {k: v for k, v in record.items() if k not in ("moves", "stacks")}
        setup["deal"] = "".join(f"{code:02x}" for stack in self.state.stacks for code in stack)
        setup["seed"] = self.state.seed
        return setup



class ParisParisRhythm(Rhythm):
    """A picture after each round; every score is public."""

    __slots__ = ()
    match: ParisParisMatch

    @property
    def cycle(self) -> int:
        return self.match.state.round

    def rounds(self) -> int:
        return self.match.state.rounds

    def score_history(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.match.state.score_history)

    def cycle_start(self, cycle: int) -> int:
        """A round begins with its RoundStarted event (the first also after the set-up events)."""
        log = self.match.state.log
        if cycle <= 1:
            return 0
        for index in range(len(log) - 1, -1, -1):
            event = log[index]
            if isinstance(event, RoundStarted) and event.round == cycle:
                return index
        return len(log)


def own(match: Match) -> ParisParisMatch:
    """``match`` as this game's own match (what its definition made); ``TypeError`` for another's."""
    if not isinstance(match, ParisParisMatch):
        raise TypeError(f"not a Paris Paris match: {type(match).__name__}")
    return match


def mover(first: int, n: int, index: int) -> int:
    """The seat that makes pick number ``index`` (from 0): the bus moves on one seat a round."""
    return (first + index // n + index % n) % n


class ParisParisDefinition(GameDefinition):
    id = "paris-paris"
    name = "Paris Paris"
    min_players = 2
    max_players = 4
    options = (OptionSpec("final_tours", tuple(FINAL_TOURS), "markers"),)
    record_format = FORMAT
    ai_levels = ("easy", "normal", "strong")
    dynamics = Dynamics.SEQUENTIAL
    information = Information.IMPERFECT      # each player's secret marker

    def new_match(self, players: Sequence[str], *, seed: int,
                  options: Mapping[str, Any] | None = None) -> ParisParisMatch:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 63:
            raise InvalidSetup(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
        opts = self.resolve_options(options, len(players))
        return ParisParisMatch(Game.new(players, seed=seed, options=Options(**opts)))

    def from_record(self, record: Any) -> ParisParisMatch:
        return ParisParisMatch(from_record(record))

    def record_of(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> dict[str, Any]:
        record = {k: v for k, v in setup.items() if k != "deal"}
        if "deal" in setup:
            deal, size = setup["deal"], len(setup["players"]) + 1
            tiles = [Tile.of(int(deal[i:i + 2], 16)) for i in range(0, len(deal), 2)]
            record["stacks"] = [[[t.station, t.colour] for t in tiles[i:i + size]]
                                for i in range(0, len(tiles), size)]
        players = setup["players"]
        first = players.index(setup["first_player"])
        n = len(players)
        out = []
        for index, (seat, text) in enumerate(seated_moves(moves)):
            move = parse_pick(text)
            # The mover is derivable (the bus moves on one seat a round, then seat order); a
            # stored seat is named as the player, so replaying checks it was that seat's turn.
            if seat is None or not 0 <= seat < n:
                seat = mover(first, n, index)
            entry: dict[str, Any] = {"player": players[seat],
                                     "tile": [move.tile.station, move.tile.colour]}
            if move.evict is not None:
                entry["evict"] = players[move.evict]
            out.append(entry)
        record["moves"] = out
        return record

    def resume(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> ParisParisMatch:
        try:
            return self.from_record(self.record_of(setup, moves))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidRecord):
                raise
            raise InvalidRecord(f"the stored game cannot be read ({exc})", rule="setup") from None

    def result(self, match: Match) -> dict[str, Any]:
        return result(own(match).state)

    def choose(self, match: Match, seat: int, *, seed: int, level: str = "normal",
               budget: float | int | None = None) -> Pick:
        """``level``: "easy", "normal" or "strong"; ``budget`` (strong only): seconds (float),
        iterations (int) or None for the default (engine.search.DEFAULT_SECONDS)."""
        game = own(match).state
        if seat != game.current_player:
            raise ValueError(f"seat {seat} is not to move")
        # The AIs are imported on first use: replaying or serving a game of people needs none.
        if level == "normal":
            from .ai import choose_move

            return choose_move(game, seed=seed)
        if level == "easy":
            from .ai_easy import choose_easy

            return choose_easy(game, seed=seed)
        if level == "strong":
            from .ai_search import choose_strong

            # The search sees the seat's view and log only; its seed also depends on the move, so
            # a seed reused for a whole game still gives each move a search of its own.
            return choose_strong(match.view(seat), match.log_for(seat),
                                 seed=seed * 1_000_003 + match.move_count, budget=budget)
        raise ValueError(f"unknown AI level {level!r}; Paris Paris has {', '.join(self.ai_levels)}")


GAME = ParisParisDefinition()
