"""A light Paris Connection state for look-ahead: the rules of ``Game`` over bitsets, no events.

``Playout`` plays the same game as ``Game`` (game.py) with the same legal choices in the same
order, but keeps no log, no move texts and no record, checks nothing (``advance`` takes a
choice known to be legal) and keeps the board as integers: bit ``i`` of a mask is the hex at
grid index ``i``. The grid lays the axial coordinates out row by row (row ``r``, column ``q``)
with one spare column, so the six neighbours of a hex are six fixed shifts and a spare bit
keeps a row's end from running into the next; the hexes then come in map order (``board.py``
builds the map row by row), so iterating over a mask's bits gives map order. Barriers are cut
from per-direction masks. Flood fills over the whole map are a few dozen big-integer
operations.

The blocking rule is checked as in ``Game``: a company keeps one way to a free city (a
witness path), and only a placement on that way makes it search again.
"""

from __future__ import annotations

from typing import Any

from . import board as B
from .actions import DONE, UNDO, Build, Choice, Done, Place, Trade, Undo
from .game import HOLDING_LIMIT, MAX_BUILD, PENALTY, Game

COMPANIES = B.COMPANIES
_C = len(COMPANIES)
_COLOUR = {c: i for i, c in enumerate(COMPANIES)}

_QS = [cell.q for cell in B.HEXES.values()]
_RS = [cell.r for cell in B.HEXES.values()]
_Q0, _R0 = min(_QS), min(_RS)
_W = max(_QS) - _Q0 + 2                      # one spare column: no wrapping into the next row
_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _index(q: int, r: int) -> int:
    return (r - _R0) * _W + (q - _Q0)


INDEX = {h: _index(cell.q, cell.r) for h, cell in B.HEXES.items()}
HEX_OF = {i: h for h, i in INDEX.items()}
_CAP = {INDEX[h]: cell.capacity for h, cell in B.HEXES.items()}
_VALUE = {INDEX[h]: cell.value for h, cell in B.HEXES.items()}
TAKEABLE = sum(1 << i for i, cap in _CAP.items() if cap)
CITIES = sum(1 << INDEX[c.id] for c in B.cities())
RURAL = TAKEABLE & ~CITIES
MARSEILLE = INDEX[B.marseille()]
# (shift, mask of the hexes whose neighbour that way is on the map and not across a barrier)
_STEPS = tuple(
    (dr * _W + dq, sum(1 << INDEX[h] for h in B.HEXES
                       if any(INDEX[n] == INDEX[h] + dr * _W + dq for n in B.neighbours(h))))
    for dq, dr in _DIRECTIONS)
_NEIGHBOURS = {INDEX[h]: sum(1 << INDEX[n] for n in B.neighbours(h)) for h in B.HEXES}

PLACE = {i: Place(h) for h, i in INDEX.items()}
_PLACE_AT = {i + 1: place for i, place in PLACE.items()}     # by bit_length
BUILD = tuple(Build(c) for c in COMPANIES)
TRADES = tuple(tuple(tuple(Trade(give, take, k) for k in (1, 2)) for take in COMPANIES) for give in COMPANIES)


_TRADE_LISTS: dict[tuple[int, int, int], list[Trade]] = {}


def _trades(held: int, stocked: int, stocked2: int) -> list[Trade]:
    """The trades of a seat holding the colours in mask ``held``, with the storage boards in
    ``stocked`` holding one locomotive or more and those in ``stocked2`` two or more."""
    return [TRADES[give][take][k] for give in range(_C) if held >> give & 1
            for take in range(_C) if take != give for k in (0, 1) if (stocked2 if k else stocked) >> take & 1]


def expand(mask: int) -> int:
    """The hexes next to ``mask`` (barriers respected), ``mask`` itself not included."""
    out = 0
    for shift, allowed in _STEPS:
        part = mask & allowed
        out |= part << shift if shift > 0 else part >> -shift
    return out & ~mask


def bits(mask: int):
    """The indices of the set bits, lowest (first in map order) first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Playout:
    """A game of Paris Connection to play forward fast. Colours are indices into COMPANIES."""

    __slots__ = ("n", "limit", "half", "full", "nets", "values", "storage", "holdings", "to_move", "turns",
                 "draft", "draft_hexes", "finished", "end_reason", "_paths", "_legal", "stocked", "stocked2",
                 "held", "around")
    # The slots, declared: ``_build`` and ``copy`` make a playout through ``__new__`` and fill them.
    n: int
    limit: int                          # locomotives a seat may hold at the end without penalty
    half: int                           # a mask of the hexes holding one locomotive of two
    full: int                           # a mask of the hexes that are full
    nets: list[int]                     # per company, a mask of its hexes
    values: list[int]
    storage: list[int]
    holdings: list[list[int]]           # per seat, per company
    to_move: int
    turns: int
    draft: int                          # the company being built, -1 when none
    draft_hexes: list[int]
    finished: bool
    end_reason: str | None
    _paths: dict[int, int]              # ways to a free city (``_witness``, ``_cuts``), by key
    # Two caches in one: under -1 - company, its legal mask (an int); under a mask of the companies
    # in stock, the list of builds.
    _legal: dict[int, Any]
    stocked: int                        # a mask of the companies with a locomotive in storage
    stocked2: int                       # ... with two
    held: list[int]                     # per seat, a mask of the companies it holds
    around: list[int]                   # per company, a mask of the hexes next to its lines

    @classmethod
    def of(cls, game: Game, holdings: list[dict[str, int]] | None = None) -> Playout:
        """The position of ``game``, with ``holdings`` (a guess at the hidden screens) if given."""
        return cls._build(game.board, game.values, game.storage, holdings or game.holdings, game.to_move,
                          game.turns, game.draft_colour, game.draft_hexes, game.finished, game.end_reason)

    @classmethod
    def from_view(cls, view, holdings: list[dict[str, int]]) -> Playout:
        """The position a seat sees (``view``, before the end), with every screen's holdings
        filled in (its own from the view, the others guessed)."""
        n = len(view.players)
        board = {h: list(cs) for h, cs in view.board.items()}
        draft = view.draft
        if draft is not None:
            for h in draft.hexes:
                board.setdefault(h, []).append(draft.colour)
        turns = (view.cycle - 1) * n + (view.to_move - view.first_player) % n
        return cls._build(board, view.values, view.storage, holdings, view.to_move, turns,
                          None if draft is None else draft.colour, [] if draft is None else list(draft.hexes),
                          False, None)

    @classmethod
    def _build(cls, board, values, storage, holdings, to_move, turns, draft_colour, draft_hexes, finished,
               end_reason) -> Playout:
        p = cls.__new__(cls)
        p.n = len(holdings)
        p.limit = HOLDING_LIMIT[p.n]
        p.half = p.full = 0
        p.nets = [0] * _C
        for h, colours in board.items():
            i = INDEX[h]
            for c in colours:
                p.nets[_COLOUR[c]] |= 1 << i
            if len(colours) >= _CAP[i]:
                p.full |= 1 << i
            elif len(colours) == 1:
                p.half |= 1 << i
        p.values = [values[c] for c in COMPANIES]
        p.storage = [storage[c] for c in COMPANIES]
        p.holdings = [[held[c] for c in COMPANIES] for held in holdings]
        p.to_move = to_move
        p.turns = turns
        p.draft = -1 if draft_colour is None else _COLOUR[draft_colour]
        p.draft_hexes = [INDEX[h] for h in draft_hexes]
        p.finished = finished
        p.end_reason = end_reason
        p._paths = {}
        p._legal = {}
        p._stock_changed()
        p.held = [sum(1 << c for c in range(_C) if h[c]) for h in p.holdings]
        p.around = [expand(net) for net in p.nets]       # the hexes next to each company's lines
        return p

    def _stock_changed(self) -> None:
        """Masks of the companies whose storage board holds at least one (two) locomotives."""
        one = two = 0
        for c, left in enumerate(self.storage):
            if left:
                one |= 1 << c
                if left > 1:
                    two |= 1 << c
        self.stocked, self.stocked2 = one, two

    def _restock(self, c: int) -> None:
        """``_stock_changed`` for one company's storage board."""
        left, bit = self.storage[c], 1 << c
        self.stocked = self.stocked | bit if left else self.stocked & ~bit
        self.stocked2 = self.stocked2 | bit if left > 1 else self.stocked2 & ~bit

    def copy(self) -> Playout:
        p = Playout.__new__(Playout)
        p.n, p.limit, p.half, p.full = self.n, self.limit, self.half, self.full
        p.nets = self.nets[:]
        p.values = self.values[:]
        p.storage = self.storage[:]
        p.holdings = [h[:] for h in self.holdings]
        p.to_move, p.turns, p.draft = self.to_move, self.turns, self.draft
        p.draft_hexes = self.draft_hexes[:]
        p.finished, p.end_reason = self.finished, self.end_reason
        p._paths = dict(self._paths)
        p._legal = dict(self._legal)
        p.stocked, p.stocked2 = self.stocked, self.stocked2
        p.held = self.held[:]
        p.around = self.around[:]
        return p

    @property
    def cycle(self) -> int:
        n = self.n
        return (self.turns - 1) // n + 1 if self.finished and self.turns else self.turns // n + 1

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.to_move

    # --- The blocking rule -----------------------------------------------------------------

    def _path(self, c: int, blocked: int = 0) -> int:
        """One way (a mask: the hexes after ``c``'s lines, the free city included) from
        ``c``'s lines to a free city, avoiding ``blocked``; 0 when there is none."""
        passable = TAKEABLE & ~self.full & ~self.nets[c] & ~blocked
        free = CITIES & ~self.full & ~blocked
        seen = self.nets[c]
        layers = [seen]
        while True:
            layer = expand(seen) & passable
            if not layer:
                return 0
            reached = layer & free
            if reached:
                goal = reached & -reached
                path = goal
                for back in reversed(layers[1:]):
                    step = back & _NEIGHBOURS[goal.bit_length() - 1]
                    goal = step & -step
                    path |= goal
                return path
            layers.append(layer)
            seen |= layer

    def _witness(self, c: int) -> int:
        """``_path(c)``, kept in ``_paths`` under ``c << 10`` (ways around hex i under + i + 1)."""
        key = c << 10
        found = self._paths.get(key)
        if found is None:
            found = self._paths[key] = self._path(c)
        return found

    def _cuts(self, c: int, i: int) -> bool:
        """Whether filling hex ``i`` cuts company ``c`` off from every free city. The way
        around ``i`` is kept like a witness (``_changed`` says while it stays valid)."""
        key = (c << 10) + i + 1
        found = self._paths.get(key)
        if found is None:
            found = self._paths[key] = self._path(c, 1 << i)
        return not found

    def legal_mask(self, colour: int) -> int:
        """Where the next ``colour`` locomotive may go, as a mask (kept until the board changes).
        Only a placement that fills a hex can cut a company off, and only one on the company's
        way to a free city (its witness) needs a search."""
        found = self._legal.get(-1 - colour)
        if found is None:
            nets = self.nets
            found = self.around[colour] & TAKEABLE & ~self.full & ~nets[colour]
            filling = found & (CITIES | self.half)
            for c in range(_C):
                if not filling:
                    break
                if c == colour or nets[c] & CITIES:
                    continue
                path = self._witness(c)
                if not path:                  # already cut off: no hex may be filled
                    found &= ~filling
                    break
                for i in bits(path & filling):
                    if self._cuts(c, i):
                        found &= ~(1 << i)
                        filling &= ~(1 << i)
            self._legal[-1 - colour] = found
        return found

    def has_legal(self, colour: int) -> bool:
        """Whether a ``colour`` locomotive may go anywhere: a hex it would not fill is always
        allowed, so the blocking rule is asked only when every candidate would be filled."""
        found = self._legal.get(-1 - colour)
        if found is not None:
            return found != 0
        candidates = self.around[colour] & TAKEABLE & ~self.full & ~self.nets[colour]
        if candidates & ~(CITIES | self.half):
            return True
        return candidates != 0 and self.legal_mask(colour) != 0

    def can_build(self, colour: int) -> bool:
        return self.storage[colour] > 0 and self.has_legal(colour)

    # --- Choices ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Choice]:
        """The same choices as ``Game.legal_actions``, in the same order."""
        if self.finished:
            return []
        if self.draft >= 0:
            places: list[Choice] = []
            mask = self.legal_mask(self.draft)
            while mask:
                low = mask & -mask
                places.append(_PLACE_AT[low.bit_length()])
                mask ^= low
            return [*places, UNDO, DONE] if self.draft_hexes else [*places, UNDO]
        builds = self._legal.get(self.stocked)
        if builds is None:
            storage = self.storage
            builds = self._legal[self.stocked] = [BUILD[c] for c in range(_C) if storage[c] and self.has_legal(c)]
        key = (self.held[self.to_move], self.stocked, self.stocked2)
        trades = _TRADE_LISTS.get(key)
        if trades is None:
            trades = _TRADE_LISTS[key] = _trades(*key)
        return builds + trades

    def advance(self, choice: Choice) -> None:
        """Make ``choice``, known to be legal."""
        if isinstance(choice, Trade):
            self._trade(_COLOUR[choice.give], _COLOUR[choice.take], choice.count)
        elif isinstance(choice, Place):
            self._place(INDEX[choice.hex])
        elif isinstance(choice, Build):
            self.draft = _COLOUR[choice.colour]
        elif isinstance(choice, Done):
            self._commit()
        elif isinstance(choice, Undo):
            self._undo()
        else:
            raise TypeError(f"not a Paris Connection choice: {choice!r}")

    def _changed(self, i: int, colour: int, placed: bool) -> None:
        """Forget what a placement (or undo) of ``colour`` on hex ``i`` may have changed: every
        legal mask; the ways to a free city of ``colour`` (its lines changed) and those through
        ``i``; after an undo, the verdicts "no way" (a hex opened). A way that avoids ``i``
        stays open when ``i`` fills, and "no way" stays so when a hex fills."""
        self._legal = {}
        bit = 1 << i
        paths = self._paths
        for key, path in list(paths.items()):
            if key >> 10 == colour or (path & bit if path else not placed):
                del paths[key]

    def _place(self, i: int) -> None:
        colour = self.draft
        bit = 1 << i
        self._changed(i, colour, True)
        if self.half & bit or _CAP[i] == 1:
            self.half &= ~bit
            self.full |= bit
        else:
            self.half |= bit
        self.nets[colour] |= bit
        self.around[colour] |= _NEIGHBOURS[i]
        self.storage[colour] -= 1
        self._restock(colour)
        self.draft_hexes.append(i)
        if (i == MARSEILLE or len(self.draft_hexes) == MAX_BUILD or not self.storage[colour]
                or not self.has_legal(colour)):
            self._commit()

    def _undo(self) -> None:
        colour = self.draft
        if not self.draft_hexes:
            self.draft = -1
            return
        i = self.draft_hexes.pop()
        bit = 1 << i
        self._changed(i, colour, False)
        if self.full & bit and _CAP[i] == 2:
            self.full &= ~bit
            self.half |= bit
        else:
            self.full &= ~bit
            self.half &= ~bit
        self.nets[colour] &= ~bit
        self.around[colour] = expand(self.nets[colour])
        self.storage[colour] += 1
        self._restock(colour)

    def _commit(self) -> None:
        colour, hexes = self.draft, self.draft_hexes
        self.values[colour] += sum(_VALUE[i] for i in hexes)
        self.draft = -1
        self.draft_hexes = []
        if MARSEILLE in hexes:
            self._end("marseille")
        else:
            self._end_action()

    def _trade(self, give: int, take: int, count: int) -> None:
        held = self.holdings[self.to_move]
        held[give] -= 1
        self.storage[give] += 1
        self.storage[take] -= count
        held[take] += count
        self.held[self.to_move] = (self.held[self.to_move] | 1 << take) & ~(0 if held[give] else 1 << give)
        self._restock(give)
        self._restock(take)
        self._end_action()

    def _end_action(self) -> None:
        if self.stocked.bit_count() <= 1:
            self._end("storage")
            return
        n = self.n
        while True:
            self.turns += 1
            self.to_move = (self.to_move + 1) % n
            if self._can_act(self.to_move):
                return

    def _can_act(self, seat: int) -> bool:
        # Two storage boards or more hold locomotives (else the game is over), so whoever holds
        # any locomotive can trade.
        if any(self.holdings[seat]):
            return True
        return any(self.can_build(c) for c in range(_C))

    def _end(self, reason: str) -> None:
        self.turns += 1
        self.finished = True
        self.end_reason = reason

    # --- Scoring ---------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        values, limit = self.values, self.limit
        return tuple(sum(v * k for v, k in zip(values, held, strict=True)) - PENALTY * max(0, sum(held) - limit)
                     for held in self.holdings)

    @property
    def winners(self) -> tuple[int, ...]:
        scores = self.scores()
        best = max(scores)
        return tuple(seat for seat, s in enumerate(scores) if s == best)
