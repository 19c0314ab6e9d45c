"""The turn state: what the service keeps about a game's turns besides the engine's record.

One declared field per fact, each read by name (``meta.turn.since``), never probed as a key.
It is a value: every change makes a new one (``dataclasses.replace`` or one of its methods), and
the step that made it returns it in its commit's ``Changes.turn``; ``GameStore.commit`` alone keeps
it on the game (``GameMeta.turn``), so a step's return value shows every change it makes.

Stored in the games table's ``extra`` column as a JSON object, one key per field (``to_json``);
a field at its default is left out. ``from_json`` reads every shape older code stored:

- ``"menus"`` as a list of seats (before each kept its position): their positions unknown;
- ``"phase"``, ``"phase_at"``, ``"reminded_phase"`` (before the phase was kept as one fact,
  issue 31): kept as they are in ``old_phase`` until the phase is worked out from them
  (``phase.Phase.of``: that needs the match) and kept in the new shape;
- ``"reminded_round"`` (before cycles had their name, commit 2b8ab21): not read since then, and
  dropped;
- a damaged ``"turn_phase"``: the phase is worked out again, as for an old record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .phase import Phase


@dataclass(frozen=True, slots=True)
class Bank:
    """A seat's time bank (``bank.py`` runs it); stored under ``"banks"``. A value: a change
    makes a new one."""

    left: float                     # seconds left when it last began to run (or stopped)
    since: float | None = None      # running from then (later than now: paused); None: stopped
    move: int = 0                   # the move at which its seat began the turn it runs for
    warned: bool = False            # its warning went out (not again until a bonus lifts it)

    def zero_at(self) -> float | None:
        return None if self.since is None else self.since + self.left

    def left_at(self, now: float) -> float:
        if self.since is None:
            return self.left
        return max(0.0, self.left - max(0.0, now - self.since))

    def paused_until(self, now: float, until: float | None) -> Bank:
        """The bank stopped from ``now`` until ``until`` (None: going on now, if it was paused)."""
        if self.since is None:
            return self
        return replace(self, left=self.left_at(now), since=now if until is None else max(now, until))


@dataclass(frozen=True, slots=True)
class OldPhase:
    """The phase as the code before issue 31 stored it, read by ``phase.Phase.of`` alone."""

    phase: int | None = None          # "phase": the move number its timers were armed for
    phase_at: float | None = None     # "phase_at": when they began to run
    reminded_phase: int | None = None  # "reminded_phase": the phase its reminder went out in


@dataclass(frozen=True, slots=True)
class TurnState:
    # "turn_phase": the phase under way (``phase.py``); None before the first one is kept.
    phase: Phase | None = None
    # "since": seat -> the move number at which it last began to act, which its buttons are
    # bound to. None: a game stored before this was kept (its timers carry its move count).
    since: Mapping[int, int] | None = None
    # "menus": seats whose private turn message shows buttons now -> the position they are bound
    # to: (the seat's choices so far, the move at which it began to act); (-1, -1): unknown.
    menus: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    # "turn_slot": the slot of the group's live turn message (None: ``g<id>:turn``, as a game
    # started before each prompt had its own kept).
    turn_slot: str | None = None
    # "browsing": (seat, what it opened) while the one acting seat looks at a submenu that
    # depends on its secrets, in private; the group's prompt says so.
    browsing: tuple[int, str] | None = None
    # "notes": (cycle, line): a deadline move, a seat handed to the AI, told with every later
    # edit of that cycle's messages (the cycle before is kept too).
    notes: tuple[tuple[int, str], ...] = ()
    # "unreachable": user ids whose private chat is closed.
    unreachable: frozenset[str] = frozenset()
    # "reminded_cycle": the cycle whose reminder went to the group (later ones go privately).
    reminded_cycle: int | None = None
    # "banks": each seat's time bank where the chat plays with banks (``bank.py``).
    banks: Mapping[int, Bank] = field(default_factory=dict)
    # "phase", "phase_at", "reminded_phase": a game stored before issue 31 (see the module).
    old_phase: OldPhase | None = None

    # ---- reading ------------------------------------------------------------------------------

    def acting_since(self, seat: int) -> int:
        """The move number at which ``seat`` last began to act, which its buttons are bound to
        (0: from the start, or unknown for a game stored before this was kept: it began before
        any of its buttons still valid). The phase's own start is ``phase.Phase``'s."""
        return (self.since or {}).get(seat, 0)

    def notes_of(self, cycle: int) -> list[str]:
        return [line for c, line in self.notes if c == cycle]

    # ---- changing (each a new state) ----------------------------------------------------------

    def began_acting(self, seats: Iterable[int], move: int) -> TurnState:
        """``seats`` began to act at move number ``move`` (their buttons are bound to it)."""
        since = dict(self.since or {})
        since.update((s, move) for s in seats)
        return replace(self, since=since)

    def with_phase(self, phase: Phase) -> TurnState:
        """``phase`` kept as the phase under way (an old record of it goes)."""
        return replace(self, phase=phase, old_phase=None)

    def with_banks(self, banks: Mapping[int, Bank]) -> TurnState:
        """``banks`` kept as the seats' time banks (in seat order)."""
        return replace(self, banks=dict(sorted(banks.items())))

    def with_bank(self, seat: int, bank: Bank) -> TurnState:
        """``bank`` kept as ``seat``'s time bank."""
        return self.with_banks({**self.banks, seat: bank})

    def noted(self, cycle: int, lines: Iterable[str]) -> TurnState:
        """``lines`` noted in ``cycle`` (the notes of cycles before the one before go)."""
        lines = list(lines)
        if not lines:
            return self
        kept = tuple((c, line) for c, line in self.notes if c >= cycle - 1)
        return replace(self, notes=kept + tuple((cycle, line) for line in lines))

    def showing(self, seat: int, position: tuple[int, int]) -> TurnState:
        """``seat``'s private turn message shows its buttons, bound to ``position``."""
        return replace(self, menus=dict(sorted({**self.menus, seat: position}.items())))

    def reachable(self, user_id: str, reachable: bool) -> TurnState:
        """The user's private chat is open (``reachable``) or closed."""
        ids = self.unreachable - {user_id} if reachable else self.unreachable | {user_id}
        return replace(self, unreachable=ids)

    # ---- stored form --------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.turn_slot is not None:
            out["turn_slot"] = self.turn_slot
        if self.menus:
            out["menus"] = {str(s): list(p) for s, p in sorted(self.menus.items())}
        if self.browsing is not None:
            out["browsing"] = list(self.browsing)
        if self.notes:
            out["notes"] = [[c, line] for c, line in self.notes]
        if self.unreachable:
            out["unreachable"] = sorted(self.unreachable)
        if self.reminded_cycle is not None:
            out["reminded_cycle"] = self.reminded_cycle
        if self.since is not None:
            out["since"] = {str(s): m for s, m in sorted(self.since.items())}
        if self.phase is not None:
            out["turn_phase"] = asdict(self.phase)
        if self.banks:
            out["banks"] = {str(s): asdict(b) for s, b in sorted(self.banks.items())}
        if self.old_phase is not None:
            out.update((k, v) for k, v in asdict(self.old_phase).items() if v is not None)
        return out

    @classmethod
    def from_json(cls, stored: Mapping[str, Any] | None) -> TurnState:
        """The turn state of a stored object, of any shape the code ever stored (see the module)."""
        stored = stored or {}
        old = None
        if any(k in stored for k in ("phase", "phase_at", "reminded_phase")):
            old = OldPhase(_int_or_none(stored.get("phase")), _float_or_none(stored.get("phase_at")),
                           _int_or_none(stored.get("reminded_phase")))
        since = stored.get("since")
        browsing = stored.get("browsing")
        cycle = stored.get("reminded_cycle")
        return cls(
            phase=_phase(stored.get("turn_phase")),
            since=None if since is None else {int(s): int(m) for s, m in since.items()},
            menus=_menus(stored.get("menus")),
            turn_slot=stored.get("turn_slot") or None,
            browsing=(int(browsing[0]), str(browsing[1])) if browsing else None,
            notes=tuple((int(c), str(line)) for c, line in stored.get("notes", ())),
            unreachable=frozenset(stored.get("unreachable", ())),
            reminded_cycle=None if cycle is None else int(cycle),
            banks={int(s): Bank(**value) for s, value in (stored.get("banks") or {}).items()},
            old_phase=old)


def _phase(stored: Any) -> Phase | None:
    if not isinstance(stored, dict):
        return None
    try:
        began = stored.get("began_at")
        return Phase(int(stored["start"]), None if began is None else float(began),
                     bool(stored.get("reminded", False)))
    except (KeyError, TypeError, ValueError):
        return None             # a damaged record: worked out again, as for an old one


def _menus(stored: Any) -> dict[int, tuple[int, int]]:
    if isinstance(stored, list):          # a list of seats, kept by earlier code: positions unknown
        return {int(s): (-1, -1) for s in stored}
    return {int(s): (int(p[0]), int(p[1])) for s, p in (stored or {}).items()}


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _float_or_none(value: Any) -> float | None:
    return None if value is None else float(value)
