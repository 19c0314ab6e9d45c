"""Building positions for engine tests through the public API only.

A scripted game is dealt with ``Game.from_setup``: each round's stack is the tiles the
players will pick (in turn order) plus the one tile meant to be left over, so the test
reads as the story of the game. ``pad`` unused tiles from the box follow as extra
stacks so the game does not end (and run its final tours) before the test wants it to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.paris_paris import COLOURS, Game, Options, Pick, Tile
from engine.paris_paris.board import STATIONS, TILES
from engine.paris_paris.events import Event


def tile(text: str) -> Tile:
    return Tile.parse(text)


def box_counts() -> Counter[Tile]:
    return Counter(Tile(STATIONS[s], COLOURS[c]) for s, c in TILES)


def unused_tiles(stacks: Sequence[Sequence[Tile]]) -> list[Tile]:
    """Box tiles not in ``stacks``, in a fixed order (ends of lines last: they rarely matter)."""
    left = box_counts()
    left.subtract(t for stack in stacks for t in stack)
    return sorted(left.elements(), key=lambda t: (t.colour, t.station))


def deal(players: Sequence[str], rounds: Sequence[tuple[Sequence[str], str]], *, first_player: int = 0,
         pad: int = 1, markers: Sequence[str] | None = None, open_marker: str | None = None,
         options: Options | None = None) -> Game:
    """A game whose stacks are ``picks + [leftover]`` for each scripted round, then ``pad`` more."""
    n = len(players)
    stacks = []
    for picks, leftover in rounds:
        assert len(picks) == n, "one pick per player each round"
        stacks.append([Pick.parse(p).tile for p in picks] + [tile(leftover)])
    spare = unused_tiles(stacks)
    for i in range(pad):
        stacks.append(spare[i * (n + 1):(i + 1) * (n + 1)])
    if markers is None:
        markers = COLOURS[:n]
    if n == 2 and open_marker is None:
        open_marker = next(c for c in COLOURS if c not in markers)
    return Game.from_setup(players, stacks=stacks, markers=markers, open_marker=open_marker,
                           first_player=first_player, options=options)


def play_round(game: Game, picks: Sequence[str]) -> list[Event]:
    """Play one scripted round (picks in turn order, "station/colour" or "station/colour!seat")."""
    events: list[Event] = []
    for text in picks:
        events.extend(game.apply(Pick.parse(text), by=game.current_player))
    return events


def scripted(players: Sequence[str], rounds: Sequence[tuple[Sequence[str], str]], **deal_options
             ) -> tuple[Game, list[list[Event]]]:
    """Deal and play every scripted round; return the game and each round's events."""
    game = deal(players, rounds, **deal_options)
    return game, [play_round(game, picks) for picks, _ in rounds]


def of_type(events: Sequence[Event], cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]


def random_game(players: Sequence[str], seed: int, *, options: Options | None = None,
                upto: int | None = None) -> Game:
    """A game of random legal moves (all of them, or the first ``upto``)."""
    import random

    rng = random.Random(seed)
    game = Game.new(players, seed=seed, options=options)
    moves = 0
    while not game.is_terminal() and (upto is None or moves < upto):
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        moves += 1
    return game
