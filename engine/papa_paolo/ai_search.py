"""The strong Papà Paolo AI: determinized rollouts of the normal AI's best choices to the round's end.

What the seat knows (``Knowledge.of(view, log)``, from ``match.view(seat)`` and
``match.log_for(seat)`` only): the board, staircase, neighbourhoods, tracks, its own Lire (the
view); every round's grid, coins and investment tiles as they were turned up (public
``RoundStarted`` events; a face-down coin is the one value of the round's set not shown); every
seat's Lire, counted from the public events that move them (with ``hidden_money`` a player can
count them too: every amount gained or paid is public). Hidden: the order of the city tiles,
coins and investment tiles not yet turned up, and the delivery plans of other seats.

A *determinization* is a ``Game`` built from that knowledge alone: the tiles, coins and
investment tiles still to come shuffled (a face-down coin of a later round drawn at random), and
no other seat's plan under way (they plan again, as the normal AI would).

The search (determinized flat Monte Carlo with paired samples, as the other games' strong
levels): at the start of a decision (a grid space, a staircase space, an investment tile, track
or action), the normal AI's ``CANDIDATES`` best choices by its own worths are each played on the
same determinization, and then every seat plays as the normal AI (same random numbers for every
candidate) to the end of the round, or of the game in the last round. Inside a decision (the
square and rotation of a tile, an action's details, a delivery plan) the strong level plays as
the normal AI: the search chose the decision, the normal AI carries it out.

Within a round the hidden information barely matters (only the tiles, coins and investments of
later rounds are unknown), so the rollouts are nearly deterministic: few determinizations tell
the candidates apart. A finished round is scored by ``standing``: the points banked (pizzas
delivered, the lowest track, maxed tracks) plus what the normal AI would count the rest worth
(Lire, pizzas in stock for open houses, open houses, tracks). The reward of a seat: its
margin over the best other seat (clipped at +-``MARGIN_SCALE``); at the end of the game half the
share of the victory and half the margin, as in the other games. The normal AI's choice is kept
unless another beat it on the same determinizations by more than ``CONFIDENCE`` standard errors
(``engine.search.confident_best``), or, when a time budget allowed only one determinization, by
``SINGLE_GAIN`` on it (a search at the start of a round at 4 players makes about 80-110 playouts
a second of one core's time, docs/ai.md; a loaded machine gives it far less).

The rollouts ask the normal AI for every seat's steps (``_normal_choice``) with what it reads of
the seat's view (``view.sight_of``: the view's fields it weighs, not every neighbourhood listed
nor the legal steps as text) and the seat's own squares: the same choices as ``ai.choose`` on a
match of the determinization, several times faster.

Budget: seconds (a float) or playouts (an int, rounded up to whole determinizations); with
playouts the choice is a function of the seed and what the seat sees.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.search import (
    SearchResult,
    checked_budget,
    confident_best,
    mean_rewards,
    play_on_equal_luck,
)

from . import components as C
from .actions import Player
from .ai import LIRA, _Mind, choose, hood_of, pick
from .events import (
    CoinAwarded,
    ExpressDelivered,
    GameStarted,
    InvestmentTaken,
    PhaseEnded,
    PizzasBought,
    PizzeriaBuilt,
    RoundStarted,
    Sponsored,
    StairsPaid,
)
from .game import Game
from .hood import Hood, reading_order
from .phases import Phase
from .stepper import apply_step, legal_steps, without_shortcuts
from .steps import Step
from .view import PapaView, sight_of

CANDIDATES = 5           # the normal AI's best choices that the search compares
CONFIDENCE = 1.0         # standard errors by which a choice must beat the normal AI's
SINGLE_GAIN = 0.02       # reward by which a choice must beat the normal AI's on a single determinization
MARGIN_SHARE = 0.5       # at the game's end: part of the reward from the score margin (rest: winning)
MARGIN_SCALE = 12.0      # a margin of this many points is worth the whole margin
PIZZA = 0.8              # a pizza in stock with an open house for it (a point, most likely)
HOUSE = 0.35             # an open house (a point if a pizza reaches it in time)
TRACK_STEP = 0.3         # a track step above the lowest (stronger actions, nearer the next level)
SEARCHED = (Phase.PLACE, Phase.BID, Phase.SETTLE, Phase.LATE, Phase.INVEST)   # phases whose decisions start with one step


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows of a game, and all the search reads of it."""

    view: PapaView
    seat: int
    starting: tuple[str, ...]
    grids: tuple[tuple[str | None, ...], ...]       # each round's grid as dealt, so far
    coins: tuple[tuple[int, ...], ...]              # each round's coins, the face-down one filled in
    face_down: tuple[int, ...]                      # each round's face-down coin (first_player_coin)
    investments: tuple[tuple[str, ...], ...]        # each round's investment tiles, one a colour
    lire: tuple[int, ...]                           # every seat's Lire, counted from public events

    @classmethod
    def of(cls, view: PapaView, log: Sequence[Any]) -> Knowledge:
        seat = view.viewer
        if seat is None:
            raise ValueError("the search plays for a seat: give it that seat's view")
        n = len(view.players)
        starting: tuple[str, ...] = ()
        grids, coins, down, invest = [], [], [], []
        lire = [C.START_LIRE] * n
        for e in log:
            if isinstance(e, GameStarted):
                starting = e.starting_tiles
            elif isinstance(e, RoundStarted):
                grids.append(e.grid)
                shown = e.coins
                hidden = list(C.BOARDS[n].coins)
                if None in shown:
                    for v in shown:
                        if v is not None:
                            hidden.remove(v)
                    down.append(shown.index(None))
                # The face-down coin (None: one at most) is the one the round's coins leave.
                coins.append(tuple(hidden[0] if v is None else v for v in shown))
                invest.append(e.investment_tiles)
            elif isinstance(e, CoinAwarded) and e.seat is not None:
                lire[e.seat] += e.value
            elif isinstance(e, Sponsored):
                lire[e.seat] += e.lire
            elif isinstance(e, PizzasBought | PizzeriaBuilt | StairsPaid):
                lire[e.seat] -= e.cost
            elif isinstance(e, ExpressDelivered):
                lire[e.seat] -= e.fee
            elif isinstance(e, InvestmentTaken) and e.late:
                lire[e.seat] -= C.LATE_PRICE
        lire[seat] = view.lire[seat]
        return cls(view, seat, starting, tuple(grids), tuple(coins), tuple(down), tuple(invest), tuple(lire))

    def determinize(self, rng: random.Random) -> Game:
        """One complete game consistent with this knowledge, at the position the view shows."""
        v = self.view
        n = len(v.players)
        board = C.BOARDS[n]
        size = board.rows * board.cols
        seen = [t for grid in self.grids for t in grid]
        rest = sorted(set(C.CITY_IDS) - set(seen))
        rng.shuffle(rest)
        coins = list(self.coins)
        down = list(self.face_down)
        for _ in range(len(coins), C.ROUNDS):
            later = list(board.coins)
            rng.shuffle(later)
            coins.append(tuple(later))
            down.append(rng.randrange(len(later)))
        stacks: dict[str, tuple[str, ...]] = {}
        for i, colour in enumerate(C.COLOURS):
            shown = [tiles[i] for tiles in self.investments]
            unseen = [t for t in C.INVESTMENT_BY_COLOUR[colour] if t not in shown]
            rng.shuffle(unseen)
            stacks[colour] = tuple(shown + unseen)
        g = Game.__new__(Game)
        g.shares = False          # a guess: nothing of it goes into the shared table
        g.players, g.n, g.seed, g.options = v.players, n, None, dict(v.options)
        g.board, g.starting = board, self.starting
        g.city_stack = tuple(seen) + tuple(rest)
        g.coin_setup = tuple(coins)
        g.face_down = tuple(down) if v.options["first_player_coin"] else None
        g.inv_stacks = stacks
        g.round, g.phase, g.order = v.round, Phase(v.phase), list(v.order)
        acting = v.to_act[0] if v.to_act else v.order[0]
        g.turn = g.order.index(acting)
        g.grid = list(v.grid)
        g.markers = {r * board.cols + c: s for (r, c), s in v.markers.items()}
        g.left = [C.MARKERS - sum(1 for s in v.markers.values() if s == seat) for seat in range(n)]
        g.coins = list(coins[v.round - 1])
        g.dealt = v.round * size
        g.discarded, g.inv_used = [], []
        g.inv_open = list(v.investment_open)
        g.stairs_tiles = list(v.delivery_tiles)
        g.pos = dict(v.staircase)
        g.placed, g.out, g.bid_turns = set(v.staircase), set(v.out), 0
        g.inv_held, g.dlv_held = list(v.investment_held), list(v.delivery_held)
        # Last round's plans linger until the next delivery phase (the view lists who planned).
        g.plans, g.pending, g.drafts = {s: [] for s in v.planned}, [], {}
        g.people = [Player(hood_of(v, s), self.lire[s], dict(v.tracks[s])) for s in range(n)]
        g.supply = list(v.supply)
        g.track_steps, g.moves, g.by_seat, g._texts, g._unwritten = [0] * n, [], [0] * n, [], []
        # The stretches closed so far, so the determinization's views equal the game's.
        g._log = [PhaseEnded(r, phase) for r, phase in v.stretches]
        g._quiet, g._replayed = False, ()
        g.phases_ended, g.stretches = len(v.stretches), v.stretches
        g.coin_paid = []
        g.acted = 0                                            # the stretch's pictures: none here
        g.lire_history = (tuple(self.lire),)                   # only the final picture reads it
        g.finished, g.winners, g.final = False, (), None
        g.queue = _queue(g, acting)
        return g


def _queue(g: Game, acting: int) -> list[int]:
    """The seats still to settle, invest late or resolve an investment, from the one acting: the
    rest of the queue the rules made at the phase's start (it only loses its head)."""
    if g.phase == Phase.SETTLE:
        whole = g.rank()
    elif g.phase == Phase.LATE:
        whole = [s for s in g.order if s not in g.pos]
    elif g.phase == Phase.INVEST:
        whole = [s for s in g.order if g.inv_held[s] is not None]
    else:
        return []
    return whole[whole.index(acting):] if acting in whole else whole


def _normal_choice(game: Game, seat: int, seed: int) -> Step:
    """``ai.choose(match, seat, seed=seed)`` for a match of ``game``, from what the normal AI
    reads of the seat's view (``sight_of``) and its neighbourhood, without building the rest."""
    # The normal AI weighs whole takes and actions step by step, never a person's shortcut.
    choices = without_shortcuts(game, seat, legal_steps(game, seat))
    if len(choices) == 1:
        return choices[0]
    return pick(sight_of(game, seat), _own_hood(game, seat), seat, choices, seed=seed)


def _own_hood(game: Game, seat: int) -> Hood:
    """The seat's neighbourhood as ``hood_of`` rebuilds it from the view: the same squares (the
    game's own, which the AI only reads, and which stand still until its choice is made), in the
    view's order (by row, then column)."""
    hood = game.people[seat].hood
    mine = Hood()
    mine.cities = {p: hood.cities[p] for p in sorted(hood.cities, key=reading_order)}
    mine.shops = {p: hood.shops[p] for p in sorted(hood.shops, key=reading_order)}
    return mine


def choose_strong(match, seat: int, *, seed: int, budget: float | int | None = None) -> Step:
    """The strong AI's next step for ``seat``, from its view and log only."""
    view = match.view(seat)
    choices = match.legal_choices(seat)     # the AIs' choices: a ``_WholeTake`` offers no shortcuts
    if not choices:
        raise ValueError(f"seat {seat} has nothing to choose now")
    if len(choices) == 1 or view.phase not in SEARCHED or view.draft is not None:
        return choose(match, seat, seed=seed, level="normal")
    return search(Knowledge.of(view, match.log_for(seat)), choices, seed=seed, budget=budget).best


def search(knowledge: Knowledge, choices: list[Step], *, seed: int,
           budget: float | int | None = None) -> SearchResult[Step]:
    """Compare the normal AI's best choices by rollouts to the round's end on determinizations."""
    budget = checked_budget(budget)
    view, seat = knowledge.view, knowledge.seat
    mind = _Mind(view, hood_of(view, seat), seat, seed, easy=False)
    normal = mind.pick(choices)
    worths = {c: mind.worth(c) for c in choices}
    ranked = sorted(choices, key=lambda c: (c != normal, -worths[c]))[:CANDIDATES]
    if len(ranked) < 2:
        return SearchResult(normal, 0, {})
    rng = random.Random(seed)

    def play(root: Game, choice: Step, luck: int) -> float:
        trial = root.copy()
        apply_step(trial, seat, choice)
        return _rollout(trial, seat, random.Random(luck), view.round)

    rewards, playouts = play_on_equal_luck(ranked, lambda: knowledge.determinize(rng), play,
                                           budget=budget, rng=rng)
    return SearchResult(_best(normal, rewards), playouts, mean_rewards(rewards))


def _best(normal: Step, rewards: dict[Step, list[float]]) -> Step:
    """The normal AI's choice unless another beat it clearly: by ``CONFIDENCE`` standard errors
    over several determinizations (``confident_best``), or by ``SINGLE_GAIN`` on the one a time
    budget allowed. One is worth reading here: up to the round's end nothing hidden comes into
    play (later rounds' tiles and coins), so a second determinization mostly repeats the first."""
    if len(rewards[normal]) != 1:
        return confident_best(normal, rewards, CONFIDENCE)
    base = rewards[normal][0]
    best = max(rewards, key=lambda c: rewards[c][0])
    return best if rewards[best][0] > base + SINGLE_GAIN else normal


def _rollout(game: Game, seat: int, rng: random.Random, round_: int) -> float:
    """Every seat plays as the normal AI to the end of round ``round_``; ``seat``'s reward."""
    while not game.finished and game.round == round_:
        mover = game.to_act()[0]
        step = _normal_choice(game, mover, rng.getrandbits(32))
        apply_step(game, mover, step)
    return reward(game, seat)


def reward(game: Game, seat: int) -> float:
    """``seat``'s reward in [0, 1]: its margin over the best other seat (``standing`` before the
    end); at the end half of it is the share of the victory."""
    if game.finished:
        scores = game.scores()
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        margin = max(-1.0, min(1.0, (scores[seat] - best_other) / MARGIN_SCALE))
        win = 1.0 / len(game.winners) if seat in game.winners else 0.0
        return (1 - MARGIN_SHARE) * win + MARGIN_SHARE * (0.5 + 0.5 * margin)
    values = [standing(game, s) for s in range(game.n)]
    best_standing = max(v for i, v in enumerate(values) if i != seat)
    return 0.5 + 0.5 * max(-1.0, min(1.0, (values[seat] - best_standing) / MARGIN_SCALE))


def standing(game: Game, seat: int) -> float:
    """A seat's worth between rounds, in points: what it has banked plus what its Lire, pizzas,
    open houses and tracks should still bring in the rounds left."""
    person = game.people[seat]
    hood = person.hood
    tracks = person.tracks
    low = min(tracks.values())
    banked = hood.delivered() + C.TRACK_VP[low] + C.MAXED_VP * sum(1 for t in tracks.values() if t == C.TRACK_TOP)
    left = C.ROUNDS - game.round + 1
    lira = LIRA * min(1.0, (left + 0.5) / 3)
    open_houses = sum(c.open for c in hood.cities.values())
    pizzas = hood.pizzas()
    stocked = min(pizzas, open_houses)
    steps_above = sum(tracks.values()) - len(tracks) * low
    return (banked + lira * person.lire + PIZZA * stocked - (pizzas - stocked) * 0.5
            + HOUSE * (open_houses - stocked) + TRACK_STEP * steps_above)
