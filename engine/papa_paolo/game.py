"""The Papà Paolo game state and its round (PAPA_PAOLO.md §4-§6): set-up, the phases, scoring.

``Game`` is mutable: whole moves (moves.py; record.py reads a record's JSON objects into them)
change it in place through ``play`` and return the events they caused. A round runs through
each ``Phase`` in turn; each has its record (phases.py): its whole moves and what the rules then do alone:
the automatic phases (subsidies, experience, preparation) and the decisions the rules make alone
(a pass when not outbid, leaving the staircase when nothing is affordable, an investment with no
use) run inside ``_advance`` until a player must decide. Play in small steps (buttons) lives in
stepper.py and ends in the same whole moves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar

from engine.names import check_players
from engine.shared import shared, shared_new

from . import components as C
from .actions import (
    NO_BONUS,
    Bonus,
    Player,
    bonus_of,
    build_choices,
    buy_counts,
    can_express,
    check_action,
    do_action,
)
from .errors import (
    GameIsOver,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
)
from .events import (
    BidPlaced,
    CoinAwarded,
    CycleEnded,
    DeliveriesMade,
    DeliveryTileTaken,
    Event,
    ExpressDelivered,
    GameEnded,
    GameStarted,
    InvestmentResolved,
    InvestmentTaken,
    LateDeclined,
    LeftStaircase,
    MarkerPlaced,
    NoAction,
    OrderChanged,
    PhaseEnded,
    PizzasBought,
    PizzeriaBuilt,
    PlanSubmitted,
    RoundStarted,
    Sponsored,
    StairsPaid,
    TrackAdvanced,
)
from .hood import City, Hood, Pos, Shop
from .moves import Move
from .phases import RULES, Acting, Phase
from .trips import Trip, trip_json

OPTIONS = ("hidden_money", "first_player_coin", "reverse_bid_order", "money_bonus", "two_player_preview",
           "express_ignores_roads")


H = TypeVar("H", bound=Hashable)                  # a value the shared table can keep (``Game.share``)
BID_CAP_FACTOR = 10
# The events that recur from game to game (a few seats, spaces, tiles and amounts): made once,
# found by their fields after (``Game.event``). The others (a tile placed on a square, a round's
# grid, a delivery) rarely recur, and are shared as made.
RECURRING = frozenset({MarkerPlaced, CoinAwarded, BidPlaced, InvestmentTaken, InvestmentResolved, StairsPaid,
                       DeliveryTileTaken, PlanSubmitted, PhaseEnded, NoAction, Sponsored, TrackAdvanced,
                       LeftStaircase, LateDeclined, CycleEnded, OrderChanged})
# ``json.dumps(..., separators=(",", ":"))`` without building an encoder for every move.
COMPACT_JSON = json.JSONEncoder(separators=(",", ":"))
# Its C encoder, made once: ``JSONEncoder.encode`` makes a new one at every call, which was
# half the time of encoding a move (and a replay encodes every move it plays). The same text:
# it is the encoder ``encode`` makes, without the check for circular values (a move is JSON's).
# (``c_make_encoder`` is CPython's, absent from the type stubs.)
_C_ENCODE = json.encoder.c_make_encoder and json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, COMPACT_JSON.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)


def compact_json(value: Any) -> str:
    """``COMPACT_JSON.encode(value)``."""
    return "".join(_C_ENCODE(value, 0)) if _C_ENCODE else COMPACT_JSON.encode(value)


def write_moves(moves: list[Mapping[str, Any]]) -> list[str]:
    """Each move's ``compact_json``, encoded in one call: compact JSON holds no newline, and when
    every move's first key is "player" (as a replay writes them) each move's text starts
    with it, so the texts are the pieces between the moves. A move not starting with "player", or
    a piece too many (a "player" inside a move), falls back to one call a move."""
    # Each move's first key, read at C speed (an empty move has none and ends the list short).
    firsts = list(map(next, map(iter, moves)))
    if firsts.count("player") != len(moves):
        return [compact_json(move) for move in moves]
    text = compact_json(moves)[1:-1]
    texts = text.replace('},{"player":', '}\n{"player":').split("\n")
    if len(texts) == len(moves):
        return texts
    return [compact_json(move) for move in moves]


# What ``Game.event`` gives in a quiet replay, which keeps no event: one value, never made again.
QUIET = CycleEnded(0)


# ``C.stair_cost(row, col)`` read from a table: the bidding asks it for every space, every turn.
STAIR_COST = tuple(tuple(C.stair_cost(row, col) if col else 0 for col in range(len(C.STAIRS["column_surcharge"]) + 1))
                   for row in range(C.STAIR_ROWS))


@cache
def coin_lines(rows: int, cols: int) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
    """Each coin's line on a grid of ``rows`` by ``cols`` (the rows, then the columns) with the
    indices of its spaces, nearest the coin first (``_subsidies`` reads them every round)."""
    return (*(("row", r, tuple(r * cols + c for c in range(cols))) for r in range(rows)),
            *(("col", c, tuple(r * cols + c for r in range(rows))) for c in range(cols)))


def check_options(options: Mapping[str, Any] | None, n: int) -> dict[str, bool]:
    given = dict(options or {})
    unknown = set(given) - set(OPTIONS)
    if unknown:
        raise InvalidSetup(f"no option {sorted(unknown)[0]!r}")
    out = {k: bool(given.get(k, False)) for k in OPTIONS}
    if any(not isinstance(given.get(k, False), bool) for k in OPTIONS):
        raise InvalidSetup("options are true or false")
    if out["first_player_coin"] and out["reverse_bid_order"]:
        raise InvalidSetup("first_player_coin and reverse_bid_order cannot be combined")
    if out["two_player_preview"] and n != 2:
        raise InvalidSetup("two_player_preview is for 2 players only")
    return out


def deal(n: int, seed: int, options: Mapping[str, bool]) -> dict[str, Any]:
    """A shuffled set-up (the record's ``setup`` with seats for names) from ``seed``."""
    rng = random.Random(seed)
    starts = sorted(C.STARTING_TILES)
    rng.shuffle(starts)
    stack = list(C.CITY_IDS)
    rng.shuffle(stack)
    coins = []
    for _ in range(C.ROUNDS):
        round_coins = list(C.BOARDS[n].coins)
        rng.shuffle(round_coins)
        coins.append(round_coins)
    stacks = {}
    for colour in C.COLOURS:
        tiles = list(C.INVESTMENT_BY_COLOUR[colour])
        rng.shuffle(tiles)
        stacks[colour] = tiles
    setup = {"starting_tiles": starts[:n], "city_stack": stack, "coins": coins, "investment_stacks": stacks}
    if options.get("first_player_coin"):
        setup["face_down_coin"] = [rng.randrange(len(c)) for c in coins]
    return setup


class Game:
    """One game of Papà Paolo. Seats are 0..n-1, clockwise."""

    __slots__ = (
        "players", "n", "seed", "options", "board", "starting", "city_stack", "coin_setup", "face_down",
        "inv_stacks", "round", "phase", "order", "turn", "grid", "markers", "left", "coins", "dealt",
        "discarded", "inv_open", "inv_used", "stairs_tiles", "pos", "placed", "out", "bid_turns", "queue",
        "inv_held", "dlv_held", "plans", "pending", "people", "supply", "track_steps", "moves", "by_seat",
        "_texts", "_unwritten", "_log", "_quiet", "_replayed", "finished", "winners", "final", "drafts",
        "coin_paid", "acted", "lire_history", "shares", "phases_ended", "stretches",
    )
    # The slots, declared: ``from_setup``, ``copy`` and the AI's determinizations build a game
    # through ``__new__`` (no ``__init__``) and fill every one of them.
    players: tuple[str, ...]
    n: int
    seed: int | None
    options: dict[str, bool]
    board: C.Board
    starting: tuple[str, ...]                       # each seat's starting tile
    city_stack: tuple[str | None, ...]              # the city tiles, in the order they are dealt
    coin_setup: tuple[tuple[int, ...], ...]         # per round, the coins on the lines
    face_down: tuple[int, ...] | None               # per round, the face-down coin's line
    inv_stacks: dict[str, tuple[str, ...]]          # colour -> its investment tiles, per round
    round: int
    phase: Phase
    order: list[int]                                # the seats in turn order
    turn: int                                       # the index in ``order`` of the seat to act
    grid: list[str | None]                          # the city tiles on the grid, by square index
    markers: dict[int, int]                         # square index -> the seat whose marker is there
    left: list[int]                                 # markers each seat has left
    coins: list[int]
    dealt: int                                      # city tiles dealt so far
    discarded: list[str]
    inv_open: list[str]
    inv_used: list[str]
    stairs_tiles: list[str]                         # the delivery tiles beside the staircase
    pos: dict[int, tuple[int, int]]                 # seat -> its place on the staircase
    placed: set[int]
    out: set[int]                                   # seats off the staircase
    bid_turns: int
    queue: list[int]                                # the seats still to act in a queued phase
    inv_held: list[str | None]
    dlv_held: list[str | None]
    plans: dict[int, list[Trip]]
    pending: list[int]                              # the seats still to plan their deliveries
    people: list[Player]
    supply: list[str]
    track_steps: list[int]
    moves: list[tuple[int, str]]                    # every step, with its seat
    by_seat: list[int]                              # steps per seat
    _texts: list[str]                               # whole moves, as their records' JSON (``record_moves``)
    _unwritten: list[Mapping[str, Any] | tuple[int, Move]]   # moves after those, their texts not yet written
    _log: list[Event]                               # the events (``log``), but a quiet replay's
    _quiet: bool                                    # a quiet replay under way: no events, no texts
    _replayed: tuple[tuple[int, Move | str], ...]   # a quiet replay's moves, its events not yet built
    finished: bool
    winners: tuple[int, ...]
    final: tuple[int, ...] | None
    # Decisions under way, by seat: an ActionDraft in the place and invest phases, a PlanDraft in
    # the delivery phase (drafts.py); which one, the phase says (stepper.py reads them by phase).
    drafts: dict[int, Any]
    coin_paid: list[int]
    acted: int                                      # whole moves played since the last PhaseEnded
    lire_history: tuple[tuple[int, ...], ...]
    shares: bool
    phases_ended: int
    stretches: tuple[tuple[int, str], ...]          # (round, phase) of each PhaseEnded, in order

    # --- Set-up ------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], *, seed: int, options: Mapping[str, Any] | None = None) -> Game:
        n = check_players(players, "Papà Paolo", C.MIN_PLAYERS, C.MAX_PLAYERS)
        opts = check_options(options, n)
        return cls.from_setup(players, deal(n, seed, opts), opts, seed=seed)

    @classmethod
    def from_setup(cls, players: Sequence[str], setup: Mapping[str, Any], options: Mapping[str, bool], *,
                   seed: int | None = None) -> Game:
        """A game from an explicit set-up (seats' starting tiles as a list); ``InvalidSetup`` if wrong."""
        n = check_players(players, "Papà Paolo", C.MIN_PLAYERS, C.MAX_PLAYERS)
        opts = check_options(options, n)
        _check_setup(setup, n, opts)
        g = cls.__new__(cls)
        g.players, g.n, g.seed, g.options = tuple(players), n, seed, opts
        g.board = C.BOARDS[n]
        g.starting = tuple(setup["starting_tiles"])
        g.city_stack = tuple(setup["city_stack"])
        g.coin_setup = tuple(tuple(c) for c in setup["coins"])
        g.face_down = tuple(setup["face_down_coin"]) if opts["first_player_coin"] else None
        g.inv_stacks = {c: tuple(setup["investment_stacks"][c]) for c in C.COLOURS}
        g.people = []
        for start_id in g.starting:
            st = C.STARTING_TILES[start_id]
            hood = Hood()
            hood.shops[(0, 0)] = Shop(st.pizzeria, st.capacity, st.pizzas)
            hood.cities[(1, 0)] = City(st.id, st.colour, st.roads, st.houses)
            g.people.append(Player(hood, C.START_LIRE, dict.fromkeys(C.COLOURS, 0)))
        first = min(range(n), key=lambda s: C.STARTING_TILES[g.starting[s]].number)
        g.order = [(first + i) % n for i in range(n)]
        g.supply = list(g.board.pizzerias)
        g.track_steps = [0] * n
        g.dealt, g.discarded, g.inv_used = 0, [], []
        g.inv_held, g.dlv_held = [None] * n, [None] * n
        g.moves, g.by_seat, g._texts, g._unwritten = [], [0] * n, [], []
        g.finished, g.winners, g.final = False, (), None
        g.drafts, g.plans, g.pending = {}, {}, []
        g.coin_paid = []
        g.acted = 0             # whole moves played since the last PhaseEnded
        g.phases_ended = 0      # PhaseEnded events in the log: the table's stretches of play closed
        g.stretches = ()
        g.lire_history = (tuple(p.lire for p in g.people),)      # at the start and after each round
        g._log = [GameStarted(g.players, tuple(g.order), g.starting)]
        g._quiet, g._replayed = False, ()
        g.shares = False        # the set-up's own events are its own
        g.round = 0
        g._start_round(g._log)
        g._advance(g._log)
        # A game the players play keeps shared copies of its history's values (engine/shared.py);
        # a copy for look-ahead does not, so the AI's guesses never fill the shared table.
        g.shares = True
        return g

    def copy(self) -> Game:
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.shares = False
        other.people = [p.copy() for p in self.people]
        for name in ("order", "grid", "left", "coins", "discarded", "inv_open", "inv_used", "stairs_tiles",
                     "queue", "inv_held", "dlv_held", "pending", "supply", "track_steps", "moves", "by_seat",
                     "_texts", "_unwritten", "_log", "coin_paid"):
            setattr(other, name, list(getattr(self, name)))
        other.markers, other.pos = dict(self.markers), dict(self.pos)
        other.placed, other.out = set(self.placed), set(self.out)
        other.plans = dict(self.plans)
        other.drafts = dict(self.drafts)      # frozen values (drafts.py)
        return other

    # --- A quiet replay: the state only; texts and events built when read -------------------------

    @contextmanager
    def quietly(self) -> Iterator[list[tuple[int, Move | str]]]:
        """A quiet replay: the moves played inside build no events and write no record texts (a
        replay, record.py's or the bot's restore, mostly wants the state). The caller lists each
        move it plays (a whole move, or a step's text) in the list given: ``log`` builds their
        events on first read, by playing them again from the same deal; ``record_moves`` writes
        their texts when read. It starts right after the set-up (``from_setup``); a refused move
        leaves a game to throw away, as before."""
        played: list[tuple[int, Move | str]] = []
        self._quiet = True
        try:
            yield played
        finally:
            self._quiet = False
            self._replayed += tuple(played)

    def write_later(self, moves: Sequence[Mapping[str, Any]]) -> None:
        """Moves as a record writes them (with their "player"), played without their texts
        (``play_unwritten``): ``record_moves`` writes them when read."""
        self._unwritten += moves

    def log_size(self) -> int:
        """The events held now (a quiet replay's not yet built are not counted): ``log_since``'s mark."""
        return len(self._log)

    def log_since(self, mark: int) -> list[Event]:
        """The events added since ``log_size`` gave ``mark`` (nothing read ``log`` in between)."""
        return self._log[mark:]

    def note(self, kind: type[Event], *fields: Any) -> None:
        """Add the event ``kind(*fields)`` to the log (none in a quiet replay)."""
        if not self._quiet:
            self._log.append(self.event(kind, *fields))

    @property
    def log(self) -> list[Event]:
        """Every event so far, in order; a quiet replay's are built here on first read."""
        if self._replayed:
            again = Game.from_setup(self.players, self._deal(), self.options, seed=self.seed)
            dealt = len(again._log)         # the set-up's events, held already; then the replay's
            self._log[:dealt] = self._replayed_events(again)
            self._replayed = ()
        return self._log

    def _replayed_events(self, again: Game) -> list[Event]:
        """The log of ``again`` (this game as dealt) once the quiet replay's moves are played on it."""
        from .stepper import apply_step  # (stepper.py plays steps on a Game: it imports this module)
        from .steps import parse

        for seat, move in self._replayed:
            if isinstance(move, str):
                apply_step(again, seat, parse(move))
            else:
                again.play_unwritten(seat, move)
        return again._log

    def _deal(self) -> dict[str, Any]:
        """The set-up this game was dealt (``from_setup``'s)."""
        setup: dict[str, Any] = {
            "starting_tiles": list(self.starting), "city_stack": list(self.city_stack),
            "coins": [list(c) for c in self.coin_setup],
            "investment_stacks": {c: list(self.inv_stacks[c]) for c in C.COLOURS}}
        if self.face_down is not None:
            setup["face_down_coin"] = list(self.face_down)
        return setup

    @property
    def record_moves(self) -> list[str]:
        """The whole moves played, each as its record's compact JSON text (written when first read)."""
        if self._unwritten:
            self._texts += write_moves([move if isinstance(move, Mapping)
                                        else {"player": self.players[move[0]], **move[1].as_record()}
                                        for move in self._unwritten])
            self._unwritten = []
        return self._texts

    # --- Who acts ----------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.finished:
            return ()
        acting = RULES[self.phase].acting
        if acting is Acting.IN_TURN:
            return (self.order[self.turn],)
        if acting is Acting.AT_ONCE:
            return tuple(s for s in self.order if s in self.pending)
        return (self.queue[0],)

    @property
    def phase_number(self) -> int:
        return self.phase.number

    def bonus_now(self, seat: int) -> Bonus:
        """The bonus an action of ``seat`` gets now (an investment tile's in phase 4)."""
        if self.inv_held[seat] is not None and self.phase == Phase.INVEST:
            tile = C.INVESTMENT_TILES[self.inv_held[seat]]
            return bonus_of(tile.action, tile.bonus)
        return NO_BONUS

    def delivery_tile(self, seat: int) -> C.DeliveryTile | None:
        held = self.dlv_held[seat]
        return None if held is None else C.DELIVERY_TILES[held]

    def planning_tile(self, seat: int) -> C.DeliveryTile:
        """The delivery tile of a seat planning its deliveries (one it holds: ``pending``)."""
        held = self.dlv_held[seat]
        if held is None:
            raise ValueError(f"seat {seat} holds no delivery tile")
        return C.DELIVERY_TILES[held]

    # --- Whole moves (the record's) ----------------------------------------------------------

    def check_turn(self, seat: int) -> None:
        """``GameIsOver`` or ``NotYourTurn`` unless ``seat`` may move now."""
        if self.finished:
            raise GameIsOver("the game is over")
        if not self._may_move(seat):
            names = ", ".join(self.players[s] for s in self.to_act())
            raise NotYourTurn(f"it is {names}'s turn, not {self.players[seat]}'s", seat=seat)

    def _may_move(self, seat: int) -> bool:
        """``seat in self.to_act()`` of a game not over, without building it: every move asks.
        (The seats still to plan are listed in turn order, so the order adds nothing there.)"""
        acting = RULES[self.phase].acting
        if acting is Acting.IN_TURN:
            return seat == self.order[self.turn]
        if acting is Acting.AT_ONCE:
            return seat in self.pending
        return seat == self.queue[0]

    def play(self, seat: int, move: Move, as_written: Mapping[str, Any] | None = None) -> list[Event]:
        """Check and apply one whole move; refusals change nothing. ``as_written``: the move as a
        record wrote it (without its "player"), kept as it was; else the move's own record form."""
        events = self._apply(seat, move)
        # The record's move (with its player) as compact JSON text, which ``to_record`` reads
        # back: a fraction of the memory of nested dicts and lists, in every game the bot keeps.
        # A quiet replay's are written when read (``record_moves``), and those after them then.
        if self._quiet or self._unwritten:
            self._unwritten.append((seat, move) if as_written is None else {"player": self.players[seat], **as_written})
        else:
            written = move.as_record() if as_written is None else as_written
            self._texts.append(compact_json({"player": self.players[seat], **written}))
        return self._played(seat, events)

    def play_unwritten(self, seat: int, move: Move) -> list[Event]:
        """``play`` without writing the move's record text: a replay (record.py) writes its moves'
        texts itself (``record_moves`` is short until then)."""
        return self._played(seat, self._apply(seat, move))

    def _apply(self, seat: int, move: Move) -> list[Event]:
        """Check ``move`` of ``seat`` and apply it (refused: nothing changed); its events."""
        self.check_turn(seat)
        rules = RULES[self.phase]
        if not isinstance(move, rules.moves):
            raise MalformedInput(f"not a move of phase {self.phase}: {type(move).__name__}")
        events: list[Event] = []
        rules.play(self, seat, move, events)
        return events

    def _played(self, seat: int, events: list[Event]) -> list[Event]:
        """After an applied move: run the rules on to the next choice; keep the events."""
        self.drafts.pop(seat, None)
        self.acted += 1
        self._advance(events)
        if not self._quiet:
            self._log += events     # shared copies already, in a game that shares (``event``)
        return events

    def event(self, kind: type[Event], *fields: Any) -> Event:
        """The event ``kind(*fields)``; in a game that shares, its shared copy (engine/shared.py):
        found by its fields alone, not made again, for the kinds that recur from game to game.
        An event holding a dict (a delivery) cannot be hashed: ``shared`` keeps it as made."""
        if self._quiet:
            return QUIET        # a quiet replay's: never kept
        if not self.shares:
            return kind(*fields)
        if kind in RECURRING:
            return shared_new(kind, *fields)
        return shared(kind(*fields))

    def share(self, value: H) -> H:
        """``value``'s shared copy in a game that shares (engine/shared.py), else ``value``."""
        return shared(value) if self.shares else value

    def _action(self, seat: int, name: str, body: Any, bonus: Bonus, events: list[Event],
                space: tuple[int, int] | None = None) -> None:
        """Check and do an action; ``space``: the grid space of a marker placed for it (its event first)."""
        person = self.people[seat]
        check_action(person, name, body, bonus, supply=self.supply,
                     ignore_roads=self.options["express_ignores_roads"])
        if space is not None:
            events.append(self.event(MarkerPlaced, seat, space))
        facts = do_action(person, name, body, bonus, self.supply)
        if name == "sponsor":
            events.append(self.event(Sponsored, seat, facts["lire"]))
        elif name == "buy":
            if not self._quiet:
                events.append(self.event(PizzasBought, seat, body[0], facts["cost"], tuple((p[0], p[1], k) for p, k in body[1]),
                                       facts["lost"]))
        elif name == "express":
            if not self._quiet:
                events.append(self.event(ExpressDelivered, seat, facts["fee"], trip_json(body)))
            self._score_completions(seat, events)
        elif name == "build":
            events.append(self.event(PizzeriaBuilt, seat, body[0], body[1], facts["cost"]))
        else:
            events.append(self.event(NoAction, seat))

    def _next_placer(self) -> None:
        for _ in range(self.n):
            self.turn = (self.turn + 1) % self.n
            if self.left[self.order[self.turn]]:
                return

    # --- Staircase -----------------------------------------------------------------------------

    def stair_spaces(self, seat: int) -> list[tuple[int, int]]:
        """The staircase spaces ``seat`` may move its marker to now, bottom row first."""
        lire = self.people[seat].lire
        out = []
        for col, low in self._stair_lows(seat):
            out += [(row, col) for row in range(low, C.STAIR_ROWS) if STAIR_COST[row][col] <= lire]
        return sorted(out)

    def stair_open(self, seat: int, row: int, col: int) -> bool:
        """Whether (row, col) is one of ``stair_spaces(seat)``, without listing them."""
        if not (1 <= col <= self.board.stair_columns and 0 <= row < C.STAIR_ROWS) \
                or STAIR_COST[row][col] > self.people[seat].lire:
            return False
        return row >= self._stair_low(seat, col)

    def _can_bid(self, seat: int) -> bool:
        """Whether ``stair_spaces(seat)`` holds any space. Costs grow upward in a column (a test
        checks), so its lowest space open to ``seat`` is its cheapest and the only one asked."""
        lire = self.people[seat].lire
        return any(low < C.STAIR_ROWS and STAIR_COST[low][col] <= lire for col, low in self._stair_lows(seat))

    def _stair_low(self, seat: int, col: int) -> int:
        """The lowest row ``seat`` may move to in staircase column ``col``: above every other
        marker in the column, and no step down from its own."""
        low = 0
        for s, (r, c) in self.pos.items():
            if c == col and s != seat and r >= low:
                low = r + 1
        here = self.pos.get(seat)
        if here is not None:
            low = max(low, here[0] + 1 if here[1] == col else here[0])
        return low

    def _stair_lows(self, seat: int) -> list[tuple[int, int]]:
        """Each staircase column with its ``_stair_low`` for ``seat``."""
        return [(col, self._stair_low(seat, col)) for col in range(1, self.board.stair_columns + 1)]

    def _stairs_why(self, seat: int, row: int, col: int) -> str:
        if not (0 <= row < C.STAIR_ROWS and 1 <= col <= self.board.stair_columns):
            return f"there is no usable staircase space ({row}, {col})"
        if C.stair_cost(row, col) > self.people[seat].lire:
            return f"space ({row}, {col}) costs {C.stair_cost(row, col)} Lire"
        return f"({row}, {col}) is not above every other marker in its column, or steps down"

    def outbid(self, seat: int) -> bool:
        here = self.pos.get(seat)
        return here is not None and any(c == here[1] and r > here[0] for s, (r, c) in self.pos.items() if s != seat)

    def _bidding_over(self) -> bool:
        if len(self.placed | self.out) < self.n:
            return False
        cols = [c for _, c in self.pos.values()]
        return len(cols) == len(set(cols))

    def _next_bidder(self) -> None:
        self.turn = (self.turn + 1) % self.n
        self.bid_turns += 1

    def _run_bidding(self, events: list[Event]) -> bool:
        """Pass and leave for players until one must choose (True) or bidding ends (False)."""
        cap = BID_CAP_FACTOR * self.n * C.STAIR_ROWS
        while not self._bidding_over():
            if self.bid_turns > cap:
                raise AssertionError("bidding did not end within its cap")
            seat = self.order[self.turn]
            if seat not in self.out and (seat not in self.placed or self.outbid(seat)):
                if self._can_bid(seat):
                    return True
                self.pos.pop(seat, None)
                self.out.add(seat)
                self.placed.discard(seat)
                events.append(self.event(LeftStaircase, seat))
            self._next_bidder()
        return False

    def rank(self) -> list[int]:
        """Staircase players in settlement order: higher row, then dearer, then leftmost (ruling 13)."""
        return sorted(self.pos, key=lambda s: (-self.pos[s][0], -C.stair_cost(*self.pos[s]), self.pos[s][1]))

    def _pay_head(self, events: list[Event]) -> None:
        if self.phase == Phase.SETTLE and self.queue:
            seat = self.queue[0]
            cost = C.stair_cost(*self.pos[seat])
            self.people[seat].lire -= cost
            events.append(self.event(StairsPaid, seat, cost))

    # --- The automatic flow ------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> None:
        """Run what the rules decide alone until a player must choose or the game ends: each
        phase's ``advance`` (phases.py) moves on to the next phase, or says a player must choose."""
        while not self.finished and RULES[self.phase].advance(self, events):
            pass

    def _phase_ended(self, phase: Phase, events: list[Event]) -> None:
        """Close a stretch of play for the table's picture, if players chose in it: a phase the
        rules played alone (nobody could use an investment) goes with the next one."""
        if self.acted:
            events.append(self.event(PhaseEnded, self.round, phase.value))
            self.acted = 0
            self.phases_ended += 1
            self.stretches += ((self.round, phase.value),)

    def resolutions(self, seat: int) -> list[str]:
        """How ``seat`` may resolve its investment tile now: "track" and/or "action"."""
        tile = C.INVESTMENT_TILES[self.inv_held[seat]]
        person = self.people[seat]
        out = ["track"] if person.tracks[tile.colour] < C.TRACK_TOP else []
        if self.can_act(seat, tile.action, bonus_of(tile.action, tile.bonus)):
            out.append("action")
        return out

    def can_act(self, seat: int, action: str, bonus: Bonus) -> bool:
        person = self.people[seat]
        if action == "sponsor":
            return True
        if action == "buy":
            return bool(buy_counts(person, bonus))
        if action == "express":
            return can_express(person, bonus, self.options["express_ignores_roads"])
        return bool(build_choices(person, self.supply, bonus)) and bool(person.hood.shop_squares())

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        b = self.board
        size = b.rows * b.cols
        self.grid = list(self.city_stack[self.dealt:self.dealt + size])
        self.dealt += size
        self.coins = list(self.coin_setup[self.round - 1])
        self.markers, self.left, self.turn = {}, [C.MARKERS] * self.n, 0
        self.inv_open = [self.inv_stacks[c][self.round - 1] for c in C.COLOURS]
        self.stairs_tiles = list(C.delivery_tiles_for(self.round, self.n))
        self.pos, self.placed, self.out, self.bid_turns, self.queue = {}, set(), set(), 0, []
        self.phase = Phase.PLACE
        if self._quiet:
            return
        shown = tuple(None if self.face_down is not None and i == self.face_down[self.round - 1] else v
                      for i, v in enumerate(self.coins))
        events.append(self.event(RoundStarted, self.round, tuple(self.grid), shown, tuple(self.stairs_tiles),
                                   tuple(self.inv_open)))

    def _subsidies(self, events: list[Event]) -> None:
        paid = 0
        markers = self.markers
        for i, ((line, k, spaces), value) in enumerate(zip(coin_lines(self.board.rows, self.board.cols), self.coins,
                                                           strict=True)):
            owners = [markers.get(index) for index in spaces]   # nearest the coin first
            counts = {s: owners.count(s) for s in owners if s is not None}
            winner = None
            if counts:
                most = max(counts.values())
                winner = next(s for s in owners if s is not None and counts[s] == most)
                self.people[winner].lire += value
                paid += value
            events.append(self.event(CoinAwarded, line, k, value, winner))
            if self.face_down is not None and i == self.face_down[self.round - 1] and winner is not None:
                self.order = [(winner + j) % self.n for j in range(self.n)]
                events.append(self.event(OrderChanged, tuple(self.order)))
        self.coin_paid.append(paid)
        self.markers = {}

    def _start_bidding(self) -> None:
        self.phase, self.turn, self.bid_turns = Phase.BID, 0, 0

    def _new_order(self, events: list[Event]) -> None:
        before = list(self.order)
        if self.options["reverse_bid_order"]:
            outside = [s for s in self.order if s not in self.pos]
            self.order = outside + list(reversed(self.rank()))
        elif not self.options["first_player_coin"] and self.pos:
            first = min(self.pos, key=lambda s: self.pos[s][1])
            self.order = [(first + j) % self.n for j in range(self.n)]
        if self.order != before:
            events.append(self.event(OrderChanged, tuple(self.order)))

    def _resolve_deliveries(self, events: list[Event]) -> None:
        for seat in self.order:
            trips = self.plans.get(seat)
            if trips is None:
                continue
            hood = self.people[seat].hood
            for start, _, drops in trips:
                hood.shops[start].pizzas -= len(drops)
                for q in drops:
                    hood.cities[q].served += 1
            if not self._quiet:
                events.append(self.event(DeliveriesMade, seat, tuple(trip_json(t) for t in trips), sum(len(t[2]) for t in trips)))
        self.dlv_held = [None] * self.n
        self.pending = []
        # Phase 6: experience.
        for seat in self.order:
            self._score_completions(seat, events)
        self.lire_history += (tuple(p.lire for p in self.people),)
        if self.round < C.ROUNDS:            # the last deliveries are closed by the end of the game
            self._phase_ended(Phase.DELIVER, events)
        events.append(self.event(CycleEnded, self.round))
        if self.round == C.ROUNDS:
            self._end(events)
        else:
            self.discarded += [t for t in self.grid if t is not None]
            self._start_round(events)

    def _score_completions(self, seat: int, events: list[Event]) -> None:
        # The squares just completed, in (y, x) order (sorting only those: each round asks every seat).
        done = [(pos, city) for pos, city in self.people[seat].hood.cities.items()
                if not city.scored and city.served == city.houses]
        for pos, city in sorted(done, key=lambda kv: (kv[0][1], kv[0][0])):
            city.scored = True
            self.track_steps[seat] += 1
            self._advance_track(seat, city.colour, "completed", pos, events)

    def _advance_track(self, seat: int, colour: str, reason: str, square: Pos | None, events: list[Event]) -> None:
        tracks = self.people[seat].tracks
        if tracks[colour] < C.TRACK_TOP:
            tracks[colour] += 1
        events.append(self.event(TrackAdvanced, seat, colour, tracks[colour], reason, square))

    # --- The end -------------------------------------------------------------------------------

    def score_parts(self, seat: int) -> dict[str, int]:
        person = self.people[seat]
        low = min(person.tracks.values())
        parts = {"delivered": person.hood.delivered(), "experience": C.TRACK_VP[low],
                 "maxed": C.MAXED_VP * sum(1 for v in person.tracks.values() if v == C.TRACK_TOP),
                 "left": -person.hood.pizzas(), "money": 0}
        if self.options["money_bonus"]:
            amounts = sorted({p.lire for p in self.people}, reverse=True)
            for place, amount in enumerate(amounts[:len(C.MONEY_BONUS)]):
                if person.lire == amount:
                    parts["money"] = C.MONEY_BONUS[place]
        return parts

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(self.score_parts(s).values()) for s in range(self.n))

    def _end(self, events: list[Event]) -> None:
        self.finished = True
        self.phase = Phase.OVER
        scores = self.scores()
        key = [(scores[s], self.people[s].lire, self.people[s].hood.delivered()) for s in range(self.n)]
        best = max(key)
        self.winners = tuple(s for s in range(self.n) if key[s] == best)
        self.final = scores
        events.append(self.event(GameEnded, scores, tuple(p.lire for p in self.people), self.winners))

    def log_for(self, seat: int | None) -> list[Event]:
        return [e for e in self.log if e.visible_to(seat)]


# --- Checks of set-ups -------------------------------------------------------------------------



def _check_setup(setup: Mapping[str, Any], n: int, opts: Mapping[str, bool]) -> None:
    keys = {"starting_tiles", "city_stack", "coins", "investment_stacks"}
    if opts["first_player_coin"]:
        keys.add("face_down_coin")
    if not isinstance(setup, Mapping) or set(setup) != keys:
        raise InvalidSetup(f"the set-up holds exactly {', '.join(sorted(keys))}")
    starts = setup["starting_tiles"]
    if not isinstance(starts, list | tuple) or len(starts) != n or len(set(starts)) != n \
            or not set(starts) <= set(C.STARTING_TILES):
        raise InvalidSetup("each player has a different starting tile S1-S4")
    stack = setup["city_stack"]
    if not isinstance(stack, list | tuple) or sorted(stack) != sorted(C.CITY_IDS):
        raise InvalidSetup(f"city_stack holds all {len(C.CITY_IDS)} city tiles, each once")
    coins = setup["coins"]
    want = sorted(C.BOARDS[n].coins)
    if not isinstance(coins, list | tuple) or len(coins) != C.ROUNDS or any(
            not isinstance(c, list | tuple) or not all(type(v) is int for v in c) or sorted(c) != want
            for c in coins):
        raise InvalidSetup(f"coins gives each of the {C.ROUNDS} rounds the coins {want} in some order")
    stacks = setup["investment_stacks"]
    if not isinstance(stacks, Mapping) or set(stacks) != set(C.COLOURS) or any(
            not isinstance(stacks[c], list | tuple) or sorted(stacks[c]) != sorted(C.INVESTMENT_BY_COLOUR[c])
            for c in C.COLOURS):
        raise InvalidSetup("investment_stacks gives each colour its five tiles, each once")
    if opts["first_player_coin"]:
        down = setup["face_down_coin"]
        if not isinstance(down, list | tuple) or len(down) != C.ROUNDS or any(
                type(i) is not int or not 0 <= i < len(want) for i in down):
            raise InvalidSetup(f"face_down_coin gives each round an index into its {len(want)} coins")


__all__ = ["Game", "Phase"]
