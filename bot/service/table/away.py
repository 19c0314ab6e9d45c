"""/away: a person on vacation. Until they are back, each chat they play in does what it chose
(the "away_mode" setting): the AI plays their turns at once, or their clock stops.

Kept per person and platform (the ``away`` table), so it covers their seats in every unfinished
game there, games started later included. Saying it (or ``off``) is stored first; then each game
they play in is told once, and its timers are armed again (``arming.Arming`` reads the table)
in that game's own commit.
"""

from __future__ import annotations

import re

from bot.contract import Refusal, Reply, User
from bot.replyextra import AwayNote
from i18n import t

from ..clock import Clock
from ..game import bank as B
from ..game.model import PLAYING, Changes
from ..posts import messages as M
from ..refusal import Refused
from ..storage import Conflict
from ..storage.store import GameStore, Loaded
from .arming import PAUSES
from .play import Play

MAX_AWAY_DAYS = 60
UNITS = {"d": 86400, "h": 3600, "m": 60}
OFF = ("off", "0", "back")
_PART = re.compile(r"(\d{1,4})\s*([dhm]?)")
_WHOLE = re.compile(r"(?:\d{1,4}\s*[dhm]?\s*)+")


def parse_duration(text: str) -> float | None:
    """Seconds in "5d", "12h", "1d12h", "90m" or a bare number of days; None for "off".
    ``Refused`` for anything else, or for more than ``MAX_AWAY_DAYS``."""
    words = text.strip().lower()
    if words in OFF:
        return None
    if not _WHOLE.fullmatch(words):
        raise Refused(Refusal.AWAY_BAD, text=text[:40], days=MAX_AWAY_DAYS)
    seconds = sum(int(n) * UNITS[unit or "d"] for n, unit in _PART.findall(words))
    if seconds <= 0:
        raise Refused(Refusal.AWAY_BAD, text=text[:40], days=MAX_AWAY_DAYS)
    if seconds > MAX_AWAY_DAYS * 86400:
        raise Refused(Refusal.AWAY_TOO_LONG, days=MAX_AWAY_DAYS)
    return float(seconds)


def _minutes(seconds: float) -> int:
    return max(1, round(seconds / 60))


class Away:
    def __init__(self, store: GameStore, play: Play, clock: Clock) -> None:
        self.store = store
        self.storage = store.storage
        self.play = play
        self.clock = clock

    async def away(self, user: User, text: str | None, lang: str) -> Reply:
        """Store the person away for the duration in ``text`` (or back, "off"); no text: say
        whether they are away, and how to say it."""
        now = self.clock.now()
        if not (text or "").strip():
            back_at = (await self.storage.away_until(user.platform, [user.id])).get(user.id, 0.0)
            if back_at > now:
                return Reply(t(lang, "bot.away.status", duration=M.duration(_minutes(back_at - now), lang)))
            return Reply(t(lang, "bot.away.usage", days=MAX_AWAY_DAYS))
        seconds = parse_duration(text or "")
        until = None if seconds is None else now + seconds
        await self.store.commit(Changes(away=(user.platform, user.id, until)))
        self.play.arming.said_away()
        told = 0
        for meta in await self.storage.seated_games(user.platform, user.id):
            if meta.status == PLAYING and await self._tell(meta.id, user.id, until):
                told += 1
        if until is None or seconds is None:
            return Reply(t(lang, "bot.away.off", count=told), extra=AwayNote(told))
        return Reply(t(lang, "bot.away.set", duration=M.duration(_minutes(seconds), lang), count=told),
                     extra=AwayNote(told, until))

    async def _tell(self, game_id: int, user_id: str, until: float | None) -> bool:
        """Tell one game's chat, pause the person's banks there if the chat pauses them, and arm
        its timers again; once more if another process moved the game meanwhile."""
        for _attempt in (1, 2):
            loaded = await self.store.load(game_id)
            if loaded is None:
                return False
            meta = loaded.meta
            async with self.store.lock(meta.platform, meta.chat_id):
                loaded = await self.store.load(game_id)
                seat = None if loaded is None else loaded.meta.seat_of(user_id)
                if loaded is None or loaded.meta.status != PLAYING or seat is None:
                    return False
                changes = self._changes(loaded, seat, until)
                armed = await self.play.timers(loaded, changes.turn or loaded.meta.turn)
                changes.turn, changes.timers = armed.turn, armed.timers
                try:
                    await self.store.commit(changes, forget=game_id)
                except Conflict:
                    continue
                # What the chat chose may play the person's turn at once: the timer loop wakes.
                return True
        return False

    def _changes(self, loaded: Loaded, seat: int, until: float | None) -> Changes:
        meta = loaded.meta
        now = self.clock.now()
        name = meta.seats[seat].name
        lang = meta.language
        pauses = meta.options.get("away_mode") == PAUSES
        turn = B.paused(meta.turn, seat, now, until) if pauses and B.is_bank(meta) else meta.turn
        if until is None:
            text = t(lang, "bot.away.group_back", player=name)
        else:
            key = "bot.away.group_pause" if pauses else "bot.away.group_ai"
            text = t(lang, key, player=name, duration=M.duration(_minutes(until - now), lang))
        meta.updated = now
        return Changes(meta=meta, turn=turn, outbox=[M.group(meta, text)])
