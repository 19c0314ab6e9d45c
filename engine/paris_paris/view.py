"""Per-player observations: what one seat (or the group) may see of a game.

A view never holds another player's marker, the bag's contents or the order of the
face-down stacks before the game is over. Renderers and the bot work from views,
never from the ``Game`` itself, so a secret cannot leak by accident.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import board as B
from .actions import Tile


@dataclass(frozen=True, slots=True)
class GameView:
    viewer: int | None            # the seat this view is for; None for the public view
    players: tuple[str, ...]
    final_tours: str
    round: int                    # 1-based; equals ``rounds`` after the last round
    rounds: int
    stacks_left: int
    bus: int                      # seat holding the bus (started this round)
    to_move: int | None           # None once the game is over
    offer: tuple[Tile, ...]
    board: dict[str, tuple[int, ...]]   # station -> owners, only stations with shops
    scores: tuple[int, ...]
    supply: tuple[int, ...]
    discard: dict[str, Tile | None]     # colour -> tile lying there
    open_marker: str | None       # face-up marker (2 players)
    marker: str | None            # the viewer's own marker
    score_history: tuple[tuple[int, ...], ...]   # scores after each round (and after the end)
    finished: bool
    winners: tuple[int, ...]
    markers: tuple[str, ...] | None     # everyone's, only once the game is over
    bag: tuple[int, ...] | None         # shops in the bag per seat, only once the game is over

    @property
    def num_players(self) -> int:
        return len(self.players)

    def eviction_options(self, tile: Tile) -> tuple[int, ...]:
        owners = self.board.get(tile.station, ())
        return owners if len(owners) == 2 and owners[0] != owners[1] else ()


def view_of(game, seat: int | None) -> GameView:
    if seat is not None and not 0 <= seat < game.num_players:
        raise ValueError(f"no seat {seat} in this game")
    over = game.finished
    return GameView(
        viewer=seat,
        players=game.players,
        final_tours=game.options.final_tours,
        round=game.round,
        rounds=game.rounds,
        stacks_left=game.stacks_left,
        bus=game.bus,
        to_move=game.current_player,
        offer=game.offered_tiles(),
        board={B.STATIONS[s]: owners for s, owners in enumerate(game.board) if owners},
        scores=tuple(game.scores),
        supply=tuple(game.supply),
        discard={B.COLOURS[c]: (None if t is None else Tile.of(t)) for c, t in enumerate(game.discard)},
        open_marker=None if game.open_marker is None else B.COLOURS[game.open_marker],
        marker=None if seat is None else B.COLOURS[game.markers[seat]],
        score_history=tuple(game.score_history),
        finished=over,
        winners=game.winners,
        markers=tuple(B.COLOURS[c] for c in game.markers) if over else None,
        bag=tuple(game.bag) if over else None,
    )
