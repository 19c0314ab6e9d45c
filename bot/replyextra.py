"""What a ``Reply`` names besides its text (``Reply.extra``): frozen values, one kind per answer.

Adapters and tests read these by attribute (the terminal marks the games waiting for its player
from ``MyGameList``); nothing here is shown as it is. Each field that a reply leaves unsaid is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:       # bot.contract imports this module for ``Reply``
    from bot.contract import Chat


@dataclass(frozen=True, slots=True)
class GameRef:
    """The game a reply is about (a new game, a move made, a record, a lobby's board), and what
    the reply says of it: its kind (registry id), status, moves made; None where it says nothing."""

    game_id: int
    game: str | None = None
    status: str | None = None
    moves: int | None = None


@dataclass(frozen=True, slots=True)
class BoardState:
    """A running game's board as ``board`` answers it: every seat to act now (``to_move`` the
    first, None: nobody), the asker's seat (None: not in the game), and whether the acting
    seats choose in private."""

    game_id: int
    game: str
    status: str
    to_move: int | None
    to_act: tuple[int, ...]
    seat: int | None
    private_choices: bool


@dataclass(frozen=True, slots=True)
class PrivateMenu:
    """The reply's choices went to the user's private chat: for ``seat`` (None: a submenu opened
    there). ``private`` is always True; it stays a field, as the replies always named it."""

    seat: int | None = None
    private: bool = True


@dataclass(frozen=True, slots=True)
class MyGame:
    """One of a person's unfinished games (/mygames, /next)."""

    game_id: int
    kind: str                     # the game kind (registry id)
    chat: Chat
    status: str                   # "lobby" | "playing"
    to_act: tuple[str, ...]       # the names of the seats to act now (none in a lobby)
    yours: bool                   # the person is among them
    since: float                  # when the wait began: the phase's start, or the lobby's opening
    message_id: str | None        # the platform id of the turn's (or the lobby's) message
    link: str | None              # where the platform can jump to it, if it can


@dataclass(frozen=True, slots=True)
class MyGameList:
    """Every unfinished game the person sits in, those waiting for them first."""

    games: tuple[MyGame, ...]


@dataclass(frozen=True, slots=True)
class NextGame:
    """The game that has waited for the person longest (None: none waits for them)."""

    game: MyGame | None


@dataclass(frozen=True, slots=True)
class AwayNote:
    """The person is away until ``until`` (None: back now); ``games``: how many games were told."""

    games: int
    until: float | None = None


class LeaderRow(NamedTuple):
    """One player's line of a leaderboard (a tuple: compared and sorted as one)."""

    name: str
    games: int
    wins: int
    points: int


@dataclass(frozen=True, slots=True)
class GameStats:
    """One game's leaderboard (best first) and the asker's own games and wins in it."""

    leaderboard: tuple[LeaderRow, ...]
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Stats:
    """The leaderboards of each game played (``by_game``, by kind); ``game``: the one game asked
    for or found (None: several, or none). With a single game its figures are here too."""

    game: str | None
    by_game: Mapping[str, GameStats]
    leaderboard: tuple[LeaderRow, ...] | None = None
    games: int | None = None
    wins: int | None = None


@dataclass(frozen=True, slots=True)
class MyRating:
    """The asker's rating in one game, over how many rated games, and whether it is provisional."""

    rating: int
    games: int
    provisional: bool


# (a person's name, or an AI level; their rating), best first
Ranking = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class RatingBoards:
    """One game's boards: everyone on the platform, the AI levels beside them, and those who
    played in the chat (None: no chat asked, or no one there)."""

    everyone: Ranking
    ai: Ranking | None = None
    here: Ranking | None = None


@dataclass(frozen=True, slots=True)
class Ratings:
    """The asker's rating in each game they played (by kind) and each game's boards (by kind)."""

    mine: Mapping[str, MyRating]
    boards: Mapping[str, RatingBoards]


# What a reply may name besides its text.
ReplyExtra = GameRef | BoardState | PrivateMenu | MyGameList | NextGame | AwayNote | Stats | Ratings
