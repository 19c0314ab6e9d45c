"""The game state and its rules.

``Game`` is mutable for speed: ``apply`` changes it in place and returns the events
it caused; ``copy`` makes an independent game for look-ahead. ``check`` answers
"is this legal?" without changing anything; ``apply`` runs the same check first,
so a refused move never leaves a half-changed state.

Players are seats 0..n-1 in turn order; ``players`` holds their names.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, product
from operator import add

from engine.names import check_names

from . import board as B
from .actions import EVICTING_PICKS, MAX_SEATS, PLAIN_PICKS, Pick, Tile, pick_for
from .errors import (
    EvictionChoiceRequired,
    GameIsOver,
    InvalidEviction,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
    TileNotOnOffer,
)
from .events import (
    BagScored,
    BigTour,
    Event,
    GameEnded,
    GameStarted,
    Halt,
    MarkerDealt,
    MarkersRevealed,
    OpenMarkerShown,
    RoundStarted,
    ShopEvicted,
    ShopOpened,
    SmallTour,
    TileDiscarded,
    TileTaken,
    fast_builder,
)
from .view import GameView, view_of

# The box holds 20 shops a colour; the 20th is the score marker (RULES.md, "Components and setup").
SHOPS_PER_PLAYER = 19
FINAL_TOURS = ("markers", "all_lines")

_STATIONS = B.STATIONS
_COLOURS = B.COLOURS
_CAPACITY = B.CAPACITY
_RINGS = B.SMALL_TOUR_RINGS
_NEIGHBOURS = B.NEIGHBOURS
_LINE_CROSSINGS = B.LINE_CROSSINGS
_ALL_CROSSINGS = tuple(s for s in range(len(_STATIONS)) if B.IS_CROSSING[s])
_TILE = tuple(Tile.of(code) for code in range(len(_STATIONS) * 5))   # code -> interned Tile
_BOX_CODES = tuple(s * 5 + c for s, c in B.TILES)
_SORTED_BOX = sorted(_BOX_CODES)
_BOX_COUNTS: dict[int, int] = {}
for _code in _BOX_CODES:
    _BOX_COUNTS[_code] = _BOX_COUNTS.get(_code, 0) + 1

# The events built many times a game, built at half the cost of calling their classes.
_new_game_started = fast_builder(GameStarted)
_new_round_started = fast_builder(RoundStarted)
_new_small_tour = fast_builder(SmallTour)
_new_big_tour = fast_builder(BigTour)
_new_halt = fast_builder(Halt)

# Events are immutable values, so the common small ones are built once and shared: a game
# emits thousands of them and building frozen dataclasses is a large part of its cost.
_SHOP_OPENED = tuple(tuple(ShopOpened(seat, tile) for tile in _TILE) for seat in range(MAX_SEATS))
_TILE_TAKEN = tuple(tuple(TileTaken(seat, tile) for tile in _TILE) for seat in range(MAX_SEATS))
_TILE_DISCARDED = tuple((TileDiscarded(tile, False), TileDiscarded(tile, True)) for tile in _TILE)
_DESTINATIONS = ("supply", "bag")
_SHOP_EVICTED = {
    (station, owner, by, to_bag): ShopEvicted(name, owner, by, _DESTINATIONS[to_bag])
    for station, name in enumerate(_STATIONS) for owner in range(MAX_SEATS) for by in range(MAX_SEATS)
    for to_bag in (0, 1)
}
# (station id, owner) pairs as events list them, and the halt at an empty crossing.
_SHOP_AT = tuple(tuple((name, owner) for owner in range(MAX_SEATS)) for name in _STATIONS)
# _ONE_SCORER[n][seat][k]: the points of a halt where only ``seat`` scores, k points.
_MOST_AT_A_HALT = 2 + 2 * 4
_ONE_SCORER = {n: tuple(tuple(tuple(k if i == seat else 0 for i in range(n)) for k in range(_MOST_AT_A_HALT + 1))
                        for seat in range(n)) for n in range(2, MAX_SEATS + 1)}
_EMPTY_HALT = {(station, n): Halt(_STATIONS[station], (), (), (0,) * n)
               for station in range(len(_STATIONS)) for n in range(2, MAX_SEATS + 1)}
_MARKER_DEALT = tuple(tuple(MarkerDealt(seat, colour) for colour in _COLOURS) for seat in range(MAX_SEATS))
_OPEN_MARKER_SHOWN = tuple(OpenMarkerShown(colour) for colour in _COLOURS)

# Each seat's shops are also kept as one int (``Game._shops``): bit s says the seat has a shop at
# station s, bit s + 25 that it has both shops there. A big tour's points at a crossing are then
# a popcount of the owner's mask and the crossing's neighbour mask instead of a walk over tuples.
_FIRST = tuple(1 << s for s in range(len(_STATIONS)))
_SECOND = tuple(1 << (s + len(_STATIONS)) for s in range(len(_STATIONS)))
_NEAR = tuple(sum(_FIRST[nb] | _SECOND[nb] for nb in _NEIGHBOURS[s]) for s in range(len(_STATIONS)))


def _adjacent_tables() -> tuple[dict[int, tuple[tuple[tuple[str, int], ...], ...]], ...]:
    """For each crossing: (a seat's mask & the crossing's neighbour mask) -> for each seat, its
    adjacent shops as a halt lists them (neighbours in station order, a station twice when the
    seat holds both of its shops). Every possible mask is listed: at most 3**4 per crossing; a
    station that is no crossing has none."""
    tables: list[dict[int, tuple[tuple[tuple[str, int], ...], ...]]] = []
    for station in range(len(_STATIONS)):
        table: dict[int, tuple[tuple[tuple[str, int], ...], ...]] = {}
        if _CAPACITY[station] == 1:
            tables.append(table)
            continue
        for counts in product(*(range(_CAPACITY[nb] + 1) for nb in _NEIGHBOURS[station])):
            mask = 0
            stops: list[int] = []
            for nb, count in zip(_NEIGHBOURS[station], counts, strict=True):
                mask |= (_FIRST[nb] if count else 0) | (_SECOND[nb] if count == 2 else 0)
                stops += [nb] * count
            table[mask] = tuple(tuple(_SHOP_AT[nb][seat] for nb in stops) for seat in range(MAX_SEATS))
        tables.append(table)
    return tuple(tables)


_ADJACENT = _adjacent_tables()
# Halts at a crossing held by one owner, by player count, then by the owner's shops near and at
# the crossing: filled as games meet them (at most 10 crossings * 4 owners * 2 * 3**4 per count).
_ONE_OWNER_HALTS: dict[int, dict[int, Halt]] = {n: {} for n in range(2, MAX_SEATS + 1)}
# Small tours scored at the leftover tile's own station, by player count, then (tile, owners there).
_HOME_TOURS: dict[int, dict[tuple[int, tuple[int, ...]], SmallTour]] = {n: {} for n in range(2, MAX_SEATS + 1)}


@dataclass(frozen=True, slots=True)
class Options:
    """``final_tours``: "markers" (the rulebook) or "all_lines" (Brettspielwelt's variant)."""

    final_tours: str = "markers"

    def __post_init__(self) -> None:
        if self.final_tours not in FINAL_TOURS:
            raise InvalidSetup(f"final_tours must be one of {', '.join(FINAL_TOURS)}, "
                               f"not {self.final_tours!r}", value=self.final_tours)

    def to_dict(self) -> dict[str, str]:
        return {"final_tours": self.final_tours}


_DEFAULT_OPTIONS = Options()
_new_game = object.__new__


def stack_size(players: int) -> int:
    return players + 1


def full_game_rounds(players: int) -> int:
    """20, 15 or 12 rounds for 2, 3 or 4 players."""
    return len(B.TILES) // stack_size(players)


class Game:
    """One game of Paris Paris, from setup to the final scoring."""

    __slots__ = (
        "players", "options", "seed", "stacks", "markers", "open_marker", "first_player",
        "board", "supply", "bag", "scores", "offer", "discard", "bus", "picks", "round",
        "moves", "score_history", "finished", "winners", "_n", "_shops", "_log", "_twins",
    )
    # The slots, declared: a game is built by ``_setup``, ``sampled`` and ``copy`` through
    # ``__new__`` (no ``__init__``), which fill every one of them.
    players: tuple[str, ...]
    options: Options
    seed: int | None
    stacks: list[tuple[int, ...]]          # tile codes, in reveal order; never changed once dealt
    markers: tuple[int, ...]               # each seat's marker, a colour index
    open_marker: int | None                # the face-up marker with 2 players
    first_player: int
    board: list[tuple[int, ...]]           # per station, the seats with a shop there, in order
    supply: list[int]                      # shops each seat still has
    bag: list[int]                         # tiles each seat holds
    scores: list[int]
    offer: list[int]                       # tile codes on offer this round
    discard: list[int | None]              # per line colour, the tile code on its discard, if any
    bus: int                               # the seat holding the bus
    picks: int                             # picks made this round
    round: int
    moves: list[Pick]
    score_history: list[tuple[int, ...]]
    finished: bool
    winners: tuple[int, ...]
    _n: int
    _shops: list[int]                      # per seat, a bit mask of its shops (first and second)
    _log: list[Event] | None               # None: a quiet replay's, rebuilt on first use
    _twins: bool | None                    # whether the offer holds a tile twice; None: not looked at

    # ---- setup -------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], *, seed: int | None = None,
            options: Options | None = None, first_player: int | None = None) -> Game:
        """A fresh game dealt from ``seed`` (a random seed when None, kept in ``game.seed``)."""
        n = _check_players(players)
        if seed is None:
            seed = secrets.randbits(63)
        rng = random.Random(seed)
        tiles = _shuffled(_BOX_CODES, rng)
        size = stack_size(n)
        stacks = list(zip(*[iter(tiles)] * size, strict=True))     # consecutive groups of ``size``
        colours = _shuffled(range(5), rng)
        if first_player is None:
            first_player = rng.randrange(n)
        return cls._setup(tuple(players), options or _DEFAULT_OPTIONS, stacks, tuple(colours[:n]),
                          colours[n] if n == 2 else None, first_player, seed)

    @classmethod
    def from_setup(cls, players: Sequence[str], *, stacks: Sequence[Sequence[Tile]],
                   markers: Sequence[str], open_marker: str | None, first_player: int,
                   options: Options | None = None, seed: int | None = None) -> Game:
        """A game with an explicit deal (from a record or a test); validated."""
        return cls._from_codes(players, [tuple([t.code for t in stack]) for stack in stacks], markers,
                               open_marker, first_player, options, seed)

    @classmethod
    def _from_codes(cls, players: Sequence[str], stacks: list[tuple[int, ...]], markers: Sequence[str],
                    open_marker: str | None, first_player: int, options: Options | None,
                    seed: int | None, *, logged: bool = True) -> Game:
        """``from_setup`` with the tiles given as codes; ``logged=False`` for a quiet replay."""
        n = _check_players(players)
        size = stack_size(n)
        if not set(map(len, stacks)) <= {size}:
            i, stack = next((i, stack) for i, stack in enumerate(stacks) if len(stack) != size)
            raise InvalidSetup(f"stack {i} holds {len(stack)} tiles; with {n} players each holds {size}",
                               stack=i)
        flat = list(chain.from_iterable(stacks))
        # The whole box (the usual case) is checked at C speed; otherwise count each tile.
        if not (len(flat) == len(_BOX_CODES) and sorted(flat) == _SORTED_BOX) and any(
                count > _BOX_COUNTS.get(code, 0) for code, count in Counter(flat).items()):
            box = dict(_BOX_COUNTS)
            for code in flat:
                box[code] = box.get(code, 0) - 1
                if box[code] < 0:
                    raise InvalidSetup(f"tile {_TILE[code]} appears more often than the box holds it",
                                       tile=str(_TILE[code]))
        marker_codes = []
        for seat, colour in enumerate(markers):
            if not isinstance(colour, str) or colour not in B.COLOUR_INDEX:
                whose = f"{players[seat]}'s marker" if seat < n else "a marker"
                raise InvalidSetup(f"{whose} must be a line colour ({', '.join(_COLOURS)}), not {colour!r}",
                                   value=str(colour)[:40])
            marker_codes.append(B.COLOUR_INDEX[colour])
        if len(marker_codes) != n:
            raise InvalidSetup(f"{n} players need {n} markers, got {len(marker_codes)}")
        open_code = None
        if n == 2:
            if not isinstance(open_marker, str) or open_marker not in B.COLOUR_INDEX:
                raise InvalidSetup(f"with 2 players a face-up marker is required: a line colour "
                                   f"({', '.join(_COLOURS)}), not {open_marker!r}")
            open_code = B.COLOUR_INDEX[open_marker]
        elif open_marker is not None:
            raise InvalidSetup("a face-up marker is only used with 2 players")
        dealt = marker_codes + ([open_code] if open_code is not None else [])
        if len(set(dealt)) != len(dealt):
            raise InvalidSetup("markers must all be different colours")
        if not (isinstance(first_player, int) and 0 <= first_player < n):
            raise InvalidSetup(f"first player must be a seat from 0 to {n - 1}")
        return cls._setup(tuple(players), options or _DEFAULT_OPTIONS, stacks, tuple(marker_codes), open_code,
                          first_player, seed, logged=logged)

    @classmethod
    def _setup(cls, players: tuple[str, ...], options: Options, stacks: list[tuple[int, ...]],
               markers: tuple[int, ...], open_marker: int | None, first_player: int,
               seed: int | None, *, logged: bool = True) -> Game:
        """The game before its first move; ``logged=False`` starts a quiet replay (no events)."""
        game = cls.__new__(cls)
        n = game._n = len(players)
        game.players = players
        game.options = options
        game.seed = seed
        game.stacks = stacks
        game.markers = markers
        game.open_marker = open_marker
        game.first_player = first_player
        game.board = [()] * len(_STATIONS)
        game._shops = [0] * n
        game.supply = [SHOPS_PER_PLAYER] * n
        game.bag = [0] * n
        game.scores = [0] * n
        game.offer = []
        # Whether the offer holds the same tile twice (the box has pairs); None: not yet looked at
        # this round (only legal_actions needs it, and a shrinking offer cannot gain twins).
        game._twins = None
        game.discard = [None] * 5
        game.bus = first_player
        game.picks = 0
        game.round = 0
        game.moves = []
        game.score_history = []
        game.finished = False
        game.winners = ()
        if logged:
            log: list[Event] = [_new_game_started(players, first_player, len(stacks), options.final_tours)]
            log += [_MARKER_DEALT[seat][c] for seat, c in enumerate(markers)]
            if open_marker is not None:
                log.append(_OPEN_MARKER_SHOWN[open_marker])
            game._log = log
            game._start_round(log)
        else:
            game._log = None
            game._start_round(None)
        return game

    @classmethod
    def sampled(cls, view, *, stacks: list[tuple[int, ...]], markers: tuple[int, ...],
                bag: Sequence[int]) -> Game:
        """A game that shows exactly what ``view`` shows, with its hidden parts given: every stack
        in reveal order (tile codes; those after ``view.round`` are face down), every seat's
        marker (colour indices) and the bag per seat. A determinization for look-ahead: it holds
        no move history and builds no events (play it with ``advance``)."""
        game = cls.__new__(cls)
        n = game._n = len(view.players)
        game.players = view.players
        game.options = Options(view.final_tours)
        game.seed = None
        game.stacks = stacks
        game.markers = markers
        game.open_marker = None if view.open_marker is None else B.COLOUR_INDEX[view.open_marker]
        game.first_player = (view.bus - max(view.round - 1, 0)) % n
        board = game.board = [()] * len(_STATIONS)
        shops = game._shops = [0] * n
        for name, owners in view.board.items():
            station = B.STATION_INDEX[name]
            board[station] = owners
            for owner in owners:
                shops[owner] |= _SECOND[station] if shops[owner] & _FIRST[station] else _FIRST[station]
        game.supply = list(view.supply)
        game.bag = list(bag)
        game.scores = list(view.scores)
        game.offer = [tile.code for tile in view.offer]
        game._twins = None
        game.discard = [None if tile is None else tile.code for tile in view.discard.values()]
        game.bus = view.bus
        game.picks = 0 if view.to_move is None else (view.to_move - view.bus) % n
        game.round = view.round
        game.moves = []
        game.score_history = list(view.score_history)
        game.finished = view.finished
        game.winners = view.winners
        game._log = None
        return game

    def copy(self) -> Game:
        """An independent copy (events and tiles are immutable and shared). Spelled out slot by
        slot: the look-ahead copies a game for every move it tries, and a loop over the slots
        with ``setattr`` costs three times as much."""
        other = _new_game(Game)
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.stacks = self.stacks            # never changed once dealt
        other.markers = self.markers
        other.open_marker = self.open_marker
        other.first_player = self.first_player
        other.board = self.board[:]
        other.supply = self.supply[:]
        other.bag = self.bag[:]
        other.scores = self.scores[:]
        other.offer = self.offer[:]
        other.discard = self.discard[:]
        other.bus = self.bus
        other.picks = self.picks
        other.round = self.round
        other.moves = self.moves[:]
        other.score_history = self.score_history[:]
        other.finished = self.finished
        other.winners = self.winners
        other._n = self._n
        other._shops = self._shops[:]
        other._log = None if self._log is None else self._log[:]
        other._twins = self._twins
        return other

    # ---- queries -----------------------------------------------------------------------

    @property
    def log(self) -> list[Event]:
        """Every event so far, in order.

        A quiet replay (``from_record``) builds no events, since most replays only want the
        state: its log is rebuilt here on first use, by replaying the same moves with events
        from the same deal, and kept (later moves extend it as usual).
        """
        if self._log is None:
            game = Game._setup(self.players, self.options, self.stacks, self.markers,
                               self.open_marker, self.first_player, self.seed)
            log = game.log          # a logged game's own list, never None
            for move in self.moves:
                game._move(move, log)
            self._log = log
        return self._log

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def rounds(self) -> int:
        return len(self.stacks)

    @property
    def stacks_left(self) -> int:
        """Face-down stacks not yet revealed."""
        return len(self.stacks) - self.round

    @property
    def current_player(self) -> int | None:
        """The seat to move, None when the game is over."""
        return None if self.finished else (self.bus + self.picks) % self._n

    @property
    def seat_to_move(self) -> int:
        """``current_player`` of a game under way (never None: the caller knows it is not over)."""
        return (self.bus + self.picks) % self._n

    def is_terminal(self) -> bool:
        return self.finished

    def returns(self) -> tuple[int, ...]:
        """Each seat's points (final once ``is_terminal``)."""
        return tuple(self.scores)

    def offered_tiles(self) -> tuple[Tile, ...]:
        return tuple(Tile.of(c) for c in self.offer)

    def shops_at(self, station: str) -> tuple[int, ...]:
        """Owners of the shops at a station, in the order they opened."""
        return self.board[B.STATION_INDEX[station]]

    def shops_on_board(self) -> tuple[int, ...]:
        return tuple(map(int.bit_count, self._shops))

    def eviction_options(self, tile: Tile) -> tuple[int, ...]:
        """Seats whose shop the placer may choose to evict by taking ``tile``.

        Empty unless the station is a full crossing held by two different owners:
        elsewhere the evicted shop (if any) is determined by the rules.
        """
        owners = self.board[tile.code // 5]
        if len(owners) == 2 and owners[0] != owners[1]:
            return owners
        return ()

    def legal_actions(self) -> list[Pick]:
        """Every legal move for the player to move (empty when the game is over)."""
        if self.finished:
            return []
        board = self.board
        offer = self.offer
        if self._twins is None:
            self._twins = len(set(offer)) != len(offer)
        if self._twins:
            offer = list(dict.fromkeys(offer))      # the same tile twice on offer is one choice
        actions: list[Pick] = []
        for code in offer:
            owners = board[code // 5]
            # (An empty supply opens no shop, so it evicts nobody: one plain pick there too.)
            if len(owners) == 2 and owners[0] != owners[1] and self.supply[(self.bus + self.picks) % self._n]:
                evicting = EVICTING_PICKS[code]
                actions += (evicting[owners[0]], evicting[owners[1]])
            else:
                actions.append(PLAIN_PICKS[code])
        return actions

    def check(self, action: Pick, *, by: int | None = None) -> Pick:
        """Raise the matching ``IllegalMove`` if ``action`` is not legal now.

        Returns the move in normal form (an eviction choice that the rules ignore
        dropped). ``by``, when given, is the seat that wants to move.
        """
        if self.finished:
            raise GameIsOver("the game is over")
        if not isinstance(action, Pick) or not isinstance(action.tile, Tile):
            raise MalformedInput(f"not a move: {action!r}")
        if by is not None:
            if not isinstance(by, int) or not 0 <= by < self._n:
                raise MalformedInput(f"there is no seat {by!r} in this game", seat=by)
            current = (self.bus + self.picks) % self._n
            if by != current:
                raise NotYourTurn(f"it is {self.players[current]}'s turn, not {self.players[by]}'s",
                                  seat=by, current=current)
        code = action.tile.code
        if code not in self.offer:
            raise TileNotOnOffer(f"{action.tile} is not on offer", tile=str(action.tile))
        owners = self.board[code // 5]
        if len(owners) == 2 and owners[0] != owners[1] and self.supply[(self.bus + self.picks) % self._n]:
            if action.evict is None:
                raise EvictionChoiceRequired(
                    f"{B.DISPLAY_NAMES[action.tile.station]} is full: choose whose shop to evict "
                    f"({' or '.join(self.players[o] for o in owners)})",
                    station=action.tile.station, owners=owners)
            if action.evict not in owners:
                raise InvalidEviction(f"seat {action.evict} has no shop at "
                                      f"{B.DISPLAY_NAMES[action.tile.station]} to evict",
                                      station=action.tile.station, evict=action.evict, owners=owners)
            return action
        return action if action.evict is None else pick_for(code)

    def is_legal(self, action: Pick, *, by: int | None = None) -> bool:
        try:
            self.check(action, by=by)
        except (GameIsOver, MalformedInput, NotYourTurn, TileNotOnOffer, EvictionChoiceRequired,
                InvalidEviction):
            return False
        return True

    # ---- moves -------------------------------------------------------------------------

    def apply(self, action: Pick, *, by: int | None = None) -> list[Event]:
        """Play ``action`` for the player to move; return the events it caused.

        Raises an ``IllegalMove`` (and changes nothing) when the move is not legal.
        """
        action = self.check(action, by=by)
        log = self._log if self._log is not None else self.log   # rebuilt before this move
        events: list[Event] = []
        self._move(action, events)
        log += events
        return events

    def advance(self, action: Pick) -> None:
        """Play a move known to be legal (one of ``legal_actions()``) without checking it or
        building events: the look-ahead's inner loop. Not for moves from outside."""
        self._move(action, None)

    # ---- rules -------------------------------------------------------------------------
    # Each step appends its events to ``events``; with ``events=None`` (a quiet replay) it
    # changes the state and scores only and builds no event at all.

    def _move(self, action: Pick, events: list[Event] | None) -> None:
        """Play a checked move for the player to move."""
        n = self._n
        picks = self.picks
        seat = (self.bus + picks) % n
        code = action.tile.code
        self.offer.remove(code)
        supply = self.supply
        if supply[seat]:
            station = code // 5
            board = self.board
            owners = board[station]
            shops = self._shops
            if len(owners) == _CAPACITY[station]:
                evicted = owners[0] if action.evict is None else action.evict
                if len(owners) == 1:
                    owners = ()
                else:
                    owners = (owners[1],) if owners[0] == evicted else (owners[0],)
                second = _SECOND[station]
                shops[evicted] ^= second if shops[evicted] & second else _FIRST[station]
                to_bag = evicted != seat and n > 2
                if to_bag:
                    self.bag[evicted] += 1
                else:
                    supply[evicted] += 1
                if events is not None:
                    events += (_SHOP_OPENED[seat][code], _SHOP_EVICTED[station, evicted, seat, to_bag])
            elif events is not None:
                events.append(_SHOP_OPENED[seat][code])
            first = _FIRST[station]
            shops[seat] |= _SECOND[station] if shops[seat] & first else first
            board[station] = owners + (seat,)
            supply[seat] -= 1
        elif events is not None:
            # An empty supply (2 players, the 20th pick of a player never evicted): the tile is
            # taken and no shop opens, so nothing is evicted either (RULES.md, "Open shops").
            events.append(_TILE_TAKEN[seat][code])
        self.moves.append(action)
        self.picks = picks = picks + 1
        if picks == n:
            self._finish_round(events)

    def _start_round(self, events: list[Event] | None) -> None:
        if self.round == len(self.stacks):
            self._end_game(events)
            return
        stack = self.stacks[self.round]
        self.offer = list(stack)
        self._twins = None
        self.round += 1
        self.picks = 0
        if events is not None:
            tiles = tuple(map(_TILE.__getitem__, stack))
            events.append(_new_round_started(self.round, len(self.stacks), self.bus, tiles))

    def _finish_round(self, events: list[Event] | None) -> None:
        code = self.offer[0]
        if events is None:
            self._score_small_tour(code // 5)
        else:
            events.append(self._small_tour(code))
        colour = code % 5
        if self.discard[colour] is not None:
            self.discard[colour] = None
            if events is None:
                self._score_big_tour(colour)
            else:
                events.append(_TILE_DISCARDED[code][1])
                events.append(self._big_tour(colour, "discard", None, self._halt))
        else:
            self.discard[colour] = code
            if events is not None:
                events.append(_TILE_DISCARDED[code][0])
        self.score_history.append(tuple(self.scores))
        self.bus = (self.bus + 1) % self._n
        self._start_round(events)

    def _small_tour(self, code: int) -> SmallTour:
        """The leftover tile's small tour: the shops at its station, else the nearest along its
        lines (each direction, no turning), each scoring 1."""
        board = self.board
        station = code // 5
        scores = self.scores
        owners = board[station]
        if owners:
            # Shops at the station itself (the common case): the tour depends only on the tile
            # and the owners there, so it is built once and shared.
            for owner in owners:
                scores[owner] += 1
            known = _HOME_TOURS[self._n]
            tour = known.get((code, owners))
            if tour is None:
                points = [0] * self._n
                for owner in owners:
                    points[owner] += 1
                shops = tuple([_SHOP_AT[station][o] for o in owners])
                tour = known[code, owners] = SmallTour(_TILE[code], 0, shops, tuple(points))
            return tour
        points = [0] * self._n
        for distance, ring in enumerate(_RINGS[station], 1):
            ring_shops = [_SHOP_AT[s][o] for s in ring for o in board[s]]
            if ring_shops:
                for _, owner in ring_shops:
                    points[owner] += 1
                    scores[owner] += 1
                return _new_small_tour(_TILE[code], distance, tuple(ring_shops), tuple(points))
        return _new_small_tour(_TILE[code], None, (), tuple(points))

    def _score_small_tour(self, station: int) -> None:
        """``_small_tour``'s points only."""
        board = self.board
        scorers: Sequence[int] = board[station]
        if not scorers:
            for ring in _RINGS[station]:
                scorers = [o for s in ring for o in board[s]]
                if scorers:
                    break
        scores = self.scores
        for owner in scorers:
            scores[owner] += 1

    def _big_tour(self, colour: int, reason: str, seat: int | None,
                  halt_at: Callable[[int], Halt]) -> BigTour:
        """Run the bus along a line, halting at its four crossings (``halt_at(station)``)."""
        a, b, c, d = _LINE_CROSSINGS[colour]
        halts = (halt_at(a), halt_at(b), halt_at(c), halt_at(d))
        total = tuple(map(add, map(add, halts[0].points, halts[1].points),
                          map(add, halts[2].points, halts[3].points)))
        self.scores[:] = map(add, self.scores, total)
        return _new_big_tour(_COLOURS[colour], reason, seat, halts, total)

    def _halt(self, station: int) -> Halt:
        """A big tour's halt at a crossing: 1 per shop there, and each owner with a shop there
        scores 1 per own shop next door (once, even holding both shops; owners in seat order)."""
        owners = self.board[station]
        if not owners:
            return _EMPTY_HALT[station, self._n]
        shops = self._shops
        first = owners[0]
        if len(owners) == 1 or owners[1] == first:
            # One owner (the usual case): the halt depends only on the station, the owner, their
            # shops there and next door, so it is built once and shared.
            near = shops[first] & _NEAR[station]
            known = _ONE_OWNER_HALTS[self._n]
            key = near << 8 | station << 3 | first << 1 | (len(owners) - 1)
            halt = known.get(key)
            if halt is None:
                adjacent = _ADJACENT[station][near][first]
                halt = known[key] = Halt(_STATIONS[station], owners, adjacent,
                                         _ONE_SCORER[self._n][first][len(owners) + len(adjacent)])
            return halt
        low, high = (first, owners[1]) if first < owners[1] else (owners[1], first)
        near = _NEAR[station]
        low_adjacent = _ADJACENT[station][shops[low] & near][low]
        high_adjacent = _ADJACENT[station][shops[high] & near][high]
        points = [0] * self._n
        points[low] = 1 + len(low_adjacent)
        points[high] = 1 + len(high_adjacent)
        return _new_halt(_STATIONS[station], owners, low_adjacent + high_adjacent, tuple(points))

    def _score_big_tour(self, colour: int) -> None:
        """``_big_tour``'s points only."""
        board = self.board
        shops = self._shops
        scores = self.scores
        for station in _LINE_CROSSINGS[colour]:
            owners = board[station]
            if owners:
                near = _NEAR[station]
                first = owners[0]
                if len(owners) == 1 or owners[1] == first:
                    scores[first] += len(owners) + (shops[first] & near).bit_count()
                else:
                    for owner in owners:
                        scores[owner] += 1 + (shops[owner] & near).bit_count()

    def _end_game(self, events: list[Event] | None) -> None:
        n = self._n
        self.offer = []
        if self.options.final_tours == "all_lines":
            tours: list[tuple[int, str, int | None]] = [(colour, "all_lines", None) for colour in range(5)]
        else:
            seats = [(self.bus + i) % n for i in range(n)]
            tours = [(self.markers[seat], "marker", seat) for seat in seats]
            if self.open_marker is not None:
                tours.append((self.open_marker, "open_marker", None))
        if events is None:
            for colour, _, _ in tours:
                self._score_big_tour(colour)
        else:
            events.append(MarkersRevealed(tuple(map(_COLOURS.__getitem__, self.markers)),
                                          None if self.open_marker is None else _COLOURS[self.open_marker]))
            # The board stays the same during the final tours: each crossing's halt is worked out
            # once (the final tours pass all or all but one of the crossings).
            halts = {station: self._halt(station) for station in _ALL_CROSSINGS}
            events += [self._big_tour(colour, reason, seat, halts.__getitem__) for colour, reason, seat in tours]
        if n > 2:
            most = max(self.bag)
            scorer = self.bag.index(most) if most > 0 and self.bag.count(most) == 1 else None
            if scorer is not None:
                self.scores[scorer] += most
            if events is not None:
                events.append(BagScored(tuple(self.bag), scorer, most if scorer is not None else 0))
        on_board = self.shops_on_board()
        best = max(self.scores)
        if self.scores.count(best) == 1:
            self.winners = (self.scores.index(best),)
        else:
            tied = [seat for seat in range(n) if self.scores[seat] == best]
            fewest = min(on_board[seat] for seat in tied)
            self.winners = tuple(seat for seat in tied if on_board[seat] == fewest)
        self.finished = True
        self.score_history.append(tuple(self.scores))
        if events is not None:
            events.append(GameEnded(tuple(self.scores), on_board, self.winners))

    # ---- views and records -------------------------------------------------------------

    def view(self, seat: int | None = None) -> GameView:
        """What ``seat`` may see (None: the public view for the group)."""
        return view_of(self, seat)

    def log_for(self, seat: int | None) -> list[Event]:
        """The event log redacted for ``seat`` (None: public events only)."""
        return [e for e in self.log if e.visible_to(seat)]

    def __repr__(self) -> str:
        state = "over" if self.finished else f"round {self.round}/{self.rounds}, " \
                                              f"{self.players[self.seat_to_move]} to move"
        return f"<Game {', '.join(self.players)}: {state}>"


def _shuffled(items: Sequence[int], rng: random.Random) -> list[int]:
    """A Fisher-Yates shuffle drawing floats from ``rng``: the same order for the same seed, and
    much cheaper than ``rng.shuffle``, which draws exact random integers one call at a time."""
    result = list(items)
    draw = rng.random
    for i in range(len(result) - 1, 0, -1):
        j = int(draw() * (i + 1))
        result[i], result[j] = result[j], result[i]
    return result


def _check_players(players: Sequence[str]) -> int:
    if isinstance(players, str) or not 2 <= len(players) <= 4:
        raise InvalidSetup("Paris Paris is played by 2 to 4 players")
    check_names(players)
    return len(players)
