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
    # The offer's slots: the round's tiles are numbered 1..``slots`` as dealt, and a tile keeps
    # its number while the others are taken (a map saved at the round's start and the choices
    # offered later name the same tile with the same number). ``offer_slots[i]`` is the
    # number of ``offer[i]``.
    offer_slots: tuple[int, ...] = ()
    slots: int = 0

    def offer_numbered(self) -> tuple[tuple[int, Tile], ...]:
        """(slot number, tile) for each tile on offer, in offer order."""
        slots = self.offer_slots if len(self.offer_slots) == len(self.offer) else range(1, len(self.offer) + 1)
        return tuple(zip(slots, self.offer, strict=True))

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
        **_slots(game),
    )


def _slots(game) -> dict:
    """The slot number of each offered tile in the round's dealt stack. The offer is what is
    left of that stack, in order; a taken tile's twin keeps the later slot (``list.remove``
    takes the first), hence the match from the right."""
    offer = list(game.offer)
    dealt = game.stacks[game.round - 1] if 0 < game.round <= len(game.stacks) else ()
    slots: list[int] = []
    j = len(dealt) - 1
    for code in reversed(offer):
        while j >= 0 and dealt[j] != code:
            j -= 1
        if j < 0:       # not from this stack (a hand-made position): plain counting
            return {"offer_slots": tuple(range(1, len(offer) + 1)), "slots": len(offer)}
        slots.append(j + 1)
        j -= 1
    return {"offer_slots": tuple(reversed(slots)), "slots": len(dealt) if offer else 0}

