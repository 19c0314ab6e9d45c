"""Per-seat observations: what one seat (or the table) may see of a game (PAPA_PAOLO.md §9).

Public: the grid, markers, coins (not a face-down one), the staircase, open tiles, every
neighbourhood, pizzas, tracks, order. Lire: everyone's, or with ``hidden_money`` only the
viewer's own (None for the others) until the end. A delivery plan under way is seen only by its
owner; the table sees who has planned. The order of the stacks is seen by nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from . import components as C
from .phases import Phase
from .stepper import legal_steps


@dataclass(frozen=True, slots=True)
class SquareView:
    x: int
    y: int
    kind: str                       # "city" or "pizzeria"
    id: str                         # the city tile (or starting tile) id, or the pizzeria id
    colour: str | None
    roads: tuple[str, ...]
    houses: int
    served: int
    scored: bool
    capacity: int
    pizzas: int


@dataclass(frozen=True, slots=True)
class PapaView:
    viewer: int | None
    players: tuple[str, ...]
    options: dict[str, bool]
    round: int
    phase: Phase                    # place, bid, settle, late, invest, deliver, over
    phase_number: int
    order: tuple[int, ...]
    to_act: tuple[int, ...]
    grid_size: tuple[int, int]
    grid: tuple[str | None, ...]    # row by row; None where the tile is gone
    markers: dict[tuple[int, int], int]
    space_actions: tuple[tuple[str, ...], ...]
    coins: tuple[int | None, ...]   # rows then columns; None: face down
    staircase: dict[int, tuple[int, int]]    # seat -> (row, column)
    out: tuple[int, ...]
    stair_columns: int
    delivery_tiles: tuple[str, ...]          # per staircase column, this round
    next_delivery_tiles: tuple[str, ...] | None   # two_player_preview
    investment_open: tuple[str, ...]
    investment_held: tuple[str | None, ...]
    delivery_held: tuple[str | None, ...]
    supply: tuple[str, ...]
    lire: tuple[int | None, ...]
    tracks: tuple[dict[str, int], ...]
    neighbourhoods: tuple[tuple[SquareView, ...], ...]
    planned: tuple[int, ...]                 # seats whose plan is in
    draft: dict[str, Any] | None             # the decision under way the viewer may see
    legal: tuple[str, ...]                   # the viewer's legal steps now, as text (a picture numbers them)
    finished: bool
    # The stretches of play closed so far (the interface's cycles), each as (round, phase).
    stretches: tuple[tuple[int, str], ...]
    # Once the game is over: each seat's tracks after each round (from the events), for the final picture.
    track_history: tuple[tuple[dict[str, int], ...], ...]
    # Once the game is over (money is public then): each seat's Lire at the start and after each round.
    money_history: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...] | None
    winners: tuple[int, ...]

    @property
    def num_players(self) -> int:
        return len(self.players)


# ``hood.reading_order`` read from a square's view: its y, then its x (found at C speed: a view is
# built for every choice the AI weighs, each square sorted).
_IN_READING_ORDER = attrgetter("y", "x")


def _squares(hood) -> tuple[SquareView, ...]:
    out = [SquareView(x, y, "city", c.tile, c.colour, tuple(s for s in C.SIDES if s in c.roads), c.houses,
                      c.served, c.scored, 0, 0) for (x, y), c in hood.cities.items()]
    out += [SquareView(x, y, "pizzeria", s.id, None, (), 0, 0, False, s.capacity, s.pizzas)
            for (x, y), s in hood.shops.items()]
    return tuple(sorted(out, key=_IN_READING_ORDER))


def _draft(game, seat: int | None) -> dict[str, Any] | None:
    acting = game.to_act()
    if game.phase == Phase.DELIVER:
        d = game.drafts.get(seat) if seat is not None else None
        return None if d is None else _plain(d.as_dict())
    if len(acting) == 1 and acting[0] in game.drafts:
        return _plain(game.drafts[acting[0]].as_dict())
    return None


def _track_history(game) -> tuple[tuple[dict[str, int], ...], ...]:
    """Per seat, its tracks at the start and after each round, as the public events tell them."""
    now = [{c: 0 for c in C.COLOURS} for _ in range(game.n)]
    rounds = [[dict(t) for t in now]]
    for event in game.log:
        if event.kind == "track_advanced":
            now[event.seat][event.colour] = event.position
        elif event.kind == "cycle_ended":
            rounds.append([dict(t) for t in now])
    return tuple(tuple(r[seat] for r in rounds) for seat in range(game.n))


def _legal(game, seat: int | None) -> tuple[str, ...]:
    return () if seat is None else tuple(str(s) for s in legal_steps(game, seat))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k) if isinstance(k, tuple) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    return value


def _face_down(game) -> int | None:
    """The index of the coin lying face down now, if one does."""
    return game.face_down[game.round - 1] if game.face_down is not None and game.phase == Phase.PLACE else None


def _lire(game, seat: int | None) -> tuple[int | None, ...]:
    hidden = game.options["hidden_money"] and not game.finished
    return tuple(p.lire if not hidden or s == seat else None for s, p in enumerate(game.people))


def _markers(game) -> dict[tuple[int, int], int]:
    """Each grid space (row, col) holding a marker, with the seat whose marker it is."""
    cols = game.board.cols
    return {(i // cols, i % cols): s for i, s in game.markers.items()}


def _coins(game) -> tuple[int | None, ...]:
    """The coins' values, the face-down coin's hidden (None)."""
    face_down = _face_down(game)
    return tuple(None if i == face_down else v for i, v in enumerate(game.coins))


def view_of(game, seat: int | None) -> PapaView:
    if seat is not None and not (type(seat) is int and 0 <= seat < game.n):
        raise ValueError(f"no seat {seat!r} in this game")
    b = game.board
    preview = None
    if game.options["two_player_preview"] and game.round < C.ROUNDS:
        preview = C.delivery_tiles_for(game.round + 1, game.n)
    return PapaView(
        viewer=seat, players=game.players, options=dict(game.options), round=game.round, phase=game.phase,
        phase_number=game.phase_number, order=tuple(game.order), to_act=game.to_act(),
        grid_size=(b.rows, b.cols), grid=tuple(game.grid),
        markers=_markers(game), space_actions=C.space_actions(b), coins=_coins(game),
        staircase=dict(game.pos), out=tuple(sorted(game.out)), stair_columns=b.stair_columns,
        delivery_tiles=tuple(game.stairs_tiles), next_delivery_tiles=preview,
        investment_open=tuple(game.inv_open), investment_held=tuple(game.inv_held),
        delivery_held=tuple(game.dlv_held), supply=tuple(game.supply),
        lire=_lire(game, seat),
        tracks=tuple(dict(p.tracks) for p in game.people),
        neighbourhoods=tuple(_squares(p.hood) for p in game.people),
        planned=tuple(s for s in game.order if s in game.plans),
        draft=_draft(game, seat), legal=_legal(game, seat), finished=game.finished,
        stretches=game.stretches,
        track_history=_track_history(game) if game.finished else (),
        money_history=tuple(zip(*game.lire_history, strict=True)) if game.finished else (),
        scores=game.final, winners=game.winners,
    )


@dataclass(frozen=True, slots=True)
class Sight:
    """The fields of a seat's ``PapaView`` that the normal AI reads, with the same values, and
    its own neighbourhood as the AI weighs it. The strong AI's rollouts ask the normal AI
    thousands of choices a decision; building the whole view for each (every neighbourhood
    listed square by square, the legal steps as text) was a fifth of their time."""

    players: tuple[str, ...]
    options: dict[str, bool]
    round: int
    phase: Phase
    grid_size: tuple[int, int]
    grid: tuple[str | None, ...]
    markers: dict[tuple[int, int], int]
    space_actions: tuple[tuple[str, ...], ...]
    coins: tuple[int | None, ...]
    delivery_tiles: tuple[str, ...]
    investment_held: tuple[str | None, ...]
    supply: tuple[str, ...]
    lire: tuple[int | None, ...]
    tracks: tuple[dict[str, int], ...]
    draft: dict[str, Any] | None


def sight_of(game, seat: int) -> Sight:
    """``seat``'s ``Sight`` of ``game``: each field as ``view_of(game, seat)`` has it (tested)."""
    b = game.board
    return Sight(
        players=game.players, options=dict(game.options), round=game.round, phase=game.phase,
        grid_size=(b.rows, b.cols), grid=tuple(game.grid),
        markers=_markers(game), space_actions=C.space_actions(b), coins=_coins(game),
        delivery_tiles=tuple(game.stairs_tiles), investment_held=tuple(game.inv_held),
        supply=tuple(game.supply), lire=_lire(game, seat),
        tracks=tuple(dict(p.tracks) for p in game.people), draft=_draft(game, seat),
    )
