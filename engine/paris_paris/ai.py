"""The default AI player: a one-ply heuristic that is clearly better than random.

It looks only at what its own seat may see (the board, the offer, the discard area,
the public move history and its own marker), never at other markers, the bag or the
stacks. For each legal move it adds:

* the shop's lasting worth: crossings score on two lines' big tours; a shop next to
  a crossing where it already owns a shop scores at every halt there; its own marker
  line is worth extra (it runs at the end); stations with many tiles still unseen are
  likely to be taken back, so they are worth less;
* the expected result of the leftover tile: the small tour and, when the discard area
  already holds that colour, the big tour it triggers, as its own points minus the
  opponents' average. When it picks last, the leftover is known and this is exact, so
  it both grabs good tours and denies big tours that would pay others more;
* the eviction: removing an opponent's shop hurts them; removing its own costs a turn.

A seeded ``random.Random`` breaks ties, so a given seed always gives the same move.
"""

from __future__ import annotations

import random

from . import board as B
from .actions import Pick
from .events import TileDiscarded
from .game import Game

# Weights, tuned by playing against random and against itself (see tests/engine/test_ai.py).
CROSSING_WORTH = 1.6
ADJACENT_TO_OWN_CROSSING = 0.8
NEXT_TO_EMPTY_CROSSING = 0.3
MARKER_LINE_CROSSING = 1.4
MARKER_LINE_ADJACENT = 0.5
EVICT_OPPONENT = 0.6
EVICT_SELF = -0.8
UNSEEN_TILE_RISK = 0.12
LEFTOVER_WEIGHT = 1.0


def choose_move(game: Game, *, seed: int) -> Pick:
    """A legal move for ``game.current_player``, deterministic for a given ``seed``."""
    values = move_values(game)
    rng = random.Random(seed)
    best: list[Pick] = []
    best_value = float("-inf")
    for action, value in values:
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def move_values(game: Game, *, unseen: list[int] | None = None,
                leftover_weight: float = LEFTOVER_WEIGHT) -> list[tuple[Pick, float]]:
    """Every legal move of the player to move with its worth, in ``legal_actions`` order.

    ``unseen`` (tiles of each station still face down) is worked out from the public log when
    not given; ``leftover_weight`` 0 ignores what the leftover tile will do.
    """
    actions = game.legal_actions()
    if not actions:
        raise ValueError("no legal move: the game is over")
    seat = game.seat_to_move
    if unseen is None:
        unseen = _unseen_tiles_per_station(game)
    halts: dict[int, tuple[int, int]] = {}     # big-tour points per crossing, on the board as it is
    return [(action, _value(game, seat, action, unseen, leftover_weight, halts)) for action in actions]


def unseen_tiles_in(stacks) -> list[int]:
    """Tiles of each station in ``stacks`` (face-down stacks, as tile codes)."""
    counts = [0] * len(B.STATIONS)
    for stack in stacks:
        for code in stack:
            counts[code // 5] += 1
    return counts


def _unseen_tiles_per_station(game: Game) -> list[int]:
    """Tiles of each station still face down, from public knowledge only (box minus seen)."""
    counts = [0] * len(B.STATIONS)
    for station, _ in B.TILES:
        counts[station] += 1
    for move in game.moves:
        counts[move.tile.code // 5] -= 1
    for code in game.offer:
        counts[code // 5] -= 1
    # Tiles that left via the small tour: discarded ones lying face up, and big-tour pairs.
    for event in game.log:
        if isinstance(event, TileDiscarded):
            counts[event.tile.code // 5] -= 1
    return counts


def _value(game: Game, seat: int, action: Pick, unseen: list[int], leftover_weight: float,
           halts: dict[int, tuple[int, int]]) -> float:
    station = action.tile.code // 5
    board = list(game.board)
    value = 0.0
    changed = None
    if game.supply[seat]:     # an empty supply opens no shop: only the leftover counts
        owners = list(board[station])
        evicted = None
        if len(owners) == B.CAPACITY[station]:
            evicted = action.evict if action.evict is not None else owners[0]
            owners.remove(evicted)
        board[station] = (*owners, seat)
        changed = station
        value = _shop_worth(board, seat, station, game.markers[seat])
        value /= 1.0 + UNSEEN_TILE_RISK * max(unseen[station], 0)
        if evicted is not None:
            value += EVICT_SELF if evicted == seat else EVICT_OPPONENT

    offer = list(game.offer)
    offer.remove(action.tile.code)
    if offer and leftover_weight:
        total = 0.0
        others = game.num_players - 1
        for code in offer:
            mine, everyone = _leftover_points(board, code, game.discard, seat, halts, changed)
            total += mine - (everyone - mine) / others
        value += leftover_weight * total / len(offer)
    return value


def _shop_worth(board: list, seat: int, station: int, marker: int) -> float:
    worth = 0.0
    marker_crossings = B.LINE_CROSSINGS[marker]
    if B.IS_CROSSING[station]:
        worth += CROSSING_WORTH
        if station in marker_crossings:
            worth += MARKER_LINE_CROSSING
        # Own shops next to this crossing will now score at its halts.
        worth += 0.4 * sum(board[n].count(seat) for n in B.NEIGHBOURS[station])
    for neighbour in B.NEIGHBOURS[station]:
        if not B.IS_CROSSING[neighbour]:
            continue
        if seat in board[neighbour]:
            worth += ADJACENT_TO_OWN_CROSSING
            if neighbour in marker_crossings:
                worth += MARKER_LINE_ADJACENT
        elif len(board[neighbour]) < 2:
            worth += NEXT_TO_EMPTY_CROSSING
    return worth


# The crossings whose big-tour points a shop at each station can change: itself, if a crossing,
# and the crossings it neighbours (their owners score a halt for each adjacent own shop).
_TOUCHED = tuple(frozenset(x for x in range(len(B.STATIONS))
                           if B.IS_CROSSING[x] and (x == s or s in B.NEIGHBOURS[x]))
                 for s in range(len(B.STATIONS)))


def _leftover_points(board: list, code: int, discard: list, seat: int,
                     halts: dict[int, tuple[int, int]], changed: int | None) -> tuple[int, int]:
    """The points ``seat``, and all seats together, would score if tile ``code`` were the
    leftover (small tour and big tour). The rollouts of the search call this most: it counts
    instead of building a list of points per seat, and takes each crossing's big-tour points
    from ``halts`` (filled as it goes, shared by every move of one position) unless the move's
    shop at ``changed`` touches that crossing."""
    station = code // 5
    scorers = board[station]
    if not scorers:
        for ring in B.SMALL_TOUR_RINGS[station]:
            scorers = [o for s in ring for o in board[s]]
            if scorers:
                break
    mine = scorers.count(seat)
    everyone = len(scorers)
    colour = code % 5
    if discard[colour] is not None:
        touched = _TOUCHED[changed] if changed is not None else ()
        for crossing in B.LINE_CROSSINGS[colour]:
            if crossing in touched:
                m, e = _crossing_points(board, crossing, seat)
            else:
                points = halts.get(crossing)
                if points is None:
                    points = halts[crossing] = _crossing_points(board, crossing, seat)
                m, e = points
            mine += m
            everyone += e
    return mine, everyone


def _crossing_points(board: list, crossing: int, seat: int) -> tuple[int, int]:
    """A big tour's points at one crossing: each shop there scores, and each owner there scores
    once more for each of their shops next to it."""
    owners = board[crossing]
    if not owners:
        return 0, 0
    mine = owners.count(seat)
    everyone = len(owners)
    near = B.NEIGHBOURS[crossing]
    for owner in (owners if len(owners) == 1 or owners[0] != owners[1] else owners[:1]):
        adjacent = sum([board[neighbour].count(owner) for neighbour in near])
        everyone += adjacent
        if owner == seat:
            mine += adjacent
    return mine, everyone
