"""A person's unfinished games across chats (/mygames), and the one that has waited longest (/next).

Each entry says which game, in which chat, whose turn it is, since when, and where the turn's
message is (its platform message id, from the outbox's slots), so an adapter can link to it.
"""

from __future__ import annotations

from bot.contract import MessageLink, Reply, User
from bot.games import kind
from bot.replyextra import MyGame, MyGameList, NextGame
from engine.interface import Match
from i18n import t

from ..clock import Clock
from ..game.model import LOBBY, PLAYING, GameMeta
from ..game.phase import Phase
from ..posts import messages as M
from ..storage.store import GameStore, Loaded


def waiting_since(meta: GameMeta, match: Match | None) -> float:
    """When the seats to act began to wait: their phase's start (its timers run from it);
    a lobby, or a phase not yet armed, since the game last changed."""
    if match is None or meta.status == LOBBY:
        return meta.created or meta.updated
    began = Phase.of(meta.turn, match).began_at
    return meta.updated if began is None else began


def waited_text(seconds: float, language: str) -> str:
    """A wait in its largest whole unit ("3 hours"; at least "1 minute")."""
    minutes = max(1, int(seconds // 60))
    if minutes >= 1440:
        return t(language, "bot.duration.days", n=minutes // 1440)
    if minutes >= 60:
        return t(language, "bot.duration.hours", n=minutes // 60)
    return t(language, "bot.duration.minutes", n=minutes)


class MyGames:
    def __init__(self, store: GameStore, clock: Clock) -> None:
        self.store = store
        self.storage = store.storage
        self.clock = clock

    async def entries(self, user: User, link: MessageLink | None = None) -> list[MyGame]:
        """The user's unfinished games: those waiting for them first, the longest wait first."""
        games: list[Loaded] = []
        for meta in await self.storage.seated_games(user.platform, user.id):
            loaded = await self.store.load(meta.id)
            if loaded is not None and loaded.meta.status in (LOBBY, PLAYING):
                games.append(loaded)
        slots = {g.meta.id: M.lobby_slot(g.meta) if g.match is None else M.turn_slot(g.meta) for g in games}
        message_ids = await self.storage.slot_messages(user.platform, sorted(set(slots.values())))
        out = []
        for loaded in games:
            meta, match = loaded.meta, loaded.match
            acting = () if match is None or match.is_terminal() else match.to_act()
            seat = meta.seat_of(user.id)
            message_id = message_ids.get(slots[meta.id])
            out.append(MyGame(
                game_id=meta.id, kind=meta.kind, chat=meta.chat, status=meta.status,
                to_act=tuple(meta.seats[s].name for s in acting), yours=seat in acting,
                since=waiting_since(meta, match), message_id=message_id,
                link=link(meta.chat, message_id) if link is not None and message_id is not None else None))
        return sorted(out, key=lambda g: (not g.yours, g.since, g.game_id))

    def line(self, entry: MyGame, language: str) -> str:
        """One game: "Paris Paris in Friday night: your turn, waiting 3 hours" (and its link)."""
        if entry.status == LOBBY:
            turn = t(language, "bot.mine.lobby")
        elif entry.yours:
            turn = t(language, "bot.mine.your_turn")
        else:
            turn = t(language, "bot.mine.their_turn", names=", ".join(entry.to_act))
        text = t(language, "bot.mine.row", game=kind(entry.kind).presenter.title(language),
                 chat=entry.chat.title or entry.chat.id, turn=turn,
                 waited=waited_text(self.clock.now() - entry.since, language))
        if entry.link:
            text += "\n" + t(language, "bot.mine.link", link=entry.link)
        return text

    async def listing(self, user: User, language: str, link: MessageLink | None = None) -> Reply:
        games = await self.entries(user, link)
        if not games:
            return Reply(t(language, "bot.mine.none"), extra=MyGameList(()))
        waiting = sum(g.yours for g in games)
        lines = [t(language, "bot.mine.title", count=len(games), waiting=waiting)]
        lines += [self.line(g, language) for g in games]
        return Reply("\n".join(lines), extra=MyGameList(tuple(games)))

    async def next(self, user: User, language: str, link: MessageLink | None = None) -> Reply:
        """The game that has waited for the user longest (none: say so, and how many they sit in)."""
        games = await self.entries(user, link)
        waiting = [g for g in games if g.yours]
        if not waiting:
            return Reply(t(language, "bot.mine.next_none", count=len(games)), extra=NextGame(None))
        first = waiting[0]
        lines = [t(language, "bot.mine.next", waiting=len(waiting)), self.line(first, language)]
        return Reply("\n".join(lines), extra=NextGame(first))
