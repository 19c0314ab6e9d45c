"""Tiny Hands: a test-only game with a simultaneous phase, a private multi-step decision and secrets.

It exists to prove the platform (engine/interface.py, the bot service, the adapters) on what a
real game such as Papà Paolo needs, in a few lines, and to show how a game plugs in
(docs/adding-a-game.md). Rules:

- 2 to 4 players. Each is dealt a secret hand of 6 different cards from 1 to 12.
- Each of 3 rounds has two phases.
  1. Plan (simultaneous): every player, in private and all at once, chooses one or two cards of
     their hand, one at a time (``play:7``), then ``done``. When the last player is done all the
     chosen cards are revealed: each player scores their chosen cards that nobody else chose
     this round (a number chosen by two players scores for neither), and the cards leave the hands.
  2. Claim (sequential): one token per player lies face up (values 1 to 5, from the seed). In
     order of this round's points (most first; ties in seat order from the round's starter),
     each player takes one token (``take:4``) and scores its value.
- The most points after round 3 wins (ties share the victory).

Secret until revealed: the hands, and the cards being chosen. Public: who is done choosing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import (
    GameError,
    GameIsOver,
    IllegalMove,
    InvalidRecord,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
)
from engine.events import Event
from engine.interface import (
    Dynamics,
    GameDefinition,
    Information,
    Label,
    Match,
    Rhythm,
    SeatedMove,
)

FORMAT = "tiny-hands-record/1"
ROUNDS, HAND, CARDS, MAX_CHOSEN, TOKENS = 3, 6, range(1, 13), 2, range(1, 6)


# ---- choices ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play:{self.card}"

    def label(self) -> Label:
        return Label("play", {"card": self.card})

    def place(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Done:
    def __str__(self) -> str:
        return "done"

    def label(self) -> Label:
        return Label("done")

    def place(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Take:
    value: int

    def __str__(self) -> str:
        return f"take:{self.value}"

    def label(self) -> Label:
        return Label("take", {"value": self.value})

    def place(self) -> None:
        return None


def parse(text: str) -> Play | Done | Take:
    word, _, number = str(text).strip().lower().partition(":")
    if word == "done" and not number:
        return Done()
    if word in ("play", "take") and number.isdigit():
        return Play(int(number)) if word == "play" else Take(int(number))
    raise MalformedInput(f"{text!r} is not a choice (play:N, done, take:N)", value=str(text)[:40])


# ---- refusals, one class per rule ---------------------------------------------------------------
class NotHeld(IllegalMove):
    code = "tiny.not_held"


class HandFull(IllegalMove):
    code = "tiny.hand_full"


class NothingChosen(IllegalMove):
    code = "tiny.nothing_chosen"


class WrongPhase(IllegalMove):
    code = "tiny.wrong_phase"


# ---- events -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    players: tuple[str, ...]
    first_player: int


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    kind: ClassVar[str] = "hand_dealt"
    seat: int
    hand: tuple[int, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class CardChosen(Event):
    kind: ClassVar[str] = "card_chosen"
    seat: int
    card: int

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class SeatReady(Event):
    kind: ClassVar[str] = "seat_ready"
    seat: int


@dataclass(frozen=True, slots=True)
class HandsRevealed(Event):
    kind: ClassVar[str] = "hands_revealed"
    cycle: int
    chosen: tuple[tuple[int, ...], ...]
    gains: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TokenTaken(Event):
    kind: ClassVar[str] = "token_taken"
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class CycleEnded(Event):
    kind: ClassVar[str] = "cycle_ended"
    cycle: int
    scores: tuple[int, ...]

    @property
    def ended_cycle(self) -> int:
        return self.cycle


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    scores: tuple[int, ...]
    winners: tuple[int, ...]


# ---- views --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TinyView:
    viewer: int | None
    players: tuple[str, ...]
    cycle: int
    phase: str                          # "plan" | "claim" | "over"
    to_act: tuple[int, ...]
    ready: tuple[int, ...]              # seats done choosing this round (public)
    hand: tuple[int, ...] | None        # the viewer's cards not chosen yet; None in the public view
    chosen: tuple[int, ...] | None      # the viewer's cards chosen this round; None in the public view
    hand_sizes: tuple[int, ...]
    offer: tuple[int, ...]
    scores: tuple[int, ...]
    revealed: tuple[tuple[int, ...], ...] | None   # the last round's chosen cards, once revealed
    winners: tuple[int, ...]

    @property
    def num_players(self) -> int:
        return len(self.players)


# ---- the match ----------------------------------------------------------------------------------
class TinyMatch(Match):
    def __init__(self, setup: Mapping[str, Any]) -> None:
        self.players = tuple(setup["players"])
        self.setup = {k: setup[k] for k in ("format", "players", "hands", "tokens", "first_player", "seed")}
        n = len(self.players)
        self.hands = [sorted(h) for h in setup["hands"]]
        self.chosen: list[list[int]] = [[] for _ in range(n)]
        self.ready: set[int] = set()
        self.round, self.phase, self.claimers = 1, "plan", []
        self.offer = list(setup["tokens"][0])
        self.scores, self.counts, self.moves = [0] * n, [0] * n, []
        self.revealed: tuple[tuple[int, ...], ...] | None = None
        self._winners: tuple[int, ...] = ()
        self._log: list[Event] = [GameStarted(self.players, setup["first_player"])]
        self._log += [HandDealt(seat, tuple(h)) for seat, h in enumerate(self.hands)]

    definition = property(lambda self: GAME)
    seed = property(lambda self: self.setup["seed"])
    move_count = property(lambda self: len(self.moves))
    winners = property(lambda self: self._winners)
    log = property(lambda self: self._log)

    def moves_by(self, seat: int) -> int:
        return self.counts[seat]

    def _order(self) -> list[int]:
        n = len(self.players)
        return [(self.setup["first_player"] + self.round - 1 + i) % n for i in range(n)]

    def to_act(self) -> tuple[int, ...]:
        if self.phase == "plan":
            return tuple(s for s in self._order() if s not in self.ready)
        return tuple(self.claimers[:1])

    def legal_choices(self, seat: int) -> list[Any]:
        if seat not in self.to_act():
            return []
        if self.phase == "claim":
            return [Take(v) for v in sorted(set(self.offer))]
        mine = self.chosen[seat]
        plays = [Play(c) for c in self.hands[seat] if c not in mine] if len(mine) < MAX_CHOSEN else []
        return plays + ([Done()] if mine else [])

    def parse_choice(self, text: str) -> Any:
        return parse(text)

    def check(self, choice: Any, *, by: int) -> Any:
        if self.phase == "over":
            raise GameIsOver("the game is over")
        if by not in self.to_act():
            raise NotYourTurn(f"seat {by} is not to act now", seat=by)
        if isinstance(choice, Take) != (self.phase == "claim") or not isinstance(choice, Play | Done | Take):
            raise WrongPhase(f"{choice} is not a choice in the {self.phase} phase", phase=self.phase)
        mine = self.chosen[by]
        if isinstance(choice, Play) and len(mine) >= MAX_CHOSEN:
            raise HandFull(f"at most {MAX_CHOSEN} cards a round", limit=MAX_CHOSEN)
        if isinstance(choice, Play) and (choice.card not in self.hands[by] or choice.card in mine):
            raise NotHeld(f"card {choice.card} is not in your hand", card=choice.card)
        if isinstance(choice, Done) and not mine:
            raise NothingChosen("choose a card first")
        if isinstance(choice, Take) and choice.value not in self.offer:
            raise NotHeld(f"no token {choice.value} on offer", card=choice.value)
        return choice

    def apply(self, choice: Any, *, by: int) -> list[Event]:
        self.check(choice, by=by)
        self.moves.append((by, str(choice)))
        self.counts[by] += 1
        if isinstance(choice, Play):
            self.chosen[by].append(choice.card)
            events: list[Event] = [CardChosen(by, choice.card)]
        elif isinstance(choice, Done):
            self.ready.add(by)
            events = [SeatReady(by)] + (self._reveal() if len(self.ready) == len(self.players) else [])
        else:
            self.offer.remove(choice.value)
            self.scores[by] += choice.value
            self.claimers.pop(0)
            events = [TokenTaken(by, choice.value)] + ([] if self.claimers else self._end_round())
        self._log += events
        return events

    def _reveal(self) -> list[Event]:
        chosen = tuple(tuple(sorted(c)) for c in self.chosen)
        gains = tuple(sum(c for c in mine if all(c not in other for other in chosen if other is not mine))
                      for mine in chosen)
        for seat, mine in enumerate(chosen):
            self.hands[seat] = [c for c in self.hands[seat] if c not in mine]
            self.scores[seat] += gains[seat]
        self.revealed, self.phase = chosen, "claim"
        order = self._order()
        self.claimers = sorted(order, key=lambda s: (-gains[s], order.index(s)))
        return [HandsRevealed(self.round, chosen, gains)]

    def _end_round(self) -> list[Event]:
        events: list[Event] = [CycleEnded(self.round, tuple(self.scores))]
        if self.round == ROUNDS:
            best = max(self.scores)
            self._winners = tuple(s for s, p in enumerate(self.scores) if p == best)
            self.phase = "over"
            return events + [GameEnded(tuple(self.scores), self._winners)]
        self.round, self.phase = self.round + 1, "plan"
        self.chosen, self.ready = [[] for _ in self.players], set()
        self.offer = list(self.setup["tokens"][self.round - 1])
        return events

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> tuple[int, ...]:
        return tuple(self.scores)

    def view(self, seat: int | None = None) -> TinyView:
        if seat is not None and not (type(seat) is int and 0 <= seat < len(self.players)):
            raise ValueError(f"no seat {seat!r} in this game")
        mine = None if seat is None else tuple(self.chosen[seat])
        return TinyView(
            viewer=seat, players=self.players, cycle=self.round, phase=self.phase, to_act=self.to_act(),
            ready=tuple(sorted(self.ready)), chosen=mine,
            hand=None if seat is None else tuple(c for c in self.hands[seat] if c not in mine),
            hand_sizes=tuple(map(len, self.hands)), offer=tuple(sorted(self.offer)), scores=tuple(self.scores),
            revealed=self.revealed, winners=self._winners)

    def to_record(self) -> dict[str, Any]:
        return {**self.setup, "moves": [{"player": self.players[s], "move": m} for s, m in self.moves]}

    def stored_setup(self) -> dict[str, Any]:
        return dict(self.setup)

    def copy(self) -> TinyMatch:
        return GAME.resume(self.setup, self.moves)

    @property
    def rhythm(self) -> TinyRhythm:
        return TinyRhythm(self)


class TinyRhythm(Rhythm):
    """A picture after each round; a plan of several cards is a decision of several steps."""

    __slots__ = ()
    match: TinyMatch

    @property
    def cycle(self) -> int:
        return self.match.round

    def in_decision(self, seat: int) -> bool:
        m = self.match
        return m.phase == "plan" and seat not in m.ready and bool(m.chosen[seat])


# ---- the game -----------------------------------------------------------------------------------
class TinyDefinition(GameDefinition):
    id = "tiny-hands"
    name = "Tiny Hands"
    min_players, max_players = 2, 4
    record_format = FORMAT
    ai_levels = ("easy", "normal")
    dynamics = Dynamics.SIMULTANEOUS    # the plan phase: every seat at once
    information = Information.IMPERFECT  # the hands

    def new_match(self, players: Sequence[str], *, seed: int, options: Mapping[str, Any] | None = None) -> TinyMatch:
        if not self.min_players <= len(players) <= self.max_players:
            raise InvalidSetup(f"{self.name} is for 2 to 4 players, not {len(players)}")
        if type(seed) is not int or not 0 <= seed < 1 << 63:
            raise InvalidSetup(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
        self.resolve_options(options, len(players))
        rng = random.Random(seed)
        hands = [sorted(rng.sample(CARDS, HAND)) for _ in players]
        tokens = [[rng.choice(TOKENS) for _ in players] for _ in range(ROUNDS)]
        return TinyMatch({"format": FORMAT, "players": list(players), "hands": hands, "tokens": tokens,
                          "first_player": rng.randrange(len(players)), "seed": seed})

    def resume(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> TinyMatch:
        match = TinyMatch(_valid_setup(setup))
        for index, (seat, text) in enumerate(moves):
            try:
                match.apply(parse(text), by=seat)
            except GameError as exc:
                raise InvalidRecord(str(exc), move_index=index, rule=exc.code) from None
        return match

    def from_record(self, record: Any) -> TinyMatch:
        setup = _valid_setup(record)
        moves = record.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, dict) and m.get("player") in setup["players"]
                                                  and isinstance(m.get("move"), str) for m in moves):
            raise InvalidRecord("moves must be a list of {player, move}", rule="moves")
        return self.resume(setup, [(setup["players"].index(m["player"]), m["move"]) for m in moves])

    def record_of(self, setup: Mapping[str, Any], moves: Sequence[SeatedMove]) -> dict[str, Any]:
        return self.resume(setup, moves).to_record()

    def result(self, match: Match) -> dict[str, Any]:
        return {"finished": match.is_terminal(), "scores": list(match.returns()), "winners": list(match.winners)}

    def choose(self, match: Match, seat: int, *, seed: int, level: str = "normal",
               budget: float | int | None = None) -> Any:
        """From ``seat``'s view: "normal" plays its highest cards and takes the best token; "easy" at random."""
        view, rng = match.view(seat), random.Random(seed)
        if view.phase == "claim":
            return Take(max(view.offer) if level == "normal" else rng.choice(view.offer))
        if view.chosen and (len(view.chosen) == MAX_CHOSEN or rng.random() < 0.5):
            return Done()
        return Play(max(view.hand) if level == "normal" else rng.choice(view.hand))


def _valid_setup(setup: Any) -> dict[str, Any]:
    """``setup`` if it deals a game; ``InvalidRecord`` (rule "setup") naming what is wrong otherwise."""
    try:
        if not isinstance(setup, Mapping) or setup.get("format") != FORMAT:
            raise MalformedInput(f"the format must be {FORMAT!r}")
        players, hands, tokens = setup["players"], setup["hands"], setup["tokens"]
        n = len(players)
        if not 2 <= n <= 4 or not all(isinstance(p, str) for p in players) or len(set(players)) != n:
            raise MalformedInput("players must be 2 to 4 different names")
        if len(hands) != n or any(len(set(h)) != HAND or not set(h) <= set(CARDS) for h in hands):
            raise MalformedInput(f"each player's hand must be {HAND} different cards from 1 to 12")
        if len(tokens) != ROUNDS or any(len(r) != n or not set(r) <= set(TOKENS) for r in tokens):
            raise MalformedInput(f"tokens must give each of {ROUNDS} rounds one token (1 to 5) per player")
        if setup["first_player"] not in range(n):
            raise MalformedInput("first_player must be a seat")
    except (KeyError, TypeError, GameError) as exc:
        raise InvalidRecord(f"bad setup: {exc}", rule="setup") from None
    return {**setup, "seed": setup.get("seed")}


GAME = TinyDefinition()
