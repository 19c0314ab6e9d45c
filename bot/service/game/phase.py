"""The phase under way: the seats acting together now, as one stored fact of the game's turn state.

A phase begins with the move that makes a seat join those to act (or with which a seat acting
alone completes a decision and goes on with a new one: two turns in a row). It lasts, whoever
of its seats steps or finishes, until the next one begins. Its start (that move's number) tags
its reminder and its deadline; a timer whose tag is not the start of the phase under way is
stale.

The start is kept as a fact of the phase, not worked out again from the seats' own marks
(``acting_since``): a seat that was acting already when a phase of several seats began (Papà
Paolo's last investor, who plans deliveries too) would otherwise leave an older mark behind it
once the others are done, and the phase would seem to end while that seat still acts.

Kept as ``GameMeta.turn.phase`` (``turnstate.TurnState``, stored as ``"turn_phase"``); a value: a
change makes a new one, kept in a new turn state (``TurnState.with_phase``). A game
stored before it was kept has the older record instead (``since`` per seat and
``TurnState.old_phase``): its phase is read from them, as that code worked it out, and kept in
the new shape with the game's next commit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # the turn state (turnstate.py) holds a Phase: no import of it at run time
    from engine.interface import Match

    from .turnstate import TurnState


@dataclass(frozen=True, slots=True)
class Phase:
    start: int                       # the move number at which the phase's seats began to act
    began_at: float | None = None    # when its timers began to run (None: none armed yet)
    reminded: bool = False           # its reminder went out (it is not armed again)

    @classmethod
    def of(cls, turn: TurnState, match: Match) -> Phase:
        """The phase under way in a game's turn state ``turn`` (``match`` is that game's present
        state)."""
        if turn.phase is not None:
            return turn.phase
        return cls._of_old_record(turn, match)

    @classmethod
    def _of_old_record(cls, turn: TurnState, match: Match) -> Phase:
        # As that code had it: the latest mark among the seats acting now (the move count if none).
        start = max((turn.acting_since(s) for s in match.to_act()), default=match.move_count)
        old = turn.old_phase
        armed_at = old.phase_at if old is not None and old.phase == start else None
        return cls(start, armed_at, old is not None and old.reminded_phase == start)

    def armed_at(self, now: float) -> Phase:
        """The phase with its timers running from ``now``."""
        return replace(self, began_at=now)

    def reminder_sent(self) -> Phase:
        """The phase whose reminder went out (it is not armed again)."""
        return replace(self, reminded=True)


def begins(before: tuple[int, ...], acting: tuple[int, ...], mover: int, in_decision: bool, told: bool) -> bool:
    """Whether the move ``mover`` just made, which left ``acting`` to act where ``before`` were,
    began a new phase: a seat joined those to act, or the mover, acting alone, completed a
    decision (``in_decision`` is whether it is in the middle of one now) and goes on.

    ``told`` is whether the move told everyone something (an event visible to all): a decision
    completed does. A private step does not, though it may leave the mover outside a decision
    too (Papà Paolo's last seat still planning begins a trip and takes it back): that is no new
    phase, or the public picture's name, the other seats' boards and the phase's deadline and
    reminder would all move with a step only its seat sees (issue 42)."""
    return bool(set(acting) - set(before)) or (acting == (mover,) and not in_decision and told)
