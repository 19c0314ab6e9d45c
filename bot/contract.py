"""The vocabulary between the game service and the adapters.

The chat adapters (Telegram, Discord, the terminal) translate platform input into calls on
``bot.service.GameService`` with these values (``GameServiceAPI``), and deliver what the service
wants posted through a ``Transport`` they implement. The live web board calls the same service but
reaches into its board parts too (passes, pages, watch: ``bot/web``), not yet through a protocol here. Nothing here branches on a platform; a few
values say how the platforms render them (a ``Button``'s kinds), for the adapters to read.

Flow of one button press:
    adapter -> ``await service.press(chat, user, payload)`` -> ``Reply`` (shown only to
    that user: an ephemeral reply / a callback-query answer) while group and private
    messages are committed to the durable outbox together with the move; the service's
    delivery loop then hands each ``Outgoing`` to ``Transport.deliver`` and records the
    platform message id, retrying on ``RetryLater`` and rerouting on ``Undeliverable``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import msgspec

from bot.board import PageRequest, Pass, Viewer
from bot.pagestate import PageState
from bot.replyextra import ReplyExtra

# The file name of a picture whose sender gave none (the service names each after its game).
DEFAULT_IMAGE_NAME = "picture.png"


@dataclass(frozen=True, slots=True)
class User:
    """A person on a platform, as the adapter saw them at the time of the input."""

    platform: str            # the adapter's ``Transport.platform``: "telegram", "discord", "terminal"
    id: str                  # platform user id, as text
    name: str                # display name (for messages and the map)
    is_admin: bool = False   # chat admin (Telegram) / Manage Channels (Discord), as the adapter reports
    language: str | None = None   # the user's client language, a hint only


@dataclass(frozen=True, slots=True)
class Chat:
    """A group conversation that hosts at most one game at a time."""

    platform: str
    id: str                  # Telegram group chat id / Discord channel or thread id, as text
    title: str = ""


class Button(msgspec.Struct, frozen=True, omit_defaults=True):
    """A button the adapter renders (a msgspec Struct: the outbox stores it as it is, without its
    defaults; ``bot/service/game/outmessage.py``). ``payload`` goes back verbatim to ``GameService.press``.

    kind:
      "action"   a callback button (Telegram callback_data <= 64 bytes, Discord custom_id <= 100)
      "join"     join the game: Telegram renders a deep link t.me/<bot>?start=<payload> (which
                 opens the private chat and joins in one tap); other platforms a callback button
      "open_private"  Telegram: a deep link that just opens the private chat with the bot;
                 Discord: a callback that answers with an ephemeral reply
      "secret"   "show my secret": answered privately (Discord ephemeral; Telegram: in private chat)
      "link"     a URL button: ``payload`` is the URL (the game's web board); nothing comes back
      "web_app"  Telegram: a Mini App button (``WebAppInfo``; Telegram allows it in private chats
                 only) opening the URL in ``payload``; other platforms render it as a link
      "mini_app" Telegram: a direct link to the bot's Mini App, t.me/<bot>/<app>?startapp=<payload>
                 (a group's board button; only the adapter knows the bot's name); others never get it
    """

    label: str
    payload: str
    kind: str = "action"
    colour: str | None = None     # a colour id of the game's, for platforms that style buttons
    key: int | None = None        # the number the game shows for this choice (on its board), if any
    letter: str | None = None     # a fixed key to type for it (the terminal), the same at every turn


class SlotKind(StrEnum):
    """What a slot's message is: the lobby (with its buttons until the game begins), the group's
    turn message (its prompt), a seat's own turn message in private, a seat's private notes."""

    LOBBY = "lobby"
    TURN = "turn"
    SEAT = "seat"
    NOTES = "notes"


@dataclass(frozen=True, slots=True)
class Slot:
    """A message an adapter may edit in place: ``name`` tells it from every other slot of the
    platform (an adapter keys the message it shows by it, and never reads it), ``kind`` says what it is."""

    name: str
    kind: SlotKind


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message the service wants posted, from the durable outbox.

    Exactly one of ``chat`` (the group) or ``private_to`` (a user's private chat / DM)
    is set. ``slot`` names a message the adapter may edit in place instead of posting
    anew (a ``Slot``); ``edit_message_id`` is the platform id of that slot's
    current message when the service wants it edited, None to post a new one.
    """

    id: int
    text: str
    chat: Chat | None = None
    private_to: User | None = None
    image: bytes | None = None                     # PNG, rendered by the delivery loop; a private
                                                   # message's is that seat's own board
    image_name: str = DEFAULT_IMAGE_NAME           # the service names each picture after its game
    # The name of the file that holds the latest picture of its kind (the board, one seat's own
    # board): a surface that keeps pictures as files (the terminal) overwrites it, so that a
    # viewer left open follows the game. Empty: a picture of its own (the final one).
    latest_image_name: str = ""
    image_description: str = ""                    # the picture in words, for screen readers (Discord's
                                                   # attachment description; at most 1024 characters)
    # The whole game as an animation (a finished game's replay), instead of a picture: an MP4 (H.264,
    # no sound), an animated WebP or a GIF, in the format the platform plays inline; its file name is
    # ``image_name`` (the suffix says the format), its words ``image_description``.
    animation: bytes | None = None
    # What to post instead when the animation is too large for the chat (a Discord channel's upload
    # limit): the message's text still goes, this line in place of the animation.
    animation_too_large: str = ""
    buttons: tuple[tuple[Button, ...], ...] = ()   # rows of buttons
    mentions: tuple[User, ...] = ()                # users to ping ("{mention:<seat>}" in text is
                                                   # already resolved to their names)
    slot: Slot | None = None
    edit_message_id: str | None = None
    language: str = "en"


# The statuses of a game that is not over: players still join it (the lobby) or play it.
ACTIVE = ("lobby", "playing")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat of a game as ``GameInfo`` tells it: who sits there (an AI seat: its level)."""

    name: str
    user_id: str | None         # None: an AI seat that never was a person's
    is_ai: bool
    level: str | None = None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game for adapters and tools (``GameService.game_info``), no secrets: its id, kind
    (``game``), status ("lobby", "playing", "finished", "aborted"), host, seats, the seats to act
    now, moves made, cycle, round and rounds (None: not started, or no fixed length), public
    scores (None: secret or not started), winners (None: not over) and options. A game listed by
    ``GameService.platform_games`` also says its chat and when it was created and last updated."""

    game_id: int
    game: str
    status: str
    host_id: str
    seats: tuple[SeatInfo, ...]
    to_act: tuple[int, ...]
    moves: int
    cycle: int | None
    round: int | None
    rounds: int | None
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    options: Mapping[str, Any]
    chat: Chat | None = None
    created: float = 0.0
    updated: float = 0.0

    @property
    def to_move(self) -> int | None:
        """The first seat to act (None: nobody acts now)."""
        return self.to_act[0] if self.to_act else None

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

    def moved_since(self, other: GameInfo | None) -> bool:
        """Whether anything happened between ``other`` and this moment (a move, a seat's turn)."""
        return other is None or (self.status, self.moves, self.to_act) != (other.status, other.moves, other.to_act)


# How a platform links to a message: (its chat, its platform message id) -> a URL that jumps
# to it, or None where the platform has none (Telegram's basic groups). Adapters give one.
MessageLink = Callable[[Chat, str], "str | None"]


class Refusal(StrEnum):
    """Why the service refused an input, as a stable code shared by the service, the adapters and
    the tests: each value is the catalog key of the refusal's text (i18n/locales; but
    ``NO_SECRET``, which the game words itself), so texts and stored replies read the same as
    before the codes had names. Compare ``Reply.refused`` with these, never the translated text."""

    ALREADY_JOINED = "bot.err.already_joined"
    AMBIGUOUS = "bot.err.ambiguous"
    AWAY_BAD = "bot.away.bad"
    AWAY_TOO_LONG = "bot.away.too_long"
    BAD_CHOICE = "bot.err.bad_choice"
    BAD_LEVEL = "bot.err.bad_level"
    BAD_MOVE = "bot.err.bad_move"
    BAD_SETTING = "bot.err.bad_setting"
    CANNOT_START = "bot.err.cannot_start"
    DUPLICATE = "bot.err.duplicate"
    FOREIGN_CHAT = "bot.err.foreign_chat"
    FORGED = "bot.err.forged"
    FULL = "bot.err.full"
    GAME_EXISTS = "bot.err.game_exists"
    GAME_OVER = "bot.err.game_over"
    NOT_HOST = "bot.err.not_host"
    NOT_IN_GAME = "bot.err.not_in_game"
    NOT_LOBBY = "bot.err.not_lobby"
    NOT_NOW = "bot.err.not_now"
    NOT_STARTED = "bot.err.not_started"
    NOT_YOUR_BUTTONS = "bot.err.not_your_buttons"
    NOT_YOUR_TURN = "bot.err.not_your_turn"
    NO_GAME = "bot.err.no_game"
    NO_RECORD = "bot.err.no_record"
    NO_REPLAY = "bot.err.no_replay"
    NO_SECRET = "bot.err.no_secret"
    NO_SUCH_PLAYER = "bot.err.no_such_player"
    OPTION_LOCKED = "bot.err.option_locked"
    REPLAY_JUST_POSTED = "bot.err.replay_just_posted"
    REPLAY_ON_ITS_WAY = "bot.err.replay_on_its_way"
    SEAT_COUNT = "bot.err.seat_count"
    STALE = "bot.err.stale"
    UNKNOWN_GAME = "bot.err.unknown_game"
    UNKNOWN_KIND = "bot.err.unknown_kind"


@dataclass(frozen=True, slots=True)
class Reply:
    """The immediate answer to the user who acted; never posted to the group by itself."""

    text: str
    ok: bool = True               # False: the input was refused and nothing changed
    # Why, as a stable code: a ``Refusal`` (``Refusal.STALE``), or "game.<code>" for the rules'
    # (engine/errors.py). Callers test this, never the translated text.
    refused: str | None = None
    alert: bool = False           # show prominently (Telegram show_alert)
    buttons: tuple[tuple[Button, ...], ...] = ()
    image: bytes | None = None
    image_name: str = DEFAULT_IMAGE_NAME
    extra: ReplyExtra | None = None    # what the reply names besides its text (bot/replyextra.py)
    # The user's own board as monospace text (what a private picture shows), beside their
    # choices: for a surface that prints text rather than showing pictures (the terminal).
    own_board: str = ""
    # A file for the user to keep (a finished game's JSON record): Telegram sends it as a
    # document, Discord attaches it, the terminal writes it.
    document: bytes | None = None
    document_name: str = ""


class RetryLater(Exception):
    """The platform asked to slow down (HTTP 429 / retry_after) or failed transiently.
    ``refused``: it was the platform's refusal for going too fast (a 429), which an operator
    watches (the pacing fell short); otherwise a transient failure."""

    def __init__(self, seconds: float, reason: str = "", *, refused: bool = False) -> None:
        super().__init__(reason or f"retry in {seconds}s")
        self.seconds = seconds
        self.refused = refused


class Undeliverable(Exception):
    """The message can never be delivered as it is.

    reason "private_closed": the user never opened a private chat with the bot (Telegram 403)
    or has DMs closed (Discord 50007): the service tells the group and re-sends later.
    reason "gone": the chat or message no longer exists.
    """

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Budget:
    """A pace: at most ``burst`` calls at once, refilled at ``per_second``. Such a budget never
    spends more than ``burst + per_second * seconds`` in any window of ``seconds``: a platform's
    documented "N a minute" is kept by choosing the two so that sum stays under N."""

    burst: int
    per_second: float


@dataclass(frozen=True, slots=True)
class Window:
    """A sliding window: at most ``calls`` calls in any ``seconds``, however they are spread (a
    platform's "N a minute" read strictly). Unlike a ``Budget`` it lets the whole ``calls`` go at
    once and then waits, so a group that posts a few messages in a burst (a game's set-up) is not
    held to the refill rate afterwards; and it never lets more than ``calls`` into any window,
    where a leaky bucket of ``calls`` refilled at ``calls / seconds`` lets in up to twice that."""

    calls: int
    seconds: float


@dataclass(frozen=True, slots=True)
class PaceLimits:
    """How fast a platform lets one bot post (sends and edits alike): ``total`` over every
    chat, ``chat`` in any one chat, ``group`` in a group chat on top (None: no such limit),
    ``private`` in a user's private chat instead of ``chat`` (None: ``chat`` there too)."""

    total: Budget
    chat: Budget | Window
    group: Budget | Window | None = None
    private: Budget | Window | None = None


# The pace the outbox keeps counts one call per message. A transport that needs another call
# for the same message (a long text in parts, an edit that must be posted anew) awaits
# ``another_call()`` before it: the outbox's pacing, when it is on, then counts that call too.
PACE_ANOTHER_CALL: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar("pace_another_call", default=None)


async def another_call() -> None:
    """Wait until the platform's budget allows one more call for the message being delivered."""
    pace = PACE_ANOTHER_CALL.get()
    if pace is not None:
        await pace()


# A call counts where the platform receives it, not when the pace allowed it: a send that was
# allowed on time but then waited (a busy event loop, a slow picture) could go out together with
# the ones allowed after it. A transport awaits ``calling()`` right before each of its calls to
# the platform (the first one included): the outbox's pacing, when it is on, then holds the call
# until it fits the budgets counted by when calls actually went out, and counts it there.
PACE_CALL: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar("pace_call", default=None)


async def calling() -> None:
    """Wait until a call made now fits the budgets by when the calls before it went out."""
    pace = PACE_CALL.get()
    if pace is not None:
        await pace()


@dataclass(frozen=True, slots=True)
class AnimationFormat:
    """An animation a platform plays inline: its format ("mp4", "webp", "gif") and the largest
    file it takes (bytes)."""

    format: str
    limit: int


# What a surface with no limit of its own keeps an animation within (a file it writes).
ANIMATION_LIMIT = 200 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a platform offers, declared once (``bot/platforms.py``, and its transport's
    ``capabilities``): the service reads these where platforms differ and names none. Each
    default is a plain chat's."""

    # The whole game as an animation, in the format it plays inline and within its upload limit.
    animation: AnimationFormat = AnimationFormat("mp4", ANIMATION_LIMIT)
    # Its pictures are drawn in portrait (the panel under the map): it is read mostly on phones.
    portrait: bool = False
    # A game's board opens in the bot's Mini App: a group's message links to the app (when the bot
    # has one), a private message carries a Mini App button; otherwise every link carries a pass.
    mini_app: bool = False
    # The answer to an action is seen by the one who acted alone (an ephemeral reply, a terminal),
    # so its board button may carry their own pass; False: it may be posted in the group.
    private_replies: bool = True
    # The words its texts use (``renderers.presenter``'s surfaces): "chat", where players tap
    # buttons, or "terminal", where they type their choices and read their own board as text.
    surface: str = "chat"


class Transport(Protocol):
    """What an adapter implements so the service's delivery loop can post for it.

    An adapter's transport subclasses this class: ``deliver`` is its own, and it keeps or
    overrides the declared capabilities below (each default means "not offered")."""

    platform: str
    # The platform's limits: the delivery loop then spreads its sends so as to stay within them
    # (a burst waits instead of being refused). None: no limits to keep.
    pace: PaceLimits | None = None
    # A picture's caption holding ``head`` (its own text) and then ``text`` (a prompt), or None
    # when they do not fit one caption: the outbox then folds a prompt into the picture before
    # it (see "Folding" in bot/service/delivery/outbox.py). None: the platform cannot fold.
    folded_caption: Callable[[str, str], str | None] | None = None
    # True: the platform shows no pictures (a terminal without maps): messages reach it without
    # them, and they are not drawn; a message that is only an animation reaches it with no text.
    text_only: bool = False
    # What the platform offers (``Capabilities``), as ``bot/platforms.py`` declares it for ``platform``.
    capabilities: Capabilities = Capabilities()

    async def deliver(self, message: Outgoing) -> str:
        """Post (or edit, when ``message.edit_message_id`` is set) and return the platform
        message id. Raise ``RetryLater`` or ``Undeliverable``; anything else is retried."""
        ...

    async def delivered_id(self, message: Outgoing) -> str | None:
        """The platform message id of ``message`` if it is known to have gone out already (its
        sender died between sending and recording), else None: it is then sent again. By
        default nothing is known."""
        return None


class GameServiceAPI(Protocol):
    """What the adapters may call on ``bot.service.GameService`` (it implements at least this).

    Every method validates its input, changes nothing on a refusal, and answers with a
    ``Reply`` for the acting user; group and private messages go through the outbox.
    ``options``/``changes`` keys: each option the game declares (its ``OptionSpec`` name and
    one of its values), "reminder_minutes", "deadline_minutes" (0 = off), "language" ("en", "de", "it", "fr").
    """

    # lobby
    async def new_game(self, chat: Chat, user: User, *, options: dict[str, Any] | None = None) -> Reply: ...
    async def join(self, chat: Chat, user: User) -> Reply: ...
    async def leave(self, chat: Chat, user: User) -> Reply: ...
    async def add_ai(self, chat: Chat, user: User, level: str | None = None) -> Reply:
        """An AI seat at ``level`` (None: the chat's level; one of the game's ``ai_levels``)."""
        ...
    async def start(self, chat: Chat, user: User) -> Reply: ...
    async def abort(self, chat: Chat, user: User) -> Reply: ...
    async def hand_to_ai(self, chat: Chat, user: User, target_user_id: str | None = None) -> Reply:
        """Give a seat to the AI: the user's own (None) or, for the host/admin, another player's."""
        ...
    async def settings(self, chat: Chat, user: User, changes: dict[str, Any] | None = None) -> Reply: ...

    # play
    def press_needs_admin(self, payload: str) -> bool:
        """Whether the answer to ``press(payload)`` may depend on ``User.is_admin``; when not, an
        adapter that must ask its platform (Telegram's getChatMember) leaves it False unasked."""
        ...
    async def press(self, chat: Chat | None, user: User, payload: str) -> Reply:
        """Any button payload the service issued (choices, submenus, join, secret, settings).
        Stale, foreign, duplicate or forged payloads get ``Reply(ok=False, alert=True)``."""
        ...
    async def board(self, chat: Chat, user: User, *, private: bool = False) -> Reply:
        """The board (``extra``: a ``BoardState``, every seat to act now; a lobby's: a ``GameRef``) and the user's choices if they
        are among them; where seats choose in private, only a button that brings them privately,
        unless ``private`` (the answer is seen by the user alone, as at the terminal)."""
        ...
    async def secret(self, user: User, chat: Chat | None = None) -> Reply:
        """The user's secret(s): for one chat's game, or all their games when chat is None.
        Adapters show it only privately (ephemeral reply, private chat)."""
        ...
    async def private_started(self, user: User, payload: str | None = None) -> Reply:
        """The user opened the private chat (Telegram /start [payload]): performs a deep-link join
        when the payload says so and re-sends private messages that could not be delivered."""
        ...
    async def stats(self, chat: Chat, user: User, game: str | None = None, *, all_chats: bool = False) -> Reply:
        """The chat's leaderboard (of ``game``, or of every game); ``all_chats``: the platform's."""
        ...
    async def pace_reply(self, platform: str, dest: str) -> None:
        """Before a call the adapter makes itself (a command's reply, a greeting): wait until it
        fits the platform's budgets the outbox keeps, and count it there, so the two together
        stay within the platform's limits. ``dest`` as the outbox's: "c:<chat>" or "u:<user>"."""
        ...
    async def rating(self, chat: Chat | None, user: User, game: str | None = None) -> Reply:
        """The user's rating in each game (or the named one) and each game's leaderboards:
        everyone on the platform, and those who played in ``chat`` (None: no chat's board)."""
        ...
    async def my_games(self, user: User, *, link: MessageLink | None = None) -> Reply:
        """Every unfinished game the user sits in, across chats (``extra``: ``MyGameList``), those
        waiting for them first; ``link`` makes each turn message's link."""
        ...
    async def next_game(self, user: User, *, link: MessageLink | None = None) -> Reply:
        """The game that has waited for the user longest (``extra``: ``NextGame``)."""
        ...
    async def away(self, user: User, duration: str | None = None, chat: Chat | None = None) -> Reply:
        """The user away for ``duration`` ("5d", "12h", "off" when back) in all their games on
        the platform; without it, whether they are away. ``chat``: where they said it (its language)."""
        ...
    async def record_file(self, chat: Chat, user: User) -> Reply:
        """The JSON record of the chat's latest finished game, as ``Reply.document``."""
        ...
    async def replay(self, chat: Chat, user: User) -> Reply:
        """Post the chat's latest finished game in it as an animation (through the outbox)."""
        ...
    async def rules(self, chat: Chat | None, user: User, game: str | None = None) -> Reply: ...
    async def help(self, chat: Chat | None, user: User, game: str | None = None) -> Reply: ...
    async def move(self, chat: Chat, user: User, text: str) -> Reply:
        """A choice typed as text (the terminal): its number on the menu, the start of its name,
        or its written form."""
        ...
    async def game_info(self, chat: Chat | None = None, *, game_id: int | None = None) -> GameInfo | None:
        """The chat's current game (or game ``game_id``), no secrets; None: no such game."""
        ...
    async def platform_games(self, platform: str, limit: int = 20) -> list[GameInfo]:
        """A platform's newest games, finished ones too, each with its chat and times."""
        ...
    async def page(self, request: PageRequest) -> PageState | None:
        """One viewer's page of a game (the web board's ``BoardAPI.page``)."""
        ...
    async def page_press(self, game_id: int, user: User, payload: str) -> Reply:
        """A choice made on the web board (``BoardAPI.page_press``)."""
        ...

    # delivery and time
    async def deliver_pending(self, transport: Transport) -> int:
        """Deliver every due outbox message for ``transport.platform`` once; return how many went."""
        ...
    async def run_delivery(self, transport: Transport) -> None:
        """Deliver forever (until cancelled), waking when new messages are committed."""
        ...
    async def fire_due_timers(self) -> int:
        """Run reminders and deadlines that are due by the service clock; return how many fired."""
        ...
    async def close(self) -> None:
        """Stop background work and release the storage; whoever made the service calls it once."""
        ...


class BoardAPI(Protocol):
    """What the live web board (``bot/web``) asks of the service: every call it makes goes
    through here (``bot.service.GameService`` implements it). Passes are read and issued with
    the service's clock; a page's state is a typed value the adapter encodes at its socket."""

    def now(self) -> float:
        """The service clock's time (what passes expire by)."""
        ...

    def read_pass(self, token: object) -> Pass:
        """The pass ``token`` is (a link's or a page's); ``BadPass`` when forged or expired."""
        ...

    def issue_pass(self, game_id: int, platform: str, user_id: str | None, name: str, language: str, *,
                   seconds: float, now: float | None = None) -> str:
        """A signed pass to the game's board for one person (``user_id`` None: a spectator),
        valid ``seconds`` from ``now`` (None: the service clock's)."""
        ...

    def page_pass(self, link: Pass, *, seconds: float) -> str:
        """The page pass a page trades a link's pass for (``passes.Passes.page_pass``)."""
        ...

    def board_game(self, reference: str) -> int | None:
        """The game a board link's signed reference names (a Mini App's start parameter); None
        for anything else, forged or not a board's."""
        ...

    async def seat_of(self, game_id: int, user_id: str) -> tuple[int | None, str | None]:
        """``user_id``'s seat in the game (None: not seated) and the game's platform (None: no game)."""
        ...

    async def is_finished(self, game_id: int) -> bool: ...

    async def views(self, game_id: int, viewers: Iterable[Viewer]) -> dict[Viewer, PageState] | None:
        """Each viewer's page now, from one read of the game; None: no such game."""
        ...

    async def page(self, request: PageRequest) -> PageState | None:
        """The page ``request`` asks for (a finished game at any move); None: no such page."""
        ...

    async def page_picture(self, game_id: int, asked: dict[str, str], language: str,
                           user_id: str | None) -> bytes | None:
        """A picture a page names; None: no such picture, or not one this viewer may see;
        ``PicturesBusy`` when too many wait already."""
        ...

    async def page_press(self, game_id: int, user: User, payload: str) -> Reply:
        """A choice made on the page: the very payload of its button, for this game only."""
        ...

    def watch_games(self, listener: Callable[[int], None]) -> Callable[[], None]:
        """Call ``listener(game_id)`` after every change of a game; returns what stops it."""
        ...

    async def watch_other_processes(self) -> None:
        """Tell the listeners of other processes' changes too, where the database can."""
        ...
