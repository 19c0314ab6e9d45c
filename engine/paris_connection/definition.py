"""Paris Connection behind the game interface (engine/interface.py): ``GAME`` and its ``Match``.

A thin wrapper: the rules live in ``Game`` (game.py), records in record.py. The stored setup
is the record's setup plus the seed; the stored moves are the step texts (``build:red``,
``place:F7``, ``done``, ``trade:red:blue:2``...), every step a move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import GameError, InvalidRecord, InvalidSetup
from engine.interface import (
    Dynamics,
    GameDefinition,
    Information,
    Match,
    Rhythm,
    SeatedMove,
    SequentialMatch,
    seated_moves,
)

from .actions import Choice, parse
from .game import MAX_PLAYERS, MIN_PLAYERS, Game
from .record import FORMAT, from_record, game_from_setup, result, setup_of, to_record


class ConnectionMatch(SequentialMatch[Game]):
    """One game of Paris Connection through the interface; ``state`` is the engine's own state."""

    __slots__ = ()

    @property
    def definition(self) -> GameDefinition:
        return GAME

    @property
    def rhythm(self) -> ConnectionRhythm:
        return ConnectionRhythm(self)

    def parse_choice(self, text: str) -> Choice:
        return parse(text)

    def returns(self) -> tuple[int, ...]:
        return self.state.scores()

    def to_record(self) -> dict[str, Any]:
        return to_record(self.state)

    def stored_setup(self) -> dict[str, Any]:
        return {**setup_of(self.state), "seed": self.state.seed}



class ConnectionRhythm(Rhythm):
    """A picture after each turn cycle (its end logged as "cycle_ended"); scores stay secret
    until the end; a build is a decision of several steps."""

    __slots__ = ()
    match: ConnectionMatch

    @property
    def cycle(self) -> int:
        return self.match.state.cycle

    def in_decision(self, seat: int) -> bool:
        """A build under way: its colour is chosen, its placements are not done yet."""
        return self.match.state.draft_colour is not None and seat in self.match.to_act()

    def public_returns(self) -> tuple[int, ...] | None:
        """None before the end: values are public, so running scores would tell the screens."""
        game = self.match.state
        return game.scores() if game.finished else None


class ConnectionDefinition(GameDefinition):
    id = "paris-connection"
    name = "Paris Connection"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = ()
    record_format = FORMAT
    ai_levels = ("easy", "normal", "strong")
    dynamics = Dynamics.SEQUENTIAL
    information = Information.IMPERFECT      # each player's holdings

    def new_match(self, players: Sequence[str], *, seed: int,
                  options: Mapping[str, Any] | None = None) -> ConnectionMatch:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 63:
            raise InvalidSetup(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
        self.resolve_options(options, len(players))
        return ConnectionMatch(Game.new(players, seed=seed))

    def from_record(self, record: Any) -> ConnectionMatch:
        game = from_record(record)            # validated, with the error naming the move
        # Replayed once more step by step through the wrapper, so each seat's count is known.
        return self.resume({**setup_of(game), "seed": game.seed}, game.moves)

    def resume(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove | str]) -> ConnectionMatch:
        match = ConnectionMatch(game_from_setup(setup))
        for index, (seat, text) in enumerate(seated_moves(moves)):
            acting = match.to_act()
            # A bare text is the move of whoever acts then (none once the game is over: the
            # engine then refuses any move, whoever makes it).
            by = seat if seat is not None else acting[0] if acting else 0
            try:
                match.apply(parse(text), by=by)
            except GameError as exc:
                raise InvalidRecord(str(exc), move_index=index, rule=exc.code) from None
        return match

    def record_of(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> dict[str, Any]:
        return self.resume(setup, moves).to_record()

    def result(self, match: Match) -> dict[str, Any]:
        return result(own(match).state)

    def choose(self, match: Match, seat: int, *, seed: int, level: str = "normal",
               budget: float | int | None = None) -> Choice:
        """``level``: "easy", "normal" or "strong"; ``budget`` (strong only): seconds (float),
        playouts (int) or None for the default (engine.search.DEFAULT_SECONDS)."""
        # The AIs are imported on first use (the search builds its tables then): replaying or
        # serving a game of people needs none.
        if level == "strong":
            from .ai_search import choose_strong

            # The seed also depends on the move, so one seed for a whole game still gives each
            # move a search of its own.
            return choose_strong(match, seat, seed=seed * 1_000_003 + match.move_count, budget=budget)
        if level not in self.ai_levels:
            raise ValueError(f"unknown AI level {level!r}; Paris Connection has {', '.join(self.ai_levels)}")
        from .ai import choose

        return choose(match, seat, seed=seed, level=level)


def own(match: Match) -> ConnectionMatch:
    """``match`` as this game's own match (what its definition made); ``TypeError`` for another's."""
    if not isinstance(match, ConnectionMatch):
        raise TypeError(f"not a Paris Connection match: {type(match).__name__}")
    return match


GAME = ConnectionDefinition()
