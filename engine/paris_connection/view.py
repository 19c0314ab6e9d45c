"""Per-seat observations: what one seat (or the table) may see of a game.

Before the end a view holds only the viewer's own holdings (None in the public view) and the
number of locomotives behind every screen; everyone's holdings, the scores and penalties
appear once the game is over. Renderers and the bot work from views only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Draft:
    """The build under way: its colour, the locomotives placed so far (tentative), and the value
    they would add if the build ended now."""

    colour: str
    hexes: tuple[str, ...]
    gain: int


@dataclass(frozen=True, slots=True)
class ConnectionView:
    viewer: int | None                     # the seat this view is for; None for the public view
    players: tuple[str, ...]
    first_player: int
    to_move: int | None                    # None once the game is over
    cycle: int                             # the turn cycle under way, from 1
    holding_limit: int
    start_hexes: dict[str, str]            # colour -> start hex id
    board: dict[str, tuple[str, ...]]      # hex id -> colours there (committed), occupied hexes only
    values: dict[str, int]                 # colour -> company value (committed builds)
    storage: dict[str, int]                # colour -> locomotives on its storage board
    screens: tuple[int, ...]               # locomotives behind each screen
    holdings: dict[str, int] | None        # the viewer's own, colour -> count; None in the public view
    draft: Draft | None                    # the build under way, seen by everyone
    legal_hexes: tuple[str, ...]           # during a build: where the next locomotive may go
    pending_trade: str | None              # reserved; always None
    value_history: tuple[dict[str, int], ...]   # values after each completed turn cycle, and at the end
    finished: bool
    end_reason: str | None                 # "marseille" | "storage" once finished
    scores: tuple[int, ...] | None         # once finished, penalties included
    penalties: tuple[int, ...] | None      # once finished: points lost to the holding limit
    all_holdings: tuple[dict[str, int], ...] | None   # once finished
    winners: tuple[int, ...]

    @property
    def num_players(self) -> int:
        return len(self.players)


def view_of(game, seat: int | None) -> ConnectionView:
    """What ``seat`` (None: the table) may see of ``game``."""
    if seat is not None and not (type(seat) is int and 0 <= seat < game.num_players):
        raise ValueError(f"no seat {seat!r} in this game")
    over = game.finished
    drafted = game.draft_hexes
    board = {}
    for hex_id, colours in game.board.items():
        # The draft's locomotives stand on the board but are shown as the draft, not as built.
        committed = tuple(c for c in colours if not (c == game.draft_colour and hex_id in drafted))
        if committed:
            board[hex_id] = committed
    draft = None if game.draft_colour is None else Draft(game.draft_colour, tuple(drafted), game.draft_gain())
    return ConnectionView(
        viewer=seat,
        players=game.players,
        first_player=game.first_player,
        to_move=game.current_player,
        cycle=game.cycle,
        holding_limit=game.holding_limit,
        start_hexes=dict(game.start_hexes),
        board=board,
        values=dict(game.values),
        storage=dict(game.storage),
        screens=tuple(sum(h.values()) for h in game.holdings),
        holdings=None if seat is None else dict(game.holdings[seat]),
        draft=draft,
        legal_hexes=game.legal_hexes(game.draft_colour) if draft is not None else (),
        pending_trade=None,
        value_history=tuple(dict(v) for v in game.value_history),
        finished=over,
        end_reason=game.end_reason,
        scores=game.scores() if over else None,
        penalties=game.penalties() if over else None,
        all_holdings=tuple(dict(h) for h in game.holdings) if over else None,
        winners=game.winners,
    )
