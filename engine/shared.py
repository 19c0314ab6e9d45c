"""One copy of each small immutable value that many matches hold alike.

A bot keeps thousands of matches in memory, and their histories repeat the same values: a
seat's step "take 1,2", an event "Ann places a marker on B3". Frozen values are safe to share,
so a match keeps a reference to the one shared copy instead of a copy of its own
(``sys.intern`` does the same for names). The table only grows to ``LIMIT`` entries: values
that repeat show up early, and past the limit a new value is kept as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

LIMIT = 100_000       # entries; at about 150 bytes each, some 15 MB at most, shared by every match
                      # (``shared_new``'s keys, for the few kinds that recur, far fewer)
T = TypeVar("T", bound=Hashable)
_table: dict = {}
_made: dict = {}      # (a class, its arguments) -> the shared value they make (``shared_new``)


def shared(value: T) -> T:
    """The shared copy of ``value`` (an equal one, immutable and hashable): ``value`` itself the
    first time, once the table is full, or when it cannot be hashed (a frozen value holding a dict)."""
    try:
        found = _table.get(value)
    except TypeError:
        return value
    if found is not None:
        return found
    if len(_table) < LIMIT:
        _table[value] = value
    return value


def is_shared(value: object) -> bool:
    """Whether ``value`` is the shared copy itself (a match that is read back from stored bytes can
    have its copy of it replaced by the shared one again)."""
    try:
        return _table.get(value) is value
    except TypeError:
        return False


def shared_new(make: Callable[..., T], *args: Hashable) -> T:
    """``shared(make(*args))``, without making the value when equal arguments made one before:
    it is found by ``make`` and ``args`` (a frozen dataclass with no defaults given, so equal
    arguments make equal values). Meant for values that recur from game to game (a marker
    placed, a coin paid), whose making and hashing was a sixth of a replay; a value that hardly
    recurs is better shared by ``shared``, which keeps no second entry for it."""
    key = (make, *args)
    try:
        found = _made.get(key)
    except TypeError:
        return shared(make(*args))
    if found is not None:
        return found
    value = shared(make(*args))
    if len(_made) < LIMIT and _table.get(value) is value:
        _made[key] = value
    return value
