"""The Paris Connection game state and its rules (PARIS_CONNECTION.md).

``Game`` is mutable: ``apply`` changes it in place and returns the events it caused; ``copy``
gives an independent game for look-ahead. ``check`` answers "is this legal?" without
changing anything, and ``apply`` runs it first, so a refused choice changes nothing.

A build is a step decision: ``Build`` opens a draft, each ``Place`` puts one locomotive
(tentatively: it stands on the board and counts for every later rule, but the company's
value rises only when the build is committed), ``Undo`` takes the last one back, ``Done``
commits. Every step is a move of its own (``moves`` holds their texts).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from engine.names import check_players

from . import board as B
from .actions import DONE, UNDO, Build, Choice, Done, Place, Trade, Undo, parse
from .errors import (
    BuildUnderWay,
    ColourAlreadyThere,
    ForbiddenHex,
    GameIsOver,
    HexFull,
    InvalidSetup,
    MalformedInput,
    NoBuildUnderWay,
    NoPlacement,
    NotAdjacent,
    NotEnoughInStorage,
    NotHeld,
    NothingPlaced,
    NotYourTurn,
    SameColour,
    StorageEmpty,
    WouldBlock,
)
from .events import (
    BuildCancelled,
    BuildCompleted,
    BuildStarted,
    CycleEnded,
    Event,
    GameEnded,
    GameStarted,
    HoldingsChanged,
    HoldingsDealt,
    LocomotivePlaced,
    PlacementUndone,
    Traded,
    TurnSkipped,
)
from .view import ConnectionView, view_of

PER_COMPANY = 33                     # locomotives of each colour in the box
IN_BAG = PER_COMPANY - 2             # one starts on the start hex, one on the value track
DEAL = {3: 10, 4: 8, 5: 6, 6: 5}
HOLDING_LIMIT = {3: 20, 4: 15, 5: 12, 6: 10}
PENALTY = 20                         # points per locomotive held over the limit
MAX_BUILD = 5
MIN_PLAYERS, MAX_PLAYERS = 3, 6

_COMPANIES = B.COMPANIES
_MARSEILLE = B.marseille()
_CITY_HEXES = frozenset(c.id for c in B.cities())
_CAPACITY = {h: cell.capacity for h, cell in B.HEXES.items()}
_VALUE = {h: cell.value for h, cell in B.HEXES.items()}
_NEIGHBOURS = {h: B.neighbours(h) for h in B.HEXES}
_ORDER = {h: i for i, h in enumerate(B.HEXES)}
# Every trade, made once: legal_actions lists dozens of them at every turn.
_TRADES = {(give, take, count): Trade(give, take, count)
           for give in _COMPANIES for take in _COMPANIES if take != give for count in (1, 2)}


class Game:
    """One game of Paris Connection. Seats are 0..n-1 in turn order."""

    __slots__ = (
        "players", "seed", "rng", "start_hexes", "deal", "first_player", "board", "networks", "values",
        "storage", "holdings", "to_move", "turns", "draft_colour", "draft_hexes", "finished", "end_reason",
        "winners", "moves", "record_moves", "log", "value_history", "_legal_cache",
    )
    # The slots, declared: ``from_setup`` and ``copy`` build a game through ``__new__`` (no
    # ``__init__``) and fill every one of them.
    players: tuple[str, ...]
    seed: int | None
    rng: random.Random
    start_hexes: dict[str, str]                   # company -> its start hex
    deal: tuple[dict[str, int], ...]              # each seat's locomotives as dealt
    first_player: int
    board: dict[str, list[str]]                   # hex -> the companies' locomotives on it
    networks: dict[str, set[str]]                 # company -> the hexes it reaches
    values: dict[str, int]                        # company -> its share value
    storage: dict[str, int]                       # company -> locomotives left in the bag
    holdings: list[dict[str, int]]                # per seat, company -> locomotives held
    to_move: int
    turns: int
    draft_colour: str | None                      # the company being built, if a build is under way
    draft_hexes: list[str]
    finished: bool
    end_reason: str | None
    winners: tuple[int, ...]
    moves: list[str]
    record_moves: list[tuple[int, str, tuple[Any, ...]]]
    log: list[Event]
    value_history: list[dict[str, int]]
    # Two caches in one: under a company, its legal hexes (a tuple); under ("path", company), a way
    # from its lines to a free city (a frozenset, or None when there is none).
    _legal_cache: dict[Any, Any]

    # --- Setup -----------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], *, seed: int) -> Game:
        """Deal a game from ``seed``: start hexes, the bag's draws, the first player."""
        n = check_players(players, "Paris Connection", MIN_PLAYERS, MAX_PLAYERS)
        rng = random.Random(seed)
        colours = list(_COMPANIES)
        rng.shuffle(colours)
        start_hexes = dict(zip(colours, B.START_HEXES, strict=True))
        bag = [c for c in _COMPANIES for _ in range(IN_BAG)]
        rng.shuffle(bag)
        size = DEAL[n]
        deal = [_count(bag[seat * size:(seat + 1) * size]) for seat in range(n)]
        return cls.from_setup(players, start_hexes, deal, rng.randrange(n), seed=seed, rng=rng)

    @classmethod
    def from_setup(cls, players: Sequence[str], start_hexes: Mapping[str, str], deal: Sequence[Mapping[str, int]],
                   first_player: int, *, seed: int | None = None, rng: random.Random | None = None) -> Game:
        """A game from an explicit setup (a record's); ``InvalidSetup`` says what is wrong with it."""
        n = check_players(players, "Paris Connection", MIN_PLAYERS, MAX_PLAYERS)
        if sorted(start_hexes) != sorted(_COMPANIES) or sorted(start_hexes.values()) != sorted(B.START_HEXES):
            raise InvalidSetup(f"start_hexes must give each company ({', '.join(_COMPANIES)}) its own start hex "
                               f"({', '.join(B.START_HEXES)})")
        if len(deal) != n:
            raise InvalidSetup(f"the deal must give holdings for each of the {n} players")
        holdings = []
        for seat, dealt in enumerate(deal):
            if not isinstance(dealt, Mapping) or not set(dealt) <= set(_COMPANIES) or not all(
                    type(k) is int and k >= 0 for k in dealt.values()):
                raise InvalidSetup(f"{players[seat]}'s deal must map colours to counts, not {dealt!r}")
            if sum(dealt.values()) != DEAL[n]:
                raise InvalidSetup(f"with {n} players each draws {DEAL[n]} locomotives; "
                                   f"{players[seat]} drew {sum(dealt.values())}")
            holdings.append({c: dealt.get(c, 0) for c in _COMPANIES})
        storage = {c: IN_BAG - sum(h[c] for h in holdings) for c in _COMPANIES}
        if any(left < 0 for left in storage.values()):
            raise InvalidSetup(f"the deal draws more than the {IN_BAG} locomotives of a colour in the bag")
        if type(first_player) is not int or not 0 <= first_player < n:
            raise InvalidSetup(f"first player must be a seat from 0 to {n - 1}")
        game = cls.__new__(cls)
        game.players = tuple(players)
        game.seed = seed
        game.rng = rng if rng is not None else random.Random(seed)
        game.start_hexes = dict(start_hexes)
        game.deal = tuple(dict(h) for h in holdings)
        game.first_player = first_player
        game.board = {h: [c] for c, h in start_hexes.items()}
        game.networks = {c: {h} for c, h in start_hexes.items()}
        game.values = dict.fromkeys(_COMPANIES, 0)
        game.storage = storage
        game.holdings = holdings
        game.to_move = first_player
        game.turns = 0
        game.draft_colour = None
        game.draft_hexes = []
        game.finished = False
        game.end_reason = None
        game.winners = ()
        game.moves = []
        game.record_moves = []
        game.value_history = []
        game._legal_cache = {}
        game.log = [GameStarted(game.players, first_player, dict(start_hexes))]
        game.log += [HoldingsDealt(seat, dict(h)) for seat, h in enumerate(holdings)]
        game._skip_stuck_players(game.log)
        return game

    def copy(self) -> Game:
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.board = {h: list(cs) for h, cs in self.board.items()}
        other.networks = {c: set(hs) for c, hs in self.networks.items()}
        other.values = dict(self.values)
        other.storage = dict(self.storage)
        other.holdings = [dict(h) for h in self.holdings]
        other.draft_hexes = list(self.draft_hexes)
        other.moves = list(self.moves)
        other.record_moves = list(self.record_moves)
        other.log = list(self.log)
        other.value_history = list(self.value_history)
        other._legal_cache = dict(self._legal_cache)
        return other

    # --- What is where ---------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def holding_limit(self) -> int:
        return HOLDING_LIMIT[len(self.players)]

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.to_move

    @property
    def cycle(self) -> int:
        """The turn cycle under way, from 1 (the last one once the game is over)."""
        n = len(self.players)
        return (self.turns - 1) // n + 1 if self.finished and self.turns else self.turns // n + 1

    @property
    def building(self) -> bool:
        return self.draft_colour is not None

    def draft_gain(self) -> int:
        return sum(_VALUE[h] for h in self.draft_hexes)

    def _can_take(self, hex_id: str, colour: str) -> bool:
        here = self.board.get(hex_id)
        if not here:
            return _CAPACITY[hex_id] > 0
        return len(here) < _CAPACITY[hex_id] and colour not in here

    def has_reached_city(self, colour: str) -> bool:
        return not _CITY_HEXES.isdisjoint(self.networks[colour])

    def _can_reach_free_city(self, colour: str) -> bool:
        """Whether ``colour`` could still extend its lines to some empty city hex."""
        return self._path_to_free_city(colour) is not None

    def _path_to_free_city(self, colour: str) -> frozenset[str] | None:
        """The hexes of one way from ``colour``'s lines to an empty city hex (the city included,
        its lines not), or None when there is none: a witness that the company is not cut off."""
        board = self.board
        network = self.networks[colour]
        parent = dict.fromkeys(network, "")       # a hex -> the one it was reached from ("": a line's own)
        queue = deque(network)
        while queue:
            here = queue.popleft()
            for nxt in _NEIGHBOURS[here]:
                if nxt in parent:
                    continue
                there = board.get(nxt)
                if there is None:
                    if nxt in _CITY_HEXES:
                        path = [nxt]
                        while here not in network:
                            path.append(here)
                            here = parent[here]
                        return frozenset(path)
                    if not _CAPACITY[nxt]:
                        continue
                elif len(there) >= _CAPACITY[nxt] or colour in there:
                    continue
                parent[nxt] = here
                queue.append(nxt)
        return None

    def _witness(self, colour: str) -> frozenset[str] | None:
        """``_path_to_free_city``, kept in ``_legal_cache`` while it stays valid: a placement
        elsewhere leaves a way open, so it is recomputed only when the board changes on it."""
        key = ("path", colour)
        cache = self._legal_cache
        if key in cache:
            return cache[key]
        found = cache[key] = self._path_to_free_city(colour)
        return found

    def _would_block(self, hex_id: str, colour: str) -> str | None:
        """The company that placing ``colour`` on ``hex_id`` would cut off from every free city
        (the blocking rule), or None. Only a placement that fills the hex can cut anyone off,
        and only companies without a city are protected. A company keeps its way to a free city
        if the placement is not on it; only otherwise is the map searched again."""
        here = self.board.get(hex_id, [])
        if len(here) + 1 < _CAPACITY[hex_id]:
            return None
        for c in _COMPANIES:
            if c == colour or self.has_reached_city(c):
                continue
            path = self._witness(c)
            if path is not None and hex_id not in path:
                continue
            if path is None or not self._reaches_without(c, hex_id, here, colour):
                return c
        return None

    def _reaches_without(self, company: str, hex_id: str, here: list[str], colour: str) -> bool:
        """Whether ``company`` could still reach a free city with ``colour`` placed on ``hex_id``."""
        self.board[hex_id] = [*here, colour]
        try:
            return self._path_to_free_city(company) is not None
        finally:
            if here:
                self.board[hex_id] = here
            else:
                del self.board[hex_id]

    def legal_hexes(self, colour: str) -> tuple[str, ...]:
        """Where the next ``colour`` locomotive may go now, in map order (kept until the
        board changes: every placement, undo and build clears it)."""
        found = self._legal_cache.get(colour)
        if found is None:
            candidates = {nxt for h in self.networks[colour] for nxt in _NEIGHBOURS[h]
                          if self._can_take(nxt, colour)}
            found = tuple(sorted((h for h in candidates if self._would_block(h, colour) is None),
                                 key=_ORDER.__getitem__))
            self._legal_cache[colour] = found
        return found

    def can_build(self, colour: str) -> bool:
        return self.storage[colour] > 0 and bool(self.legal_hexes(colour))

    # --- Choices ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        """What the player to move may choose, in a stable order ([] once over)."""
        if self.finished:
            return []
        if self.draft_colour is not None:           # a build under way (``building``)
            places: list[Choice] = [Place(h) for h in self.legal_hexes(self.draft_colour)]
            return [*places, UNDO, DONE] if self.draft_hexes else [*places, UNDO]
        return [*(Build(c) for c in _COMPANIES if self.can_build(c)), *self._trades(self.to_move)]

    def _trades(self, seat: int) -> list[Trade]:
        held = self.holdings[seat]
        return [_TRADES[give, take, count] for give in _COMPANIES if held[give]
                for take in _COMPANIES if take != give for count in (1, 2) if self.storage[take] >= count]

    def check(self, choice: Choice | str, *, by: int | None = None) -> Choice:
        """``choice`` in normal form if the player to move (or ``by``) may make it now; raises
        the error naming the rule otherwise. Changes nothing."""
        if isinstance(choice, str):
            choice = parse(choice)
        if self.finished:
            raise GameIsOver("the game is over")
        if by is not None and by != self.to_move:
            raise NotYourTurn(f"it is {self.players[self.to_move]}'s turn, not {self._name(by)}'s",
                              seat=by, to_move=self.to_move)
        if isinstance(choice, Build):
            self._check_build(choice.colour)
        elif isinstance(choice, Place):
            self._check_place(choice.hex)
        elif isinstance(choice, Undo):
            if not self.building:
                raise NoBuildUnderWay("there is no build to undo")
        elif isinstance(choice, Done):
            if not self.building:
                raise NoBuildUnderWay("there is no build to finish")
            if not self.draft_hexes:
                raise NothingPlaced("place at least one locomotive before finishing the build "
                                    "(undo cancels it)")
        elif isinstance(choice, Trade):
            self._check_trade(choice)
        else:
            raise MalformedInput(f"not a Paris Connection choice: {choice!r}")
        return choice

    def _name(self, seat: Any) -> str:
        return self.players[seat] if type(seat) is int and 0 <= seat < len(self.players) else f"seat {seat!r}"

    def _check_build(self, colour: str) -> None:
        if self.building:
            raise BuildUnderWay(f"a {self.draft_colour} build is under way: finish it or undo it first")
        if colour not in _COMPANIES:
            raise MalformedInput(f"no company {colour!r}")
        if not self.storage[colour]:
            raise StorageEmpty(f"the {colour} storage board is empty", colour=colour)
        if not self.legal_hexes(colour):
            raise NoPlacement(f"no {colour} locomotive can be placed anywhere", colour=colour)

    def _check_place(self, hex_id: str) -> None:
        colour = self.draft_colour
        if colour is None:
            raise NoBuildUnderWay("start a build (choose a storage board) before placing locomotives")
        cell = B.HEXES.get(hex_id)
        if cell is None:
            raise MalformedInput(f"no hex {hex_id!r} on the map")
        if cell.kind in ("tower", "start"):
            what = "the Eiffel Tower" if cell.kind == "tower" else "a start hex"
            raise ForbiddenHex(f"{hex_id} is {what}: no locomotive may be placed there", hex=hex_id)
        here = self.board.get(hex_id, [])
        if colour in here:
            raise ColourAlreadyThere(f"{hex_id} already holds a {colour} locomotive", hex=hex_id, colour=colour)
        if len(here) >= cell.capacity:
            holds = "a city holds 1 locomotive" if cell.kind == "city" else "a rural hex holds 2"
            raise HexFull(f"{hex_id} is full ({holds})", hex=hex_id)
        if not any(colour in self.board.get(nb, ()) for nb in _NEIGHBOURS[hex_id]):
            raise NotAdjacent(f"{hex_id} is not next to a {colour} locomotive (barriers cut adjacency)",
                              hex=hex_id, colour=colour)
        blocked = self._would_block(hex_id, colour)
        if blocked is not None:
            raise WouldBlock(f"a {colour} locomotive on {hex_id} would cut {blocked} off from every free city",
                             hex=hex_id, colour=colour, blocked=blocked)

    def _check_trade(self, trade: Trade) -> None:
        if self.building:
            raise BuildUnderWay(f"a {self.draft_colour} build is under way: finish it or undo it first")
        if trade.give not in _COMPANIES or trade.take not in _COMPANIES:
            raise MalformedInput(f"no such company in {trade}")
        if trade.count not in (1, 2):
            raise MalformedInput(f"a trade takes 1 or 2 locomotives, not {trade.count!r}")
        if not self.holdings[self.to_move][trade.give]:
            raise NotHeld(f"there is no {trade.give} locomotive behind your screen to give back",
                          colour=trade.give)
        if trade.take == trade.give:
            raise SameColour(f"a trade takes a colour other than the one it gives back ({trade.give})",
                             colour=trade.give)
        if self.storage[trade.take] < trade.count:
            raise NotEnoughInStorage(f"the {trade.take} storage board holds {self.storage[trade.take]}, "
                                     f"not {trade.count}", colour=trade.take, count=trade.count)

    # --- Making them -----------------------------------------------------------------------

    def apply(self, choice: Choice | str, *, by: int | None = None) -> list[Event]:
        """Check and make ``choice``; returns the events it caused."""
        choice = self.check(choice, by=by)
        seat = self.to_move
        events: list[Event] = []
        self.moves.append(str(choice))
        if isinstance(choice, Build):
            self.draft_colour = choice.colour
            events.append(BuildStarted(seat, choice.colour))
        elif isinstance(choice, Place):
            self._place(seat, choice.hex, events)
        elif isinstance(choice, Undo):
            self._undo(seat, events)
        elif isinstance(choice, Done):
            self._commit(seat, events)
        else:
            self._trade(seat, choice, events)
        self.log += events
        return events

    def _drafted(self) -> str:
        """The company being built; only asked while a build is under way (``check`` saw to it)."""
        colour = self.draft_colour
        if colour is None:
            raise NoBuildUnderWay("there is no build under way")
        return colour

    def _place(self, seat: int, hex_id: str, events: list[Event]) -> None:
        colour = self._drafted()
        self._board_changed(hex_id, colour, placed=True)
        self.board.setdefault(hex_id, []).append(colour)
        self.networks[colour].add(hex_id)
        self.storage[colour] -= 1
        self.draft_hexes.append(hex_id)
        events.append(LocomotivePlaced(seat, colour, hex_id, _VALUE[hex_id]))
        # The build ends by itself when Marseille is reached (and with it the game), at five
        # locomotives, when the storage board runs out, or when nothing more can be placed.
        if (hex_id == _MARSEILLE or len(self.draft_hexes) == MAX_BUILD or not self.storage[colour]
                or not self.legal_hexes(colour)):
            self._commit(seat, events)

    def _undo(self, seat: int, events: list[Event]) -> None:
        colour = self._drafted()
        if not self.draft_hexes:
            self.draft_colour = None
            events.append(BuildCancelled(seat, colour))
            return
        hex_id = self.draft_hexes.pop()
        self._board_changed(hex_id, colour, placed=False)
        here = self.board[hex_id]
        here.remove(colour)
        if not here:
            del self.board[hex_id]
        self.networks[colour].discard(hex_id)
        self.storage[colour] += 1
        events.append(PlacementUndone(seat, colour, hex_id))

    def _board_changed(self, hex_id: str, colour: str, *, placed: bool) -> None:
        """Forget what a placement (or an undo) of ``colour`` on ``hex_id`` may have changed:
        every company's legal hexes, and the ways to a free city that pass there (a placement)
        or that start from ``colour``'s lines (which it grows or shrinks); an undo may open a
        way for a company that had none."""
        cache = self._legal_cache
        for key, path in list(cache.items()):
            if type(key) is str or key[1] == colour or (hex_id in path if path is not None else not placed):
                del cache[key]

    def _commit(self, seat: int, events: list[Event]) -> None:
        colour, hexes = self._drafted(), tuple(self.draft_hexes)
        gain = self.draft_gain()
        self.values[colour] += gain
        self.draft_colour = None
        self.draft_hexes = []
        self.record_moves.append((seat, "build", (colour, hexes)))
        events.append(BuildCompleted(seat, colour, hexes, gain, self.values[colour]))
        if _MARSEILLE in hexes:
            self._end("marseille", events)
        else:
            self._end_action(events)

    def _trade(self, seat: int, trade: Trade, events: list[Event]) -> None:
        held = self.holdings[seat]
        held[trade.give] -= 1
        self.storage[trade.give] += 1
        self.storage[trade.take] -= trade.count
        held[trade.take] += trade.count
        self.record_moves.append((seat, "trade", (trade.give, trade.take, trade.count)))
        events.append(Traded(seat, trade.give, trade.take, trade.count))
        events.append(HoldingsChanged(seat, dict(held)))
        self._end_action(events)

    def _end_action(self, events: list[Event]) -> None:
        if sum(1 for c in _COMPANIES if self.storage[c]) <= 1:
            self._end("storage", events)
            return
        self._next_turn(events)
        self._skip_stuck_players(events)

    def _next_turn(self, events: list[Event]) -> None:
        self.turns += 1
        n = len(self.players)
        if self.turns % n == 0:
            self.value_history.append(dict(self.values))
            events.append(CycleEnded(self.turns // n, dict(self.values)))
        self.to_move = (self.to_move + 1) % n

    def _skip_stuck_players(self, events: list[Event]) -> None:
        """Skip whoever can neither build nor trade. It ends: a trade never shrinks a screen
        and every screen starts full, so someone can always trade."""
        while not self._can_act(self.to_move):
            events.append(TurnSkipped(self.to_move))
            self._next_turn(events)

    def _can_act(self, seat: int) -> bool:
        held, storage = self.holdings[seat], self.storage
        can_trade = any(held[give] and any(storage[t] for t in _COMPANIES if t != give) for give in _COMPANIES)
        return can_trade or any(self.can_build(c) for c in _COMPANIES)

    def _end(self, reason: str, events: list[Event]) -> None:
        self.turns += 1
        self.finished = True
        self.end_reason = reason
        self.value_history.append(dict(self.values))   # the chart's last point: the final values
        scores = self.scores()
        best = max(scores)
        self.winners = tuple(seat for seat, s in enumerate(scores) if s == best)
        events.append(GameEnded(reason, scores, self.penalties(), tuple(dict(h) for h in self.holdings),
                                self.winners))

    # --- Scoring ---------------------------------------------------------------------------

    def penalties(self) -> tuple[int, ...]:
        limit = self.holding_limit
        return tuple(PENALTY * max(0, sum(h.values()) - limit) for h in self.holdings)

    def scores(self) -> tuple[int, ...]:
        """Each seat's points if the game ended now: holdings at company values, less penalties."""
        return tuple(sum(self.values[c] * k for c, k in held.items()) - penalty
                     for held, penalty in zip(self.holdings, self.penalties(), strict=True))

    def view(self, seat: int | None = None) -> ConnectionView:
        return view_of(self, seat)

    def log_for(self, seat: int | None) -> list[Event]:
        return [e for e in self.log if e.visible_to(seat)]



def _count(colours: Sequence[str]) -> dict[str, int]:
    return {c: colours.count(c) for c in _COMPANIES}
