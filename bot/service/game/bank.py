"""The time bank (Board Game Arena's turn-based clock): each seat's own time, spent while it acts.

A seat starts with the chat's initial bank. While it is to act its bank runs down; when its
turn ends (it no longer acts, or it begins a new turn: two in a row) the time it used is taken
off, the bonus added, and the bank kept under the cap. At zero the AI plays the turn (a
``bank:<seat>`` timer); a ``warn:<seat>`` timer warns it once before, and the warning is not
given again until a bonus lifts the bank above the warning's margin. Where several seats act
at once (Papà Paolo's planning), each seat's bank runs on its own.

A bank that runs from a moment still to come is paused until then: its person is away
(``away.py``, the chat's "pause" choice).

Kept as ``GameMeta.turn.banks`` (``turnstate.py``, stored as ``"banks"``: ``{seat: {"left",
"since", "move", "warned"}}``), changed by this module alone: each change returns a new turn state,
for the caller's commit (``Changes.turn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.interface import Match
from i18n import t

from .model import GameMeta, TimerRow
from .turnstate import Bank, TurnState

BANK, DEADLINE = "bank", "deadline"          # the chat's "clock" setting
ZERO, WARN = "bank", "warn"                   # the kinds of a seat's timers: "bank:2", "warn:2"


@dataclass(frozen=True, slots=True)
class BankRules:
    """A chat's bank, in seconds."""

    initial: float
    bonus: float
    cap: float
    warning: float

    @classmethod
    def of(cls, options: dict[str, Any]) -> BankRules:
        def minutes(name: str) -> float:
            return 60.0 * int(options.get(name) or 0)
        return cls(minutes("bank_initial_minutes"), minutes("bank_bonus_minutes"),
                   minutes("bank_cap_minutes"), minutes("bank_warning_minutes"))

    def after_turn(self, left: float, used: float) -> float:
        """A bank after a turn that used ``used`` seconds of it: never below zero, then the
        bonus, then no more than the cap (a cap of 0: no cap)."""
        after = max(0.0, left - max(0.0, used)) + self.bonus
        return min(after, self.cap) if self.cap else after


def is_bank(meta: GameMeta) -> bool:
    return meta.options.get("clock") == BANK


def acting_humans(meta: GameMeta, match: Match) -> list[int]:
    return [s for s in match.to_act() if not meta.seats[s].is_ai]


def settle(meta: GameMeta, turn: TurnState, match: Match | None, now: float,
           paused: Mapping[int, float]) -> TurnState:
    """``turn`` with every seat's bank brought up to ``now``: a turn that ended is charged (and
    earns the bonus), a seat that began to act has its bank run from now (or from the end of its
    pause, ``paused``: seat -> until). A turn is known by the move at which its seat began to act
    (``TurnState.acting_since``)."""
    since_of = turn.acting_since
    rules = BankRules.of(meta.options)
    state = dict(turn.banks)
    acting = set(acting_humans(meta, match)) if match is not None and not match.is_terminal() else set()
    for seat, info in enumerate(meta.seats):
        bank = state.get(seat)
        if bank is None:
            if info.is_ai and info.user_id is None:
                continue            # an AI added in the lobby has no clock
            bank = Bank(rules.initial)
        if bank.since is not None and (seat not in acting or bank.move != since_of(seat)):
            left = rules.after_turn(bank.left, now - bank.since)
            bank = replace(bank, left=left, since=None, warned=bank.warned and left <= rules.warning)
        if seat in acting and bank.since is None:
            bank = replace(bank, since=max(now, paused.get(seat, now)), move=since_of(seat))
        state[seat] = bank
    return turn.with_banks(state)


def warned(turn: TurnState, seat: int) -> TurnState:
    """``turn`` with ``seat``'s bank warned (not again until a bonus lifts it)."""
    return turn.with_bank(seat, replace(turn.banks[seat], warned=True))


def paused(turn: TurnState, seat: int, now: float, until: float | None) -> TurnState:
    """``turn`` with ``seat``'s bank stopped from ``now`` until ``until`` (None: going on now)."""
    if seat not in turn.banks:
        return turn
    return turn.with_bank(seat, turn.banks[seat].paused_until(now, until))


def timers(meta: GameMeta, state: Mapping[int, Bank], seats: list[int]) -> list[TimerRow]:
    """The zero and warning timers of ``seats``' running banks."""
    rules = BankRules.of(meta.options)
    out = []
    for seat in seats:
        bank = state.get(seat)
        if bank is None or bank.since is None:      # no bank, or a stopped one: no zero to reach
            continue
        zero = bank.since + bank.left               # ``bank.zero_at()``
        out.append(TimerRow(meta.id, f"{ZERO}:{seat}", zero, bank.move))
        if rules.warning and not bank.warned:
            out.append(TimerRow(meta.id, f"{WARN}:{seat}", max(bank.since, zero - rules.warning), bank.move))
    return out


def compact(seconds: float, language: str) -> str:
    """A bank in its two largest units: "2d 4h", "5h 30m", "12m" (a minute at least)."""
    minutes = max(1, int(seconds // 60)) if seconds > 0 else 0
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    if days:
        parts = [t(language, "bot.bank.days", n=days)] + ([t(language, "bot.bank.hours", n=hours)] if hours else [])
    elif hours:
        parts = [t(language, "bot.bank.hours", n=hours)] + ([t(language, "bot.bank.minutes", n=mins)] if mins else [])
    else:
        parts = [t(language, "bot.bank.minutes", n=mins)]
    return " ".join(parts)


def clock_line(meta: GameMeta, turn: TurnState, match: Match | None, now: float | None = None) -> str | None:
    """The prompt's line of what the seats to act have left in the turn state ``turn``: "⏱ Ann:
    2d 4h left" (None when the chat plays with deadlines). Without ``now``: as it was when each
    turn began."""
    if not is_bank(meta) or match is None or match.is_terminal():
        return None
    state = turn.banks
    lang = meta.language
    parts = []
    for seat in acting_humans(meta, match):
        bank = state.get(seat)
        if bank is None:
            continue
        left = bank.left if now is None else bank.left_at(now)
        parts.append(t(lang, "bot.bank.left", player=meta.seats[seat].name, left=compact(left, lang)))
    return t(lang, "bot.bank.line", seats=" · ".join(parts)) if parts else None
