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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.contract import Button, Chat, Outgoing, Reply, RetryLater, Transport, Undeliverable, User
from engine import Game, GameError, Options, Pick, Tile
from engine.board import COLOURS
from engine.record import setup_from_record, to_record
from renderers.i18n import LANGUAGES, normalize_language, t

from . import messages as M
from . import present
from .clock import Clock, SystemClock
from .model import (
    ABORTED,
    DEFAULT_OPTIONS,
    FINISHED,
    LOBBY,
    PLAYING,
    Changes,
    GameMeta,
    MoveRow,
    OutRow,
    ResultRow,
    Seat,
    StoredOut,
    TimerRow,
)
from .payloads import ForgedPayload, Payload, PayloadCodec
from .storage import SqliteStorage, Storage

log = logging.getLogger(__name__)

AI_NAMES = ("Bot Ada", "Bot Blaise", "Bot Camille", "Bot Denis", "Bot Émilie")
MAX_SEATS = 4
MAX_NAME = 32
REMINDER_CHOICES = (0, 60, 240, 720)
DEADLINE_CHOICES = (0, 720, 1440, 2880)
MAX_BACKOFF = 600.0


def _default_ai(game: Game, *, seed: int) -> Pick:
    from engine.ai import choose_move

    return choose_move(game, seed=seed)


@dataclass
class Loaded:
    meta: GameMeta
    game: Game | None = None
    movers: list[int] = field(default_factory=list)   # the seat that made each move


class Refused(Exception):
    """An input the service turns down; carries the catalog key and its parameters."""

    def __init__(self, message_key: str, /, **params: Any) -> None:
        super().__init__(message_key)
        self.key = message_key
        self.params = params


class GameService:
    """Implements ``bot.contract.GameServiceAPI``. Construct with ``await GameService.open(path)``."""

    def __init__(self, storage: Storage, *, clock: Clock | None = None,
                 ai: Callable[..., Pick] | None = None, cache_size: int = 20_000) -> None:
        self.storage = storage
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
                   cache_size: int = 20_000) -> GameService:
        service = cls(storage or SqliteStorage(str(db_path)), clock=clock, ai=ai, cache_size=cache_size)
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
            game = setup_from_record(dict(meta.setup, moves=[]))
            for text in moves:
                loaded.movers.append(game.current_player)
                game.apply(Pick.parse(text))
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
        return dict(DEFAULT_OPTIONS, **(await self.storage.chat_settings(chat.platform, chat.id)))

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
                seat_host = extra.pop("join", True)
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

    async def _lobby_action(self, chat: Chat, user: User, action: Callable[[Loaded, str], Any]) -> Reply:
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
            if meta.status != LOBBY:
                raise Refused("bot.err.not_lobby")
            if meta.seat_of(user.id) is not None:
                raise Refused("bot.err.already_joined")
            if len(meta.seats) >= MAX_SEATS:
                raise Refused("bot.err.full")
            meta.seats.append(self._human_seat(meta, user))
            await self._save_lobby(loaded)
            return Reply(t(lang, "bot.reply.joined"))
        return await self._lobby_action(chat, user, act)

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
        return await self._lobby_action(chat, user, act)

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
        return await self._lobby_action(chat, user, act)

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
            setup = to_record(game)
            setup.pop("moves")
            setup["seed"] = meta.seed
            meta.setup = setup
            meta.status = PLAYING
            loaded.game = game
            loaded.movers = []
            out = [M.lobby_closed(meta, M.started_text(meta, game))]
            out += M.marker_messages(meta, game)
            await self._advance(loaded, out, log_start=0, moves_before=0)
            return Reply(t(lang, "bot.reply.started"))
        return await self._lobby_action(chat, user, act)

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
        return await self._lobby_action(chat, user, act)

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
        return await self._lobby_action(chat, user, act)

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
                options = dict(DEFAULT_OPTIONS, **stored)
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
        if kind == "j":
            return await self.join(meta.chat, user)
        if chat is not None and (chat.platform, chat.id) != (meta.platform, meta.chat_id):
            return Reply(t(lang, "bot.err.foreign_chat"), ok=False, alert=True)
        if kind == "a":
            return await self.add_ai(meta.chat, user)
        if kind == "g":
            return await self.start(meta.chat, user)
        if kind == "l":
            return await self.leave(meta.chat, user)
        return await self._press_move(meta, user, p)

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
        lang = await self._language(chat, user)
        async with self._lock(chat.platform, chat.id):
            try:
                loaded = await self._chat_game(chat)
                if loaded is None:
                    raise Refused("bot.err.no_game")
                meta, game = loaded.meta, loaded.game
                lang = meta.language
                if game is None:
                    raise Refused("bot.err.not_started")
                seat = meta.seat_of(user.id)
                if seat is None:
                    raise Refused("bot.err.not_in_game")
                if game.current_player != seat:
                    raise Refused("bot.err.not_your_turn", player=game.players[game.current_player])
                tile, evict = self._parse_move(game, str(text or ""))
                return await self._human_move(loaded, seat, tile, evict, lang)
            except Refused as exc:
                return self._reply_error(exc, lang)

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
                pick = self.ai(game, seed=self._ai_seed(meta, n))
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
            joined = await self.join(loaded.meta.chat, user)
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
            lines.append(t(lang, "bot.stats.row", rank=rank, name=name, games=games, wins=wins,
                           average=f"{points / games:.1f}"))
        if not ranked:
            lines.append(t(lang, "bot.stats.empty"))
        mine = await self.storage.user_results(user.platform, user.id)
        if mine:
            wins = sum(r.won for r in mine)
            lines.append(t(lang, "bot.stats.you", name=user.name, games=len(mine), wins=wins,
                           average=f"{sum(r.points for r in mine) / len(mine):.1f}"))
        else:
            lines.append(t(lang, "bot.stats.you_none", name=user.name))
        return Reply("\n".join(lines), extra={"leaderboard": ranked, "games": len(mine),
                                              "wins": sum(r.won for r in mine)})

    async def rules(self, chat: Chat | None, user: User) -> Reply:
        return Reply(t(await self._language(chat, user), "bot.rules"))

    async def help(self, chat: Chat | None, user: User) -> Reply:
        return Reply(t(await self._language(chat, user), "bot.help"))

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

    # ---- timers -------------------------------------------------------------------------

    async def fire_due_timers(self) -> int:
        fired = 0
        for timer in await self.storage.due_timers(self.clock.now()):
            loaded = await self._load(timer.game_id)
            if loaded is None:
                continue
            async with self._lock(loaded.meta.platform, loaded.meta.chat_id):
                loaded = await self._load(timer.game_id)
                if await self._fire(loaded, timer):
                    fired += 1
        return fired

    async def _fire(self, loaded: Loaded, timer: TimerRow) -> bool:
        meta, game = loaded.meta, loaded.game
        drop = Changes(drop_timer=(meta.id, timer.kind))
        current = [t_ for t_ in await self.storage.timers_of(meta.id) if t_.kind == timer.kind]
        if not current or current[0].due > self.clock.now():
            return False   # handled meanwhile
        if (meta.status != PLAYING or game is None or game.finished or timer.move != meta.moves
                or meta.seats[game.current_player].is_ai):
            await self._commit(drop)
            return False
        lang = meta.language
        seat = game.current_player
        who = meta.seats[seat]
        if timer.kind == "reminder":
            text = t(lang, "bot.msg.reminder", player=who.name, round=game.round, rounds=game.rounds)
            if meta.extra.get("reminded_round") != game.round:
                # One reminder per round in the group (a round posts at most 3 new messages:
                # its prompt, its map and this); further reminders that round go privately.
                meta.extra["reminded_round"] = game.round
                drop.game = meta
                drop.outbox.append(M.group(meta, text, mentions=(who.user(),)))
            else:
                private_text = t(who.language or lang, "bot.msg.reminder_private", player=who.name,
                                 chat=meta.chat_title or meta.chat_id, round=game.round, rounds=game.rounds)
                drop.outbox.append(M.private(meta, meta.platform, who.user(), private_text, who.language or lang))
            await self._commit(drop, forget=meta.id)
            return True
        pick = self.ai(game, seed=self._ai_seed(meta, meta.moves))
        note = t(lang, "bot.msg.deadline", player=who.name, tile=present.tile_text(pick.tile, lang))
        log_start, moves_before = len(game.log), meta.moves
        loaded.movers.append(seat)
        try:
            game.apply(pick, by=seat)
        except BaseException:
            self._forget(meta.id)
            raise
        rows = [MoveRow(meta.id, moves_before, str(pick), seat, "deadline", self.clock.now())]
        await self._advance(loaded, [], log_start=log_start, moves_before=moves_before, rows=rows, notes=[note])
        return True

    async def run_timers(self, *, max_sleep: float = 30.0) -> None:
        """Fire timers forever (until cancelled); wakes when a commit changes timers."""
        while True:
            try:
                await self.fire_due_timers()
            except Exception:  # noqa: BLE001 - keep the loop alive; the timer stays due
                log.exception("firing timers failed")
            due = await self.storage.next_timer()
            delay = max_sleep if due is None else min(max_sleep, max(0.05, due - self.clock.now()))
            self._timer_wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._timer_wake.wait(), delay)

    # ---- delivery -----------------------------------------------------------------------

    async def deliver_pending(self, transport: Transport) -> int:
        platform = transport.platform
        now = self.clock.now()
        sent = 0
        blocked: set[str] = set()
        wake: float | None = None
        for row in await self.storage.unsent(platform):
            if row.dest in blocked:
                continue
            if row.due > now:
                blocked.add(row.dest)   # keep each chat's messages in order
                wake = row.due if wake is None else min(wake, row.due)
                continue
            if await self._deliver_one(transport, row, blocked):
                sent += 1
            elif row.dest in blocked:
                wake = now if wake is None else min(wake, now)
        self._next_wake[platform] = wake
        return sent

    async def _deliver_one(self, transport: Transport, row: StoredOut, blocked: set[str]) -> bool:
        now = self.clock.now()
        outgoing = await self._materialise(row)
        if row.state == "sending":
            # A crash between sending and recording: ask the transport if it went out.
            check = getattr(transport, "delivered_id", None)
            if check is not None:
                found = await check(outgoing)
                if found is not None:
                    await self.storage.mark_sent(row, str(found), now)
                    return False
        # An edit committed since unsent() read this row may have been coalesced into it
        # (storage._enqueue); once it is 'sending' nothing more can be, so send the body
        # as stored at that moment rather than the copy read before.
        fresh = await self.storage.mark_sending(row.id)
        if fresh is not None and fresh.body != row.body:
            row = fresh
            outgoing = await self._materialise(row)
        try:
            message_id = await transport.deliver(outgoing)
        except RetryLater as exc:
            await self.storage.reschedule(row.id, now + max(0.0, float(exc.seconds)), row.attempts + 1, str(exc))
            blocked.add(row.dest)
            return False
        except Undeliverable as exc:
            await self._undeliverable(row, exc)
            return False
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - any other failure is retried with backoff
            log.warning("delivery of outbox %s failed: %r", row.id, exc)
            delay = min(MAX_BACKOFF, 2.0 ** min(row.attempts, 12))
            await self.storage.reschedule(row.id, now + delay, row.attempts + 1, repr(exc))
            blocked.add(row.dest)
            return False
        await self.storage.mark_sent(row, str(message_id), self.clock.now())
        self._gone_slots.discard((row.platform, row.slot))
        return True

    async def _undeliverable(self, row: StoredOut, exc: Undeliverable) -> None:
        if exc.reason == "private_closed" and row.dest.startswith("u:"):
            # Keep the message to re-send on private_started; tell the group in the prompt.
            await self.storage.set_state(row.id, "held", str(exc))
            loaded = await self._load(row.game_id) if row.game_id is not None else None
            if loaded is not None:
                await self._mark_unreachable(loaded.meta, row.dest[2:], True)
            return
        if exc.reason == "gone" and row.mode == "edit":
            # The message to edit is gone: post the content anew.
            await self.storage.reschedule(row.id, self.clock.now(), row.attempts + 1, str(exc))
            self._gone_slots.add((row.platform, row.slot))
            return
        await self.storage.set_state(row.id, "failed", str(exc))

    async def _mark_unreachable(self, meta: GameMeta, user_id: str, unreachable: bool) -> None:
        """Record that a player's private chat is closed (or open again) and update the prompt."""
        async with self._lock(meta.platform, meta.chat_id):
            loaded = await self._load(meta.id)
            if loaded is None:
                return
            meta, game = loaded.meta, loaded.game
            ids = set(meta.extra.get("unreachable", ()))
            if (user_id in ids) == unreachable:
                return
            ids = ids | {user_id} if unreachable else ids - {user_id}
            meta.extra["unreachable"] = sorted(ids)
            changes = Changes(game=meta)
            if meta.status == PLAYING and game is not None and not game.finished:
                changes.outbox.append(M.prompt_message(meta, game, self.codec, mode="edit"))
            elif meta.status == LOBBY and unreachable:
                seat = meta.seat_of(user_id)
                name = meta.seats[seat].name if seat is not None else user_id
                lang = meta.language
                changes.outbox.append(M.group(
                    meta, t(lang, "bot.msg.private_closed", player=name),
                    buttons=[[M.button(t(lang, "bot.btn.open_private"), self.codec.encode("p"),
                                       "open_private")]]))
            await self._commit(changes, forget=meta.id)

    async def _materialise(self, row: StoredOut) -> Outgoing:
        body = row.body
        edit_id = None
        if row.mode == "edit" and row.slot is not None and (row.platform, row.slot) not in self._gone_slots:
            edit_id = await self.storage.slot_message(row.platform, row.slot)
        image = None
        render = body.get("render")
        if render:
            image = await self._render(render, body.get("language", "en"))
        chat = body.get("chat")
        to = body.get("private_to")
        return Outgoing(
            id=row.id, text=body.get("text", ""),
            chat=Chat(chat["platform"], chat["id"], chat.get("title", "")) if chat else None,
            private_to=User(to["platform"], to["id"], to["name"], language=to.get("language")) if to else None,
            image=image, image_name=body.get("image_name", "paris.png"),
            buttons=M.to_buttons(body.get("buttons") or []),
            mentions=tuple(User(m["platform"], m["id"], m["name"]) for m in body.get("mentions") or []),
            slot=row.slot, edit_message_id=edit_id, language=body.get("language", "en"))

    async def _render(self, render: dict, language: str) -> bytes | None:
        got = await self.storage.load_game(render["game_id"])
        if got is None or got[0].setup is None:
            return None
        meta, moves = got

        def work() -> bytes | None:
            game = setup_from_record(dict(meta.setup, moves=[]))
            for text in moves[:render["moves"]]:
                game.apply(Pick.parse(text))
            if render["kind"] == "final":
                events = game.log
                for i in range(len(game.log) - 1, -1, -1):
                    if game.log[i].kind == "round_started":
                        events = game.log[i:]
                        break
            else:
                starts = [i for i, e in enumerate(game.log) if e.kind == "round_started"]
                r = render.get("round", 1)
                events = game.log[starts[r - 1]:starts[r]] if len(starts) > r else game.log[starts[r - 1]:]
            return present.render_image(render["kind"], game.view(None), events, language)

        try:
            return await asyncio.to_thread(work)
        except Exception:  # noqa: BLE001 - a picture is not worth losing the message
            log.exception("rendering %s failed", render)
            return None

    async def run_delivery(self, transport: Transport, *, max_sleep: float = 30.0) -> None:
        platform = transport.platform
        event = self._wake.setdefault(platform, asyncio.Event())
        if self._timer_task is None or self._timer_task.done():
            self._timer_task = asyncio.create_task(self.run_timers())
        while True:
            event.clear()
            try:
                await self.deliver_pending(transport)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep delivering
                log.exception("delivery pass failed")
            due = self._next_wake.get(platform)
            delay = max_sleep if due is None else min(max_sleep, max(0.05, due - self.clock.now()))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), delay)


def _tile_error(tile: Tile) -> GameError:
    from engine import TileNotOnOffer

    return TileNotOnOffer(f"{tile} is not on offer", tile=str(tile))
