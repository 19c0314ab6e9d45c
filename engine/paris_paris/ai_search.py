"""The strong AI: information-set Monte Carlo tree search (single observer, UCT) over the engine.

Each iteration deals one *determinization*: a complete game that agrees with everything the
searching seat may see and fills in what it may not, at random and consistently with what it
saw:

* the other players' markers: distinct colours from those that are neither its own nor the
  face-up one;
* the face-down stacks: the tiles not yet revealed (the box minus every stack turned up so
  far, all of them public), shuffled into as many stacks as are left;
* the bag: not a secret in fact, since every eviction is public; it is counted from the
  public log.

It is built from ``view(seat)`` and ``log_for(seat)`` only (``Knowledge``), so two games that
differ only in what the seat cannot see give the same search, move for move.

Every root move is then tried on that determinization (paired samples: the root compares its
moves on the same luck). Below each root move one tree is shared by all determinizations, and
it searches the seat's own moves only: a move that is not legal in a determinization is
skipped, UCT counts how often each child was *available*, and a node grows children only once
it has been visited ``EXPAND_AFTER`` times. The other seats play the normal AI's move in the
tree as in the rollouts, so the search has one model of its opponents everywhere. From
the tree's edge the game is played out with the normal AI's heuristic for every seat; the
result (half the share of the victory, half the score margin) is backed up for each node from
the point of view of the seat that made its move. The normal AI's move is played unless another
root move beat it on the same determinizations by more than a standard error (``CONFIDENCE``).

Budget: seconds (a float) or playouts (an int). With playouts the search is deterministic for a
seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.search import SearchResult, checked_budget, confident_best, play_on_equal_luck

from . import board as B
from .actions import Pick
from .ai import move_values, unseen_tiles_in
from .events import RoundStarted, ShopEvicted
from .game import Game
from .view import GameView

EXPLORATION = 0.7          # UCT's constant, for rewards in [0, 1]
MARGIN_SHARE = 0.5         # part of the reward that comes from the score margin (rest: winning)
MARGIN_SCALE = 20.0        # a margin of this many points is worth the whole margin share
EXPAND_AFTER = 8           # visits before a node below the root grows children
CONFIDENCE = 1.0           # standard errors by which a move must beat the normal AI's choice
_BOX = sorted(s * 5 + c for s, c in B.TILES)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of a game, and all the search reads of it."""

    view: GameView
    seat: int
    revealed: tuple[tuple[int, ...], ...]   # stacks turned up so far, in order (public)
    unseen: tuple[int, ...]                 # tile codes not yet revealed, sorted
    free_markers: tuple[int, ...]           # colours the other seats' markers may be
    bag: tuple[int, ...]                    # shops in the bag per seat (counted from public evictions)

    @classmethod
    def of(cls, view: GameView, log: Sequence[Any]) -> Knowledge:
        """From a seat's view and its log (``log_for(seat)``): nothing else is read."""
        seat = view.viewer
        if seat is None or view.marker is None:
            raise ValueError("the search plays for a seat: give it that seat's view")
        revealed = tuple(tuple(t.code for t in e.offer) for e in log if isinstance(e, RoundStarted))
        unseen = list(_BOX)
        for stack in revealed:
            for code in stack:
                unseen.remove(code)
        bag = [0] * len(view.players)
        for event in log:
            if isinstance(event, ShopEvicted) and event.destination == "bag":
                bag[event.owner] += 1
        known = {B.COLOUR_INDEX[view.marker]}
        if view.open_marker is not None:
            known.add(B.COLOUR_INDEX[view.open_marker])
        free = tuple(c for c in range(len(B.COLOURS)) if c not in known)
        return cls(view, seat, revealed, tuple(unseen), free, tuple(bag))

    @property
    def marker(self) -> int:
        """The seat's own marker, a colour index (a seat's view shows it: ``of``)."""
        marker = self.view.marker
        assert marker is not None, "a seat's view shows its own marker"
        return B.COLOUR_INDEX[marker]

    def determinize(self, rng: random.Random) -> Game:
        """One complete game consistent with this knowledge."""
        view = self.view
        n = len(view.players)
        size = n + 1
        tiles = list(self.unseen)
        rng.shuffle(tiles)
        face_down = [tuple(tiles[i * size:(i + 1) * size]) for i in range(view.stacks_left)]
        others = rng.sample(self.free_markers, n - 1)
        own = self.marker
        markers = tuple(own if s == self.seat else others.pop() for s in range(n))
        return Game.sampled(view, stacks=list(self.revealed) + face_down, markers=markers, bag=self.bag)


class _Node:
    __slots__ = ("children", "visits", "available", "total")

    def __init__(self) -> None:
        self.children: dict[Pick, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0        # summed rewards of the seat whose move led here


def choose_strong(view: GameView, log: Sequence[Any], *, seed: int, budget: float | int | None = None) -> Pick:
    """The searched move for ``view.viewer`` (who must be to move). ``budget``: seconds (float),
    playouts (int) or None (``engine.search.DEFAULT_SECONDS``)."""
    return search(Knowledge.of(view, log), seed=seed, budget=budget).best


def search(knowledge: Knowledge, *, seed: int, budget: float | int | None = None) -> SearchResult[Pick]:
    """Search from the knowledge's position. A playout budget is rounded up to whole
    determinizations (each tries every root move once)."""
    view = knowledge.view
    if view.to_move != knowledge.seat:
        raise ValueError(f"seat {knowledge.seat} is not to move")
    budget = checked_budget(budget)
    rng = random.Random(seed)
    game = knowledge.determinize(rng)
    actions = game.legal_actions()
    if len(actions) == 1:
        return SearchResult(actions[0], 0, {actions[0]: 0.0})
    root = {action: _Node() for action in actions}
    first = [game]

    def next_sample() -> Game:
        return first.pop() if first else knowledge.determinize(rng)

    def play(sample: Game, action: Pick, tree_seed: int) -> float:
        # Every root move is tried on the same determinization, and the trees below them draw
        # the same random numbers: the root compares its moves on equal luck, which removes most
        # of the noise the hidden information brings.
        trial = sample.copy()
        trial.advance(action)
        return _iterate(root[action], trial, random.Random(tree_seed), knowledge.seat)

    rewards, playouts = play_on_equal_luck(actions, next_sample, play, budget=budget, rng=rng)
    best = _confident_best(game, actions, rewards)
    # A time budget can run out before every root move was tried once: an untried move has no
    # mean yet, and it is left out (the best is then the normal AI's move, as nothing was compared).
    values = {a: node.total / node.visits for a, node in root.items() if node.visits}
    return SearchResult(best, playouts, values)


def _confident_best(game: Game, actions: list[Pick], rewards: dict[Pick, list[float]]) -> Pick:
    """The normal AI's move, unless another move beat it clearly on equal luck (``confident_best``)."""
    unseen = unseen_tiles_in(game.stacks[game.round:])   # the same multiset in every determinization
    values = dict(move_values(game, unseen=unseen))
    return confident_best(max(actions, key=values.__getitem__), rewards, CONFIDENCE)


def _iterate(top: _Node, game: Game, rng: random.Random, top_seat: int) -> float:
    """One ISMCTS descent below the root move ``top`` (just played by ``top_seat``) on a
    determinization ``game``, then a rollout, backed up along the path; returns the reward of
    ``top_seat``."""
    path: list[tuple[_Node, int]] = [(top, top_seat)]     # (node, seat whose move led to it)
    node = top
    # A node grows children only once it has been visited EXPAND_AFTER times: until then the
    # rollout (the normal AI's play) answers for everyone, so a small budget is a one-step
    # improvement on the normal AI rather than a shallow tree's noise.
    while not game.finished and node.visits >= EXPAND_AFTER:
        seat = game.seat_to_move
        children = node.children
        if seat != top_seat:
            # Another seat: it plays its model's move, as in the rollouts. Its move may differ
            # between determinizations (its marker is drawn), so the node keeps one child per
            # move seen.
            action = _modelled_move(game, unseen_tiles_in(game.stacks[game.round:]))
            seen = children.get(action)
            if seen is None:
                seen = children[action] = _Node()
            node = seen
            game.advance(action)
            path.append((node, seat))
            continue
        actions = game.legal_actions()
        untried = [a for a in actions if a not in children]
        if untried:
            action = untried[int(rng.random() * len(untried))]
            child = children[action] = _Node()
            for other in actions:
                if other in children:
                    children[other].available += 1
            game.advance(action)
            path.append((child, seat))
            break
        log_of = math.log
        best_score = -1.0
        action = actions[0]
        for candidate in actions:
            child = children[candidate]
            child.available += 1
            score = child.total / child.visits + EXPLORATION * math.sqrt(log_of(child.available) / child.visits)
            if score > best_score:
                best_score, action = score, candidate
        node = children[action]
        game.advance(action)
        path.append((node, seat))
    rewards = _rollout(game)
    for node, seat in path:
        node.visits += 1
        node.total += rewards[seat]
    return rewards[top_seat]


def _rollout(game: Game) -> list[float]:
    """Play ``game`` to its end with the normal AI's heuristic for every seat (its first best
    move, no random moves: they cost more points than the search could win back) and return
    each seat's reward in [0, 1]."""
    counted_in = -1
    while not game.finished:
        if counted_in != game.round:       # the face-down tiles change once a round
            unseen = unseen_tiles_in(game.stacks[game.round:])
            counted_in = game.round
        game.advance(_modelled_move(game, unseen))
    return rewards(game)


def _modelled_move(game: Game, unseen: list[int]) -> Pick:
    """The normal AI's first best move: how the search expects a seat to play (``unseen``: the
    tiles of each station still face down)."""
    best: Pick | None = None
    best_value = -math.inf
    for action, value in move_values(game, unseen=unseen):
        if value > best_value:
            best, best_value = action, value
    assert best is not None, "a game under way offers a move"
    return best


def rewards(game: Game) -> list[float]:
    """Each seat's reward for a finished game: part its share of the victory, part how far ahead
    of (or behind) the best other seat it finished (``MARGIN_SHARE``)."""
    scores = game.scores
    winners = game.winners
    out = []
    for seat, score in enumerate(scores):
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        margin = max(-1.0, min(1.0, (score - best_other) / MARGIN_SCALE))
        win = 1.0 / len(winners) if seat in winners else 0.0
        out.append((1 - MARGIN_SHARE) * win + MARGIN_SHARE * (0.5 + 0.5 * margin))
    return out
