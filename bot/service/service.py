"""The game service: one facade over small collaborators, for any game in the registry.

Adapters call the ``GameServiceAPI`` methods (bot/contract.py). The work is done by:
``GameStore`` (the cache of games, kept packed but for the most recently used, their snapshots, commits), ``Lobby`` (seats, start, abort, hand-overs), ``Play``
(choices and AI seats), ``ChatSettings`` (options, derived from the games' declarations), ``Info``
(board, secrets, stats, rules, records), ``Away`` (/away), ``Timers`` (reminders, deadlines,
time banks) and ``Delivery``
(the durable outbox). This class wires them together, takes the chat's lock, turns refusals
into replies, and dispatches button presses through one table.

Every accepted action is applied to the in-memory game, then committed together with its
outbox messages and timers in one transaction; only after the commit can anything be sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from bot.board import PageRequest, Pass, Viewer
from bot.contract import (
    BoardAPI,
    Chat,
    GameInfo,
    GameServiceAPI,
    MessageLink,
    Refusal,
    Reply,
    Transport,
    User,
)
from bot.games import GameKind, find, kind, level_at
from bot.pagestate import PageState
from bot.product import DEFAULT_DB
from i18n import DEFAULT_LANGUAGE, normalize_language, t

from .board.pages import Pages
from .board.watch import GameWatch
from .clock import Clock, SystemClock
from .delivery import outgoing
from .delivery.outbox import Delivery
from .delivery.pictures import Pictures
from .game import snapshots
from .game.model import LOBBY, Changes, GameMeta
from .game.outmessage import RenderRequest
from .inputs import cleaned
from .metrics import NO_METRICS, Backlog, Metrics, Readings
from .players.mine import MyGames
from .posts import messages as M
from .posts.links import BoardLinks
from .refusal import Refused
from .storage import Conflict, Storage, collector, storage_for
from .storage.store import LIVE_MATCHES, GameStore, Loaded
from .table.away import Away
from .table.chat_settings import ChatSettings, checked_defaults
from .table.info import Info
from .table.lobby import Lobby
from .table.play import Play
from .table.timers import Timers
from .tokens.passes import Passes
from .tokens.payloads import BOARD_LINK, ForgedPayload, Payload, PayloadCodec, StalePayload

log = logging.getLogger(__name__)

# A press's kind -> (needs the game's lock, the handler); the payload's first field is the game id.
# "c" make a choice, "o" open a submenu, "b" back to the menu, "h" my choices, "m" my secret,
# "j" join, "a" add an AI, "g" start, "l" leave (and "v": add an AI at a level, below).
HEALTH_TIMEOUT = 5.0       # seconds the database may take to answer the health check
LOBBY_PRESSES = {"j": Lobby.join, "a": Lobby.add_ai, "g": Lobby.start, "l": Lobby.leave}
TURN_PRESSES = frozenset({"c", "o", "b"})
# Presses whose answer never depends on whether the presser administers the chat (only the
# lobby's and the settings' do: ``GameMeta.may_manage``); for these an adapter need not ask its platform.
ADMIN_FREE_PRESSES = TURN_PRESSES | {"h", "m", "p"}


def unique_owner() -> str:
    """A name no other process gets: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def is_dead_local_owner(owner: str) -> bool:
    """An unnamed process of this host (``unique_owner``) that no longer runs."""
    host, _, rest = owner.partition(":")
    pid, _, _ = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:             # exists, someone else's
        return False
    return False


async def release_dead_local_owners(storage: Storage) -> None:
    """What unnamed processes of this host held when they died goes back now, so that a
    restarted bot resumes at once instead of waiting for their leases to run out."""
    for owner in await storage.owners():
        if is_dead_local_owner(owner):
            await storage.release_owner(owner)


class GameService:
    """Implements ``bot.contract.GameServiceAPI`` (the adapters) and ``bot.contract.BoardAPI`` (the
    live web board).
    Construct with ``await GameService.open(path)``.

    Every method the adapters call is ``@cleaned``: its chats, users and text arrive through
    ``inputs.clean``."""

    def __init__(self, storage: Storage, codec: PayloadCodec, *, clock: Clock | None = None,
                 ai: Callable[..., Any] | None = None, cache_size: int = 10_000,
                 live_matches: int = LIVE_MATCHES, platforms: Iterable[str] | None = None, defaults: dict[str, Any] | None = None,
                 ai_seconds: float | None = None, owner: str | None = None,
                 lease_seconds: float | None = None, send_share: float = 1.0, drawing_processes: int = 0,
                 web_url: str | None = None, mini_app: str | None = None,
                 metrics: Metrics | None = None) -> None:
        self.storage = storage
        # What an operator's monitoring is told (``metrics.Metrics``; by default nothing).
        self.metrics = metrics or NO_METRICS
        # The name this process claims outbox messages and timers under (see ``open``).
        self.owner = owner or unique_owner()
        self.codec = codec
        self.clock = clock or SystemClock()
        self.platforms = None if platforms is None else tuple(platforms)
        self.store = GameStore(storage, self.clock, cache_size=cache_size, live_matches=live_matches,
                               on_commit=self._committed)
        leases = {} if lease_seconds is None else {"lease_seconds": lease_seconds}
        self.pictures = Pictures(storage, processes=drawing_processes)
        # The web board's passes, and the chats' buttons that open it (none without ``web_url``).
        self.passes = Passes(codec.derived_key("web-pass"))
        self.links = BoardLinks(codec, self.passes, self.clock, public_url=web_url, mini_app=mini_app,
                                kind_of=self._kind_known)
        self.delivery = Delivery(storage, self.clock,
                                 materialise=lambda row: outgoing.materialise(row, self.pictures.render, self.links),
                                 private_closed=self._private_closed, owner=self.owner, share=send_share,
                                 metrics=self.metrics, **leases)
        self.play = Play(self.store, codec, self.clock, choose_ai=ai, ai_budget=ai_seconds,
                         behind=self.delivery.behind, drawing_behind=self.pictures.behind)
        self.chat_settings = ChatSettings(self.store, codec, self.clock, self.play, defaults)
        self.defaults = self.chat_settings.defaults
        self.lobby = Lobby(self.store, codec, self.clock, self.play, self.chat_settings)
        self.info = Info(self.store, codec, self.clock)
        self.mine = MyGames(self.store, self.clock)
        self.pages = Pages(self.store, codec)
        self.watch = GameWatch()
        self.absence = Away(self.store, self.play, self.clock)
        self.timers = Timers(self.store, self.play, self.clock, self.platforms, owner=self.owner, **leases)
        self._timer_task: asyncio.Task[None] | None = None

    # ---- life cycle ---------------------------------------------------------------------

    @classmethod
    async def open(cls, db_path: str = DEFAULT_DB, *, clock: Clock | None = None,
                   storage: Storage | None = None, ai: Callable[..., Any] | None = None,
                   cache_size: int = 10_000, live_matches: int = LIVE_MATCHES,
                   platforms: Iterable[str] | None = None, defaults: dict[str, Any] | None = None, ai_seconds: float | None = None,
                   owner: str | None = None, lease_seconds: float | None = None,
                   send_share: float = 1.0, drawing_processes: int = 0, web_url: str | None = None,
                   mini_app: str | None = None, metrics: Metrics | None = None) -> GameService:
        """``platforms``: fire only timers of games on these platforms (all when None);
        ``defaults``: option defaults for chats that have not changed them.

        ``cache_size``: games kept in memory; ``live_matches``: how many of them (the most
        recently used) keep their match live, the others keep it packed and unpack it on use
        (``BOARDCHAT_LIVE_MATCHES``; ``store.Loaded``).

        ``owner``: the name this process claims outbox messages and timers under, unique
        among the processes sharing the database (``BOARDCHAT_INSTANCE``). A named process
        takes back at start whatever it held when it stopped or died, so a restart resumes at
        once. Unnamed, a process gets a unique name (host, process id, a random part), so
        processes sharing a file or a server never take each other's work; what an unnamed
        process of this host held when it died is taken back at start, and what one of
        another host held is taken over when its lease (``lease_seconds``, default 60 s for
        messages, 120 s for timers) runs out.

        ``send_share``: the part of each platform's overall send budget this process uses
        (1 / the number of processes sending for one bot, ``BOARDCHAT_SENDERS``).

        ``drawing_processes``: processes of its own that draw the pictures
        (``BOARDCHAT_DRAWING_PROCESSES``); 0 draws in a thread of this process.

        ``web_url``: the web board's public address (``BOARDCHAT_WEB_URL``): the chats' messages
        then carry buttons that open it (``links.BoardLinks``); ``mini_app``: the short name
        of the bot's Mini App (``BOARDCHAT_TELEGRAM_APP``).

        ``metrics``: what it tells an operator's monitoring (``metrics.Metrics``; None: nothing)."""
        checked_defaults(defaults or {})          # a bad operator default stops start-up at once
        collector.tune()                          # this process holds games: fewer, larger young collections
        storage = storage or storage_for(str(db_path))     # a path, or a postgresql:// URL
        await storage.open()
        await asyncio.to_thread(snapshots.warm_stamps)     # off the loop, before any game is read
        try:
            if owner is not None:
                await storage.release_owner(owner)
            else:
                owner = unique_owner()
                await release_dead_local_owners(storage)
            codec = PayloadCodec(await storage.secret())
            return cls(storage, codec, clock=clock, ai=ai, cache_size=cache_size, live_matches=live_matches,
                       platforms=platforms,
                       defaults=defaults, ai_seconds=ai_seconds, owner=owner, lease_seconds=lease_seconds,
                       send_share=send_share, drawing_processes=drawing_processes, web_url=web_url,
                       mini_app=mini_app, metrics=metrics)
        except BaseException:
            await storage.close()       # a half-opened service must not leave its connection behind
            raise

    async def close(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._timer_task
            self._timer_task = None
        await self.pictures.stop()
        # The games moved since their last snapshot store one now: the next start reads them back
        # without applying their last moves (a stop that fails here only leaves that to do).
        try:
            await self.store.store_snapshots()
        except Exception:  # noqa: BLE001 - see above
            log.warning("storing the snapshots at the stop failed", exc_info=True)
        # What this process still holds goes back now, not when its leases run out.
        with contextlib.suppress(Exception):
            await self.storage.release_owner(self.owner)
        await self.storage.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def restore_all(self) -> int:
        return await self.store.restore_all()

    def _kind_known(self, game_id: int) -> str | None:
        """The game's kind if it is in memory (a board link's preload hint; no read for it)."""
        loaded = self.store.cached(game_id)
        return None if loaded is None else loaded.kind.id

    def _committed(self, changes: Changes) -> None:
        if changes.moves and changes.meta is not None:
            self.metrics.moves_made(changes.meta.platform, len(changes.moves))
        for platform in {o.platform for o in changes.outbox}:
            self.delivery.wake(platform)
        if changes.timers is not None:
            self.timers.wake.set()
        if changes.meta is not None:
            self.watch.changed(changes.meta.id)

    async def watch_other_processes(self) -> None:
        """Tell ``watch`` of the games other processes change too, where the database can (PostgreSQL)."""
        await self.storage.watch_games(self.watch.changed)

    # ---- the shape of every action ------------------------------------------------------

    async def _language(self, chat: Chat | None, user: User) -> str:
        if chat is not None:
            lang: str | None = (await self.storage.chat_settings(chat.platform, chat.id)).get("language")
            if lang:
                return lang
        return normalize_language(user.language)

    async def _under_lock(self, chat: Chat, lang: str | Callable[[], str], action: Callable[[], Awaitable[Reply]],
                          *, lost_race: Refusal = Refusal.STALE) -> Reply:
        """The one shape of every action: ``action()`` under the chat's lock, a refusal becoming
        the reply and a race lost to another process (``Conflict``) the refusal ``lost_race``;
        either way nothing changed. ``lang``: the replies' language (a callable: as it is when
        the action ends, for an action that learns it on the way)."""
        async with self.store.lock(chat.platform, chat.id):
            try:
                return await action()
            except Refused as exc:
                return exc.reply(lang if isinstance(lang, str) else lang())
            except Conflict:
                return Refused(lost_race).reply(lang if isinstance(lang, str) else lang())

    async def _on_chat_game(self, chat: Chat, user: User,
                            action: Callable[[Loaded, str], Awaitable[Reply]]) -> Reply:
        """Run ``action(loaded, language)`` on the chat's game (``_under_lock``), in the game's
        language once it is read. The chat's own language (its settings) is read only when there
        is no game to answer in (issue 44: not a round trip with every press)."""
        lang = DEFAULT_LANGUAGE         # replaced before any reply is made in it

        async def on_the_game() -> Reply:
            nonlocal lang
            for attempt in (1, 2):
                loaded = await self.store.chat_game(chat)
                if loaded is None:
                    lang = await self._language(chat, user)
                    raise Refused(Refusal.NO_GAME)
                lang = loaded.meta.language
                try:
                    return await action(loaded, lang)
                except Conflict:
                    # Another process changed the game meanwhile (the commit dropped our copy):
                    # once more on the game as it is now; a press of a turn that moved on is stale then.
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        return await self._under_lock(chat, lambda: lang, on_the_game)

    async def _on_game(self, game_id: int, chat: Chat | None, user: User,
                       action: Callable[[Loaded, str], Awaitable[Reply]]) -> Reply:
        """``_on_chat_game`` for a game named by a button: only while it is still its chat's
        game (an old lobby's button must not act on a newer game), under that chat's lock.

        A game's chat never changes, so a copy in memory tells it without a read (issue 44: one
        round trip less with every press); a refusal is worded from the game as stored now."""
        known = self.store.cached(game_id) or await self.store.load(game_id)
        if known is None:
            return Refused(Refusal.UNKNOWN_GAME).reply(await self._language(chat, user))
        if chat is not None and (chat.platform, chat.id) != (known.meta.platform, known.meta.chat_id):
            return Refused(Refusal.FOREIGN_CHAT).reply((await self._as_stored(known)).language)

        async def checked(current: Loaded, lang: str) -> Reply:
            if current.meta.id != game_id:
                status = (await self._as_stored(known)).status
                raise Refused(Refusal.GAME_OVER if status != LOBBY else Refusal.STALE)
            return await action(current, lang)
        result = await self._on_chat_game(known.meta.chat, user, checked)
        if result.refused == Refusal.NO_GAME:
            return Refused(Refusal.GAME_OVER).reply((await self._as_stored(known)).language)
        return result

    async def _as_stored(self, known: Loaded) -> GameMeta:
        """The metadata of ``known``'s game as the database holds it now (``known``'s own if it is gone)."""
        return (await self.store.load(known.meta.id) or known).meta

    # ---- lobby --------------------------------------------------------------------------

    @cleaned
    async def new_game(self, chat: Chat, user: User, *, options: dict[str, Any] | None = None) -> Reply:
        lang = await self._language(chat, user)
        if options is not None and not isinstance(options, dict):
            return Refused(Refusal.BAD_SETTING, key="options", value=type(options).__name__).reply(lang)
        return await self._under_lock(chat, lang, lambda: self.lobby.new_game(chat, user, options, lang),
                                      lost_race=Refusal.GAME_EXISTS)

    @cleaned
    async def join(self, chat: Chat, user: User) -> Reply:
        return await self._on_chat_game(chat, user, lambda g, lang: self.lobby.join(g, user, lang))

    @cleaned
    async def leave(self, chat: Chat, user: User) -> Reply:
        return await self._on_chat_game(chat, user, lambda g, lang: self.lobby.leave(g, user, lang))

    @cleaned
    async def add_ai(self, chat: Chat, user: User, level: str | None = None) -> Reply:
        return await self._on_chat_game(chat, user, lambda g, lang: self.lobby.add_ai(g, user, lang, level))

    @cleaned
    async def start(self, chat: Chat, user: User) -> Reply:
        return await self._on_chat_game(chat, user, lambda g, lang: self.lobby.start(g, user, lang))

    @cleaned
    async def abort(self, chat: Chat, user: User) -> Reply:
        return await self._on_chat_game(chat, user, lambda g, lang: self.lobby.abort(g, user, lang))

    @cleaned
    async def hand_to_ai(self, chat: Chat, user: User, target_user_id: str | None = None) -> Reply:
        return await self._on_chat_game(
            chat, user, lambda g, lang: self.lobby.hand_to_ai(g, user, target_user_id, lang))

    # ---- settings -----------------------------------------------------------------------

    @cleaned
    async def settings(self, chat: Chat, user: User, changes: dict[str, Any] | None = None) -> Reply:
        lang = await self._language(chat, user)
        return await self._under_lock(chat, lang, lambda: self.chat_settings.show_or_change(chat, user, changes, lang))

    # ---- play ---------------------------------------------------------------------------

    def press_needs_admin(self, payload: str) -> bool:
        """Whether ``press(payload)`` may read ``User.is_admin``: a choice, a submenu, back, my
        choices, my secret and opening the private chat never do (nor does a forged payload
        matter); lobby and settings buttons, and anything unknown, do."""
        return self.codec.kind_of(payload) not in ADMIN_FREE_PRESSES

    @cleaned
    async def press(self, chat: Chat | None, user: User, payload: str) -> Reply:
        """Any button the service issued; stale, foreign, duplicate or forged ones are refused.
        A board button in the answer (a seat's choices) becomes the presser's link."""
        started = time.perf_counter()
        return self._answered(user, started, await self._press(chat, user, payload))

    def _answered(self, user: User, started: float, reply: Reply) -> Reply:
        """A press's reply, counted (since ``started``) and its board button the presser's link."""
        self.metrics.press_answered(user.platform, time.perf_counter() - started)
        return self.links.reply(reply, user, normalize_language(user.language))

    async def _press(self, chat: Chat | None, user: User, payload: str) -> Reply:
        kind_ = self.codec.kind_of(payload)
        try:
            if kind_ is None:
                raise ForgedPayload("unknown kind")
            if kind_ == "s":
                if chat is None:
                    raise ForgedPayload("a settings button outside its chat")
                p = self.codec.decode(payload, bind=f"{chat.platform}:{chat.id}")
                change = self.chat_settings.change_of(p)
                if change is None:
                    raise ForgedPayload("no such setting")
                return await self.settings(chat, user, change)
            if kind_ == "p":
                return await self.private_started(user, None)
            p = self.codec.decode(payload)
        except StalePayload:
            return Refused(Refusal.STALE).reply(await self._language(chat, user))
        except ForgedPayload:
            return Refused(Refusal.FORGED).reply(await self._language(chat, user))
        handler = GAME_PRESSES.get(kind_)
        if handler is None:
            return Refused(Refusal.FORGED).reply(await self._language(chat, user))
        return await handler(self, chat, user, p)

    # ---- the presses of a game's buttons (``GAME_PRESSES``), the game's id first in each ----------

    async def _press_secret(self, chat: Chat | None, user: User, p: Payload) -> Reply:
        loaded = await self.store.load(p.int(0))
        if loaded is None:
            return Refused(Refusal.UNKNOWN_GAME).reply(await self._language(chat, user))
        return await self.info.secrets(user, [loaded], loaded.meta.language)

    async def _press_ai_level(self, chat: Chat | None, user: User, p: Payload) -> Reply:
        return await self._on_game(p.int(0), chat, user, lambda g, lang: self.lobby.add_ai(
            g, user, lang, level_at(g.kind, p.int(1))))

    async def _press_lobby(self, chat: Chat | None, user: User, p: Payload) -> Reply:
        action = LOBBY_PRESSES[p.kind]
        target = None if p.kind == "j" else chat   # a join link opens from the private chat
        return await self._on_game(p.int(0), target, user, lambda g, lang: action(self.lobby, g, user, lang))

    async def _press_turn(self, chat: Chat | None, user: User, p: Payload) -> Reply:
        # A press in a private chat (``chat`` None) keeps the seat's menus there.
        return await self._on_game(p.int(0), chat, user, lambda g, lang: self.play.press(
            g, user, p, lang, in_private=chat is None))

    async def _press_my_choices(self, chat: Chat | None, user: User, p: Payload) -> Reply:
        return await self._on_game(p.int(0), chat, user, lambda g, lang: self.play.my_choices(g, user, lang))

    # ---- the live web board (``contract.BoardAPI``) ----------------------------------------

    def now(self) -> float:
        return self.clock.now()

    def read_pass(self, token: object) -> Pass:
        return self.passes.read(token, now=self.clock.now())

    def issue_pass(self, game_id: int, platform: str, user_id: str | None, name: str, language: str, *,
                   seconds: float, now: float | None = None) -> str:
        return self.passes.issue(game_id, platform, user_id, name, language,
                                 now=self.clock.now() if now is None else now, seconds=seconds)

    def page_pass(self, link: Pass, *, seconds: float) -> str:
        return self.passes.page_pass(link, now=self.clock.now(), seconds=seconds)

    def board_game(self, reference: str) -> int | None:
        try:
            link = self.codec.decode(reference)
        except ForgedPayload:
            return None
        return link.int(0) if link.kind == BOARD_LINK else None

    async def seat_of(self, game_id: int, user_id: str) -> tuple[int | None, str | None]:
        return await self.pages.seat_of(game_id, user_id)

    async def is_finished(self, game_id: int) -> bool:
        return await self.pages.is_finished(game_id)

    async def views(self, game_id: int, viewers: Iterable[Viewer]) -> dict[Viewer, PageState] | None:
        return await self.pages.views(game_id, viewers)

    def watch_games(self, listener: Callable[[int], None]) -> Callable[[], None]:
        return self.watch.add(listener)

    async def page(self, request: PageRequest) -> PageState | None:
        """One viewer's page of a game (the web board): see ``page.page_state``."""
        return await self.pages.page(request)

    async def page_picture(self, game_id: int, asked: dict[str, str], language: str,
                           user_id: str | None) -> bytes | None:
        """A picture a page names (``page.picture``), drawn as a message's would be, after the
        chats' pictures (``Pictures.render_for_page``; ``PicturesBusy`` when too many wait), and
        kept; None: no such picture, or not one this viewer may see."""
        render = await self.pages.picture_request(game_id, asked, user_id)
        return None if render is None else await self.pictures.render_for_page(render, language)

    async def board_picture(self, game_id: int, platform: str) -> tuple[str, bytes] | None:
        """The board as it is now (the public picture, the current cycle's moves marked) and the file
        name of the game's latest board picture (``messages.BOARD_PICTURE``): the terminal keeps its
        picture file as current as its prompt. None: no running game, or the drawing failed."""
        loaded = await self.store.load(game_id)
        if loaded is None or loaded.match is None:
            return None
        meta = loaded.meta
        render = RenderRequest("map", game_id, meta.moves, loaded.match.rhythm.cycle)
        drawn = await self.pictures.render(render, meta.language, platform, rank=0)
        return None if drawn is None else (M.picture_name(meta, loaded.kind, M.BOARD_PICTURE), drawn.image)

    @cleaned
    async def page_press(self, game_id: int, user: User, payload: str) -> Reply:
        """A choice made on the web board: the very payload of its button, for this game only
        (a page opens submenus itself, so only choices come here). Its payload is read once, here,
        and pressed as a choice's button is in a private chat."""
        started = time.perf_counter()
        lang = normalize_language(user.language)
        try:
            if self.codec.kind_of(payload) != "c":
                raise ForgedPayload("not a choice")
            choice = self.codec.decode(payload)
            if choice.int(0) != game_id:
                raise ForgedPayload("not a choice of this game")
        except StalePayload:
            return Refused(Refusal.STALE).reply(lang)
        except (ForgedPayload, ValueError):
            return Refused(Refusal.FORGED).reply(lang)
        return self._answered(user, started, await self._press_turn(None, user, choice))

    @cleaned
    async def move(self, chat: Chat, user: User, text: str) -> Reply:
        """A choice typed as text (terminal, commands): its number on the menu, the start of
        its name, or its written form."""
        return await self._on_chat_game(chat, user, lambda g, lang: self.play.typed(g, user, text, lang))

    # ---- information --------------------------------------------------------------------

    @cleaned
    async def board(self, chat: Chat, user: User, *, private: bool = False) -> Reply:
        """The board, and the user's choices if they are to act. ``private``: the answer is seen
        by the user alone (the terminal), so it carries their own menu even where the seats
        choose in private; otherwise a button that brings it privately."""
        lang = await self._language(chat, user)
        loaded = await self.store.chat_game(chat)
        if loaded is None:
            return Reply(t(lang, "bot.err.no_game"), ok=False, refused=Refusal.NO_GAME)
        return await self.info.board(loaded, user, loaded.meta.language, private=private)

    @cleaned
    async def secret(self, user: User, chat: Chat | None = None) -> Reply:
        """The user's secret (what the game keeps hidden from the others) in the chat's game,
        or in all their games."""
        lang = await self._language(chat, user)
        if chat is not None:
            loaded = await self.store.chat_game(chat)
            games = [loaded] if loaded is not None else []
        else:
            games = await self.info.user_games(user)
        return await self.info.secrets(user, games, lang, here=chat is not None)

    @cleaned
    async def private_started(self, user: User, payload: str | None = None) -> Reply:
        lang = normalize_language(user.language)
        lines = []
        ok = True
        if payload and self.codec.kind_of(payload) == "j":
            try:
                p = self.codec.decode(payload)
            except ForgedPayload:
                return Refused(Refusal.FORGED).reply(lang)
            joined = await self._on_game(p.int(0), None, user, lambda g, lg: self.lobby.join(g, user, lg))
            lines.append(joined.text)
            ok = joined.ok
        released = await self.storage.release_held(user.platform, f"u:{user.id}", self.clock.now())
        games = await self.info.user_games(user)
        for loaded in games:
            if user.id in loaded.meta.turn.unreachable:
                await self.set_unreachable(loaded.meta.id, user.id, False)
        if released:
            self.delivery.wake(user.platform)
            lines.append(t(lang, "bot.reply.private_resent", count=released))
        if not lines and games:     # the game's own words: a marker in one game, locomotives in another
            presenter = games[0].kind.presenter
            lines.append(t(lang, "bot.reply.private_ok_game", game=presenter.title(lang),
                           secret=presenter.secret_help(lang)))
        elif not lines:
            lines.append(t(lang, "bot.reply.private_ok"))
        return Reply("\n".join(lines), ok=ok)

    @cleaned
    async def stats(self, chat: Chat, user: User, game: str | None = None, *, all_chats: bool = False) -> Reply:
        """The leaderboard of the chat's games (``all_chats``: of every chat on its platform,
        for the terminal, where each game is a chat of its own)."""
        return await self.info.stats(chat, user, await self._language(chat, user), game, all_chats=all_chats)

    @cleaned
    async def rating(self, chat: Chat | None, user: User, game: str | None = None) -> Reply:
        """The user's rating in each game (or the named one) and the leaderboards: everyone on
        the platform, and those who played in ``chat`` (None, as at the terminal: no chat's board)."""
        lang = await self._language(chat, user)
        named = find(game) if game else None
        if game and named is None:
            return Refused(Refusal.UNKNOWN_KIND, games=", ".join(self.chat_settings.game_names(lang))).reply(lang)
        return await self.play.ratings.reply(chat, user, lang, named)

    @cleaned
    async def my_games(self, user: User, *, link: MessageLink | None = None) -> Reply:
        """Every unfinished game the user sits in, across the platform's chats: the game, the
        chat, whose turn, how long it has waited, a link to its turn message (``link``)."""
        return await self.mine.listing(user, normalize_language(user.language), link)

    @cleaned
    async def next_game(self, user: User, *, link: MessageLink | None = None) -> Reply:
        """The game that has waited for the user longest."""
        return await self.mine.next(user, normalize_language(user.language), link)

    @cleaned
    async def away(self, user: User, duration: str | None = None, chat: Chat | None = None) -> Reply:
        """The user away for ``duration`` ("5d", "12h", "off" when back) in all their unfinished
        games on the platform: each game's chat is told once and does what it chose (the AI
        plays their turns, or their clock stops). Without ``duration``: whether they are away."""
        lang = await self._language(chat, user)
        try:
            return await self.absence.away(user, duration, lang)
        except Refused as exc:
            return exc.reply(lang)

    @cleaned
    async def rules(self, chat: Chat | None, user: User, game: str | None = None) -> Reply:
        lang = await self._language(chat, user)
        named = find(game) if game else await self._chat_kind(chat)
        if named is None:
            return Refused(Refusal.UNKNOWN_KIND, games=", ".join(self.chat_settings.game_names(lang))).reply(lang)
        return self.info.rules(named, lang)

    @cleaned
    async def help(self, chat: Chat | None, user: User, game: str | None = None) -> Reply:
        """The commands, and each game's own help (only the named or the chat's game, if any)."""
        lang = await self._language(chat, user)
        named = find(game) if game else await self._chat_kind(chat, default=False)
        if game and named is None:
            return Refused(Refusal.UNKNOWN_KIND, games=", ".join(self.chat_settings.game_names(lang))).reply(lang)
        return self.info.help(named, lang)

    async def _chat_kind(self, chat: Chat | None, *, default: bool = True) -> GameKind | None:
        """The chat's current game's kind; the default game (or None) outside a game."""
        loaded = await self.store.chat_game(chat) if chat is not None else None
        if loaded is not None:
            return loaded.kind
        return kind(None) if default else None

    @cleaned
    async def record_file(self, chat: Chat, user: User) -> Reply:
        """The chat's latest finished game's record, as a JSON file. Only finished games: a
        record holds every secret (markers, holdings), harmless once the game is over."""
        lang = await self._language(chat, user)
        finished = {r.game_id for r in await self.storage.chat_results(chat.platform, chat.id)}
        if not finished:
            return Refused(Refusal.NO_RECORD).reply(lang)
        return await self.info.record_file(max(finished), lang)

    @cleaned
    async def replay(self, chat: Chat, user: User) -> Reply:
        """The chat's latest finished game as an animation, posted in the chat through the outbox
        (drawn there, off the event loop, as pictures are); the reply says it is on its way. Not
        while the same animation is on its way or was just posted (``Info.replay``): under the
        chat's lock, so two requests at once in one process queue one (two processes may each
        queue one, rarely: the next one waits again)."""
        lang = await self._language(chat, user)
        finished = {r.game_id for r in await self.storage.chat_results(chat.platform, chat.id)}
        if not finished:
            return Refused(Refusal.NO_REPLAY).reply(lang)
        return await self._under_lock(chat, lang, lambda: self.info.replay(max(finished), lang))

    async def record(self, game_id: int) -> dict[str, Any] | None:
        return await self.info.record(game_id)

    async def platform_games(self, platform: str, limit: int = 20) -> list[GameInfo]:
        """``game_info`` of a platform's newest games, newest first, finished ones too, each
        with its chat and times (the terminal lists its games with this)."""
        out = []
        for meta in await self.storage.platform_games(platform, limit):
            loaded = await self.store.load(meta.id)
            if loaded is not None:
                out.append(dataclasses.replace(self.info.game_info(loaded), chat=meta.chat, created=meta.created,
                                               updated=meta.updated))
        return out

    async def game_info(self, chat: Chat | None = None, *, game_id: int | None = None) -> GameInfo | None:
        if game_id is not None:
            loaded = await self.store.load(game_id)
        elif chat is not None:
            loaded = await self.store.chat_game(chat)
        else:
            raise TypeError("game_info needs a chat or a game id")
        return None if loaded is None else self.info.game_info(loaded)

    # ---- delivery and time --------------------------------------------------------------

    async def readings(self) -> Readings:
        """The levels an operator watches (``/metrics``): games running, each platform's outbox
        backlog and its oldest message's wait, pictures waiting to be drawn."""
        now = self.clock.now()
        backlogs = tuple(Backlog(platform, count, max(0.0, now - oldest))
                         for platform, count, oldest in await self.storage.backlog())
        return Readings(await self.storage.running_games(), backlogs, self.pictures.waiting)

    async def health(self) -> bool:
        """Whether the database answers (``/healthz``)."""
        try:
            await asyncio.wait_for(self.storage.running_games(), timeout=HEALTH_TIMEOUT)
        except Exception:  # noqa: BLE001 - any failure to answer is unhealthy
            log.warning("health check: the database did not answer", exc_info=True)
            return False
        return True

    async def pace_reply(self, platform: str, dest: str) -> None:
        await self.delivery.pace_reply(platform, dest)

    async def deliver_pending(self, transport: Transport) -> int:
        return await self.delivery.deliver_pending(transport)

    async def run_delivery(self, transport: Transport, *, max_sleep: float = 30.0) -> None:
        """Deliver forever; the first call also starts this process's one timer loop."""
        if self._timer_task is None or self._timer_task.done():
            self._timer_task = asyncio.create_task(self.run_timers())
            self._warm_up = asyncio.create_task(self.pictures.warm_up())
        await self.delivery.run(transport, max_sleep=max_sleep)

    async def fire_due_timers(self) -> int:
        return await self.timers.fire_due()

    async def run_timers(self) -> None:
        await self.timers.run(self.fire_due_timers)

    async def _private_closed(self, game_id: int | None, user_id: str) -> None:
        if game_id is not None:
            await self.set_unreachable(game_id, user_id, True)

    async def set_unreachable(self, game_id: int, user_id: str, unreachable: bool) -> None:
        await self.lobby.set_unreachable(game_id, user_id, unreachable)


__all__ = ["GameService", "Payload", "Refused"]

if TYPE_CHECKING:
    def _implements(service: GameService) -> tuple[GameServiceAPI, BoardAPI]:
        """The type checker's proof that the service keeps both contracts."""
        return service, service


# Each button of a game's messages, by its payload's kind: the press it makes. (Settings and
# "open the private chat" buttons carry no game and are read before, in ``GameService._press``.)
GamePress = Callable[[GameService, Chat | None, User, Payload], Awaitable[Reply]]
GAME_PRESSES: dict[str, GamePress] = {
    "m": GameService._press_secret,
    "v": GameService._press_ai_level,
    **dict.fromkeys(LOBBY_PRESSES, GameService._press_lobby),
    **dict.fromkeys(TURN_PRESSES, GameService._press_turn),
    "h": GameService._press_my_choices,
}


def _implements_the_protocol(service: GameService) -> GameServiceAPI:
    """Where mypy checks ``GameService`` against the adapters' protocol (``contract.GameServiceAPI``)."""
    return service
