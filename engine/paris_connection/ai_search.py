"""The strong Paris Connection AI: determinized Monte Carlo over the normal AI's best turns.

What the seat knows (``Knowledge.of(view, log)``, from ``match.view(seat)`` and
``match.log_for(seat)`` only): the board, values, storage boards, screen sizes and its own
holdings (the view); every trade, with who made it (public ``Traded`` events). What the other
screens hold together of each colour is public arithmetic; how it is split is not.

A *determinization* splits that pool between the other screens at random (each screen its
size) consistent with every public trade: undoing each seat's trades from the newest back,
the seat must have held what it took. A uniform split is tried a few times; when none fits,
each seat first gets the least its trades prove it holds, and the rest is shared at random.

The search: the normal AI's best turns (``CANDIDATES`` of them, by its own worths: a trade, or
a build along the normal AI's plan) are each played on the same determinization and then to the
end of the game by a quick policy for every seat (``_rollout``: build the colour a seat holds
most of beyond its rivals towards the best free city within reach, else trade its cheapest
colour for the dearest), on the bitset playout state (playout.py). The reward of a finished
game for a seat: half its share of the victory, half its score margin over the best other seat
(clipped at +-``MARGIN_SCALE`` points). Every candidate is played on the same determinizations
with the same random numbers (paired samples), and the normal AI's turn is kept unless another
beat it by more than ``CONFIDENCE`` standard errors of the paired differences.

Inside a build (after ``build:COLOUR``) the strong level places as the normal AI does: the
search chose the build, the normal AI's plan carries it out.

Budget: seconds (a float) or playouts (an int, rounded up to whole determinizations); with
playouts the move is a function of the seed and what the seat sees.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.search import SearchResult, checked_budget, confident_best, mean_rewards, play_on_equal_luck

from . import board as B
from .actions import DONE, Build, Choice, Trade
from .ai import _Mind, choose
from .events import Traded
from .game import MAX_BUILD, PER_COMPANY
from .playout import CITIES, COMPANIES, INDEX, Playout, bits
from .view import ConnectionView

CANDIDATES = 6             # the normal AI's best turns that the search compares
CONFIDENCE = 1.0           # standard errors by which a turn must beat the normal AI's choice
MARGIN_SHARE = 0.5         # part of the reward that comes from the score margin (rest: winning)
MARGIN_SCALE = 30.0        # a margin of this many points is worth the whole margin share
DRAWS = 10                 # uniform splits of the hidden pool tried for one consistent with the trades
BUILD_ONLY_CYCLE = 20      # rollouts: from this cycle on every seat builds when it can (as the AIs do)
MAX_TURNS = 600            # rollouts: a safety stop (games between quick policies end far sooner)
_C = len(COMPANIES)
_COLOUR = {c: i for i, c in enumerate(COMPANIES)}


def _hex_distance(a: B.HexCell, b: B.HexCell) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


# For each hex, the cities by distance (as the crow flies, in hexes): a quick policy's compass.
_CITY_CELLS = B.cities()
_NEAREST = {INDEX[h]: sorted((_hex_distance(cell, city), INDEX[city.id], city.value) for city in _CITY_CELLS)
            for h, cell in B.HEXES.items()}
_CITY_VALUE = {INDEX[c.id]: c.value for c in _CITY_CELLS}


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of a game, and all the search reads of it."""

    view: ConnectionView
    seat: int
    pool: tuple[int, ...]                         # per colour: what the other screens hold together
    trades: tuple[tuple[int, int, int, int], ...]  # (seat, give, take, count), oldest first

    @classmethod
    def of(cls, view: ConnectionView, log: Sequence[Any]) -> Knowledge:
        seat = view.viewer
        if seat is None or view.holdings is None:
            raise ValueError("the search plays for a seat: give it that seat's view")
        on_board = dict.fromkeys(COMPANIES, 0)
        for colours in view.board.values():
            for c in colours:
                on_board[c] += 1
        if view.draft is not None:
            on_board[view.draft.colour] += len(view.draft.hexes)
        # Each colour: 33 = board (start hex included) + value track + storage + screens.
        pool = tuple(PER_COMPANY - 1 - on_board[c] - view.storage[c] - view.holdings[c] for c in COMPANIES)
        trades = tuple((e.seat, _COLOUR[e.give], _COLOUR[e.take], e.count) for e in log
                       if isinstance(e, Traded) and e.seat != seat)
        return cls(view, seat, pool, trades)

    def determinize(self, rng: random.Random) -> list[dict[str, int]]:
        """Every seat's holdings: its own as seen, the others' a split of the pool that agrees
        with their public trades. A uniform split is drawn up to ``DRAWS`` times; failing that,
        each seat first gets the least its trades prove it holds (``needs``) and the rest of
        the pool is shared out at random."""
        view = self.view
        chips = [c for c in range(_C) for _ in range(self.pool[c])]
        split: list[list[int]] = []
        for _ in range(DRAWS):
            rng.shuffle(chips)
            split = self._deal(chips, [[0] * _C for _ in view.screens])
            if not self._misses(split):
                break
        else:
            needs = self.needs()
            rest = list(chips)
            for seat_needs in needs:
                for c, k in enumerate(seat_needs):
                    for _ in range(k):
                        rest.remove(c)
            rng.shuffle(rest)
            split = self._deal(rest, [need[:] for need in needs])
        own = view.holdings
        assert own is not None, "a seat's own view holds its holdings"
        return [dict(own) if seat == self.seat else dict(zip(COMPANIES, counts, strict=True))
                for seat, counts in enumerate(split)]

    def _deal(self, chips: list[int], start: list[list[int]]) -> list[list[int]]:
        """Fill each other screen from ``start`` up to its size with ``chips`` in order."""
        at = 0
        for seat, size in enumerate(self.view.screens):
            if seat == self.seat:
                continue
            counts = start[seat]
            take = size - sum(counts)
            for c in chips[at:at + take]:
                counts[c] += 1
            at += take
        return start

    def needs(self) -> list[list[int]]:
        """Per other seat and colour, the least it must hold now for its trades to have been
        possible: undoing them from the newest back, each take must have been there (nothing
        for the seat itself, whose holdings are known)."""
        need = [[0] * _C for _ in self.view.screens]
        balance = [[0] * _C for _ in self.view.screens]     # takes minus gives, newest first
        for seat, give, take, count in reversed(self.trades):
            balance[seat][take] += count
            need[seat][take] = max(need[seat][take], balance[seat][take])
            balance[seat][give] -= 1
        return need

    def _misses(self, split: list[list[int]]) -> int:
        """How many public trades the split contradicts (undoing them from the newest back)."""
        held = [counts[:] for counts in split]
        misses = 0
        for seat, give, take, count in reversed(self.trades):
            counts = held[seat]
            if counts[take] < count:
                misses += 1
                counts[take] = 0
            else:
                counts[take] -= count
            counts[give] += 1
        return misses


def choose_strong(match, seat: int, *, seed: int, budget: float | int | None = None) -> Choice:
    """The strong AI's next step for ``seat``, from its view and log only."""
    view = match.view(seat)
    if view.draft is not None:
        return choose(match, seat, seed=seed, level="normal")
    return search(Knowledge.of(view, match.log_for(seat)), match.legal_choices(seat), seed=seed,
                  budget=budget).best


def search(knowledge: Knowledge, choices: list[Choice], *, seed: int,
           budget: float | int | None = None) -> SearchResult[Choice]:
    """Compare the normal AI's best turns by playouts on determinizations."""
    budget = checked_budget(budget)
    view = knowledge.view
    rng = random.Random(seed)
    mind = _Mind(view, random.Random(seed))
    scored = sorted(mind.scored(choices), key=lambda s: (s[0], s[1]), reverse=True)
    if len(scored) < 2:
        return SearchResult(scored[0][2] if scored else choices[0], 0, {})
    steps = {choice: _steps(mind, choice) for _, _, choice in scored[:CANDIDATES]}

    def play(root: Playout, choice: Choice, luck: int) -> float:
        trial = root.copy()
        _play_turn(trial, steps[choice])
        return _rollout(trial, random.Random(luck))[knowledge.seat]

    rewards, playouts = play_on_equal_luck(steps, lambda: Playout.from_view(view, knowledge.determinize(rng)),
                                           play, budget=budget, rng=rng)
    best = confident_best(scored[0][2], rewards, CONFIDENCE)
    return SearchResult(best, playouts, mean_rewards(rewards))


def _steps(mind, choice: Choice) -> list[Choice | int]:
    """A turn as steps: a trade, or a build along the normal AI's plan (its hexes by index)."""
    if isinstance(choice, Build):
        hexes, _ = mind.plan(choice.colour, min(MAX_BUILD, mind.view.storage[choice.colour]))
        return [choice, *(INDEX[h] for h in hexes)]
    return [choice]


def _play_turn(game: Playout, steps: list) -> None:
    """Play a candidate turn on a determinization (a build stops where its plan is no longer
    legal; it has at least its first hex, which the public board makes legal everywhere)."""
    first, *hexes = steps
    if isinstance(first, Trade):
        game.advance(first)
        return
    game.advance(first)
    placed = False
    for i in hexes:
        if game.draft < 0:
            break
        legal = game.legal_mask(game.draft)
        if not legal >> i & 1:
            if placed:
                break
            i = (legal & -legal).bit_length() - 1     # the plan's first hex is barred: the first legal one
        game._place(i)
        placed = True
    if game.draft >= 0:
        game.advance(DONE)


# --- The quick policy ------------------------------------------------------------------------

def _rollout(game: Playout, rng: random.Random) -> list[float]:
    """Play to the end with the quick policy for every seat; each seat's reward in [0, 1]."""
    while not game.finished and game.turns < MAX_TURNS:
        _quick_turn(game, rng)
    return rewards(game.scores())


def _quick_turn(game: Playout, rng: random.Random) -> None:
    seat, n = game.to_move, game.n
    held = game.holdings[seat]
    storage = game.storage
    totals = [sum(column) for column in zip(*game.holdings, strict=True)]
    lead = [held[c] - totals[c] / n for c in range(_C)]       # against the table's mean
    late = game.cycle >= BUILD_ONLY_CYCLE
    colour, best = -1, 0.0 if not late else -math.inf
    for c in range(_C):
        if storage[c] and lead[c] > best and game.has_legal(c):
            colour, best = c, lead[c]
    if colour >= 0 and (late or best >= 1.0 or rng.random() < 0.3):
        _quick_build(game, colour, rng)
        return
    _quick_trade(game, seat, rng)


def _quick_build(game: Playout, colour: int, rng: random.Random) -> None:
    """Build towards the best free city within sight, and stop on reaching one."""
    game.advance(Build(COMPANIES[colour]))
    full = game.full
    for _ in range(MAX_BUILD):
        mask = game.legal_mask(colour)
        if not mask:
            break
        cities = mask & CITIES
        if cities:
            target = max(bits(cities), key=lambda i: (_CITY_VALUE[i], rng.random()))
        else:
            target, best = -1, -1.0
            for i in bits(mask):
                for dist, city, value in _NEAREST[i]:
                    if not full >> city & 1:
                        score = value * 0.75 ** dist + rng.random() * 1e-3
                        if score > best:
                            target, best = i, score
                        break
            if target < 0:
                target = (mask & -mask).bit_length() - 1
        game._place(target)
        if game.draft < 0 or cities:
            break
        full = game.full
    if game.draft >= 0:
        game.advance(DONE)


def _quick_trade(game: Playout, seat: int, rng: random.Random) -> None:
    """Give back the cheapest colour held for two (one near the limit) of the dearest on offer;
    failing any trade, build whatever can be built."""
    held, storage, values = game.holdings[seat], game.storage, game.values
    gives = [c for c in range(_C) if held[c]]
    takes = [c for c in range(_C) if storage[c]]
    give = min(gives, key=lambda c: (values[c], rng.random()))
    options = [t for t in takes if t != give]
    if not options:
        give = next((g for g in gives if any(t != g for t in takes)), -1)
        options = [t for t in takes if t != give]
    if give < 0 or not options:
        colour = next(c for c in range(_C) if game.can_build(c))
        _quick_build(game, colour, rng)
        return
    take = max(options, key=lambda c: (values[c] + 0.5 * held[c], rng.random()))
    count = 2 if storage[take] >= 2 and sum(held) + 1 <= game.limit else 1
    game.advance(Trade(COMPANIES[give], COMPANIES[take], count))


def rewards(scores: tuple[int, ...]) -> list[float]:
    """Each seat's reward: part its share of the victory, part its margin over the best other."""
    top = max(scores)
    winners = sum(1 for s in scores if s == top)
    out = []
    for seat, score in enumerate(scores):
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        margin = max(-1.0, min(1.0, (score - best_other) / MARGIN_SCALE))
        win = 1.0 / winners if score == top else 0.0
        out.append((1 - MARGIN_SHARE) * win + MARGIN_SHARE * (0.5 + 0.5 * margin))
    return out
