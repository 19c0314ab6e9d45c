"""The game service: lobbies, turns, AI seats, timers and the durable outbox.

Adapters call the ``GameServiceAPI`` methods (bot/contract.py). Every accepted action is
applied to the in-memory game, then committed together with its outbox messages and
timers in one transaction; only after the commit can the delivery loop send anything.
If the commit fails, the cached game is dropped and rebuilt from the database on next use.

Actions on one chat (hence one game) are serialised by a per-chat ``asyncio.Lock``;
writes to the single SQLite connection by the storage's own lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from bot.contract import Button, Chat, Reply, User
from engine.paris_paris import Game, GameError, Options, Pick, Tile
from engine.paris_paris.board import COLOURS
from engine.paris_paris.record import to_record
from renderers.i18n import LANGUAGES, normalize_language, t

from . import messages as M
from . import present, records
from .clock import Clock, SystemClock
from .model import (
    ABORTED,
    DEFAULT_OPTIONS,
    FINISHED,
    LOBBY,
    PLAYING,
    Changes,
    GameMeta,
    Loaded,
    MoveRow,
    OutRow,
    ResultRow,
    Seat,
    TimerRow,
)
from .outbox import DeliveryMixin
from .payloads import ForgedPayload, Payload, PayloadCodec
from .storage import SqliteStorage, Storage
from .timers import TimersMixin

log = logging.getLogger(__name__)

AI_NAMES = ("Bot Ada", "Bot Blaise", "Bot Camille", "Bot Denis", "Bot Émilie")
MAX_SEATS = 4
MAX_NAME = 32
REMINDER_CHOICES = (0, 60, 240, 720)
DEADLINE_CHOICES = (0, 720, 1440, 2880)


def _default_ai(game: Game, *, seed: int) -> Pick:
    from engine.paris_paris.ai import choose_move

    return choose_move(game, seed=seed)


class Refused(Exception):
    """An input the service turns down; carries the catalog key and its parameters."""

    def __init__(self, message_key: str, /, **params: Any) -> None:
        super().__init__(message_key)
        self.key = message_key
        self.params = params


class GameService(DeliveryMixin, TimersMixin):
    """Implements ``bot.contract.GameServiceAPI``. Construct with ``await GameService.open(path)``."""

    def __init__(self, storage: Storage, *, clock: Clock | None = None,
                 ai: Callable[..., Pick] | None = None, cache_size: int = 10_000,
                 platforms: Iterable[str] | None = None, defaults: dict[str, Any] | None = None) -> None:
        self.storage = storage
        # Timers of games on other platforms belong to the process serving those platforms.
        self.platforms = None if platforms is None else tuple(platforms)
        # The operator's defaults for new chats (PARIS_PARIS_LANGUAGE, ..._MINUTES), checked once.
        self.defaults = dict(DEFAULT_OPTIONS, **_clean_options(defaults or {}))
        self.clock = clock or SystemClock()
        self.ai = ai or _default_ai
        self.cache_size = cache_size
        self.codec: PayloadCodec | None = None
        self._games: OrderedDict[int, Loaded] = OrderedDict()
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._next_id = 0
        self._wake: dict[str, asyncio.Event] = {}
        self._timer_wake = asyncio.Event()
        self._timer_task: asyncio.Task | None = None
        self._gone_slots: set[tuple[str, str | None]] = set()   # slots whose message was deleted
        self._next_wake: dict[str, float | None] = {}

    # ---- life cycle ---------------------------------------------------------------------

    @classmethod
    async def open(cls, db_path: str = "paris-paris.sqlite3", *, clock: Clock | None = None,
                   storage: Storage | None = None, ai: Callable[..., Pick] | None = None,
                   cache_size: int = 10_000, platforms: Iterable[str] | None = None,
                   defaults: dict[str, Any] | None = None) -> GameService:
        """``platforms``: fire only timers of games on these platforms (all when None);
        ``defaults``: option defaults for chats that have not changed them."""
        service = cls(storage or SqliteStorage(str(db_path)), clock=clock, ai=ai, cache_size=cache_size,
                      platforms=platforms, defaults=defaults)
        await service.storage.open()
        service.codec = PayloadCodec(await service.storage.secret())
        service._next_id = await service.storage.max_game_id()
        return service

    async def close(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._timer_task
            self._timer_task = None
        await self.storage.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def restore_all(self) -> int:
        """Load and rebuild every lobby and running game now (start-up is lazy otherwise)."""
        ids = [gid for gid, _, _ in await self.storage.active_games() if gid not in self._games]
        loader = getattr(self.storage, "load_games", None)
        if loader is not None:
            found = await loader(ids)
        else:
            found = {gid: got for gid in ids if (got := await self.storage.load_game(gid))}
        for meta, moves in found.values():
            self._remember(self._rebuild(meta, moves))
        return len(found)

    # ---- loading ------------------------------------------------------------------------

    def _lock(self, platform: str, chat_id: str) -> asyncio.Lock:
        key = (platform, chat_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def _remember(self, loaded: Loaded) -> Loaded:
        self._games[loaded.meta.id] = loaded
        self._games.move_to_end(loaded.meta.id)
        while len(self._games) > self.cache_size:
            self._games.popitem(last=False)
        return loaded

    def _forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    @staticmethod
    def _rebuild(meta: GameMeta, moves: list[str]) -> Loaded:
        loaded = Loaded(meta)
        if meta.setup is not None:
            game = records.replay(meta.setup, moves)
            loaded.movers = [records.mover(game.first_player, game.num_players, i) for i in range(len(moves))]
            loaded.game = game
        return loaded

    async def _load(self, game_id: int) -> Loaded | None:
        loaded = self._games.get(game_id)
        if loaded is not None:
            self._games.move_to_end(game_id)
            return loaded
        got = await self.storage.load_game(game_id)
        if got is None:
            return None
        again = self._games.get(game_id)   # loaded meanwhile by another task
        if again is not None:
            return again
        return self._remember(self._rebuild(*got))

    async def _chat_game(self, chat: Chat) -> Loaded | None:
        gid = await self.storage.active_game_id(chat.platform, chat.id)
        return None if gid is None else await self._load(gid)

    async def _chat_options(self, chat: Chat) -> dict[str, Any]:
        return dict(self.defaults, **(await self.storage.chat_settings(chat.platform, chat.id)))

    async def _language(self, chat: Chat | None, user: User, loaded: Loaded | None = None) -> str:
        if loaded is not None and loaded.meta.options.get("language"):
            return loaded.meta.options["language"]
        if chat is not None:
            lang = (await self.storage.chat_settings(chat.platform, chat.id)).get("language")
            if lang:
                return lang
        return normalize_language(user.language)

    # ---- committing ---------------------------------------------------------------------

    async def _commit(self, changes: Changes, *, forget: int | None = None) -> list[int]:
        now = self.clock.now()
        try:
            ids = await self.storage.commit(changes, now)
        except BaseException:
            if forget is not None:
                self._forget(forget)   # the in-memory game ran ahead of the database
            raise
        platforms = {o.platform for o in changes.outbox}
        for platform in platforms:
            self._wake_platform(platform)
        if changes.timers is not None:
            self._timer_wake.set()
        return ids

    def _wake_platform(self, platform: str) -> None:
        event = self._wake.get(platform)
        if event is None:
            event = self._wake[platform] = asyncio.Event()
        event.set()

    def _reply_error(self, exc: Refused, language: str) -> Reply:
        return Reply(t(language, exc.key, **exc.params), ok=False, alert=True)

    # ---- lobby --------------------------------------------------------------------------

    async def new_game(self, chat: Chat, user: User, *, options: dict | None = None) -> Reply:
        lang = await self._language(chat, user)
        async with self._lock(chat.platform, chat.id):
            try:
                current = await self._chat_game(chat)
                if current is not None:
                    raise Refused("bot.err.game_exists")
                opts = await self._chat_options(chat)
                extra = dict(options or {})
                seed = extra.pop("seed", None)
                seat_host = bool(extra.pop("join", True))
                if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63):
                    raise Refused("bot.err.bad_setting", key="seed", value=seed)
                opts.update(self._validate_settings(extra))
                if not opts.get("language"):
                    opts["language"] = normalize_language(user.language)
                now = self.clock.now()
                self._next_id += 1
                meta = GameMeta(
                    id=self._next_id, platform=chat.platform, chat_id=chat.id, chat_title=chat.title,
                    status=LOBBY, host_id=user.id, options=opts,
                    seed=int(seed) if seed is not None else secrets.randbits(63),
                    created=now, updated=now)
                if seat_host:
                    meta.seats.append(self._human_seat(meta, user))
                out = [M.lobby_message(meta, self.codec, user.name, mode="new")]
                await self._commit(Changes(game=meta, outbox=out))
                self._remember(Loaded(meta))
                lang = meta.language
                return Reply(t(lang, "bot.reply.created"), extra={"game_id": meta.id})
            except Refused as exc:
                return self._reply_error(exc, lang)

    def _human_seat(self, meta: GameMeta, user: User) -> Seat:
        return Seat(name=self._unique_name(meta, user.name or user.id), platform=user.platform,
                    user_id=user.id, language=user.language)

    @staticmethod
    def _unique_name(meta: GameMeta, name: str) -> str:
        base = " ".join(str(name).split())[:MAX_NAME] or "Player"
        taken = {s.name for s in meta.seats}
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base} {n}", n + 1
        return candidate

    def _host_name(self, meta: GameMeta) -> str:
        for seat in meta.seats:
            if seat.user_id == meta.host_id and not seat.is_ai:
                return seat.name
        return meta.host_id

    async def _with_chat_game(self, chat: Chat, user: User, action: Callable[[Loaded, str], Any]) -> Reply:
        """Run ``action(loaded, language)`` on the chat's game under its lock; a refusal becomes
        the error reply (and, like every refusal, changes nothing)."""
        lang = await self._language(chat, user)
        async with self._lock(chat.platform, chat.id):
            try:
                loaded = await self._chat_game(chat)
                if loaded is None:
                    raise Refused("bot.err.no_game")
                lang = loaded.meta.language
                return await action(loaded, lang)
            except Refused as exc:
                return self._reply_error(exc, lang)

    async def join(self, chat: Chat, user: User) -> Reply:
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta = loaded.meta
            taken_over = meta.seat_taken_over(user.id)
            if meta.status == PLAYING and taken_over is not None:
                return await self._seat_back(loaded, taken_over, lang)
            if meta.status != LOBBY:
                raise Refused("bot.err.not_lobby")
            if meta.seat_of(user.id) is not None:
                raise Refused("bot.err.already_joined")
            if len(meta.seats) >= MAX_SEATS:
                raise Refused("bot.err.full")
            meta.seats.append(self._human_seat(meta, user))
            await self._save_lobby(loaded)
            return Reply(t(lang, "bot.reply.joined"))
        return await self._with_chat_game(chat, user, act)

    async def _save_lobby(self, loaded: Loaded, extra: list[OutRow] | None = None) -> None:
        meta = loaded.meta
        meta.updated = self.clock.now()
        out = [M.lobby_message(meta, self.codec, self._host_name(meta), mode="edit")] + (extra or [])
        await self._commit(Changes(game=meta, outbox=out), forget=meta.id)

    async def leave(self, chat: Chat, user: User) -> Reply:
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta = loaded.meta
            seat = meta.seat_of(user.id)
            if seat is None:
                raise Refused("bot.err.not_in_game")
            if meta.status == LOBBY:
                del meta.seats[seat]
                humans = meta.humans()
                if meta.host_id == user.id and humans:
                    meta.host_id = meta.seats[humans[0]].user_id
                if not humans:
                    meta.status = ABORTED
                    meta.updated = self.clock.now()
                    out = [M.lobby_closed(meta, t(lang, "bot.lobby.closed"))]
                    await self._commit(Changes(game=meta, outbox=out, timers=[]), forget=meta.id)
                    self._forget(meta.id)
                    return Reply(t(lang, "bot.reply.left_closed"))
                await self._save_lobby(loaded)
                return Reply(t(lang, "bot.reply.left"))
            return await self._to_ai(loaded, seat, "left", user, lang)
        return await self._with_chat_game(chat, user, act)

    async def add_ai(self, chat: Chat, user: User) -> Reply:
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta = loaded.meta
            if meta.status != LOBBY:
                raise Refused("bot.err.not_lobby")
            if len(meta.seats) >= MAX_SEATS:
                raise Refused("bot.err.full")
            if meta.seat_of(user.id) is None and not self._may_manage(meta, user):
                raise Refused("bot.err.not_in_game")
            taken = {s.name for s in meta.seats}
            name = next(n for n in AI_NAMES if n not in taken)
            meta.seats.append(Seat(name=name, platform=meta.platform, user_id=None, is_ai=True,
                                   ai_reason="added"))
            await self._save_lobby(loaded)
            return Reply(t(lang, "bot.reply.ai_added", name=name))
        return await self._with_chat_game(chat, user, act)

    @staticmethod
    def _may_manage(meta: GameMeta, user: User) -> bool:
        return user.id == meta.host_id or user.is_admin

    async def start(self, chat: Chat, user: User) -> Reply:
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta = loaded.meta
            if meta.status != LOBBY:
                raise Refused("bot.err.not_lobby")
            if not self._may_manage(meta, user):
                raise Refused("bot.err.not_host", host=self._host_name(meta))
            if not 2 <= len(meta.seats) <= MAX_SEATS:
                raise Refused("bot.err.too_few", count=len(meta.seats))
            game = Game.new([s.name for s in meta.seats], seed=meta.seed,
                            options=Options(meta.options.get("final_tours", "markers")))
            meta.setup = records.compact_setup(to_record(game), meta.seed)
            meta.status = PLAYING
            loaded.game = game
            loaded.movers = []
            out = [M.lobby_closed(meta, M.started_text(meta, game))]
            out += M.marker_messages(meta, game)
            await self._advance(loaded, out, log_start=0, moves_before=0)
            return Reply(t(lang, "bot.reply.started"))
        return await self._with_chat_game(chat, user, act)

    async def abort(self, chat: Chat, user: User) -> Reply:
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta = loaded.meta
            if not self._may_manage(meta, user):
                raise Refused("bot.err.not_host", host=self._host_name(meta))
            meta.status = ABORTED
            meta.updated = self.clock.now()
            text = t(lang, "bot.msg.aborted", by=user.name)
            out = [M.lobby_closed(meta, text) if loaded.game is None
                   else M.group(meta, text, slot=M.turn_slot(meta), mode="edit")]
            await self._commit(Changes(game=meta, outbox=out, timers=[]), forget=meta.id)
            self._forget(meta.id)
            return Reply(t(lang, "bot.reply.aborted"))
        return await self._with_chat_game(chat, user, act)

    async def hand_to_ai(self, chat: Chat, user: User, target_user_id: str | None = None) -> Reply:
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta = loaded.meta
            if meta.status != PLAYING:
                raise Refused("bot.err.not_started")
            target = user.id if target_user_id is None else str(target_user_id)
            if target != user.id and not self._may_manage(meta, user):
                raise Refused("bot.err.not_host", host=self._host_name(meta))
            seat = meta.seat_of(target)
            if seat is None:
                raise Refused("bot.err.no_such_player" if target != user.id else "bot.err.not_in_game")
            return await self._to_ai(loaded, seat, "handed" if target != user.id else "left", user, lang)
        return await self._with_chat_game(chat, user, act)

    async def _to_ai(self, loaded: Loaded, seat: int, reason: str, by: User, lang: str) -> Reply:
        meta = loaded.meta
        info = meta.seats[seat]
        info.is_ai = True
        info.ai_reason = reason
        key = "bot.msg.left_game" if reason == "left" else "bot.msg.handed"
        note = t(meta.language, key, player=info.name, by=by.name)
        await self._advance(loaded, [], log_start=len(loaded.game.log), moves_before=meta.moves, notes=[note])
        return Reply(t(lang, "bot.reply.left_game" if reason == "left" else "bot.reply.handed",
                       name=info.name))

    async def _seat_back(self, loaded: Loaded, seat: int, lang: str) -> Reply:
        """A player whose seat the AI took over (they left, or were absent) plays it again."""
        meta = loaded.meta
        info = meta.seats[seat]
        info.is_ai = False
        info.ai_reason = None
        note = t(meta.language, "bot.msg.seat_back", player=info.name)
        await self._advance(loaded, [], log_start=len(loaded.game.log), moves_before=meta.moves, notes=[note])
        return Reply(t(lang, "bot.reply.seat_back", name=info.name))

    # ---- settings -----------------------------------------------------------------------

    @staticmethod
    def _validate_settings(changes: dict) -> dict[str, Any]:
        clean: dict[str, Any] = {}
        for key, value in (changes or {}).items():
            if key == "final_tours" and value in ("markers", "all_lines"):
                clean[key] = value
            elif key in ("reminder_minutes", "deadline_minutes"):
                try:
                    minutes = int(value)
                except (TypeError, ValueError):
                    raise Refused("bot.err.bad_setting", key=key, value=value) from None
                if not 0 <= minutes <= 60 * 24 * 14:
                    raise Refused("bot.err.bad_setting", key=key, value=value)
                clean[key] = minutes
            elif key == "language" and value in LANGUAGES:
                clean[key] = value
            else:
                raise Refused("bot.err.bad_setting", key=key, value=value)
        return clean

    async def settings(self, chat: Chat, user: User, changes: dict | None = None) -> Reply:
        lang = await self._language(chat, user)
        async with self._lock(chat.platform, chat.id):
            try:
                loaded = await self._chat_game(chat)
                stored = await self.storage.chat_settings(chat.platform, chat.id)
                if changes:
                    clean = self._validate_settings(changes)
                    if loaded is not None and not self._may_manage(loaded.meta, user):
                        raise Refused("bot.err.not_host", host=self._host_name(loaded.meta))
                    if (loaded is not None and loaded.meta.status == PLAYING and "final_tours" in clean
                            and clean["final_tours"] != loaded.meta.options.get("final_tours")):
                        raise Refused("bot.err.final_tours_locked")
                    stored = dict(stored, **clean)
                    change = Changes(chat_settings=(chat.platform, chat.id, stored))
                    if loaded is not None:
                        meta = loaded.meta
                        meta.options.update(clean)
                        meta.updated = self.clock.now()
                        change.game = meta
                        if meta.status == LOBBY:
                            change.outbox.append(M.lobby_message(meta, self.codec, self._host_name(meta),
                                                                 mode="edit"))
                        elif loaded.game is not None and not loaded.game.finished:
                            change.timers = self._timers(loaded)
                    await self._commit(change, forget=loaded.meta.id if loaded else None)
                    lang = clean.get("language") or lang
                options = dict(self.defaults, **stored)
                if loaded is not None:
                    options = loaded.meta.options
                text = t(lang, "bot.reply.settings", options=M.options_text(options, lang))
                if changes:
                    text = t(lang, "bot.reply.settings_saved") + "\n" + text
                return Reply(text, buttons=self._settings_buttons(chat, options, lang))
            except Refused as exc:
                return self._reply_error(exc, lang)

    def _settings_buttons(self, chat: Chat, options: dict, lang: str) -> tuple[tuple[Button, ...], ...]:
        bind = f"{chat.platform}:{chat.id}"
        enc = self.codec.encode
        other = "all_lines" if options.get("final_tours") == "markers" else "markers"
        rows = [[M.button(t(lang, "bot.btn.final_tours", value=t(lang, "bot.final_tours." + other)),
                          enc("s", "f", other[0], bind=bind))],
                [M.button(t(lang, "bot.language." + code), enc("s", "l", code, bind=bind)) for code in LANGUAGES],
                [M.button(t(lang, "bot.btn.reminder", value=M.duration(m, lang)), enc("s", "r", m, bind=bind))
                 for m in REMINDER_CHOICES],
                [M.button(t(lang, "bot.btn.deadline", value=M.duration(m, lang)), enc("s", "d", m, bind=bind))
                 for m in DEADLINE_CHOICES]]
        return M.to_buttons(rows)

    # ---- play ---------------------------------------------------------------------------

    async def press(self, chat: Chat | None, user: User, payload: str) -> Reply:
        async def refuse(key: str) -> Reply:
            return Reply(t(await self._language(chat, user), key), ok=False, alert=True)

        kind = self.codec.kind_of(payload) if isinstance(payload, str) else None
        if kind is None:
            return await refuse("bot.err.forged")
        try:
            if kind == "s":
                if chat is None:
                    return await refuse("bot.err.forged")
                p = self.codec.decode(payload, bind=f"{chat.platform}:{chat.id}")
                return await self._press_setting(chat, user, p)
            if kind == "p":
                return await self.private_started(user, None)
            p = self.codec.decode(payload)
        except ForgedPayload:
            return await refuse("bot.err.forged")
        loaded = await self._load(p.int(0))
        if loaded is None:
            return await refuse("bot.err.unknown_game")
        meta = loaded.meta
        lang = meta.language
        if kind == "m":
            return await self._marker_reply(user, [loaded], lang)
        if kind != "j" and chat is not None and (chat.platform, chat.id) != (meta.platform, meta.chat_id):
            return Reply(t(lang, "bot.err.foreign_chat"), ok=False, alert=True)
        if kind in LOBBY_ACTIONS:
            return await self._lobby_press(kind, meta, user)
        return await self._press_move(meta, user, p)

    async def _lobby_press(self, kind: str, meta: GameMeta, user: User) -> Reply:
        """A lobby button (join, add AI, start, leave) of game ``meta``: only while that game is
        still the chat's game (an old lobby's button must not act on a newer game)."""
        if await self.storage.active_game_id(meta.platform, meta.chat_id) != meta.id:
            key = "bot.err.game_over" if meta.status != LOBBY else "bot.err.stale"
            return Reply(t(meta.language, key), ok=False, alert=True)
        return await LOBBY_ACTIONS[kind](self, meta.chat, user)

    async def _press_setting(self, chat: Chat, user: User, p: Payload) -> Reply:
        key, value = p.fields
        if key == "f":
            change = {"final_tours": "all_lines" if value == "a" else "markers"}
        elif key == "l":
            change = {"language": value}
        elif key == "r":
            change = {"reminder_minutes": int(value, 36)}
        elif key == "d":
            change = {"deadline_minutes": int(value, 36)}
        else:
            return Reply(t(await self._language(chat, user), "bot.err.forged"), ok=False, alert=True)
        return await self.settings(chat, user, change)

    async def _press_move(self, meta: GameMeta, user: User, p: Payload) -> Reply:
        async with self._lock(meta.platform, meta.chat_id):
            loaded = await self._load(meta.id)
            meta = loaded.meta
            lang = meta.language
            try:
                game = loaded.game
                if meta.status == LOBBY or game is None:
                    raise Refused("bot.err.not_started")
                if meta.status != PLAYING:
                    raise Refused("bot.err.game_over")
                seat = meta.seat_of(user.id)
                move = p.int(1)
                if move != meta.moves:
                    if seat is not None and move < meta.moves and loaded.movers[move] == seat and \
                            p.kind in ("t", "e") and game.moves[move].tile.code == p.int(2):
                        raise Refused("bot.err.duplicate")
                    raise Refused("bot.err.stale")
                if seat is None:
                    raise Refused("bot.err.not_in_game")
                if game.current_player != seat:
                    raise Refused("bot.err.not_your_turn", player=game.players[game.current_player])
                if p.kind == "b":
                    out = [M.prompt_message(meta, game, self.codec, mode="edit")]
                    await self._commit(Changes(outbox=out))
                    return Reply(t(lang, "bot.reply.back"), buttons=M.to_buttons(
                        M.offer_buttons(meta, game, self.codec)))
                code = p.int(2)
                if not 0 <= code < 125:
                    raise Refused("bot.err.forged")
                tile = Tile.of(code)
                evict = p.int(3) if p.kind == "e" else None
                return await self._human_move(loaded, seat, tile, evict, lang)
            except Refused as exc:
                return self._reply_error(exc, lang)

    async def _human_move(self, loaded: Loaded, seat: int, tile: Tile, evict: int | None, lang: str) -> Reply:
        meta, game = loaded.meta, loaded.game
        if tile.code not in game.offer:
            return Reply(present.error_text(_tile_error(tile), game.players, lang), ok=False, alert=True)
        options = game.eviction_options(tile)
        if options and evict is None:
            rows = M.eviction_buttons(meta, game, self.codec, tile)
            edit = M.group(meta, M.eviction_text(meta, game, tile), buttons=rows, slot=M.turn_slot(meta),
                           mode="edit", mentions=(meta.seats[seat].user(),))
            await self._commit(Changes(outbox=[edit]))
            return Reply(M.eviction_text(meta, game, tile), buttons=M.to_buttons(rows))
        try:
            pick = game.check(Pick(tile, evict), by=seat)
        except GameError as exc:
            return Reply(present.error_text(exc, game.players, lang), ok=False, alert=True)
        await self._play(loaded, pick, seat, "human")
        return Reply(t(lang, "bot.reply.moved", tile=present.tile_text(tile, lang)),
                     extra={"game_id": meta.id, "moves": meta.moves})

    async def move(self, chat: Chat, user: User, text: str) -> Reply:
        """A move typed as text (terminal, commands): an offer number ("2"), or ``station/colour``
        with an optional eviction (``louvre/blue!1`` evicts seat 1, or ``louvre/blue!Ann``)."""
        async def act(loaded: Loaded, lang: str) -> Reply:
            meta, game = loaded.meta, loaded.game
            if game is None:
                raise Refused("bot.err.not_started")
            seat = meta.seat_of(user.id)
            if seat is None:
                raise Refused("bot.err.not_in_game")
            if game.current_player != seat:
                raise Refused("bot.err.not_your_turn", player=game.players[game.current_player])
            tile, evict = self._parse_move(game, str(text or ""))
            return await self._human_move(loaded, seat, tile, evict, lang)
        return await self._with_chat_game(chat, user, act)

    @staticmethod
    def _parse_move(game: Game, text: str) -> tuple[Tile, int | None]:
        body, sep, evict_text = text.strip().partition("!")
        offer = game.offered_tiles()
        if body.strip().isdigit():
            index = int(body) - 1
            if not 0 <= index < len(offer):
                raise Refused("bot.err.bad_choice", count=len(offer))
            tile = offer[index]
        else:
            try:
                tile = Tile.parse(body)
            except GameError:
                raise Refused("bot.err.bad_move", text=text) from None
        evict = None
        if sep:
            name = evict_text.strip()
            if name.isdigit():
                evict = int(name)
            elif name in game.players:
                evict = game.players.index(name)
            else:
                raise Refused("bot.err.bad_move", text=text)
        return tile, evict

    def _ai_seed(self, meta: GameMeta, move: int) -> int:
        return (meta.seed * 1_000_003 + move * 7919 + 1) % (1 << 63)

    def _ai_move(self, game: Game, meta: GameMeta, move: int) -> Pick:
        """The AI's move for the seat to move; a failing or illegal AI answer never stalls a
        game: the first legal move is played instead (and the fault logged)."""
        try:
            return game.check(self.ai(game, seed=self._ai_seed(meta, move)))
        except Exception:  # noqa: BLE001 - any AI fault
            log.exception("AI failed in game %s at move %s; playing the first legal move", meta.id, move)
            return game.legal_actions()[0]

    async def _play(self, loaded: Loaded, pick: Pick, seat: int, actor: str,
                    extra: list[OutRow] | None = None) -> None:
        """Apply a checked move, then every AI move that follows, and commit it all."""
        game = loaded.game
        log_start, moves_before = len(game.log), loaded.meta.moves
        loaded.movers.append(seat)
        game.apply(pick, by=seat)
        rows = [MoveRow(loaded.meta.id, moves_before, str(pick), seat, actor, self.clock.now())]
        await self._advance(loaded, list(extra or []), log_start=log_start, moves_before=moves_before,
                            rows=rows)

    async def _advance(self, loaded: Loaded, out: list[OutRow], *, log_start: int, moves_before: int,
                       rows: list[MoveRow] | None = None, notes: list[str] | None = None) -> None:
        """Let AI seats play until a human is to move or the game ends; build the messages,
        timers and results; commit. ``out`` holds messages that go before the narration."""
        meta, game = loaded.meta, loaded.game
        rows = list(rows or [])
        now = self.clock.now()
        try:
            while not game.finished and meta.seats[game.current_player].is_ai:
                seat = game.current_player
                n = len(game.moves)
                pick = self._ai_move(game, meta, n)
                loaded.movers.append(seat)
                game.apply(pick, by=seat)
                rows.append(MoveRow(meta.id, n, str(pick), seat, "ai", now))
            meta.moves = len(game.moves)
            meta.updated = now
            out = out + M.after_moves(meta, game, self.codec, log_start, moves_before, notes or ())
            changes = Changes(game=meta, moves=rows, outbox=out, timers=self._timers(loaded))
            if game.finished:
                meta.status = FINISHED
                changes.results = self._results(meta, game, now)
        except BaseException:
            self._forget(meta.id)
            raise
        await self._commit(changes, forget=meta.id)

    def _timers(self, loaded: Loaded) -> list[TimerRow]:
        meta, game = loaded.meta, loaded.game
        if game is None or game.finished or meta.status != PLAYING:
            return []
        if meta.seats[game.current_player].is_ai:
            return []
        now = self.clock.now()
        reminder = int(meta.options.get("reminder_minutes") or 0)
        deadline = int(meta.options.get("deadline_minutes") or 0)
        timers = []
        if reminder and (not deadline or reminder < deadline):
            timers.append(TimerRow(meta.id, "reminder", now + reminder * 60, meta.moves))
        if deadline:
            timers.append(TimerRow(meta.id, "deadline", now + deadline * 60, meta.moves))
        return timers

    @staticmethod
    def _results(meta: GameMeta, game: Game, now: float) -> list[ResultRow]:
        # A seat the AI took over (its player left or was absent) counts for that player as a
        # game played with its points, never as a win.
        return [ResultRow(meta.id, seat, meta.platform, meta.chat_id, info.user_id, info.name,
                          info.is_ai and info.user_id is None, game.scores[seat],
                          seat in game.winners and not (info.is_ai and info.user_id is not None), now)
                for seat, info in enumerate(meta.seats)]

    # ---- information --------------------------------------------------------------------

    async def board(self, chat: Chat, user: User) -> Reply:
        lang = await self._language(chat, user)
        loaded = await self._chat_game(chat)
        if loaded is None:
            return Reply(t(lang, "bot.err.no_game"), ok=False)
        meta, game = loaded.meta, loaded.game
        lang = meta.language
        if game is None:
            return Reply(M.lobby_text(meta, self._host_name(meta)),
                         buttons=M.to_buttons(M.lobby_buttons(meta, self.codec)),
                         extra={"game_id": meta.id, "status": meta.status})
        text = present.board_text(game.view(None), lang)
        buttons: tuple = ()
        seat = meta.seat_of(user.id)
        if seat is not None and game.current_player == seat:
            buttons = M.to_buttons(M.offer_buttons(meta, game, self.codec))
        return Reply(text, buttons=buttons, extra={"game_id": meta.id, "status": meta.status,
                                                    "to_move": game.current_player, "seat": seat})

    async def marker(self, user: User, chat: Chat | None = None) -> Reply:
        lang = await self._language(chat, user)
        if chat is not None:
            loaded = await self._chat_game(chat)
            games = [loaded] if loaded is not None else []
        else:
            games = [g for gid in await self.storage.user_games(user.platform, user.id)
                     if (g := await self._load(gid)) is not None]
        return await self._marker_reply(user, games, lang)

    async def _marker_reply(self, user: User, games: list[Loaded], lang: str) -> Reply:
        lines = []
        for loaded in games:
            seat = loaded.meta.seat_of(user.id)
            if seat is None or loaded.game is None:
                continue
            colour = COLOURS[loaded.game.markers[seat]]
            lines.append(t(lang, "bot.msg.marker_line", chat=loaded.meta.chat_title or loaded.meta.chat_id,
                           colour=M.colour_word(colour, lang)))
        if not lines:
            return Reply(t(lang, "bot.err.no_marker"), ok=False, alert=True)
        return Reply("\n".join(lines), alert=True)

    async def private_started(self, user: User, payload: str | None = None) -> Reply:
        lang = normalize_language(user.language)
        lines = []
        ok = True
        if payload and self.codec.kind_of(payload) == "j":
            try:
                p = self.codec.decode(payload)
            except ForgedPayload:
                return Reply(t(lang, "bot.err.forged"), ok=False, alert=True)
            loaded = await self._load(p.int(0))
            if loaded is None:
                return Reply(t(lang, "bot.err.unknown_game"), ok=False, alert=True)
            joined = await self._lobby_press("j", loaded.meta, user)
            lines.append(joined.text)
            ok = joined.ok
        released = await self.storage.release_held(user.platform, f"u:{user.id}", self.clock.now())
        for gid in await self.storage.user_games(user.platform, user.id):
            loaded = await self._load(gid)
            if loaded is not None and user.id in loaded.meta.extra.get("unreachable", ()):
                await self._mark_unreachable(loaded.meta, user.id, False)
        if released:
            self._wake_platform(user.platform)
            lines.append(t(lang, "bot.reply.private_resent", count=released))
        if not lines:
            lines.append(t(lang, "bot.reply.private_ok"))
        return Reply("\n".join(lines), ok=ok)

    async def stats(self, chat: Chat, user: User) -> Reply:
        lang = await self._language(chat, user)
        rows = await self.storage.chat_results(chat.platform, chat.id)
        table: dict[str, list] = {}
        for r in rows:
            key = r.user_id if not r.is_ai and r.user_id else f"ai:{r.name}"
            entry = table.setdefault(key, [r.name, 0, 0, 0])
            entry[0] = r.name
            entry[1] += 1
            entry[2] += int(r.won)
            entry[3] += r.points
        lines = [t(lang, "bot.stats.title")]
        ranked = sorted(table.values(), key=lambda e: (-e[2], -e[3] / e[1], e[0]))
        for rank, (name, games, wins, points) in enumerate(ranked[:10], 1):
            lines.append(t(lang, "bot.stats.row", rank=rank, name=name, **M.stats_record(lang, games, wins, points)))
        if not ranked:
            lines.append(t(lang, "bot.stats.empty"))
        mine = await self.storage.user_results(user.platform, user.id)
        if mine:
            lines.append(t(lang, "bot.stats.you", name=user.name,
                           **M.stats_record(lang, len(mine), sum(r.won for r in mine), sum(r.points for r in mine))))
        else:
            lines.append(t(lang, "bot.stats.you_none", name=user.name))
        return Reply("\n".join(lines), extra={"leaderboard": ranked, "games": len(mine),
                                              "wins": sum(r.won for r in mine)})

    async def rules(self, chat: Chat | None, user: User) -> Reply:
        return Reply(t(await self._language(chat, user), "bot.rules"))

    async def help(self, chat: Chat | None, user: User) -> Reply:
        return Reply(t(await self._language(chat, user), "bot.help"))

    async def record(self, game_id: int) -> dict[str, Any] | None:
        """The game record of RULES.md (plus ``seed``) as stored; None for unknown or unstarted games.
        It holds every secret (markers, stacks): for operators and finished games, not for chats."""
        got = await self.storage.load_game(game_id)
        if got is None or got[0].setup is None:
            return None
        return records.record_of(got[0].setup, got[1])

    async def game_info(self, chat: Chat | None = None, *, game_id: int | None = None) -> dict[str, Any] | None:
        """The chat's current game (or game ``game_id``, also when over) for adapters and tools:
        id, status, seats, to_move, round, scores (no secrets)."""
        loaded = await self._load(game_id) if game_id is not None else await self._chat_game(chat)
        if loaded is None:
            return None
        meta, game = loaded.meta, loaded.game
        return {"game_id": meta.id, "status": meta.status, "host_id": meta.host_id,
                "seats": [{"name": s.name, "user_id": s.user_id, "is_ai": s.is_ai} for s in meta.seats],
                "to_move": None if game is None else game.current_player, "moves": meta.moves,
                "round": None if game is None else game.round,
                "rounds": None if game is None else game.rounds,
                "scores": None if game is None else list(game.scores),
                "winners": None if game is None or not game.finished else list(game.winners),
                "options": dict(meta.options)}


LOBBY_ACTIONS = {"j": GameService.join, "a": GameService.add_ai, "g": GameService.start,
                 "l": GameService.leave}


def _tile_error(tile: Tile) -> GameError:
    from engine.paris_paris import TileNotOnOffer

    return TileNotOnOffer(f"{tile} is not on offer", tile=str(tile))


def _clean_options(defaults: dict[str, Any]) -> dict[str, Any]:
    """Operator defaults checked like a chat's settings; a bad value stops start-up with a clear error."""
    given = {k: v for k, v in defaults.items() if v not in (None, "")}
    try:
        return GameService._validate_settings(given)
    except Refused as exc:
        raise ValueError(f"bad default for {exc.params.get('key')}: {exc.params.get('value')!r}") from None
