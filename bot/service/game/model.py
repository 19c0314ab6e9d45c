"""What the service stores about a game besides the engine's record: seats, chat, options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.contract import Chat, User

from .outmessage import MessageBody
from .turnstate import TurnState

# The bot's own options; each game adds the options it declares (engine/interface.py).
DEFAULT_OPTIONS: dict[str, Any] = {
    "reminder_minutes": 240,      # 4 hours: a nudge in the group
    "deadline_minutes": 1440,     # 24 hours: the AI plays the turn so no game stalls
    "language": None,             # None: English, or the creator's client language
    "ai_level": "normal",         # the AI that plays a seat handed over or a turn past its deadline
    # "deadline": the reminder and the deadline above; "bank": each seat's time bank (bank.py),
    # sized for days-long play as on Board Game Arena.
    "clock": "deadline",
    "bank_initial_minutes": 3 * 1440,   # 3 days to begin with
    "bank_bonus_minutes": 1440,         # +1 day for each turn
    "bank_cap_minutes": 7 * 1440,       # never more than 7 days
    "bank_warning_minutes": 720,        # a warning when 12 hours are left
    "away_mode": "ai",                  # a person away (/away): "ai" plays their turns, "pause" stops their clock
}

LOBBY, PLAYING, FINISHED, ABORTED = "lobby", "playing", "finished", "aborted"
ACTIVE = (LOBBY, PLAYING)


@dataclass(slots=True)
class Seat:
    name: str                    # the name in the engine and on the map (unique within a game)
    platform: str
    user_id: str | None          # the human who holds (or held) this seat; None for added AI seats
    is_ai: bool = False
    ai_reason: str | None = None  # "added" | "left" | "handed"
    language: str | None = None
    level: str | None = None      # the AI level playing this seat (None: the game's default)

    def user(self) -> User:
        return User(self.platform, self.user_id or f"ai:{self.name}", self.name, language=self.language)

    def to_dict(self) -> dict[str, Any]:
        # Written out (not ``dataclasses.asdict``, which deep-copies): every commit of a game
        # stores its seats, in the storage's thread while the event loop waits for the GIL.
        return {"name": self.name, "platform": self.platform, "user_id": self.user_id, "is_ai": self.is_ai,
                "ai_reason": self.ai_reason, "language": self.language, "level": self.level}


@dataclass(slots=True)
class GameMeta:
    id: int
    platform: str
    chat_id: str
    chat_title: str
    status: str
    host_id: str
    options: dict[str, Any]
    seed: int
    seats: list[Seat] = field(default_factory=list)
    setup: dict[str, Any] | None = None    # the record without moves, once started (never changed in place)
    moves: int = 0                          # moves stored
    created: float = 0.0
    updated: float = 0.0
    # What the service keeps about the turns (the phase under way, buttons shown, notes, time
    # banks): turnstate.py. Stored in the table's ``extra`` column.
    turn: TurnState = field(default_factory=TurnState)
    kind: str = "paris-paris"               # the game kind (engine.registry id)
    # How many times the row was stored since versions exist: 0 = never (the commit inserts
    # it). A commit writes the row only if it still holds this version, so two processes
    # can never both build on the same state.
    version: int = 0
    # The stored text of ``setup`` (the setup it was made from, and the text): a game's every
    # commit writes its row, and the setup never changes once the game started.
    setup_text: tuple[dict[str, Any], str] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def chat(self) -> Chat:
        return Chat(self.platform, self.chat_id, self.chat_title)

    @property
    def language(self) -> str:
        return self.options.get("language") or "en"

    @property
    def host_name(self) -> str:
        """The host's seat name (their id once they hold no seat)."""
        for seat in self.seats:
            if seat.user_id == self.host_id and not seat.is_ai:
                return seat.name
        return self.host_id

    def may_manage(self, user: User) -> bool:
        """Whether ``user`` may change the game's settings and seats: its host, or a chat admin."""
        return user.id == self.host_id or user.is_admin

    def seat_of(self, user_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.is_ai:
                return index
        return None

    def seat_taken_over(self, user_id: str) -> int | None:
        """The seat the AI plays for this user since they left or were absent, if any."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.is_ai:
                return index
        return None

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_ai]


@dataclass(slots=True)
class MoveRow:
    game_id: int
    n: int
    pick: str
    seat: int
    actor: str            # "human" | "ai" | "deadline" (a deadline, a bank at zero, a person away)
    at: float


@dataclass(slots=True)
class OutRow:
    """An outbox message before it is stored; ``body``: what it says and shows."""

    game_id: int | None
    platform: str
    dest: str             # "c:<chat id>" or "u:<user id>"
    body: MessageBody
    slot: str | None = None
    mode: str = "new"     # "new" | "edit"
    awaited: bool = False  # a turn prompt the table waits for, whether or not it pings anyone

    @property
    def priority(self) -> int:
        """0 for a prompt someone waits for (a turn prompt, or any message that pings a player),
        else 1: the outbox sends such messages before other chats' pictures and edits."""
        return 0 if self.awaited or self.body.mentions else 1


@dataclass(slots=True)
class StoredOut:
    id: int
    game_id: int | None
    platform: str
    dest: str
    state: str
    body: MessageBody
    slot: str | None
    mode: str
    attempts: int
    due: float
    # Set by ``claim_unsent`` on a message another owner was sending when its lease ran out
    # (that owner died or stalled): it may have reached the platform already.
    taken_over: bool = False
    # Set by ``claim_unsent``: 0 for a prompt a player waits for, 1 for a message such a prompt
    # waits behind in its chat, 2 for the rest; the outbox hands out its budget in that order.
    rank: int = 2
    # Set by ``claim_unsent``: its order within the rank, a time (the commit time, later by a
    # few seconds for each other unsent message of its destination: ``storage.outbox.CLAIMABLE_OUT``).
    turn: float = 0.0


@dataclass(frozen=True, slots=True)
class PictureState:
    """Where a picture sent to a chat is (``StoredOutbox.latest_picture``)."""
    state: str                  # "pending" | "sending" | "held": on its way; "sent"
    sent_at: float | None       # when it went out (None while on its way)


@dataclass(slots=True)
class TimerRow:
    game_id: int
    kind: str             # "reminder" | "deadline" | a seat's: "bank:2", "warn:2", "away:2" (arming.py)
    due: float
    move: int


@dataclass(slots=True)
class ResultRow:
    game_id: int
    seat: int
    platform: str
    chat_id: str
    user_id: str | None
    name: str
    is_ai: bool
    points: int
    won: bool
    ended: float
    kind: str = "paris-paris"     # the game kind (engine.registry id); its SQL column is "game"


@dataclass(slots=True)
class RatingRow:
    """One entry's rating change in one rated game (bot/service/players/ratings.py): the history a
    rating is recomputed from."""

    game_id: int
    platform: str
    kind: str                # the game kind (SQL column "game"): ratings are kept per kind
    player: str              # a person's user id, or "ai:<level>"
    name: str                # the person's name then (an AI entry: its level)
    chat_id: str
    place: int               # 1 = first; equal places shared
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    games: int               # the entry's rated games in this game kind, this one included
    ended: float


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A running game's match as the bytes stored with it (``bot/service/game/snapshots.py``), read back
    instead of replaying its moves. It belongs to one position: it is used only while the game
    holds ``moves`` stored moves and the code that reads it packs with the same ``stamp``."""

    game_id: int
    moves: int            # the match's move count when packed
    stamp: str            # the packing and the engine code that wrote it (snapshots.stamp)
    data: bytes


@dataclass(frozen=True, slots=True)
class Resumable:
    """A game as a restore reads it: its metadata, its last stored snapshot (None: none stored)
    and the moves stored after that snapshot's count (all of them without one), in order, as
    (seat, choice text): the match is the snapshot unpacked with those moves applied."""

    meta: GameMeta
    snapshot: Snapshot | None
    since: list[tuple[int, str]]


@dataclass(slots=True)
class Changes:
    """Everything one accepted action changes, committed in one transaction."""

    meta: GameMeta | None = None
    # The game's turn state after this change (None: unchanged): the steps of an action return it
    # rather than set it, and ``GameStore.commit`` keeps it on ``meta`` (which it needs).
    turn: TurnState | None = None
    moves: list[MoveRow] = field(default_factory=list)
    outbox: list[OutRow] = field(default_factory=list)
    timers: list[TimerRow] | None = None      # None: unchanged; a list replaces the game's timers
    drop_timer: tuple[int, str] | None = None
    results: list[ResultRow] = field(default_factory=list)
    ratings: list[RatingRow] = field(default_factory=list)
    chat_settings: tuple[str, str, dict[str, Any]] | None = None
    # A person away until a moment (``/away``): (platform, user id, until); until None: back.
    away: tuple[str, str, float | None] | None = None
    # Matches packed after this change (GameStore.commit adds one every ``SNAPSHOT_EVERY`` moves
    # of a game; an idle game's and a clean stop's come alone): each is stored only where its game
    # then holds its move count and is running. A game that ends or is aborted loses its snapshot
    # in the same transaction.
    snapshots: list[Snapshot] = field(default_factory=list)
