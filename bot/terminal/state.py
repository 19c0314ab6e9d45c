"""The terminal's typed view of a game as the service describes it (``GameService.game_info``).

``game_info`` answers with a dict for every adapter; the terminal reads it here, once, into a
small frozen dataclass, so the loop compares and asks about states rather than string keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ACTIVE = ("lobby", "playing")


@dataclass(frozen=True, slots=True)
class SeatState:
    name: str
    user_id: str
    is_ai: bool


@dataclass(frozen=True, slots=True)
class GameState:
    """One moment of a game: who sits where, who is to act, how far it went."""

    game_id: int
    kind: str
    status: str
    seats: tuple[SeatState, ...]
    to_act: tuple[int, ...]
    moves: int
    cycle: int | None
    round: int | None
    rounds: int | None
    scores: tuple[int, ...] | None
    options: Mapping[str, Any]

    @classmethod
    def of(cls, info: Mapping[str, Any]) -> GameState:
        scores = info.get("scores")
        return cls(
            game_id=int(info["game_id"]), kind=str(info["game"]), status=str(info["status"]),
            seats=tuple(SeatState(str(s["name"]), str(s["user_id"]), bool(s["is_ai"])) for s in info["seats"]),
            to_act=tuple(info.get("to_act") or ()), moves=int(info.get("moves") or 0),
            cycle=info.get("cycle"), round=info.get("round"), rounds=info.get("rounds"),
            scores=None if scores is None else tuple(scores), options=dict(info.get("options") or {}))

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def seat_of(self, user_id: str) -> int | None:
        """The seat ``user_id`` plays themselves (not one the AI took over)."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id and not s.is_ai), None)

    def to_act_for(self, user_id: str) -> bool:
        seat = self.seat_of(user_id)
        return self.playing and seat is not None and seat in self.to_act

    @property
    def ai_seats(self) -> int:
        return sum(s.is_ai for s in self.seats)

    def moved_since(self, other: GameState | None) -> bool:
        """Whether anything happened between ``other`` and this state (a move, a seat's turn)."""
        return other is None or (self.status, self.moves, self.to_act) != (other.status, other.moves, other.to_act)
