"""Durable timers: a reminder mentions the player to move, a deadline lets the AI play the turn.

Timers live in the ``timers`` table, written in the same transaction as the move that
arms them (one reminder and one deadline per turn, tagged with the move number), so they
survive restarts: a timer that came due while the bot was down fires on the first pass.
A timer whose move number is no longer current is stale and just dropped. Time comes
from the service's clock, so tests move a ``ManualClock`` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from renderers.i18n import t

from . import messages as M
from . import present
from .model import PLAYING, Changes, Loaded, MoveRow, TimerRow

log = logging.getLogger(__name__)
PRUNE_EVERY = 3600.0          # seconds between outbox clean-ups
KEEP_SENT = 7 * 86400.0       # delivered messages are kept a week (for inspection), then forgotten


class TimersMixin:
    """Part of ``GameService``: firing reminders and deadlines."""

    async def fire_due_timers(self) -> int:
        fired = 0
        for timer in await self.storage.due_timers(self.clock.now(), self.platforms):
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
        pick = self._ai_move(game, meta, meta.moves)
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
        """Fire timers forever (until cancelled); wakes when a commit changes timers.
        Once an hour it also forgets delivered outbox messages older than a week."""
        pruned_at = float("-inf")
        while True:
            self._timer_wake.clear()     # before looking, so a commit meanwhile wakes us again
            try:
                await self.fire_due_timers()
                if self.clock.now() - pruned_at >= PRUNE_EVERY:
                    pruned_at = self.clock.now()
                    await self.storage.prune_outbox(pruned_at - KEEP_SENT)
            except Exception:  # noqa: BLE001 - keep the loop alive; the timer stays due
                log.exception("firing timers failed")
            due = await self.storage.next_timer(self.platforms)
            delay = max_sleep if due is None else min(max_sleep, max(0.05, due - self.clock.now()))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._timer_wake.wait(), delay)
