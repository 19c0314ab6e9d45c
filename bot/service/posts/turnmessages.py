"""The messages of a game's turns, built from its match and its turn state (turnstate.py).

Per turn cycle (a round) the group gets at most two new messages: the picture with the
cycle's summary, and the turn prompt, which is then edited in place for each further turn.
The picture comes first, unless the bot is behind with its sends: then the prompt does, so
that the players it names do not wait for the picture (see ``TurnMessages.after_moves``).
Group messages are built only from public events and the public view, so a secret cannot
reach the group before the end; private events (a secret dealt or changed) go to their
seat's private chat.

Building changes nothing: a ``TurnMessages`` reads the turn state it was given, and where
messages go with a change of it (the notes of a cycle, a new prompt's slot, the private
messages now showing buttons), ``after_moves`` returns the new state with them (``Posts``),
for the caller to keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.contract import Button, User
from bot.games import GameKind
from engine.interface import Event, Information, Match
from i18n import t
from renderers.presenter import CHAT

from ..game.bank import clock_line
from ..game.model import GameMeta, OutRow
from ..game.outmessage import RenderRequest
from ..game.turnstate import TurnState
from ..tokens.payloads import PayloadCodec
from .links import REVIEW
from .messages import (
    BOARD_PICTURE,
    animation_message,
    board_button,
    button,
    chat_label,
    group,
    notes_slot,
    picture_name,
    private,
    prompt_slot,
    seat_slot,
    surface,
    turn_slot,
)
from .seatmenu import SeatChoices, SeatMenu, decision_line, private_choices


def cycle_events(match: Match, cycle: int, upto: int | None = None) -> list[Event]:
    """The public events of ``cycle`` (up to log index ``upto``)."""
    log = match.log
    start = match.rhythm.cycle_start(cycle)
    end = match.rhythm.cycle_start(cycle + 1) if cycle < match.rhythm.cycle else len(log)
    if upto is not None:
        end = min(end, upto)
    return [e for e in log[start:end] if e.visible_to(None)]


def has_secrets(kind: GameKind) -> bool:
    return kind.definition.information == Information.IMPERFECT


@dataclass(frozen=True, slots=True)
class Posts:
    """Messages to post, and the turn state they were built from, to keep with them."""

    rows: list[OutRow]
    turn: TurnState


class TurnMessages:
    """The messages of ``meta``'s game at its present ``match``, buttons signed by ``codec``,
    built from ``turn`` (the game's turn state unless given). Built and used at once: the match
    does not change meanwhile, so each view of it is made once (``view``)."""

    def __init__(self, meta: GameMeta, kind: GameKind, match: Match, codec: PayloadCodec,
                 turn: TurnState | None = None, *, views: dict[int | None, Any] | None = None) -> None:
        self.meta = meta
        self.kind = kind
        self.match = match
        self.codec = codec
        self.turn = meta.turn if turn is None else turn
        self._views: dict[int | None, Any] = {} if views is None else views

    def reading(self, turn: TurnState) -> TurnMessages:
        """The same game's messages, built from ``turn`` instead (sharing the views made)."""
        return TurnMessages(self.meta, self.kind, self.match, self.codec, turn, views=self._views)

    def view(self, seat: int | None = None) -> Any:
        """The match's view for ``seat`` (None: the public one). A move's messages read the public
        view in the prompt, its decision line and the cycle's picture, and the acting seat's in its
        menu: made once each."""
        if seat not in self._views:
            self._views[seat] = self.match.view(seat)
        return self._views[seat]

    # ---- the group's turn message (its prompt) ------------------------------------------------

    def prompt(self, *, mode: str, group_key: str | None = None) -> OutRow:
        """The group's prompt in the live turn slot: posted anew (``mode="new"``: the turn state
        holds its new slot) or edited in place."""
        menu, rows = self.prompt_buttons(group_key)
        return group(self.meta, self.prompt_text(menu), buttons=rows, mentions=self.prompt_pings(),
                     slot=turn_slot(self.meta, self.turn), mode=mode, awaited=True)

    def prompt_text(self, menu: SeatMenu | None = None) -> str:
        meta, match, turn = self.meta, self.match, self.turn
        lang = meta.language
        pres = self.kind.presenter
        view = self.view(None)
        moves, _ = pres.split_cycle(cycle_events(match, match.rhythm.cycle))
        lines = [pres.status_line(view, lang), *turn.notes_of(match.rhythm.cycle)]
        lines += pres.narrate(moves, match.players, lang)
        lines.append("")
        clock = clock_line(meta, turn, match)   # what the seats to act have left, with time banks
        private = private_choices(self.kind, match)
        # Where the choices are made in private: who is still to act, never what anyone chose.
        lines.append(menu.text if not private and menu is not None and menu.text
                     else decision_line(meta, self.kind, match, None, lang, surface(meta), view_of=self.view))
        lines += [clock] if clock else []
        if not private and turn.browsing and turn.browsing[0] in match.to_act():
            lines.append(t(lang, "bot.msg.choosing_privately", player=meta.seats[turn.browsing[0]].name,
                           what=turn.browsing[1]))
        names = self.unreachable_names()
        if names:
            lines.append(t(lang, "bot.msg.private_closed", player=", ".join(names)))
        return "\n".join(lines)

    def unreachable_names(self) -> list[str]:
        ids = self.turn.unreachable
        return [seat.name for seat in self.meta.seats if seat.user_id in ids and not seat.is_ai]

    def choice_buttons(self, seat: int, group_key: str | None = None) -> tuple[SeatMenu, list[list[Button]]]:
        """The menu of ``seat``'s legal choices (``seatmenu.SeatChoices``) as buttons."""
        lang = self.meta.language
        menu = SeatChoices(self.meta, self.kind, self.match, self.codec, seat, lang, self.turn,
                           view=self.view(seat)).menu(group_key)
        rows = [[button(item.label, item.payload, colour=item.colour, key=item.key, letter=item.letter) for item in row]
                for row in menu.rows]
        if menu.back is not None:
            rows.append([button(t(lang, "bot.btn.back"), menu.back)])
        return menu, rows

    def prompt_buttons(self, group_key: str | None = None) -> tuple[SeatMenu | None, list[list[Button]]]:
        """The group's turn buttons: the one acting seat's menu (never a submenu that depends on
        its secrets: those open in private), or, where seats choose in private, a button that
        brings each its own choices; the secret button where the game has secrets."""
        meta, kind, codec = self.meta, self.kind, self.codec
        lang = meta.language
        acting = self.match.to_act()
        menu, rows = None, []
        if private_choices(kind, self.match):
            if acting:
                rows.append([button(t(lang, "bot.btn.my_choices"), codec.encode("h", meta.id))])
        elif len(acting) == 1:
            menu, rows = self.choice_buttons(acting[0], group_key)
            if menu.private:
                menu, rows = self.choice_buttons(acting[0])
        if has_secrets(kind):
            rows.append([button(kind.presenter.secret_button(lang), codec.encode("m", meta.id), "secret")])
        if self.unreachable_names():
            rows.append([button(t(lang, "bot.btn.open_private"), codec.encode("p"), "open_private")])
        rows.append([board_button(t(lang, "web.btn.watch"), codec, meta)])
        return menu, rows

    def prompt_pings(self) -> tuple[User, ...]:
        """Who the group's prompt pings: the people to act. Where they choose in private, their
        own turn message there tells them (a new one each time a seat begins to act), so the group
        pings only those whose private chat is closed. So the group's prompt is edited as the
        table moves on, never posted anew to ping the next person (Discord notifies nobody for a
        mention added by an edit, and would repost it)."""
        meta = self.meta
        people = [s for s in self.match.to_act() if not meta.seats[s].is_ai]
        if private_choices(self.kind, self.match):
            people = [s for s in people if meta.seats[s].user_id in self.turn.unreachable]
        return tuple(meta.seats[s].user() for s in people)

    # ---- a seat's own turn message, in its private chat --------------------------------------

    def seat_prompt(self, seat: int, *, group_key: str | None = None,
                    mode: str = "edit") -> tuple[OutRow, SeatMenu, list[list[Button]]]:
        """The seat's choices (or an open submenu of them) as a private message in its slot, with a
        picture of its own board where the game draws one."""
        meta, kind, match = self.meta, self.kind, self.match
        info = meta.seats[seat]
        lang = info.language or meta.language
        pres = kind.presenter
        menu, rows = self.choice_buttons(seat, group_key)
        rows.append([board_button(t(lang, "web.btn.board"), self.codec, meta)])
        view = self.view(seat)
        lines = [pres.status_line(view, lang)]
        label = chat_label(meta)
        if label:
            lines.append(t(lang, "bot.msg.private_turn", chat=label))
        lines.append(menu.text if menu.text else pres.prompt_line(view, lang, surface(meta)))
        render = None
        if pres.private_pictures:
            # (its words are made with the picture: ``pictures.Drawn``)
            render = RenderRequest("seat", meta.id, match.move_count, match.rhythm.cycle, seat)
            # The text is the picture's caption where the platform has no other place for words
            # (Telegram): it tells whose turn and what to choose, and this line what the picture is.
            # (The terminal prints the seat's board as text above its choices, and names the file once.)
            if surface(meta) == CHAT:
                lines.append(pres.picture_subject("seat", view, lang))
        row = private(meta, meta.platform, info.user(), "\n".join(lines), lang, buttons=rows,
                      slot=seat_slot(meta, seat), mode=mode, render=render,
                      image_name=picture_name(meta, kind, f"seat{seat}-{match.move_count}"),
                      latest_image_name=picture_name(meta, kind, f"seat{seat}"))
        return row, menu, rows

    def seat_closed(self, seat: int) -> OutRow:
        """The seat's private turn message once it has nothing more to choose: its buttons go."""
        meta = self.meta
        info = meta.seats[seat]
        lang = info.language or meta.language
        return private(meta, meta.platform, info.user(), t(lang, "bot.msg.private_done"), lang,
                       slot=seat_slot(meta, seat), mode="edit")

    def position(self, seat: int) -> tuple[int, int]:
        """Where ``seat``'s buttons are bound now: (its choices so far, the move at which it began to act)."""
        return self.match.moves_by(seat), self.turn.acting_since(seat)

    def private_prompts(self) -> Posts:
        """Bring every seat's private turn message up to date after moves: a seat that now acts
        in private gets its choices (a new message when it begins to act, an edit after its own
        steps); a seat that no longer acts has its buttons closed. A seat whose position did not
        change keeps its message as it is (its buttons are still good). The turn state that
        comes with them notes the messages that show buttons now."""
        meta, match = self.meta, self.match
        shown = self.turn.menus
        acting = [] if match.is_terminal() or not private_choices(self.kind, match) else [
            s for s in match.to_act() if not meta.seats[s].is_ai]
        out = []
        for seat in sorted(set(shown) | set(acting)):
            if seat not in acting:
                out.append(self.seat_closed(seat))
                continue
            now = self.position(seat)
            if seat not in shown or shown[seat][1] != now[1]:
                if seat in shown:
                    out.append(self.seat_closed(seat))          # the last phase's buttons go first
                out.append(self.seat_prompt(seat, mode="new")[0])   # it begins to act
            elif shown[seat] != now:
                out.append(self.seat_prompt(seat, mode="edit")[0])  # after its own steps
        return Posts(out, replace(self.turn, menus={s: self.position(s) for s in acting}))

    def private_events(self, events: Sequence[Event]) -> list[OutRow]:
        """Each private event (a secret dealt or changed) as a message to its seat's player, in its notes slot."""
        meta = self.meta
        out = []
        for event in events:
            if event.visible_to(None):
                continue
            for seat, info in enumerate(meta.seats):
                if info.is_ai or not event.visible_to(seat):
                    continue
                lang = info.language or meta.language
                text = self.kind.presenter.private_text(event, self.view(seat), lang, chat_label(meta))
                if text:
                    out.append(private(meta, meta.platform, info.user(), text, lang, slot=notes_slot(meta, seat)))
        return out

    # ---- after moves ------------------------------------------------------------------------------

    def after_moves(self, *, log_start: int, cycle_before: int, ends: Sequence[tuple[int, int]],
                    first_prompt: bool = False, notes: Sequence[str] = (), prompt_first: bool = False,
                    final_lines: Sequence[str] = ()) -> Posts:
        """Group messages for everything since log index ``log_start``, and the turn state to keep
        with them.

        ``ends`` are the cycles that ended meanwhile, each with the move count right after it:
        the picture of each shows the board at that moment. ``notes`` (a deadline move, a seat
        handed to the AI) go into the prompt and the closing text of the cycle they happened in
        (``cycle_before``), and are kept in the turn state for its later edits. A submenu browsed
        in private is over. Every seat's private turn message is brought up to date
        (``private_prompts``). ``prompt_first``: the new prompt before the closing edit and the
        pictures (the bot is behind with its sends: ``Delivery.behind``). ``final_lines`` close
        the final standings (the players' rating changes).
        """
        match = self.match
        closing_slot = turn_slot(self.meta, self.turn)        # the prompt the moves were made on
        turn = replace(self.turn.noted(cycle_before, notes), browsing=None)
        new_prompt = not match.is_terminal() and (first_prompt or bool(ends))
        if new_prompt:
            # Each new prompt takes a slot of its own (one new prompt at most per move count), so
            # the closing edit of the one before can follow it in the outbox.
            turn = replace(turn, turn_slot=prompt_slot(self.meta, match.move_count))
        built = self.reading(turn)
        out: list[OutRow] = []
        for cycle, moves_after in ends:
            out += built._cycle_over(cycle, moves_after, log_start, first_prompt, closing_slot)
        if match.is_terminal():
            out += built._final(final_lines)
        else:
            prompt = built.prompt(mode="new" if new_prompt else "edit")
            # Read in order, the cycle's picture comes before the prompt that follows it (the buttons
            # last, in view). When the bot is behind with its sends, the new prompt goes first instead,
            # in a slot of its own: the players it names then wait for one call of their chat, not
            # for the closing edit of the prompt before and the picture (a drawing) too.
            if prompt_first:
                out.insert(0, prompt)
            else:
                out.append(prompt)
        private_posts = built.private_prompts()
        return Posts(out + private_posts.rows, private_posts.turn)

    def _cycle_over(self, cycle: int, moves_after: int, log_start: int, first_prompt: bool,
                    closing_slot: str) -> list[OutRow]:
        """The closing edit of the cycle's prompt (if it had one) and its picture with its summary."""
        meta, kind, match = self.meta, self.kind, self.match
        lang = meta.language
        pres = kind.presenter
        view = self.view(None)
        out = []
        events = cycle_events(match, cycle)
        moves, outcome = pres.split_cycle(events)
        summary = [pres.cycle_over_line(view, cycle, lang)]
        start = match.rhythm.cycle_start(cycle)
        if start > log_start or start == log_start and first_prompt:
            # The whole cycle was played now (AI seats only): no prompt of it was ever posted,
            # so its moves go with its picture rather than overwrite another cycle's prompt,
            # told before the line that says the cycle is over. (A cycle whose first move opens
            # this batch had its prompt: that move was made on it.)
            summary = pres.narrate(moves, match.players, lang) + summary
        else:
            closing = [pres.cycle_done_line(view, cycle, lang), *self.turn.notes_of(cycle)]
            closing += pres.narrate(moves, match.players, lang)
            out.append(group(meta, "\n".join(closing), slot=closing_slot, mode="edit"))
        summary += pres.narrate(outcome, match.players, lang)
        final = match.is_terminal() and cycle == match.rhythm.cycle
        if final:
            summary += self.turn.notes_of(cycle)
        elif (scores := _scores_after(match, cycle)) is not None:
            summary.append(pres.scores_line(view, scores, lang))
        # The picture's words are made with it (``pictures.Drawn``): the board as it was at
        # ``moves_after``, and what the cycle changed.
        out.append(group(meta, "\n".join(summary),
                         render=RenderRequest("map", meta.id, moves_after, cycle),
                         image_name=picture_name(meta, kind, pres.cycle_label(view, cycle)),
                         latest_image_name=picture_name(meta, kind, BOARD_PICTURE)))
        return out

    def _final(self, final_lines: Sequence[str]) -> list[OutRow]:
        """The final standings (with a link to review the game) and the whole game as an animation."""
        meta, kind, match = self.meta, self.kind, self.match
        lang = meta.language
        pres = kind.presenter
        view = self.view(None)
        return [group(meta, "\n".join([*pres.final_lines(view, lang), *final_lines]),
                      buttons=[[board_button(t(lang, "web.btn.review"), self.codec, meta, REVIEW)]],
                      render=RenderRequest("final", meta.id, match.move_count),
                      image_name=picture_name(meta, kind, "final")),
                animation_message(meta, kind, match.move_count)]


def _scores_after(match: Match, cycle: int) -> Sequence[int] | None:
    """The scores after ``cycle`` as everyone may know them (None: secret until the end)."""
    history = match.rhythm.score_history()
    if history and len(history) >= cycle:
        return history[cycle - 1]
    if match.is_terminal():              # a cycle that closed with the game: no running scores of it
        return None
    return match.rhythm.public_returns()
