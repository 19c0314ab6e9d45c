"""The default Paris Connection AI: one step at a time, from what its seat may see.

It reads ``match.view(seat)`` (the board, values, storage boards, screen sizes, its own
holdings, the draft) and ``match.legal_choices(seat)`` (its own options, which follow from
the same public facts): never another screen. What the others hold together of each colour
is public arithmetic (33 locomotives a colour, minus the board, the storage board, the start
and the value track); how it is split between them is not, so each opponent is assumed to
hold their screen's share of it.

How it plays: a build is worth the value it adds times how much more of that colour the AI
holds than an average opponent; a trade is worth what it takes minus what it gives back, at
the companies' values plus part of what they can still gain, less any holding penalty, and
scaled by ``TRADE_WEIGHT`` (so the AIs build a little more than they would trade). It
steers towards the end of the game (emptying storage boards, reaching Marseille) when its
estimated score leads, and away from it when behind; late in any game it steers towards the
end regardless, and later still it only builds, so that games between AIs always end.
Within a build it follows a plan (cities within reach of the locomotives left) recomputed
at every step, and stops when the rest of the plan adds nothing. Ties are broken by a ``random.Random(seed)``.

The easy level weighs the same worths but draws its action at random, favouring the better
ones (``EASY_TEMPERATURE``), and sometimes ends a build early, as a beginner does.
"""

from __future__ import annotations

import math
import random
from collections import deque

from . import board as B
from .actions import DONE, UNDO, Build, Choice, Place, Trade
from .game import MAX_BUILD, PENALTY, PER_COMPANY

_COMPANIES = B.COMPANIES
_CITY_VALUE = {c.id: c.value for c in B.cities()}
_CAPACITY = {h: cell.capacity for h, cell in B.HEXES.items()}
_NEIGHBOURS = {h: B.neighbours(h) for h in B.HEXES}
_MARSEILLE = B.marseille()
_ORDER = {h: i for i, h in enumerate(B.HEXES)}

PROGRESS_WEIGHT = 0.5     # a step towards a city counts for this share of what the city adds
FUTURE_WEIGHT = 0.5       # a company is worth its value plus this share of what it can still gain
TEMPO = 1.5               # worth of each locomotive an action takes off the storage boards when
                          # the AI wants the end
TRADE_WEIGHT = 0.7        # a trade's worth is scaled by this against a build's: at full weight
                          # the AIs trade up to the holding limit (3 players: 18.6 actions a
                          # player); at 0.7 they build more (16.4) and lose little against
                          # full-weight AIs (0.91 of an even share of wins); lower costs strength
                          # (docs/games/paris-connection-map.md, "Tuning")
HURRY_CYCLE = 10          # from this turn cycle on every AI wants the end
BUILD_ONLY_CYCLE = 20     # and from this one it builds whenever it can: every build empties the
                          # storage boards a little, so games between AIs always finish


LEVELS = ("easy", "normal")
EASY_TEMPERATURE = 6.0    # easy: an action drawn with weight exp(worth / this), so a move worth a
                          # few points less than the best is still often played, as a beginner would
EASY_STOP_EARLY = 0.25    # easy: the chance of calling a build done while the plan still adds


def choose(match, seat: int, *, seed: int, level: str = "normal") -> Choice:
    """The AI's next step for ``seat`` at ``level`` ("easy" or "normal"); deterministic for a seed."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; Paris Connection has {', '.join(LEVELS)}")
    choices = match.legal_choices(seat)
    if not choices:
        raise ValueError(f"seat {seat} has nothing to choose now")
    view = match.view(seat)
    return _Mind(view, random.Random(seed), easy=level == "easy").pick(choices)


class _Mind:
    """One decision's worth of reasoning about one view."""

    def __init__(self, view, rng: random.Random, *, easy: bool = False) -> None:
        self.view = view
        self.rng = rng
        self.easy = easy
        self.n = len(view.players)
        self.occupancy: dict[str, list[str]] = {h: list(cs) for h, cs in view.board.items()}
        if view.draft is not None:
            for h in view.draft.hexes:
                self.occupancy.setdefault(h, []).append(view.draft.colour)
        self.mine = view.holdings
        on_board = {c: 0 for c in _COMPANIES}
        for colours in self.occupancy.values():
            for c in colours:
                on_board[c] += 1
        # Each colour: 33 = on the board (start hex included) + value track + storage + screens.
        self.others = {c: PER_COMPANY - 1 - on_board[c] - view.storage[c] - self.mine[c] for c in _COMPANIES}
        self.networks = {c: [h for h, cs in self.occupancy.items() if c in cs] for c in _COMPANIES}
        self.ahead = self._ahead()
        self.hurry = self.ahead or view.cycle >= HURRY_CYCLE
        self._passable_cache: dict[str, frozenset[str]] = {}
        self._potential_cache: dict[tuple[str, frozenset[str]], float] = {}

    # --- Estimates -------------------------------------------------------------------------

    def _score_of(self, holdings: dict[str, float]) -> float:
        return sum(self.view.values[c] * k for c, k in holdings.items())

    def _ahead(self) -> bool:
        view = self.view
        limit = view.holding_limit
        mine = self._score_of(self.mine) - PENALTY * max(0, sum(self.mine.values()) - limit)
        others_total = sum(self.others.values()) or 1
        pool = self._score_of(self.others)
        best = max(pool * view.screens[s] / others_total - PENALTY * max(0, view.screens[s] - limit)
                   for s in range(self.n) if s != view.viewer)
        return mine > best

    def weight(self, colour: str) -> float:
        """How much more of ``colour`` the AI holds than an average opponent."""
        return self.mine[colour] - self.others[colour] / (self.n - 1)

    def tempo(self, drained: int) -> float:
        """What taking ``drained`` locomotives off the storage boards is worth: bringing the end
        nearer is good only when the AI wants the end."""
        return drained * TEMPO if self.hurry else 0.0

    def ends_game(self, storage: dict[str, int]) -> bool:
        return sum(1 for c in _COMPANIES if storage[c]) <= 1

    # --- Planning builds -------------------------------------------------------------------

    def _passable(self, colour: str) -> frozenset[str]:
        """The hexes that could take a ``colour`` locomotive now (Marseille only when the AI
        would like the game to end)."""
        found = self._passable_cache.get(colour)
        if found is None:
            found = frozenset(
                h for h, capacity in _CAPACITY.items()
                if len(here := self.occupancy.get(h, ())) < capacity and colour not in here
                and (h != _MARSEILLE or self.hurry))
            self._passable_cache[colour] = found
        return found

    def _distances(self, colour: str, extra: frozenset[str]) -> tuple[dict[str, int], dict[str, str]]:
        """Steps from ``colour``'s lines (plus ``extra``, hexes just planned) to every hex it
        could take, through hexes it could take, and the way back (parents)."""
        sources = self.networks[colour] + sorted(extra, key=_ORDER.__getitem__)
        dist = dict.fromkeys(sources, 0)
        parent: dict[str, str] = {}
        passable = self._passable(colour)
        queue = deque(sources)
        while queue:
            here = queue.popleft()
            step = dist[here] + 1
            for nxt in _NEIGHBOURS[here]:
                if nxt not in dist and nxt in passable and nxt not in extra:
                    dist[nxt] = step
                    parent[nxt] = here
                    queue.append(nxt)
        return dist, parent

    def _potential(self, colour: str, extra: frozenset[str] = frozenset()) -> float:
        """What ``colour`` could still gain soon: the best city value, discounted by distance."""
        key = (colour, extra)
        found = self._potential_cache.get(key)
        if found is None:
            dist, _ = self._distances(colour, extra)
            found = max((_CITY_VALUE[h] * 0.8 ** (d - 1) for h, d in dist.items()
                         if d and h in _CITY_VALUE), default=0.0)
            self._potential_cache[key] = found
        return found

    def plan(self, colour: str, budget: int) -> tuple[list[str], int]:
        """Up to ``budget`` hexes for ``colour``: cities within reach, greedily by value per
        locomotive, then the way towards the most promising city beyond (hexes in placing
        order, value gained)."""
        path: list[str] = []
        gain = 0
        extra: frozenset[str] = frozenset()
        while len(path) < budget:
            dist, parent = self._distances(colour, extra)
            left = budget - len(path)
            cities = [h for h, d in dist.items() if d and h in _CITY_VALUE]
            reachable = [h for h in cities if dist[h] <= left]
            if reachable:
                goal = max(reachable, key=lambda h: (_CITY_VALUE[h] / dist[h], -_ORDER[h]))
                gain += _CITY_VALUE[goal]
            elif cities:
                goal = max(cities, key=lambda h: (_CITY_VALUE[h] * 0.8 ** dist[h], -_ORDER[h]))
            else:
                break
            steps = [goal]
            while dist[steps[-1]] > 1:
                steps.append(parent[steps[-1]])
            steps = steps[::-1][:left]
            path += steps
            extra |= frozenset(steps)
            if not reachable:
                break
        return path, gain

    def build_worth(self, colour: str, hexes: list[str], gain: int) -> float:
        """A build's worth in points relative to an average opponent."""
        progress = self._potential(colour, frozenset(hexes)) - self._potential(colour) if not gain else 0.0
        return self.weight(colour) * (gain + PROGRESS_WEIGHT * max(progress, 0.0))

    # --- Trades ----------------------------------------------------------------------------

    def future(self, colour: str) -> float:
        return self.view.values[colour] + FUTURE_WEIGHT * self._potential(colour)

    def trade_worth(self, trade: Trade, futures: dict[str, float]) -> float:
        limit = self.view.holding_limit
        held = sum(self.mine.values())
        penalty = PENALTY * (max(0, held + trade.count - 1 - limit) - max(0, held - limit))
        return trade.count * futures[trade.take] - futures[trade.give] - penalty

    # --- Choosing --------------------------------------------------------------------------

    def pick(self, choices: list[Choice]) -> Choice:
        if self.view.draft is not None:
            return self._next_step(choices)
        scored = self.scored(choices)
        if not scored:                             # every build plan is empty: any legal choice
            return choices[0]
        if self.easy:
            top = max(w for w, _, _ in scored)
            weights = [math.exp((w - top) / EASY_TEMPERATURE) for w, _, _ in scored]
            return self.rng.choices([c for _, _, c in scored], weights=weights)[0]
        return max(scored, key=lambda s: (s[0], s[1]))[2]

    def scored(self, choices: list[Choice]) -> list[tuple[float, float, Choice]]:
        """Each turn action's worth, with a random tie-break (builds whose plan is empty are
        left out; late in the game only builds, when there are any)."""
        if self.view.cycle >= BUILD_ONLY_CYCLE:
            choices = [c for c in choices if isinstance(c, Build)] or choices
        scored: list[tuple[float, float, Choice]] = []
        futures = {c: self.future(c) for c in _COMPANIES}
        for choice in choices:
            storage = dict(self.view.storage)
            if isinstance(choice, Build):
                hexes, gain = self.plan(choice.colour, min(MAX_BUILD, storage[choice.colour]))
                if not hexes:
                    continue
                worth = self.build_worth(choice.colour, hexes, gain)
                storage[choice.colour] -= len(hexes)
                drained = len(hexes)
                if _MARSEILLE in hexes:
                    worth += 100.0                 # planned only when the AI wants the end
            else:
                assert isinstance(choice, Trade), "a turn's actions are builds and trades"
                worth = TRADE_WEIGHT * self.trade_worth(choice, futures)
                storage[choice.give] += 1
                storage[choice.take] -= choice.count
                drained = choice.count - 1
            worth += self.tempo(drained)
            if self.ends_game(storage):
                worth += 100.0 if self.hurry else -100.0
            scored.append((worth, self.rng.random(), choice))
        return scored

    def _next_step(self, choices: list[Choice]) -> Choice:
        """During a build: the plan's next hex if legal, the legal hex nearest its goal
        otherwise, or done when the rest of the plan adds nothing."""
        draft = self.view.draft
        legal = [c for c in choices if isinstance(c, Place)]
        budget = min(MAX_BUILD - len(draft.hexes), self.view.storage[draft.colour])
        hexes, gain = self.plan(draft.colour, budget)
        worth = self.build_worth(draft.colour, hexes, gain) + self.tempo(len(hexes)) if hexes else 0.0
        stop = DONE if DONE in choices else UNDO
        if not legal or worth <= 0 and draft.hexes:
            return stop
        if self.easy and draft.hexes and DONE in choices and self.rng.random() < EASY_STOP_EARLY:
            return DONE
        if hexes and Place(hexes[0]) in legal:
            return Place(hexes[0])
        if not hexes:
            return stop if draft.hexes else legal[0]
        goal = B.HEXES[hexes[-1]]
        return min(legal, key=lambda p: (_hex_distance(B.HEXES[p.hex], goal), self.rng.random()))


def _hex_distance(a: B.HexCell, b: B.HexCell) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))
