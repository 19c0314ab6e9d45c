"""Playing a game: choices pressed or typed, the AI seats that follow, and what it all posts.

The game's rules decide everything through its ``Match`` (engine/interface.py): who acts, the
legal choices, whether a choice may be made. This module only carries choices to the match
and the results to the outbox; it never looks inside a choice (a button names a choice by
its index among the legal ones at that move number).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot.contract import Reply, User
from bot.games import ai_level
from engine.errors import GameError
from renderers.i18n import number_list
from renderers.presenter import ChoiceNotFound

from . import messages as M
from .clock import Clock
from .model import FINISHED, LOBBY, PLAYING, Changes, MoveRow, OutRow, ResultRow, TimerRow
from .payloads import Payload, PayloadCodec
from .refusal import Refused
from .store import GameStore, Loaded

log = logging.getLogger(__name__)


class Turn:
    """What one action did, collected while its moves are applied, before the commit."""

    def __init__(self, loaded: Loaded) -> None:
        match = loaded.match
        self.log_start = len(match.log)
        self.cycle_before = match.cycle
        self.rows: list[MoveRow] = []
        self.ends: list[tuple[int, int]] = []     # (cycle that ended, move count right after it)
        self.private: list[OutRow] = []


class Play:
    def __init__(self, store: GameStore, codec: PayloadCodec, clock: Clock) -> None:
        self.store = store
        self.codec = codec
        self.clock = clock
        # ``choose_ai(match, seat, seed=, level=)``; None: the game's own AI. Tests put in others.
        self.choose_ai = None
        # Seconds a searching AI level may think per move (None: the game's default, 1 s).
        self.ai_budget: float | None = None

    # ---- applying choices ---------------------------------------------------------------------

    @staticmethod
    def ai_seed(meta, move: int) -> int:
        return (meta.seed * 1_000_003 + move * 7919 + 1) % (1 << 63)

    async def ai_choice(self, loaded: Loaded, seat: int) -> Any:
        """The AI's choice for ``seat``, thought out in a worker thread so that the event loop
        goes on answering other chats meanwhile (a search thinks for a second). A failing or
        illegal AI answer never stalls a game: the first legal choice is made instead (and the
        fault logged). The chat's lock is held, so nothing changes the match meanwhile."""
        meta, match = loaded.meta, loaded.match
        level = ai_level(loaded.game, meta.seats[seat].level or meta.options.get("ai_level"))
        choose = self.choose_ai or loaded.game.definition.choose
        extra = {} if self.ai_budget is None else {"budget": self.ai_budget}
        try:
            choice = await asyncio.to_thread(choose, match, seat, seed=self.ai_seed(meta, match.move_count),
                                             level=level, **extra)
            return match.check(choice, by=seat)
        except Exception:  # noqa: BLE001 - any AI fault
            log.exception("AI failed in game %s at move %s; making the first legal choice",
                          meta.id, match.move_count)
            return match.legal_choices(seat)[0]

    def step(self, loaded: Loaded, turn: Turn, seat: int, choice: Any, actor: str) -> None:
        """Apply one checked choice and note what it ended and whom it told a secret."""
        meta, match = loaded.meta, loaded.match
        cycle, n = match.cycle, match.move_count
        events = match.apply(choice, by=seat)
        loaded.recent[n] = (seat, None)
        turn.rows.append(MoveRow(meta.id, n, str(choice), seat, actor, self.clock.now()))
        done = match.move_count
        turn.ends += [(c, done) for c in range(cycle, match.cycle)]
        if match.is_terminal():
            turn.ends.append((match.cycle, done))
        turn.private += M.private_events(meta, loaded.game, match, events)

    async def finish(self, loaded: Loaded, turn: Turn, out: Sequence[OutRow] = (), *,
                     notes: Sequence[str] = (), first_prompt: bool = False) -> None:
        """Let AI seats act until a human must or the game ends; post, arm timers, commit."""
        meta, match = loaded.meta, loaded.match
        try:
            while not match.is_terminal():
                ai = [s for s in match.to_act() if meta.seats[s].is_ai]
                if not ai:
                    break
                self.step(loaded, turn, ai[0], await self.ai_choice(loaded, ai[0]), "ai")
            now = self.clock.now()
            meta.moves = match.move_count
            meta.updated = now
            rows = list(out) + turn.private
            rows += M.after_moves(meta, loaded.game, match, self.codec, log_start=turn.log_start,
                                  cycle_before=turn.cycle_before, ends=turn.ends, notes=notes,
                                  first_prompt=first_prompt)
            changes = Changes(game=meta, moves=turn.rows, outbox=rows, timers=self.timers(loaded))
            if match.is_terminal():
                meta.status = FINISHED
                changes.results = self.results(loaded, now)
        except BaseException:
            self.store.forget(meta.id)
            raise
        await self.store.commit(changes, forget=meta.id)

    def timers(self, loaded: Loaded) -> list[TimerRow]:
        meta, match = loaded.meta, loaded.match
        if match is None or match.is_terminal() or meta.status != PLAYING:
            return []
        if all(meta.seats[s].is_ai for s in match.to_act()):
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
    def results(loaded: Loaded, now: float) -> list[ResultRow]:
        # A seat the AI took over (its player left or was absent) counts for that player as a
        # game played with its points, never as a win.
        meta, match = loaded.meta, loaded.match
        scores, winners = match.returns(), match.winners
        return [ResultRow(meta.id, seat, meta.platform, meta.chat_id, info.user_id, info.name,
                          info.is_ai and info.user_id is None, scores[seat],
                          seat in winners and not (info.is_ai and info.user_id is not None), now,
                          game=meta.game)
                for seat, info in enumerate(meta.seats)]

    # ---- a human's choice ------------------------------------------------------------------------

    def acting_seat(self, loaded: Loaded, user: User) -> int:
        """The user's seat, if they may act now; the refusal that says why not otherwise."""
        meta, match = loaded.meta, loaded.match
        if meta.status == LOBBY or match is None:
            raise Refused("bot.err.not_started")
        if meta.status != PLAYING:
            raise Refused("bot.err.game_over")
        seat = meta.seat_of(user.id)
        if seat is None:
            raise Refused("bot.err.not_in_game")
        acting = match.to_act()
        if seat not in acting:
            raise Refused("bot.err.not_your_turn", player=", ".join(match.players[s] for s in acting))
        return seat

    async def choose(self, loaded: Loaded, seat: int, choice: Any, lang: str) -> Reply:
        meta, match = loaded.meta, loaded.match
        pres = loaded.game.presenter
        try:
            choice = match.check(choice, by=seat)
        except GameError as exc:
            return Reply(pres.error_text(exc, match.players, lang), ok=False, alert=True)
        turn = Turn(loaded)
        index = next((i for i, c in enumerate(match.legal_choices(seat)) if c == choice), None)
        n = match.move_count
        self.step(loaded, turn, seat, choice, "human")
        loaded.recent[n] = (seat, index)
        await self.finish(loaded, turn)
        return Reply(pres.choice_text(choice, match.view(seat), lang),
                     extra={"game_id": meta.id, "moves": meta.moves})

    @staticmethod
    def _check_move_number(loaded: Loaded, user: User, move: int, index: int | None) -> None:
        """A button of an earlier move is stale; the very button that made that move, pressed
        by the one who made it, is their press arriving twice (known for moves made here)."""
        meta = loaded.meta
        if move == meta.moves:
            return
        made = loaded.recent.get(move)
        if made is not None and made[0] == meta.seat_of(user.id) and index is not None and made[1] == index:
            raise Refused("bot.err.duplicate")
        raise Refused("bot.err.stale")

    async def press(self, loaded: Loaded, user: User, p: Payload, lang: str) -> Reply:
        """A choice, submenu or back button of the turn prompt."""
        meta, match = loaded.meta, loaded.match
        if meta.status == LOBBY or match is None:
            raise Refused("bot.err.not_started")
        if meta.status != PLAYING:
            raise Refused("bot.err.game_over")
        self._check_move_number(loaded, user, p.int(1), p.int(2) if p.kind == "c" else None)
        seat = self.acting_seat(loaded, user)
        if p.kind == "c":
            choices = match.legal_choices(seat)
            index = p.int(2)
            if not 0 <= index < len(choices):
                raise Refused("bot.err.forged")
            return await self.choose(loaded, seat, choices[index], lang)
        return await self.show_menu(loaded, seat, p.fields[2] if p.kind == "o" else None, lang)

    async def show_menu(self, loaded: Loaded, seat: int, group: str | None, lang: str) -> Reply:
        """Open a submenu (``group``) of the prompt, or go back to the top (None): the group
        sees the prompt ask what the submenu asks; the one acting gets its buttons."""
        meta, match = loaded.meta, loaded.match
        menu, rows = M.prompt_buttons(meta, loaded.game, match, self.codec, group)
        edit = M.group(meta, M.prompt_text(meta, loaded.game, match, menu), buttons=rows,
                       slot=M.turn_slot(meta), mode="edit", mentions=(meta.seats[seat].user(),))
        await self.store.commit(Changes(outbox=[edit]))
        text = menu.text if menu is not None and menu.text else loaded.game.presenter.back_text(lang)
        return Reply(text, buttons=M.to_buttons(rows))

    async def typed(self, loaded: Loaded, user: User, text: str, lang: str) -> Reply:
        """A choice typed as text (terminal, commands): its number on the menu, the start of its
        label, or its written form (``louvre/blue!1``)."""
        match = loaded.match
        seat = self.acting_seat(loaded, user)
        pres = loaded.game.presenter
        choices = match.legal_choices(seat)
        text = str(text or "").strip()
        if not text or len(text) > 200:
            raise Refused("bot.err.bad_move", text=text[:40])
        try:
            item = pres.find_item(match.view(seat), choices, text, lang)
        except ChoiceNotFound as miss:
            try:
                return await self.choose(loaded, seat, match.parse_choice(text), lang)
            except GameError:
                pass
            if miss.reason == "ambiguous":
                raise Refused("bot.err.ambiguous", text=text[:40], choices=", ".join(miss.candidates)) from None
            if miss.candidates:
                return Reply(pres.not_now_text(match.view(seat), miss.candidates, lang), ok=False, alert=True)
            if text.isascii() and text.isdigit():
                items = pres.menu(match.view(seat), choices, lang).items()
                numbers = [item.key if item.key is not None else i for i, item in enumerate(items, 1)]
                raise Refused("bot.err.bad_choice", numbers=number_list(numbers)) from None
            raise Refused("bot.err.bad_move", text=text[:40]) from None
        if item.group is not None:
            return await self.show_menu(loaded, seat, item.group, lang)
        return await self.choose(loaded, seat, item.choice, lang)
