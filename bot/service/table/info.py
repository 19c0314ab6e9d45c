"""Questions about games: the board, a player's secret, the leaderboard, rules, help, records."""

from __future__ import annotations

import math
from typing import Any

from bot.contract import Button, Chat, GameInfo, Refusal, Reply, SeatInfo, User
from bot.games import KINDS, GameKind, find, kind
from bot.product import COMMAND
from bot.replyextra import BoardState, GameRef, GameStats, LeaderRow, Stats
from i18n import t

from ..clock import Clock
from ..game.model import Changes, GameMeta, OutRow, ResultRow
from ..posts import messages as M
from ..posts import seatmenu
from ..posts import turnmessages as TM
from ..posts.animation import ANIMATION
from ..posts.seatmenu import waiting_line
from ..refusal import Refused
from ..storage.store import GameStore, Loaded
from ..tokens.payloads import PayloadCodec

# A game's animation costs seconds of a core to draw and encode, and fills the chat: once it went
# out (at the game's end or on /replay), the same chat asks for it again after this many seconds.
REPLAY_COOLDOWN = 600.0


class Info:
    def __init__(self, store: GameStore, codec: PayloadCodec, clock: Clock) -> None:
        self.store = store
        self.storage = store.storage
        self.codec = codec
        self.clock = clock

    async def board(self, loaded: Loaded, user: User, lang: str, *, private: bool = False) -> Reply:
        meta, match = loaded.meta, loaded.match
        if match is None:
            return Reply(M.lobby_text(meta, loaded.kind, meta.host_name),
                         buttons=M.to_buttons(M.lobby_buttons(meta, loaded.kind, self.codec)),
                         extra=GameRef(meta.id, game=meta.kind, status=meta.status))
        text = loaded.kind.presenter.board_text(match.view(None), lang)
        acting = match.to_act()
        private_choices = seatmenu.private_choices(loaded.kind, match)
        if private_choices and acting:
            text += "\n" + waiting_line(meta, match)     # every seat still to act
        buttons: tuple[tuple[Button, ...], ...] = ()
        own = None
        seat = meta.seat_of(user.id)
        if seat is not None and seat in acting:
            if private_choices and not private:
                # The answer may be read by the group (a command's reply): the seat's choices
                # come privately, through this button.
                rows = [[M.button(t(meta.language, "bot.btn.my_choices"), self.codec.encode("h", meta.id))]]
            else:
                _, rows = TM.TurnMessages(meta, loaded.kind, match, self.codec).choice_buttons(seat)
                # the seat's own board in text, beside its choices (its picture's stand-in)
                own = loaded.kind.presenter.render_private_text(match.view(seat), lang)
            buttons = M.to_buttons(rows)
        return Reply(text, buttons=buttons, own_board=own or "", extra=BoardState(
            game_id=meta.id, game=meta.kind, status=meta.status, to_move=acting[0] if acting else None,
            to_act=tuple(acting), seat=seat, private_choices=private_choices))

    async def secrets(self, user: User, games: list[Loaded], lang: str, *, here: bool = False) -> Reply:
        """The user's secret in each running game given (whatever its game keeps hidden), for a private answer."""
        lines = []
        # Asked about one game (in its chat): the chat goes without saying. Asked about all of
        # one's games (a private chat): each line says where that game is played.
        named = len(games) > 1 or not here
        for loaded in games:
            seat = loaded.meta.seat_of(user.id)
            if seat is None or loaded.match is None:
                continue
            text = loaded.kind.presenter.secret_text(loaded.match.view(seat), lang,
                                                     M.chat_label(loaded.meta) if named else "")
            if text:
                lines.append(text)
        if not lines:
            game_kind = games[0].kind if games else kind(None)
            return Reply(game_kind.presenter.no_secret_text(lang), ok=False, alert=True, refused=Refusal.NO_SECRET)
        return Reply("\n".join(lines), alert=True)

    async def user_games(self, user: User) -> list[Loaded]:
        return [g for gid in await self.storage.user_games(user.platform, user.id)
                if (g := await self.store.load(gid)) is not None]

    async def stats(self, chat: Chat, user: User, lang: str, game_name: str | None = None, *,
                    all_chats: bool = False) -> Reply:
        """The leaderboard of each game played here (or only the named game): points of
        different games are never added up. ``all_chats``: every chat of the platform."""
        named = find(game_name) if game_name else None
        gid = named.id if named is not None else None
        rows = await self.storage.chat_results(chat.platform, None if all_chats else chat.id, kind=gid)
        mine = await self.storage.user_results(user.platform, user.id, kind=gid)
        played = {r.kind for r in [*rows, *mine]}
        kinds = [named] if named is not None else [g for g in KINDS.values() if g.id in played]
        if not kinds:
            lines = [t(lang, "bot.stats.title"), t(lang, "bot.stats.empty_anywhere" if all_chats else "bot.stats.empty"),
                     t(lang, "bot.stats.you_none", name=user.name)]
            return Reply("\n".join(lines), extra=Stats(game=None, by_game={}, leaderboard=(), games=0, wins=0))
        sections: list[str] = []
        by_game: dict[str, GameStats] = {}
        for game_kind in kinds:
            text, by_game[game_kind.id] = self._leaderboard(
                game_kind, [r for r in rows if r.kind == game_kind.id], [r for r in mine if r.kind == game_kind.id],
                user, lang, all_chats=all_chats)
            sections.append(text)
        if len(kinds) == 1:                     # one game: its figures at the top level too
            only = by_game[kinds[0].id]
            return Reply("\n\n".join(sections), extra=Stats(
                game=kinds[0].id, by_game=by_game, leaderboard=only.leaderboard, games=only.games, wins=only.wins))
        return Reply("\n\n".join(sections), extra=Stats(game=gid, by_game=by_game))

    @staticmethod
    def _leaderboard(game_kind: GameKind, rows: list[ResultRow], mine: list[ResultRow], user: User, lang: str, *,
                     all_chats: bool) -> tuple[str, GameStats]:
        """One game's leaderboard and the user's own record in it: (text, figures)."""
        table: dict[str, list[Any]] = {}      # by player: [name, games, wins, points]
        for r in rows:
            key = r.user_id if not r.is_ai and r.user_id else f"ai:{r.name}"
            entry = table.setdefault(key, [r.name, 0, 0, 0])
            entry[0] = r.name
            entry[1] += 1
            entry[2] += int(r.won)
            entry[3] += r.points
        lines = [t(lang, "bot.stats.title_game", game=game_kind.presenter.title(lang))]
        ranked = sorted((LeaderRow(*e) for e in table.values()), key=lambda e: (-e.wins, -e.points / e.games, e.name))
        for rank, (name, games, wins, points) in enumerate(ranked[:10], 1):
            lines.append(t(lang, "bot.stats.row", rank=rank, name=name, **M.stats_record(lang, games, wins, points)))
        if not ranked:
            lines.append(t(lang, "bot.stats.empty_anywhere" if all_chats else "bot.stats.empty"))
        if mine:
            lines.append(t(lang, "bot.stats.you", name=user.name,
                           **M.stats_record(lang, len(mine), sum(r.won for r in mine), sum(r.points for r in mine))))
        else:
            lines.append(t(lang, "bot.stats.you_none", name=user.name))
        return "\n".join(lines), GameStats(leaderboard=tuple(ranked), games=len(mine), wins=sum(r.won for r in mine))

    @staticmethod
    def rules(game_kind: GameKind, lang: str) -> Reply:
        return Reply(game_kind.presenter.rules_text(lang))

    @staticmethod
    def help(game_kind: GameKind | None, lang: str) -> Reply:
        games = [game_kind] if game_kind is not None else list(KINDS.values())
        lines = [t(lang, "bot.help.commands")]
        for g in games:
            lines.append("")
            lines.append(g.presenter.help_text(lang))
        if game_kind is None and len(KINDS) > 1:
            lines.append("")
            lines.append(t(lang, "bot.help.games", games=", ".join(f"{g.presenter.title(lang)} ({g.id})"
                                                                   for g in KINDS.values())))
        return Reply("\n".join(lines))

    async def record(self, game_id: int) -> dict[str, Any] | None:
        """The game's record (plus ``seed``) as stored; None for unknown or unstarted games.
        It holds every secret: for operators and finished games, not for chats."""
        got = await self.storage.load_game(game_id)
        if got is None or got[0].setup is None:
            return None
        return kind(got[0].kind).definition.record_of(got[0].setup, got[1])

    async def _finished(self, game_id: int) -> tuple[GameMeta, dict[str, Any], list[tuple[int, str]]]:
        """A finished game's metadata, set-up and moves (the callers found the game finished)."""
        got = await self.storage.load_game(game_id)
        if got is None or got[0].setup is None:
            raise LookupError(f"game {game_id} is not stored with a set-up")
        return got[0], got[0].setup, got[1]

    async def record_file(self, game_id: int, lang: str) -> Reply:
        """A finished game's record as a JSON file (``boardchat replay FILE`` plays it again)."""
        import json

        meta, setup, moves = await self._finished(game_id)
        game_kind = kind(meta.kind)
        record = game_kind.definition.record_of(setup, moves)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")
        name = M.picture_name(meta, game_kind, "record").removesuffix(".png") + ".json"
        return Reply(t(lang, "bot.reply.record", id=game_id, game=game_kind.presenter.title(lang), file=name,
                       command=f"{COMMAND} replay"),
                     document=data, document_name=name, extra=GameRef(game_id))

    async def replay(self, game_id: int, lang: str) -> Reply:
        """Post a finished game's animation in its chat (through the outbox: drawn when it is sent)."""
        meta, _, moves = await self._finished(game_id)
        game_kind = kind(meta.kind)
        animation = M.animation_message(meta, game_kind, len(moves))
        await self._check_replay_allowed(game_id, animation, lang)
        await self.store.commit(Changes(outbox=[animation]))
        return Reply(t(lang, "bot.reply.replay", id=game_id, game=game_kind.presenter.title(lang)),
                     extra=GameRef(game_id))

    async def _check_replay_allowed(self, game_id: int, animation: OutRow, lang: str) -> None:
        """Refuse ``animation`` of game ``game_id`` while the same one is still on its way to its
        chat, or went out less than ``REPLAY_COOLDOWN`` ago (the chat has it just above)."""
        last = await self.storage.latest_picture(game_id, animation.platform, animation.dest, ANIMATION)
        if last is None:
            return
        if last.sent_at is None:
            raise Refused(Refusal.REPLAY_ON_ITS_WAY, id=game_id)
        wait = last.sent_at + REPLAY_COOLDOWN - self.clock.now()
        if wait > 0:
            raise Refused(Refusal.REPLAY_JUST_POSTED, id=game_id,
                          wait=t(lang, "bot.duration.minutes", n=math.ceil(wait / 60)))

    @staticmethod
    def game_info(loaded: Loaded) -> GameInfo:
        """The game for adapters and tools (``contract.GameInfo``; no secrets)."""
        meta, match = loaded.meta, loaded.match
        seats = tuple(SeatInfo(s.name, s.user_id, s.is_ai, s.level if s.is_ai else None) for s in meta.seats)
        if match is None:
            return GameInfo(meta.id, meta.kind, meta.status, meta.host_id, seats, (), meta.moves, None, None, None,
                            None, None, dict(meta.options))
        scores = match.rhythm.public_returns()
        return GameInfo(meta.id, meta.kind, meta.status, meta.host_id, seats, tuple(match.to_act()), meta.moves,
                        match.rhythm.cycle, match.rhythm.round_number(), match.rhythm.rounds(),
                        None if scores is None else tuple(scores),
                        tuple(match.winners) if match.is_terminal() else None, dict(meta.options))
