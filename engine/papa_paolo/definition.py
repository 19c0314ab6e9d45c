"""Papà Paolo behind the game interface (engine/interface.py): ``GAME`` and its ``Match``.

The rules live in ``Game`` (game.py) as whole moves and in stepper.py as steps; records in
record.py. The stored setup is the record without moves, plus the seed; the stored moves are
``(seat, step text)`` pairs, every step a move. Phase 5 is simultaneous: ``to_act`` gives every
seat still planning, each with its own steps (``moves_by``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import GameError, InvalidRecord, InvalidSetup
from engine.interface import Dynamics, EngineMatch, GameDefinition, Information, Match, OptionSpec, Rhythm

from .components import MAX_PLAYERS, MIN_PLAYERS, ROUNDS
from .game import OPTIONS, Game
from .record import FORMAT, from_record, game_from_setup, result, setup_of, to_record
from .stepper import apply_step, check_step, in_decision, legal_steps, without_shortcuts
from .steps import Step, parse
from .view import PapaView, view_of


class PapaMatch(EngineMatch[Game]):
    """One game of Papà Paolo through the interface; ``state`` is the engine's own state, which
    counts each seat's steps itself. Seats act through the stepper (stepper.py), several at
    once in phase 5."""

    __slots__ = ()

    @property
    def definition(self) -> GameDefinition:
        return GAME

    @property
    def rhythm(self) -> PapaRhythm:
        return PapaRhythm(self)

    def moves_by(self, seat: int) -> int:
        return self.state.by_seat[seat]

    def to_act(self) -> tuple[int, ...]:
        return self.state.to_act()

    def legal_choices(self, seat: int) -> list[Step]:
        return legal_steps(self.state, seat)

    def parse_choice(self, text: str) -> Step:
        return parse(text)

    def check(self, choice: Any, *, by: int) -> Step:
        return check_step(self.state, by, _step(choice))

    def apply(self, choice: Any, *, by: int) -> list:
        return apply_step(self.state, by, _step(choice))      # it checks the step itself, once

    def returns(self) -> tuple[int, ...]:
        return self.state.scores()

    def view(self, seat: int | None = None) -> PapaView:
        return view_of(self.state, seat)

    def to_record(self) -> dict[str, Any]:
        return to_record(self.state)

    def stored_setup(self) -> dict[str, Any]:
        return {**setup_of(self.state), "seed": self.state.seed}

    def copy(self) -> PapaMatch:
        return PapaMatch(self.state.copy())


class PapaRhythm(Rhythm):
    """A picture after each phase that changed the board; rounds as the players count them;
    steps of a decision (a space and its tile, a delivery plan) finished by the AI at a
    deadline; records hold whole decisions only."""

    __slots__ = ()
    match: PapaMatch

    # A record holds whole actions (PAPA_PAOLO.md §12, shared with other implementations, unknown keys
    # refused): a decision under way (a space chosen, a plan half drawn) is not in it, and a record
    # replays to the position before it.
    records_keep_drafts = False

    @property
    def cycle(self) -> int:
        """The stretch of play under way, from 1: each phase in which players chose and that
        changed the board closes one (a ``phase_ended`` event), so the table gets a picture of
        the board after placing, the auction, the investments and the deliveries."""
        return 1 + self.match.state.phases_ended

    def cycle_start(self, cycle: int) -> int:
        if cycle <= 1:
            return 0
        log = self.match.state.log
        seen = 0
        for index, event in enumerate(log):
            if event.kind == "phase_ended":
                seen += 1
                if seen == cycle - 1:
                    return index + 1
        return len(log)

    def round_number(self) -> int:
        return self.match.state.round

    def rounds(self) -> int:
        return ROUNDS

    def in_decision(self, seat: int) -> bool:
        return in_decision(self.match.state, seat)

    def public_returns(self) -> tuple[int, ...] | None:
        """With hidden money and the money bonus, running scores would tell the Lire: None until the end."""
        g = self.match.state
        if g.options["hidden_money"] and g.options["money_bonus"] and not g.finished:
            return None
        return g.scores()


def _step(choice: Any) -> Step:
    step = parse(choice) if isinstance(choice, str) else choice
    if not isinstance(step, Step):
        from engine.errors import MalformedInput
        raise MalformedInput(f"not a Papà Paolo choice: {choice!r}"[:80])
    return step


class PapaDefinition(GameDefinition):
    id = "papa-paolo"
    name = "Papà Paolo"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = tuple(OptionSpec(name, (False, True), False) for name in OPTIONS)
    record_format = FORMAT
    ai_levels = ("easy", "normal", "strong")
    dynamics = Dynamics.SIMULTANEOUS
    information = Information.IMPERFECT

    def new_match(self, players: Sequence[str], *, seed: int,
                  options: Mapping[str, Any] | None = None) -> PapaMatch:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 63:
            raise InvalidSetup(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
        resolved = self.resolve_options(options, len(players) if not isinstance(players, str) else None)
        return PapaMatch(Game.new(players, seed=seed, options=resolved))

    def from_record(self, record: Any) -> PapaMatch:
        return PapaMatch(from_record(record))

    def resume(self, setup: Mapping[str, Any], moves: Sequence[Any]) -> PapaMatch:
        """``moves``: ``(seat, text)`` pairs in the order applied (a bare text is the one seat to act's)."""
        seed = setup.get("seed") if isinstance(setup, Mapping) else None
        bare = {k: v for k, v in setup.items() if k != "seed"} if isinstance(setup, Mapping) else setup
        game = game_from_setup(bare, seed if type(seed) is int else None)
        with game.quietly() as played:      # the state only: events and texts built when read
            for index, move in enumerate(moves):
                try:
                    if isinstance(move, str):
                        acting = game.to_act()
                        seat, text = (acting[0] if acting else 0), move
                    else:
                        seat, text = move
                    apply_step(game, seat, parse(text))     # checked there: a replay checks each step once
                except GameError as exc:
                    raise InvalidRecord(str(exc), move_index=index, rule=exc.code) from None
                played.append(game.moves[-1])           # the step as kept: (seat, its text), shared
        return PapaMatch(game)

    def record_of(self, setup: Mapping[str, Any], moves: Sequence[Any]) -> dict[str, Any]:
        return self.resume(setup, moves).to_record()

    def result(self, match: Match) -> dict[str, Any]:
        return result(own(match).state)

    def choose(self, match: Match, seat: int, *, seed: int, level: str = "normal",
               budget: float | int | None = None) -> Step:
        """``level``: "easy", "normal" or "strong", from ``match.view(seat)``, its log and its legal
        choices only; ``budget`` (strong only): seconds (float), playouts (int) or None for the
        default (engine.search.DEFAULT_SECONDS)."""
        if level == "strong":
            from .ai_search import choose_strong

            # The seed also depends on the move, so one seed for a whole game still gives each
            # decision a search of its own.
            return choose_strong(_WholeTake(own(match)), seat, seed=seed * 1_000_003 + match.move_count,
                                budget=budget)
        from .ai import choose

        return choose(_WholeTake(own(match)), seat, seed=seed, level=level)


def own(match: Match) -> PapaMatch:
    """``match`` as this game's own match (what its definition made); ``TypeError`` for another's."""
    if not isinstance(match, PapaMatch):
        raise TypeError(f"not a Papà Paolo match: {type(match).__name__}")
    return match


class _WholeTake(PapaMatch):
    """A match as the AI reads it, over the same state: without the squares offered right after
    a grid space (a person's shortcut, "take the tile to this square"); the AI weighs a tile
    through "take", then its square and rotation, which lead to the same moves. (Its copy is a
    plain ``PapaMatch``.)"""

    __slots__ = ()

    def __init__(self, match: PapaMatch) -> None:
        super().__init__(match.state)

    def legal_choices(self, seat: int) -> list[Step]:
        return without_shortcuts(self.state, seat, super().legal_choices(seat))


GAME = PapaDefinition()
