"""The game-agnostic interface: what every game package provides, and all the bot knows of a game.

In the spirit of OpenSpiel and boardgame.io. A game package (``engine/paris_paris``,
``engine/paris_connection``, ``engine/papa_paolo``) exposes one ``GameDefinition`` instance named
``GAME``; the registry (``engine/registry.py``) lists them. A ``Match`` is one game being played,
like OpenSpiel's ``State``: mutable for speed (``apply`` changes it in place; ``copy`` gives an
independent one for look-ahead), and about the rules only. Each game's match derives from
``EngineMatch``, the one adapter over the game's own engine object: sequential engines get the
plain delegation (``SequentialMatch``), engines with simultaneous phases say how seats act. (A game may also
implement ``Match`` itself, as the test-only Tiny Hands does.)

Rhythm. How a match is paced at the table is apart from its rules, in the ``Rhythm`` its
``rhythm`` gives: the cycles the bot posts a picture after, the rounds players count, the scores
the table may know, the decisions of several steps the AI finishes at a deadline, and whether
records keep a decision under way.

Choices. ``legal_choices(seat)`` lists what a seat may do *now*, each a ``Choice``: a small
frozen value whose key is its text (``str``, which ``parse_choice`` reads back), which names its
button (``label()``, a ``Label`` the presenter puts into words) and its place on the board
(``place()``, a ``BoardPlace`` in engine terms, never pixels; None for a colour, an amount,
"done"). A choice may be one step of a longer decision (Paris Connection: pick a colour, then
hexes one at a time, then "done"); the match then holds the pending part of the decision as
state, every step is a move of its own (stored, replayed, counted in ``move_count``) and its
views show the draft. So any game's turn maps to a handful of buttons at a time.

Secrets. ``view(seat)`` (``None``: the public view) and ``log_for(seat)`` are the only way
state leaves the engine for players; records (``to_record``) hold every secret and are for
finished games and operators.

Randomness. All of it comes from the seed given at setup and kept in the state (a game's
own ``random.Random``); nothing calls the global ``random``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, runtime_checkable

from .errors import GameError, InvalidOption


class Dynamics(StrEnum):
    """How seats take turns (OpenSpiel's GameType.dynamics): one at a time, or with phases in
    which several seats act at once (each on its own, in private, until the phase resolves)."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class Information(StrEnum):
    """Whether seats hold secrets (OpenSpiel's GameType.information): a game with imperfect
    information has something ``view(seat)`` shows only to that seat."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


# A stored move: the seat that made it and its text (``str(choice)``).
SeatedMove = tuple[int, str]


def seated_moves(moves: Iterable[Any]) -> list[tuple[int | None, str]]:
    """``moves`` as (seat, text) pairs; a bare text (older callers, sequential games) has seat
    None: whoever is to act then made it."""
    out: list[tuple[int | None, str]] = []
    for move in moves:
        if isinstance(move, str):
            out.append((None, move))
        else:
            seat, text = move
            out.append((None if seat is None else int(seat), text))
    return out


@dataclass(frozen=True, slots=True)
class Label:
    """What a button for a choice names, as engine data a presenter puts into words:
    ``kind`` says what sort of choice it is ("build", "place", "pick", a Papà Paolo verb), ``args``
    the engine values the words need (a colour id, a hex id, a tile). The presenter adds what only
    the view tells (a cost, whether "undo" cancels the build) and the language."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BoardPlace:
    """Where a choice sits on the board, in the engine's own terms, never pixels: ``area`` names a
    part of the board ("hexes", "offer", "grid", "neighbourhood"...), ``at`` the spot there (a hex id,
    a tile's text, a (row, column) cell, an (x, y) square, an id). A presenter's ``spots`` turns places
    into boxes on its pictures: one place may have several boxes (a tile's badge and its row in a
    panel), or none on a given picture."""

    area: str
    at: str | int | tuple[Any, ...]


@runtime_checkable
class Choice(Protocol):
    """What a seat may choose (``Match.legal_choices``): a small frozen value.

    Its key is its text, ``str(choice)``: stable, stored as the move, and ``Match.parse_choice``
    reads it back to an equal choice. ``label()`` is what a button for it names (``Label``);
    ``place()`` where it sits on the board (``BoardPlace``), None for a choice that is no place
    (a colour word, an amount, "done"): a menu offers those.
    """

    def __str__(self) -> str: ...
    def label(self) -> Label: ...
    def place(self) -> BoardPlace | None: ...


@runtime_checkable
class Event(Protocol):
    """Something that happened, as data. ``kind`` names it; ``visible_to(None)`` is True for
    public events; ``to_dict()`` is its JSON form (with ``kind``)."""

    @property
    def kind(self) -> str: ...

    @property
    def ended_cycle(self) -> int | None:
        """The cycle this event closes, if it marks a cycle's end (None for most events)."""
        ...
    def visible_to(self, seat: int | None) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a game declares: its name, the values it allows, and its default.

    ``by_players`` overrides the default for some player counts, where it matters.
    Settings buttons, command choices, terminal flags, lobby texts and validation are all
    derived from these declarations. ``labels`` are catalog keys' last parts for each value
    (the value itself when missing).
    """

    name: str
    values: tuple[Any, ...]
    default: Any
    by_players: Mapping[int, Any] = field(default_factory=dict)

    def default_for(self, players: int | None = None) -> Any:
        return self.by_players.get(players, self.default) if players is not None else self.default

    def parse(self, value: Any) -> Any:
        """The allowed value ``value`` names (also from its text form); ``InvalidOption`` otherwise."""
        for allowed in self.values:
            if value == allowed or (isinstance(value, str) and value.strip().lower() == str(allowed).lower()):
                return allowed
        shown = value if isinstance(value, str | int | float | bool | None) else type(value).__name__
        raise InvalidOption(
            f"{self.name} must be one of {', '.join(map(str, self.values))}, not {shown!r}",
            option=self.name, value=str(shown)[:40], allowed=tuple(map(str, self.values)))


class Match(ABC):
    """One game in progress. Seats are 0..n-1; ``players`` are their names."""

    players: tuple[str, ...]

    @property
    @abstractmethod
    def definition(self) -> GameDefinition: ...

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    @abstractmethod
    def seed(self) -> int | None:
        """The seed the deal came from (None for an explicit deal)."""

    @property
    @abstractmethod
    def move_count(self) -> int:
        """Choices applied so far (every step of a longer decision counts)."""

    @abstractmethod
    def moves_by(self, seat: int) -> int:
        """How many choices ``seat`` has applied so far (every step counts). Buttons are bound
        to a seat and this counter, so one seat's steps never make another seat's buttons stale."""

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (one, or several in a simultaneous phase), in turn
        order; () once over. Each has legal choices; every other seat has none."""

    @abstractmethod
    def legal_choices(self, seat: int) -> Sequence[Choice]:
        """What ``seat`` may choose now, in a stable order ([] when it is not to act)."""

    @abstractmethod
    def parse_choice(self, text: str) -> Choice:
        """The choice written ``text`` (``str(choice)`` parses back); ``MalformedInput`` otherwise."""

    @abstractmethod
    def check(self, choice: Choice, *, by: int) -> Choice:
        """The choice in normal form if ``by`` may make it now; raises the ``GameError`` that says why not."""

    def is_legal(self, choice: Choice, *, by: int) -> bool:
        try:
            self.check(choice, by=by)
        except GameError:
            return False
        return True

    @abstractmethod
    def apply(self, choice: Choice, *, by: int) -> Sequence[Event]:
        """Check and make the choice; returns the events it caused. A refusal changes nothing."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> tuple[int, ...]:
        """Each seat's score (final once terminal)."""

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """The seats that share the victory; () before the end."""

    @abstractmethod
    def view(self, seat: int | None = None) -> Any:
        """What ``seat`` may see (None: the public view). Frozen; never holds another seat's secret."""

    @property
    @abstractmethod
    def log(self) -> Sequence[Event]: ...

    def log_for(self, seat: int | None) -> Sequence[Event]:
        return [e for e in self.log if e.visible_to(seat)]

    @abstractmethod
    def to_record(self) -> dict[str, Any]:
        """The game's JSON record (its ``format`` names the game); holds every secret."""

    @abstractmethod
    def stored_setup(self) -> dict[str, Any]:
        """The setup to store (JSON-ready, without moves); ``GameDefinition.resume`` reads it back."""

    @abstractmethod
    def copy(self) -> Match: ...

    @property
    @abstractmethod
    def rhythm(self) -> Rhythm:
        """How this match is paced at the table (cycles, rounds, public scores, decisions under
        way), apart from the rules, which are the rest of this class."""


class Rhythm(ABC):
    """How a match is paced at the table, apart from its rules (``Match.rhythm``): the stretches
    of play after which the bot posts a picture of the board (cycles), the rounds players count,
    the scores the table may know, and the decisions of several steps the AI finishes for an
    absent seat. A game returns its own subclass over its match (it declares ``cycle``); the
    other defaults fit a game whose engine logs an event with an ``ended_cycle`` at
    the end of each cycle and whose scores are public.
    """

    __slots__ = ("match",)

    # Whether a record keeps a decision still under way (Paris Connection's unfinished build) or
    # whole decisions only (Papà Paolo's shared record format): then a record taken mid-decision
    # replays to the position before that decision.
    records_keep_drafts: ClassVar[bool] = True

    def __init__(self, match: Match) -> None:
        self.match = match

    @property
    @abstractmethod
    def cycle(self) -> int:
        """The stretch of play under way, from 1: a turn cycle (a round), or a shorter stretch
        (a phase) where the table should see the board more often. The bot posts a picture
        of the board each time it changes."""

    def cycle_start(self, cycle: int) -> int:
        """The index in the match's ``log`` where cycle ``cycle`` begins (its events run to the
        next one's start).

        By default a cycle begins after the event whose ``ended_cycle`` is the one before (0 for
        the first); games that mark cycles otherwise override this.
        """
        if cycle <= 1:
            return 0
        log = self.match.log
        for index in range(len(log) - 1, -1, -1):
            event = log[index]
            if event.ended_cycle == cycle - 1:
                return index + 1
        return len(log)

    def round_number(self) -> int:
        """The round under way as the players count it (what a game's summary reports). By
        default the cycle; a game whose cycles are shorter (a picture after each phase of a
        round) says its round here."""
        return self.cycle

    def rounds(self) -> int | None:
        """How many rounds the game lasts, where that is known up front (None: it ends by
        another condition, or the number is not fixed)."""
        return None

    def score_history(self) -> tuple[tuple[int, ...], ...] | None:
        """The scores after each cycle as everyone may know them (None: the game keeps no such
        history, or it is secret until the end)."""
        return None

    def public_returns(self) -> tuple[int, ...] | None:
        """Each seat's score as everyone may know it now: the match's ``returns()`` unless the
        running scores would give a secret away (Paris Connection's screens), then None until
        the end."""
        return self.match.returns()

    def in_decision(self, seat: int) -> bool:
        """Whether ``seat`` is in the middle of a decision of several steps (a build under way):
        whoever acts for it (the AI at a deadline) goes on until the decision is complete."""
        return False


class EngineState(Protocol):
    """What every game's own engine object offers ``EngineMatch``: its players, seed, moves and
    end, its log, and an independent copy."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def moves(self) -> Sized: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def log(self) -> Sequence[Event]: ...
    def log_for(self, seat: int | None, /) -> Sequence[Event]: ...
    def copy(self) -> Self: ...


class SequentialState(EngineState, Protocol):
    """An engine object where one seat acts at a time (``current_player``, None once over)."""

    @property
    def current_player(self) -> int | None: ...
    def legal_actions(self) -> Sequence[Choice]: ...
    def check(self, choice: Any, /, *, by: int) -> Choice: ...
    def apply(self, choice: Any, /, *, by: int) -> Sequence[Event]: ...
    def view(self, seat: int | None = None, /) -> Any: ...


StateT = TypeVar("StateT", bound=EngineState)
SequentialT = TypeVar("SequentialT", bound=SequentialState)


class EngineMatch(Match, Generic[StateT]):
    """A ``Match`` over a game's own engine object (``state``): the one adapter every game's
    match derives from. Each method is declared here, with no proxy, so a match copies and
    pickles as plain data.

    The engine object keeps ``players``, ``seed``, ``moves``, ``finished``, ``winners`` and
    ``log``, and offers ``log_for(seat)`` and ``copy()`` (``EngineState``). How seats act is the
    part a game adds: ``SequentialMatch`` for an engine where one seat acts at a time; an
    engine with simultaneous phases implements ``to_act``, ``legal_choices``, ``check``, ``apply``
    and ``view`` and, where it counts each seat's choices itself, ``moves_by`` (Papà Paolo). A
    game adds its own parsing, scores, pacing and records.
    """

    __slots__ = ("state", "players", "_by")

    def __init__(self, state: StateT, by: Sequence[int] | None = None) -> None:
        self.state = state
        self.players = state.players
        # Choices per seat applied through this adapter (or given when it is made around an
        # engine object that already has moves: ``copy``).
        self._by = list(by) if by is not None else [0] * len(state.players)

    def copy(self) -> Self:
        return type(self)(self.state.copy(), self._by)

    @property
    def seed(self) -> int | None:
        return self.state.seed

    @property
    def move_count(self) -> int:
        return len(self.state.moves)

    def moves_by(self, seat: int) -> int:
        return self._by[seat]

    def is_terminal(self) -> bool:
        return self.state.finished

    @property
    def winners(self) -> tuple[int, ...]:
        return self.state.winners

    @property
    def log(self) -> Sequence[Event]:
        return self.state.log

    def log_for(self, seat: int | None) -> Sequence[Event]:
        return self.state.log_for(seat)


class SequentialMatch(EngineMatch[SequentialT]):
    """An ``EngineMatch`` over an engine where one seat acts at a time: the plain delegation,
    with the adapter counting each seat's choices (``moves_by``)."""

    __slots__ = ()

    def to_act(self) -> tuple[int, ...]:
        seat = self.state.current_player
        return () if seat is None else (seat,)

    def legal_choices(self, seat: int) -> Sequence[Choice]:
        return self.state.legal_actions() if seat == self.state.current_player else []

    def check(self, choice: Choice, *, by: int) -> Choice:
        return self.state.check(choice, by=by)

    def apply(self, choice: Choice, *, by: int) -> Sequence[Event]:
        events = self.state.apply(choice, by=by)
        self._by[by] += 1
        return events

    def view(self, seat: int | None = None) -> Any:
        return self.state.view(seat)


class GameDefinition(ABC):
    """A game: its identity, the options it declares, and how to set up and restore a match."""

    id: str                        # "paris-paris": stored with every game, used in commands
    name: str                      # "Paris Paris"
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    record_format: str             # "paris-paris-record/1"
    ai_levels: tuple[str, ...] = ("normal",)
    # What the platform derives its behaviour from (see ``Dynamics`` and ``Information``): the
    # "waiting for ..." line only where phases are simultaneous, a "my secret" button only
    # where seats hold secrets. Plain strings compare equal to these.
    dynamics: Dynamics | str = Dynamics.SEQUENTIAL
    information: Information | str = Information.PERFECT
    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise InvalidOption(f"{self.name} has no option {name!r}", option=str(name)[:40], value="")

    def resolve_options(self, given: Mapping[str, Any] | None, players: int | None = None) -> dict[str, Any]:
        """Every declared option, from ``given`` where set (validated) and the defaults elsewhere."""
        given = dict(given or {})
        out = {}
        for spec in self.options:
            out[spec.name] = spec.parse(given.pop(spec.name)) if spec.name in given else spec.default_for(players)
        if given:
            name = next(iter(given))
            raise InvalidOption(f"{self.name} has no option {name!r}", option=str(name)[:40], value="")
        return out

    @abstractmethod
    def new_match(self, players: Sequence[str], *, seed: int, options: Mapping[str, Any] | None = None) -> Match:
        """Deal a new match from ``seed``; ``InvalidSetup``/``InvalidOption`` for bad input."""

    @abstractmethod
    def from_record(self, record: Any) -> Match:
        """Validate and replay a record; ``InvalidRecord`` names the move (from 1) and the rule."""

    @abstractmethod
    def resume(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> Match:
        """The match after ``moves`` from a ``stored_setup``: (seat, choice text) pairs in the
        order applied, as storage keeps them (``seated_moves`` also reads bare texts, whose seat
        is then the one to act). A stored seat that may not make its choice is ``InvalidRecord``."""

    @abstractmethod
    def record_of(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> dict[str, Any]:
        """The full record of a stored game (same as ``resume(...).to_record()``, maybe cheaper);
        it names the player of every move."""

    @abstractmethod
    def result(self, match: Match) -> dict[str, Any]:
        """What ``python -m engine replay`` prints for a match (JSON-ready)."""

    @abstractmethod
    def choose(self, match: Match, seat: int, *, seed: int, level: str = "normal",
               budget: float | int | None = None) -> Choice:
        """The AI's choice for ``seat`` at ``level`` (one of ``ai_levels``), from what that seat
        may see. ``budget`` is for levels that search: None (the level's default), seconds (a
        float) or iterations (an int). Deterministic for a seed unless the budget is in seconds."""
