"""Playing a game: choices pressed or typed, the AI seats that follow, and what it all posts.

The game's rules decide everything through its ``Match`` (engine/interface.py): who acts, the
legal choices, whether a choice may be made. This module only carries choices to the match
and the results to the outbox; it never looks inside a choice (a button names a choice by
its index among the seat's legal ones, at that seat's own position: see payloads.py).

Several seats may act at once. Each human among them chooses in private (their own turn
message in their private chat, edited in place as they step); AI seats act at once; the group
reads who is still to act. A submenu that depends on a seat's secrets opens only in private.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.contract import Refusal, Reply, User
from bot.games import ai_level
from bot.replyextra import GameRef, PrivateMenu
from engine.errors import GameError
from engine.interface import Choice, Match
from i18n import number_list, t
from renderers.presenter import ChoiceNotFound, Menu

from ..clock import Clock
from ..game.model import FINISHED, LOBBY, PLAYING, Changes, GameMeta, MoveRow, OutRow, ResultRow
from ..game.phase import Phase, begins
from ..game.turnstate import TurnState
from ..players.rating_board import RatingBoard
from ..posts import messages as M
from ..posts.seatmenu import private_choices
from ..posts.turnmessages import TurnMessages
from ..refusal import Refused
from ..storage.store import GameStore, Loaded
from ..tokens.payloads import Payload, PayloadCodec
from .arming import Armed, Arming

log = logging.getLogger(__name__)


class Turn:
    """What one action did, collected while its moves are applied, before the commit."""

    def __init__(self, loaded: Loaded) -> None:
        match = loaded.running
        self.log_start = len(match.log)
        self.cycle_before = match.rhythm.cycle
        self.rows: list[MoveRow] = []
        self.ends: list[tuple[int, int]] = []     # (cycle that ended, move count right after it)
        self.private: list[OutRow] = []
        # The game's turn state as the action's steps left it (who began to act when, the phase
        # under way): committed with the action (``Changes.turn``), not kept on the game before.
        self.state: TurnState = loaded.meta.turn


class Play:
    def __init__(self, store: GameStore, codec: PayloadCodec, clock: Clock, *,
                 choose_ai: Callable[..., Any] | None = None, ai_budget: float | None = None,
                 behind: Callable[[str], bool] = lambda platform: False,
                 drawing_behind: Callable[[], bool] = lambda: False) -> None:
        self.store = store
        self.codec = codec
        self.clock = clock
        # ``choose_ai(match, seat, seed=, level=)``; None: the game's own AI. Tests put in others.
        self.choose_ai = choose_ai
        self.ratings = RatingBoard(store.storage)
        self.arming = Arming(store.storage, clock)
        # Seconds a searching AI level may think per move (None: the game's default, 1 s).
        self.ai_budget = ai_budget
        # ``behind(platform)``: whether the outbox is behind with its sends there (then a new
        # prompt goes before its round's picture): ``Delivery.behind``. ``drawing_behind()``: whether
        # the pictures are behind with their drawing (``Pictures.behind``): then, or when the outbox
        # is behind, a game's first prompt goes before its first picture.
        self.behind = behind
        self.drawing_behind = drawing_behind

    # ---- applying choices ---------------------------------------------------------------------

    @staticmethod
    def ai_seed(meta: GameMeta, move: int) -> int:
        return (meta.seed * 1_000_003 + move * 7919 + 1) % (1 << 63)

    async def ai_choice(self, loaded: Loaded, seat: int) -> Any:
        """The AI's choice for ``seat``, thought out in a worker thread so that the event loop
        goes on answering other chats meanwhile (a search thinks for a second). A failing or
        illegal AI answer never stalls a game: the first legal choice is made instead (and the
        fault logged). The chat's lock is held, so nothing changes the match meanwhile."""
        meta, match = loaded.meta, loaded.running
        level = ai_level(loaded.kind, meta.seats[seat].level or meta.options.get("ai_level"))
        choose: Callable[..., Choice] = self.choose_ai or loaded.kind.definition.choose
        extra = {} if self.ai_budget is None else {"budget": self.ai_budget}
        try:
            choice = await asyncio.to_thread(choose, match, seat, seed=self.ai_seed(meta, match.move_count),
                                             level=level, **extra)
            return match.check(choice, by=seat)
        except Exception:  # noqa: BLE001 - any AI fault
            log.exception("AI failed in game %s at move %s; making the first legal choice",
                          meta.id, match.move_count)
            return match.legal_choices(seat)[0]

    def step(self, loaded: Loaded, turn: Turn, seat: int, choice: Any, actor: str,
             index: int | None = None) -> None:
        """Apply one checked choice and note what it ended, whom it told a secret, and which
        seats began to act with it (their buttons are bound to that moment)."""
        meta, match = loaded.meta, loaded.running
        cycle, n = match.rhythm.cycle, match.move_count
        before, own = match.to_act(), match.moves_by(seat)
        phase = Phase.of(turn.state, match)
        events = match.apply(choice, by=seat)
        # ``index``: the button (the choice's place among the legal ones) a human pressed, to
        # tell the same press arriving twice from a stale one.
        loaded.recent[(seat, own)] = index
        acting = match.to_act()
        told = any(event.visible_to(None) for event in events)
        if begins(before, acting, seat, match.rhythm.in_decision(seat), told):
            # Its seats begin to act now: those that join, and those that were acting already
            # but not in the middle of a decision (the last investor who plans deliveries too;
            # one seat's two turns in a row). A decision under way keeps its buttons.
            phase = Phase(match.move_count)
            turn.state = turn.state.began_acting(
                [s for s in acting if s not in before or not match.rhythm.in_decision(s)], match.move_count)
        turn.state = turn.state.with_phase(phase)
        turn.rows.append(MoveRow(meta.id, n, str(choice), seat, actor, self.clock.now()))
        done = match.move_count
        turn.ends += [(c, done) for c in range(cycle, match.rhythm.cycle)]
        if match.is_terminal():
            turn.ends.append((match.rhythm.cycle, done))
        turn.private += TurnMessages(meta, loaded.kind, match, self.codec).private_events(events)

    async def finish(self, loaded: Loaded, turn: Turn, out: Sequence[OutRow] = (), *,
                     notes: Sequence[str] = (), first_prompt: bool = False,
                     first_picture: OutRow | None = None) -> None:
        """Let AI seats act until only humans are to act or the game ends (in a phase where
        several seats act at once, the AI seats make their choices now, the humans theirs when
        they come); post, arm timers, commit. ``first_picture``: the board at the game's start,
        posted before the first prompt, or right after it when the bot is behind (``behind``)."""
        meta, match = loaded.meta, loaded.running
        try:
            while not match.is_terminal():
                ai = [s for s in match.to_act() if meta.seats[s].is_ai]
                if not ai:
                    break
                self.step(loaded, turn, ai[0], await self.ai_choice(loaded, ai[0]), "ai")
            meta.moves = match.move_count
            armed = await self.timers(loaded, turn.state)   # before the prompt: it shows the banks settled
            now = self.clock.now()
            meta.updated = now
            results, ratings = [], []
            if match.is_terminal():
                results = self.results(loaded, now)
                ratings = await self.ratings.rate(meta, results, turn.rows)
            # Behind, the players named wait for their prompt alone, not for a drawing first (many
            # games starting at once: their first pictures wait for each other's drawing).
            prompt_first = self.behind(meta.platform) or first_picture is not None and self.drawing_behind()
            posts = TurnMessages(meta, loaded.kind, match, self.codec, armed.turn).after_moves(
                log_start=turn.log_start, cycle_before=turn.cycle_before, ends=turn.ends, notes=notes,
                first_prompt=first_prompt, prompt_first=prompt_first,
                final_lines=self.ratings.change_lines(ratings, meta.language))
            group_rows = list(posts.rows)
            if first_picture is not None:
                group_rows.insert(1 if prompt_first and not match.is_terminal() else 0, first_picture)
            rows = [*out, *turn.private, *group_rows]
            # posts.turn: the notes, the new prompt's slot, the buttons shown
            changes = Changes(meta=meta, turn=posts.turn, moves=turn.rows, outbox=rows, timers=armed.timers,
                              results=results, ratings=ratings)
            if match.is_terminal():
                meta.status = FINISHED
        except BaseException:
            self.store.forget(meta.id)
            raise
        await self.store.commit(changes, forget=meta.id)

    async def timers(self, loaded: Loaded, turn: TurnState) -> Armed:
        """The game's timers now, armed from its turn state ``turn`` (``arming.Arming``), and that
        state with the seats' banks settled."""
        return await self.arming.arm(loaded, turn)

    @staticmethod
    def results(loaded: Loaded, now: float) -> list[ResultRow]:
        # A seat the AI took over (its player left or was absent) counts for that player as a
        # game played with its points, never as a win.
        meta, match = loaded.meta, loaded.running
        scores, winners = match.returns(), match.winners
        return [ResultRow(meta.id, seat, meta.platform, meta.chat_id, info.user_id, info.name,
                          info.is_ai and info.user_id is None, scores[seat],
                          seat in winners and not (info.is_ai and info.user_id is not None), now,
                          kind=meta.kind)
                for seat, info in enumerate(meta.seats)]

    # ---- a human's choice ------------------------------------------------------------------------

    def acting_seat(self, loaded: Loaded, user: User) -> int:
        """The user's seat, if they may act now; the refusal that says why not otherwise."""
        meta, match = loaded.meta, _in_play(loaded)
        seat = meta.seat_of(user.id)
        if seat is None:
            raise Refused(Refusal.NOT_IN_GAME)
        acting = match.to_act()
        if seat not in acting:
            raise Refused(Refusal.NOT_YOUR_TURN, player=", ".join(match.players[s] for s in acting))
        return seat

    async def choose(self, loaded: Loaded, seat: int, choice: Any, lang: str, *, index: int | None = None) -> Reply:
        meta, match = loaded.meta, loaded.running
        pres = loaded.kind.presenter
        try:
            choice = match.check(choice, by=seat)
        except GameError as exc:
            return Reply(pres.error_text(exc, match.players, lang), ok=False, alert=True, refused=f"game.{exc.code}")
        if index is None:
            index = next((i for i, c in enumerate(match.legal_choices(seat)) if c == choice), None)
        turn = Turn(loaded)
        self.step(loaded, turn, seat, choice, "human", index)
        await self.finish(loaded, turn)
        return Reply(pres.choice_text(choice, match.view(seat), lang),
                     extra=GameRef(meta.id, moves=meta.moves))

    @staticmethod
    def _check_position(loaded: Loaded, user: User, seat: int, k: int, since: int, index: int | None) -> None:
        """A button of the seat's earlier position is stale (its own steps moved it on, or its
        turn passed); the very button that made that step, pressed again by its player, is
        their press arriving twice (known for steps made here). Other seats' steps never
        touch it."""
        meta, match = loaded.meta, loaded.running
        if seat in match.to_act() and k == match.moves_by(seat) and since == meta.turn.acting_since(seat):
            return
        if (seat, k) in loaded.recent and meta.seat_of(user.id) == seat and index is not None \
                and loaded.recent[(seat, k)] == index:
            raise Refused(Refusal.DUPLICATE)
        raise Refused(Refusal.STALE)

    async def press(self, loaded: Loaded, user: User, p: Payload, lang: str, *, in_private: bool = False) -> Reply:
        """A choice, submenu or back button of a seat's turn menu."""
        meta, match = loaded.meta, _in_play(loaded)
        seat = p.int(1)
        if not 0 <= seat < len(meta.seats):
            raise Refused(Refusal.FORGED)
        if meta.seat_of(user.id) is None:
            raise Refused(Refusal.NOT_IN_GAME)
        self._check_position(loaded, user, seat, p.int(2), p.int(3), p.int(4) if p.kind == "c" else None)
        if meta.seat_of(user.id) != seat:
            # Someone else's buttons (a group turn message, a forwarded menu): refused to the
            # presser alone, and nothing changes for the seat they belong to.
            if meta.seat_of(user.id) not in match.to_act():
                self.acting_seat(loaded, user)         # "it is Ann's turn, not yours"
            raise Refused(Refusal.NOT_YOUR_BUTTONS, player=meta.seats[seat].name)
        if p.kind == "c":
            choices = match.legal_choices(seat)
            index = p.int(4)
            if not 0 <= index < len(choices):
                raise Refused(Refusal.FORGED)
            return await self.choose(loaded, seat, choices[index], lang, index=index)
        return await self.show_menu(loaded, seat, p.fields[4] if p.kind == "o" else None, lang,
                                    in_private=in_private)

    async def show_menu(self, loaded: Loaded, seat: int, group: str | None, lang: str, *,
                        in_private: bool = False) -> Reply:
        """Open a submenu (``group``) of the seat's menu, or go back to the top (None).

        Where the seat chooses in private (several seats at once, a press in its private chat,
        or a submenu that depends on its secrets), its private turn message shows the menu and
        the group learns at most that the seat is choosing in private (what the pressed item
        said). Otherwise the group's turn message asks what the submenu asks. Either way the
        one acting gets the buttons in the reply."""
        meta, match = loaded.meta, loaded.running
        kind = loaded.kind
        menu = kind.presenter.menu(match.view(seat), match.legal_choices(seat), lang, group)
        if menu.private or in_private or private_choices(kind, match) or seat in meta.turn.menus:
            return await self._show_private(loaded, seat, group, menu, lang, in_private=in_private)
        messages = TurnMessages(meta, kind, match, self.codec)
        prompt, rows = messages.prompt_buttons(group)
        edit = M.group(meta, messages.prompt_text(prompt), buttons=rows,
                       slot=M.turn_slot(meta), mode="edit", mentions=(meta.seats[seat].user(),))
        await self.store.commit(Changes(outbox=[edit]))
        text = prompt.text if prompt is not None and prompt.text else kind.presenter.back_text(lang)
        return Reply(text, buttons=M.to_buttons(rows))

    async def _show_private(self, loaded: Loaded, seat: int, group: str | None, menu: Menu | None, lang: str, *,
                            in_private: bool) -> Reply:
        meta, match = loaded.meta, loaded.running
        kind = loaded.kind
        messages = TurnMessages(meta, kind, match, self.codec)
        row, opened, rows = messages.seat_prompt(seat, group_key=group,
                                                 mode="edit" if seat in meta.turn.menus else "new")
        out = [row]
        turn = meta.turn.showing(seat, messages.position(seat))
        if opened.private and not private_choices(kind, match):
            # The group's turn message says only that the seat is choosing in private, in the
            # words of the (public) item that opened the submenu; its buttons stay as they were.
            top = kind.presenter.menu(match.view(seat), match.legal_choices(seat), lang)
            label = next((item.label for item in top.items() if item.group == group), None)
            if label is not None and turn.browsing != (seat, label):
                turn = replace(turn, browsing=(seat, label))
                out.append(messages.reading(turn).prompt(mode="edit"))
        meta.updated = self.clock.now()
        await self.store.commit(Changes(meta=meta, turn=turn, outbox=out), forget=meta.id)
        text = opened.text if opened.text else kind.presenter.back_text(lang)
        if not in_private:
            # Pressed on a message others read: the answer (a pop-up, or a reply only the presser
            # sees) says where the menu went; the buttons come along for platforms that show them.
            text = t(lang, "bot.reply.choices_private") + "\n" + text
        return Reply(text, buttons=M.to_buttons(rows), extra=PrivateMenu())

    async def my_choices(self, loaded: Loaded, user: User, lang: str) -> Reply:
        """The user's own choices now, in their private chat (a new turn message there) and in
        the reply (a platform that can answer privately in place shows them at once)."""
        seat = self.acting_seat(loaded, user)
        meta = loaded.meta
        messages = TurnMessages(meta, loaded.kind, loaded.running, self.codec)
        row, menu, rows = messages.seat_prompt(seat, mode="new")
        # Posted anew (at the bottom of the private chat); the message it replaces loses its buttons.
        out = [messages.seat_closed(seat), row] if seat in meta.turn.menus else [row]
        meta.updated = self.clock.now()
        await self.store.commit(Changes(meta=meta, turn=meta.turn.showing(seat, messages.position(seat)), outbox=out),
                                forget=meta.id)
        text = t(lang, "bot.reply.choices_private") + "\n" + row.body.text
        return Reply(text, buttons=M.to_buttons(rows), extra=PrivateMenu(seat))

    async def typed(self, loaded: Loaded, user: User, text: str, lang: str) -> Reply:
        """A choice typed as text (terminal, commands): its number on the menu, the start of its
        label, or its written form (``louvre/blue!1``)."""
        seat = self.acting_seat(loaded, user)      # refuses first where no game is running
        match = loaded.running
        pres = loaded.kind.presenter
        choices = match.legal_choices(seat)
        text = str(text or "").strip()
        if not text or len(text) > 200:
            raise Refused(Refusal.BAD_MOVE, text=text[:40])
        try:
            item = pres.find_item(match.view(seat), choices, text, lang)
        except ChoiceNotFound as miss:
            try:
                return await self.choose(loaded, seat, match.parse_choice(text), lang)
            except GameError:
                pass
            if miss.reason == "ambiguous":
                raise Refused(Refusal.AMBIGUOUS, text=text[:40], choices=", ".join(miss.candidates)) from None
            if miss.candidates:
                return Reply(pres.not_now_text(match.view(seat), miss.candidates, lang), ok=False, alert=True,
                             refused=Refusal.NOT_NOW)
            if text.isascii() and text.isdigit():
                items = pres.menu(match.view(seat), choices, lang).items()
                numbers = [item.key if item.key is not None else i for i, item in enumerate(items, 1)]
                raise Refused(Refusal.BAD_CHOICE, numbers=number_list(numbers)) from None
            raise Refused(Refusal.BAD_MOVE, text=text[:40]) from None
        if item.group is not None:
            return await self.show_menu(loaded, seat, item.group, lang)
        return await self.choose(loaded, seat, item.choice, lang)


def _in_play(loaded: Loaded) -> Match:
    """The match of a game being played; the refusal that says why there is none to act on (a
    lobby has no match yet, and ``Loaded.running`` would raise)."""
    if loaded.meta.status == LOBBY:
        raise Refused(Refusal.NOT_STARTED)
    if loaded.meta.status != PLAYING:
        raise Refused(Refusal.GAME_OVER)
    return loaded.running
