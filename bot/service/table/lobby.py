"""Lobbies and seats: opening a game of any kind, joining, AI seats, starting, aborting, hand-overs."""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

from bot.contract import Chat, Refusal, Reply, User
from bot.games import GameKind, ai_level, find
from bot.replyextra import GameRef
from engine.errors import GameError
from i18n import normalize_language, t

from ..clock import Clock
from ..game.model import ABORTED, LOBBY, PLAYING, Changes, GameMeta, OutRow, Seat
from ..game.outmessage import RenderRequest
from ..posts import messages as M
from ..posts.turnmessages import TurnMessages
from ..refusal import Refused
from ..storage import Conflict
from ..storage.store import GameStore, Loaded
from ..tokens.payloads import PayloadCodec
from .chat_settings import ChatSettings
from .play import Play, Turn

# The 🤖 mark says a seat is the AI's: the names need no common prefix, and their first letters differ
# so that the map's initials do too.
AI_NAMES = ("Ada", "Blaise", "Camille", "Denis", "Émilie", "Fanny", "Gaston")
MAX_NAME = 32


def _level_named(levels: tuple[str, ...], name: str, lang: str) -> str | None:
    """The level a player typed: its id ("strong") or its name in the chat's language ("stark")."""
    wanted = name.strip().casefold()
    for level in levels:
        if wanted in (level, M.level_text(level, lang).casefold()):
            return level
    return None


class Lobby:
    def __init__(self, store: GameStore, codec: PayloadCodec, clock: Clock, play: Play, settings: ChatSettings) -> None:
        self.store = store
        self.codec = codec
        self.clock = clock
        self.play = play
        self.settings = settings

    async def new_game(self, chat: Chat, user: User, options: dict[str, Any] | None, lang: str) -> Reply:
        if await self.store.chat_game(chat) is not None:
            raise Refused(Refusal.GAME_EXISTS)
        extra = dict(options or {})
        kind = find(extra.pop("game", None))
        if kind is None:
            raise Refused(Refusal.UNKNOWN_KIND, games=", ".join(self.settings.game_names(lang)))
        seed = extra.pop("seed", None)
        seat_host = bool(extra.pop("join", True))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63):
            raise Refused(Refusal.BAD_SETTING, key="seed", value=str(seed)[:40])
        opts = self.settings.game_options(kind, await self.settings.chat_options(chat), extra)
        if not opts.get("language"):
            opts["language"] = normalize_language(user.language)
        now = self.clock.now()
        meta = GameMeta(
            id=await self.store.storage.new_game_id(), platform=chat.platform, chat_id=chat.id,
            chat_title=chat.title, status=LOBBY, host_id=user.id, options=opts,
            seed=int(seed) if seed is not None else secrets.randbits(63), created=now, updated=now,
            kind=kind.id)
        if seat_host:
            meta.seats.append(self._human_seat(meta, user))
        out = [M.lobby_message(meta, kind, self.codec, user.name, mode="new")]
        await self.store.commit(Changes(meta=meta, outbox=out))
        self.store.remember(Loaded(meta))
        return Reply(t(meta.language, "bot.reply.created_game", game=kind.presenter.title(meta.language)),
                     extra=GameRef(meta.id, game=kind.id))

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

    async def save(self, loaded: Loaded, extra: list[OutRow] | None = None) -> None:
        meta = loaded.meta
        meta.updated = self.clock.now()
        out = [M.lobby_message(meta, loaded.kind, self.codec, meta.host_name, mode="edit")] + (extra or [])
        await self.store.commit(Changes(meta=meta, outbox=out), forget=meta.id)

    async def join(self, loaded: Loaded, user: User, lang: str) -> Reply:
        meta = loaded.meta
        taken_over = meta.seat_taken_over(user.id)
        if meta.status == PLAYING and taken_over is not None:
            return await self.seat_back(loaded, taken_over, lang)
        if meta.status != LOBBY:
            raise Refused(Refusal.NOT_LOBBY)
        if meta.seat_of(user.id) is not None:
            raise Refused(Refusal.ALREADY_JOINED)
        if len(meta.seats) >= loaded.kind.definition.max_players:
            raise Refused(Refusal.FULL)
        meta.seats.append(self._human_seat(meta, user))
        await self.save(loaded)
        return Reply(t(lang, "bot.reply.joined"))

    async def leave(self, loaded: Loaded, user: User, lang: str) -> Reply:
        meta = loaded.meta
        seat = meta.seat_of(user.id)
        if seat is None:
            raise Refused(Refusal.NOT_IN_GAME)
        if meta.status != LOBBY:
            return await self.to_ai(loaded, seat, "left", user, lang)
        del meta.seats[seat]
        humans = meta.humans()
        successor = meta.seats[humans[0]].user_id if humans else None      # a human seat's, never None
        if meta.host_id == user.id and successor is not None:
            meta.host_id = successor
        if humans:
            await self.save(loaded)
            return Reply(t(lang, "bot.reply.left"))
        meta.status = ABORTED
        meta.updated = self.clock.now()
        out = [M.lobby_closed(meta, t(lang, "bot.lobby.closed"))]
        await self.store.commit(Changes(meta=meta, outbox=out, timers=[]), forget=meta.id)
        self.store.forget(meta.id)
        return Reply(t(lang, "bot.reply.left_closed"))

    async def add_ai(self, loaded: Loaded, user: User, lang: str, level: str | None = None) -> Reply:
        meta = loaded.meta
        definition = loaded.kind.definition
        if meta.status != LOBBY:
            raise Refused(Refusal.NOT_LOBBY)
        if len(meta.seats) >= definition.max_players:
            raise Refused(Refusal.FULL)
        if meta.seat_of(user.id) is None and not meta.may_manage(user):
            raise Refused(Refusal.NOT_IN_GAME)
        if level is not None and level not in definition.ai_levels:
            named = _level_named(definition.ai_levels, str(level), lang)
            if named is None:
                raise Refused(Refusal.BAD_LEVEL, level=str(level)[:20], levels=", ".join(
                    M.level_text(lv, lang) for lv in definition.ai_levels))
            level = named
        taken = {s.name for s in meta.seats}
        name = next(n for n in AI_NAMES if n not in taken)
        level = ai_level(loaded.kind, level or meta.options.get("ai_level"))
        meta.seats.append(Seat(name=name, platform=meta.platform, user_id=None, is_ai=True, ai_reason="added",
                               level=level))
        await self.save(loaded)
        return Reply(t(lang, "bot.reply.ai_added", name=name))

    async def start(self, loaded: Loaded, user: User, lang: str) -> Reply:
        meta = loaded.meta
        kind: GameKind = loaded.kind
        definition = kind.definition
        if meta.status != LOBBY:
            raise Refused(Refusal.NOT_LOBBY)
        if not meta.may_manage(user):
            raise Refused(Refusal.NOT_HOST, host=meta.host_name)
        if not definition.min_players <= len(meta.seats) <= definition.max_players:
            raise Refused(Refusal.SEAT_COUNT, count=len(meta.seats), game=kind.presenter.title(lang),
                          min=definition.min_players, max=definition.max_players)
        options = {spec.name: meta.options[spec.name] for spec in definition.options if spec.name in meta.options}
        try:
            match = definition.new_match([s.name for s in meta.seats], seed=meta.seed, options=options)
        except GameError as exc:
            raise Refused(Refusal.CANNOT_START, detail=str(exc)) from None
        meta.setup = match.stored_setup()
        meta.status = PLAYING
        loaded.match = match
        turn = Turn(loaded)
        turn.log_start = 0            # the set-up is news too: no prompt of the first cycle exists yet
        turn.private += TurnMessages(meta, kind, match, self.codec).private_events(match.log)
        # the first prompt opens with the status line: the picture says what it shows
        start_map = M.group(meta, t(meta.language, "bot.msg.start_map"),
                            render=RenderRequest("map", meta.id, 0, 0),
                            image_name=M.picture_name(meta, kind, "start"),
                            latest_image_name=M.picture_name(meta, kind, M.BOARD_PICTURE))
        await self.play.finish(loaded, turn, [M.lobby_closed(meta, M.started_text(meta, kind, match))],
                               first_prompt=True, first_picture=start_map)
        return Reply(t(lang, "bot.reply.started"))

    async def abort(self, loaded: Loaded, user: User, lang: str) -> Reply:
        meta = loaded.meta
        if not meta.may_manage(user):
            raise Refused(Refusal.NOT_HOST, host=meta.host_name)
        meta.status = ABORTED
        meta.updated = self.clock.now()
        text = t(lang, "bot.msg.aborted", by=user.name)
        out = [M.lobby_closed(meta, text) if meta.setup is None
               else M.group(meta, text, slot=M.turn_slot(meta), mode="edit")]
        await self.store.commit(Changes(meta=meta, outbox=out, timers=[]), forget=meta.id)
        self.store.forget(meta.id)
        return Reply(t(lang, "bot.reply.aborted"))

    async def hand_to_ai(self, loaded: Loaded, user: User, target_user_id: str | None, lang: str) -> Reply:
        meta = loaded.meta
        if meta.status != PLAYING:
            raise Refused(Refusal.NOT_STARTED)
        target = user.id if target_user_id is None else str(target_user_id)
        if target != user.id and not meta.may_manage(user):
            raise Refused(Refusal.NOT_HOST, host=meta.host_name)
        seat = meta.seat_of(target)
        if seat is None:
            raise Refused(Refusal.NO_SUCH_PLAYER if target != user.id else Refusal.NOT_IN_GAME)
        return await self.to_ai(loaded, seat, "handed" if target != user.id else "left", user, lang)

    async def to_ai(self, loaded: Loaded, seat: int, reason: str, by: User, lang: str) -> Reply:
        meta = loaded.meta
        info = meta.seats[seat]
        info.is_ai = True
        info.ai_reason = reason
        info.level = ai_level(loaded.kind, meta.options.get("ai_level"))
        key = "bot.msg.left_game" if reason == "left" else "bot.msg.handed"
        note = t(meta.language, key, player=info.name, by=by.name)
        await self.play.finish(loaded, Turn(loaded), notes=[note])
        return Reply(t(lang, "bot.reply.left_game" if reason == "left" else "bot.reply.handed", name=info.name))

    async def seat_back(self, loaded: Loaded, seat: int, lang: str) -> Reply:
        """A player whose seat the AI took over (they left, or were absent) plays it again."""
        meta = loaded.meta
        info = meta.seats[seat]
        info.is_ai = False
        info.ai_reason = None
        note = t(meta.language, "bot.msg.seat_back", player=info.name)
        await self.play.finish(loaded, Turn(loaded), notes=[note])
        return Reply(t(lang, "bot.reply.seat_back", name=info.name))

    async def set_unreachable(self, game_id: int, user_id: str, unreachable: bool) -> None:
        """Record that a player's private chat is closed (or open again) and update the prompt."""
        loaded = await self.store.load(game_id)
        if loaded is None:
            return
        meta = loaded.meta
        async with self.store.lock(meta.platform, meta.chat_id):
            loaded = await self.store.load(game_id)
            if loaded is None:
                return
            meta, match = loaded.meta, loaded.match
            if (user_id in meta.turn.unreachable) == unreachable:
                return
            turn = meta.turn.reachable(user_id, not unreachable)
            changes = Changes(meta=meta, turn=turn)
            lang = meta.language
            if meta.status == PLAYING and match is not None and not match.is_terminal():
                changes.outbox.append(TurnMessages(meta, loaded.kind, match, self.codec, turn).prompt(mode="edit"))
            elif meta.status == LOBBY and unreachable:
                seat = meta.seat_of(user_id)
                name = meta.seats[seat].name if seat is not None else user_id
                changes.outbox.append(M.group(
                    meta, t(lang, "bot.msg.private_closed", player=name),
                    buttons=[[M.button(t(lang, "bot.btn.open_private"), self.codec.encode("p"), "open_private")]]))
            with contextlib.suppress(Conflict):
                await self.store.commit(changes, forget=meta.id)
