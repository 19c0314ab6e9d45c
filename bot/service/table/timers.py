"""Durable timers: a reminder mentions the players who must act, a deadline lets the AI act for them.

Where the chat plays with time banks (bank.py), each seat acting has timers of its own instead:
``warn:<seat>`` warns it once that its bank runs low, ``bank:<seat>`` lets the AI act for it at
zero; ``away:<seat>`` lets the AI act at once for a person away (arming.py). Which timers a
commit arms is ``arming.Arming``'s to say.

Timers live in the ``timers`` table, written in the same transaction as the move that arms
them (one reminder and one deadline per phase: the seats acting together, tagged with the move
number at which they began to act and running from that moment, so steps within the phase do
not push them back), so they survive restarts: a timer that came due while the bot was down
fires on the first pass. A timer of a phase that is over is stale and just dropped. Time comes from the service's
clock, so tests move a ``ManualClock`` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from engine.interface import Match
from i18n import name_list, t

from ..clock import Clock
from ..game import bank as B
from ..game.model import PLAYING, Changes, GameMeta, TimerRow
from ..game.phase import Phase
from ..posts import messages as M
from ..posts.seatmenu import private_choices
from ..storage import Conflict, Storage
from ..storage.store import IDLE_AFTER, IDLE_SWEEP_EVERY, GameStore, Loaded
from ..waiting import wait_event
from .arming import AWAY, seat_kind
from .play import Play, Turn

log = logging.getLogger(__name__)
PRUNE_EVERY = 3600.0          # seconds between outbox clean-ups
KEEP_SENT = 7 * 86400.0       # delivered messages are kept a week (for inspection), then forgotten;
# a slot's message only until a later one of its slot went out (storage/outbox.py DROP_REPLACED)
LEASE_SECONDS = 120.0         # a claimed timer is one process's this long (a deadline may run the AI)


class Timers:
    def __init__(self, store: GameStore, play: Play, clock: Clock, platforms: tuple[str, ...] | None, *,
                 owner: str = "local", lease_seconds: float = LEASE_SECONDS) -> None:
        self.store = store
        self.storage: Storage = store.storage
        self.play = play
        self.clock = clock
        # Timers of games on other platforms belong to the process serving those platforms.
        self.platforms = platforms
        # Processes sharing the database claim due timers under leases: each fires once; a
        # dead process's claimed timers are claimed by another when the lease runs out.
        self.owner = owner
        self.lease_seconds = lease_seconds
        self.wake = asyncio.Event()

    async def fire_due(self) -> int:
        fired = 0
        claimed = await self.storage.claim_due_timers(self.clock.now(), self.owner, self.lease_seconds,
                                                      self.platforms)
        while claimed:
            timer = claimed.pop(0)
            try:
                if await self._fire_claimed(timer):
                    fired += 1
            except BaseException:
                for left in claimed:    # not looked at: any process may take them at once
                    with contextlib.suppress(Exception):
                        await asyncio.shield(self.storage.release_timer(left, self.owner))
                raise
        return fired

    async def _fire_claimed(self, timer: TimerRow) -> bool:
        loaded = await self.store.load(timer.game_id)
        if loaded is None:
            return False        # no such game: the timer comes back after its lease
        async with self.store.lock(loaded.meta.platform, loaded.meta.chat_id):
            loaded = await self.store.load(timer.game_id)
            try:
                return loaded is not None and await self._fire(loaded, timer) is not None
            except Conflict:
                log.info("timer of game %s lost a race with another process; it is read again", timer.game_id)
                await self.storage.release_timer(timer, self.owner)
                self.wake.set()
                return False

    async def _fire(self, loaded: Loaded, timer: TimerRow) -> TimerRow | None:
        """Fire the game's timer of ``timer``'s kind if it is due; the timer fired (as stored:
        a commit may have replaced the one claimed), or None."""
        meta, match = loaded.meta, loaded.match
        # The game goes with every commit here, so it is checked against the stored version:
        # a copy another process moved on since it was read cannot drop the timers its move
        # armed, nor remind twice (``Conflict``: the timer is read again).
        drop = Changes(meta=meta, drop_timer=(meta.id, timer.kind))
        current = [t_ for t_ in await self.storage.timers_of(meta.id) if t_.kind == timer.kind]
        if not current or current[0].due > self.clock.now():
            return None   # handled meanwhile
        timer = current[0]   # as stored now (a commit may have replaced the one claimed)
        # A timer belongs to a phase, or to one seat's turn (tagged with the move number at
        # which its seats began to act); once that is over it is stale and dropped.
        kind, seat = seat_kind(timer.kind)
        humans = [] if match is None else [s for s in match.to_act() if not meta.seats[s].is_ai]
        if seat is not None:
            humans = [seat] if seat in humans and meta.turn.acting_since(seat) == timer.move else []
        if match is None or not humans or meta.status != PLAYING or match.is_terminal() or \
                (seat is None and not self._current(meta, match, timer)):
            await self.store.commit(drop, forget=meta.id)
            return None
        if kind == "reminder":
            await self._remind(loaded, drop, humans)
        elif kind == B.WARN:
            await self._warn(loaded, drop, humans[0])
        else:       # the deadline, a bank at zero, a person away whose turns the AI plays
            await self._deadline(loaded, humans, told=kind != AWAY)
        return timer

    @staticmethod
    def _current(meta: GameMeta, match: Match, timer: TimerRow) -> bool:
        """Whether ``timer`` belongs to the phase under way. A game stored before phases were
        kept (no "since" yet) armed its timers with its move count."""
        if meta.turn.since is None and timer.move == meta.moves:
            return True
        return timer.move == Phase.of(meta.turn, match).start

    async def _warn(self, loaded: Loaded, drop: Changes, seat: int) -> None:
        """Tell the seat, in the group, what its bank has left; once (``Bank.warned``)."""
        meta = loaded.meta
        bank = meta.turn.banks.get(seat)
        if bank is None or bank.warned or bank.since is None:
            await self.store.commit(drop, forget=meta.id)
            return
        drop.turn = B.warned(meta.turn, seat)
        who = meta.seats[seat]
        lang = meta.language
        drop.outbox.append(M.group(meta, t(lang, "bot.bank.warning", player=who.name,
                                           left=B.compact(bank.left_at(self.clock.now()), lang)),
                                   mentions=(who.user(),)))
        await self.store.commit(drop, forget=meta.id)

    async def _remind(self, loaded: Loaded, drop: Changes, humans: list[int]) -> None:
        """Mention the seats still to act: once a cycle in the group, privately after that."""
        meta, match = loaded.meta, loaded.running
        lang = meta.language
        pres = loaded.kind.presenter
        status = pres.status_line(match.view(None), lang)
        who = [meta.seats[s] for s in humans]
        names = ", ".join(w.name for w in who)
        turn = meta.turn.with_phase(Phase.of(meta.turn, match).reminder_sent())   # not armed again this phase
        if turn.reminded_cycle != match.rhythm.cycle:
            # One reminder per cycle in the group (a cycle posts at most 3 new messages:
            # its prompt, its picture and this); further reminders that cycle go privately.
            turn = replace(turn, reminded_cycle=match.rhythm.cycle)
            drop.outbox.append(M.group(meta, t(lang, "bot.msg.reminder_now", player=names, status=status),
                                       mentions=tuple(w.user() for w in who)))
        else:
            for w in who:
                wl = w.language or lang
                text = t(wl, "bot.msg.reminder_private_now", player=w.name, chat=M.chat_name(meta),
                         status=pres.status_line(match.view(None), wl))
                drop.outbox.append(M.private(meta, meta.platform, w.user(), text, wl))
        drop.turn = turn
        await self.store.commit(drop, forget=meta.id)

    async def _deadline(self, loaded: Loaded, humans: list[int], *, told: bool = True) -> None:
        """Each seat still to act has its choices made by the AI, once: its decision completed
        (every further step of a build under way), never a later phase's. The group is told
        whose choices were made for them, those seats alone (and which choices, where they are
        not private); not ``told`` for a person away (the group was told once, by ``/away``)."""
        meta, match = loaded.meta, loaded.running
        lang = meta.language
        pres = loaded.kind.presenter
        private = private_choices(loaded.kind, match)
        start = Phase.of(meta.turn, match).start
        turn = Turn(loaded)
        made, completed = [], []
        try:
            for seat in humans:
                steps = 0
                # Once the phase resolved (a new one began), what comes next is the seats' own again.
                while (not match.is_terminal() and seat in match.to_act() and Phase.of(turn.state, match).start == start
                       and (steps == 0 or match.rhythm.in_decision(seat))):
                    choice = await self.play.ai_choice(loaded, seat)
                    made.append(pres.short_choice_text(choice, lang))
                    self.play.step(loaded, turn, seat, choice, "deadline")
                    steps += 1
                if steps:
                    completed.append(seat)
        except BaseException:
            self.store.forget(meta.id)
            raise
        names = name_list([meta.seats[s].name for s in completed], lang)
        if not told:
            await self.play.finish(loaded, turn)
            return
        if not private:         # one seat, choosing as everyone watches: its choices are told
            note = t(lang, "bot.msg.deadline", player=names, choice="; ".join(made))
        elif len(completed) == 1:
            note = t(lang, "bot.msg.deadline_private", player=names)
        else:                   # "Ann and Bob did not choose in time" (a plural verb)
            note = t(lang, "bot.msg.deadline_private_several", player=names)
        await self.play.finish(loaded, turn, notes=[note])

    async def run(self, fire: Callable[[], Awaitable[int]] | None = None, *, max_sleep: float = 30.0) -> None:
        """Fire timers forever (until cancelled) through ``fire`` (``fire_due`` by default);
        wakes when a commit changes timers. Once an hour it also forgets delivered outbox
        messages older than a week; once a minute it stores the snapshots of the games that went
        idle (``GameStore.store_snapshots``)."""
        fire = fire or self.fire_due
        pruned_at = swept_at = float("-inf")
        while True:
            self.wake.clear()     # before looking, so a commit meanwhile wakes us again
            try:
                await fire()
                if self.clock.now() - pruned_at >= PRUNE_EVERY:
                    pruned_at = self.clock.now()
                    await self.storage.prune_outbox(pruned_at - KEEP_SENT)
                if self.clock.now() - swept_at >= IDLE_SWEEP_EVERY:
                    swept_at = self.clock.now()
                    await self.store.store_snapshots(idle_since=swept_at - IDLE_AFTER)
            except Exception:  # noqa: BLE001 - keep the loop alive; the timer stays due
                log.exception("firing timers failed")
            due = await self.storage.next_timer(self.platforms)
            delay = max_sleep if due is None else min(max_sleep, max(0.05, due - self.clock.now()))
            await wait_event(self.wake, delay)
