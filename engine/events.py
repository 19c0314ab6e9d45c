"""The base of every game's events: data that knows who may see it and how it prints as JSON.

Seats are indices into the players. ``private_to`` is None for public events and a seat for
secrets (a dealt marker, holdings); ``visible_to(seat)`` is the one test a redacted log needs
(``seat=None``: the public view).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    @property
    def private_to(self) -> int | None:
        return None

    @property
    def ended_cycle(self) -> int | None:
        """The cycle this event closes, if it marks a cycle's end (a game's "cycle_ended")."""
        return None

    def visible_to(self, seat: int | None) -> bool:
        owner = self.private_to
        return owner is None or owner == seat

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with ``kind``; tuples become lists (see ``jsonable``)."""
        data = asdict(self)
        data["kind"] = self.kind
        return self.jsonable(data)

    @classmethod
    def jsonable(cls, value: Any) -> Any:
        """``value`` with tuples as lists, all the way down; games with values of their own
        (Paris Paris's tiles) override this."""
        if isinstance(value, dict):
            return {k: cls.jsonable(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [cls.jsonable(v) for v in value]
        return value
