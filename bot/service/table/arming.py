"""The timers a game arms at each commit: the phase's reminder and deadline, or each seat's bank;
and for a person who is away (``/away``), what the chat chose for them.

The chat's "clock" setting chooses between today's reminder-and-deadline (one pair per phase,
``Phase``) and the time bank (one pair per seat, ``bank.py``). A person away until a moment
still to come has, as the chat's "away_mode" says, either their turns played by the chat's AI
level at once (an ``away:<seat>`` timer, due now), or their clock paused until they are back:
their bank runs from then, and a phase they act in has its reminder and deadline counted from
then too.

Every list returned replaces the game's stored timers, in the commit of the move (or setting,
or away) that armed them: a timer fires once, and a restart finds them in the database. The turn
state they were armed from (banks settled, the time the phase's timers began to run) goes into the
same commit (``Armed``).

Who is away is read from the database once per copy of a game in memory (``Loaded.away``), not
with every move (issue 44: that read was a move's one extra statement since 87d0417). It stays
right because a person's ``/away`` (or back) is stored first and then committed again into every
running game they sit in (``away.Away``): another process's copy of such a game is then older
than the database and is read again, with who is away, before its next action; this process's
own copies are read again after it says so (``Arming.said_away``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..clock import Clock
from ..game import bank as B
from ..game.model import PLAYING, TimerRow
from ..game.phase import Phase
from ..game.turnstate import TurnState
from ..storage import Storage
from ..storage.store import Loaded

AWAY = "away"                 # the kind of an away seat's timer: "away:1"
PLAYS, PAUSES = "ai", "pause"  # the chat's "away_mode"


def seat_kind(kind: str) -> tuple[str, int | None]:
    """("bank", 2) for "bank:2"; ("deadline", None) for a phase's own timers."""
    name, _, seat = kind.partition(":")
    return (name, int(seat)) if seat.isdigit() else (name, None)


@dataclass(frozen=True, slots=True)
class Armed:
    """A game's timers now, and its turn state as arming them left it (both for its commit)."""

    turn: TurnState
    timers: list[TimerRow] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class KnownAway:
    """What the away table said for a game's people, read once for its copy in memory."""

    said: int                       # ``Arming.said`` when it was read
    people: tuple[str, ...]         # the user ids asked about (sorted)
    until: Mapping[str, float]      # those away (or back already) -> when they are back


class Arming:
    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock
        # Bumped each time this process stores someone's /away: every ``KnownAway`` read before is stale.
        self.said = 0

    def said_away(self) -> None:
        """Someone's /away (or back) was stored: read the away table again for every game."""
        self.said += 1

    async def away_seats(self, loaded: Loaded) -> dict[int, float]:
        """The seats whose person is away now, with when they are back."""
        meta = loaded.meta
        people = {s.user_id: i for i, s in enumerate(meta.seats) if s.user_id and not s.is_ai}
        if not people:
            return {}
        now = self.clock.now()
        asked = tuple(sorted(people))
        known = loaded.away
        if known is None or known.said != self.said or known.people != asked:
            known = KnownAway(self.said, asked, await self.storage.away_until(meta.platform, list(asked)))
            loaded.away = known
        return {people[user]: back for user, back in known.until.items() if back > now}

    async def arm(self, loaded: Loaded, turn: TurnState) -> Armed:
        """The game's timers now, armed from its turn state ``turn``, with the banks settled in
        it (when the chat plays with them)."""
        meta, match = loaded.meta, loaded.match
        if match is None or match.is_terminal() or meta.status != PLAYING:
            return Armed(turn)
        humans = B.acting_humans(meta, match)
        away = await self.away_seats(loaded) if humans else {}
        playing_for = [s for s in humans if s in away and meta.options.get("away_mode", PLAYS) == PLAYS]
        paused = {s: until for s, until in away.items() if s not in playing_for}
        now = self.clock.now()
        timers = [TimerRow(meta.id, f"{AWAY}:{s}", now, turn.acting_since(s)) for s in playing_for]
        if B.is_bank(meta):
            turn = B.settle(meta, turn, match, now, paused)
            return Armed(turn, timers + B.timers(meta, turn.banks, [s for s in humans if s not in playing_for]))
        if not humans:
            return Armed(turn)
        return self._phase_timers(loaded, turn, timers,
                                  max((paused[s] for s in humans if s in paused), default=None))

    def _phase_timers(self, loaded: Loaded, turn: TurnState, timers: list[TimerRow], back: float | None) -> Armed:
        """``timers`` and the reminder and the deadline of the phase under way: they run from the
        moment its seats began to act (a seat's steps, or another seat's, do not push them back),
        or from when its last person away is back, and are tagged with that moment's move
        number; a reminder already sent this phase is not armed again."""
        meta, match = loaded.meta, loaded.running     # ``arm`` armed nothing for a game not running
        phase = Phase.of(turn, match)
        began = phase.began_at
        if began is None:
            began = self.clock.now()
            phase = phase.armed_at(began)
            turn = turn.with_phase(phase)
        if back is not None:
            began = max(began, back)
        reminder = int(meta.options.get("reminder_minutes") or 0)
        deadline = int(meta.options.get("deadline_minutes") or 0)
        timers = list(timers)
        if reminder and (not deadline or reminder < deadline) and not phase.reminded:
            timers.append(TimerRow(meta.id, "reminder", began + reminder * 60, phase.start))
        if deadline:
            timers.append(TimerRow(meta.id, "deadline", began + deadline * 60, phase.start))
        return Armed(turn, timers)
