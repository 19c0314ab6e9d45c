"""A small bounded memo for answers that are functions of a neighbourhood's contents.

The rules ask the same question of an unchanged neighbourhood several times in one decision
(the choices offered, the check of the chosen step, the move it ends in). Keys are the
contents themselves (``Hood.geometry``, ``Hood.serving``), never an object's identity, so a
neighbourhood changed in place can never be answered from an older state. Bounded, so a
process that keeps many games does not grow with them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Memo(Generic[T]):
    """The last ``size`` answers, the least recently used dropped first. The AIs of several
    games think at once in threads (the chat runs them with ``asyncio.to_thread``), so the
    answers are read and written under a lock; an answer is computed outside it (two threads
    may then compute the same one, and both get it right)."""

    __slots__ = ("size", "answers", "_lock")

    def __init__(self, size: int) -> None:
        self.size = size
        self.answers: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        answers = self.answers
        with self._lock:
            if key in answers:
                answers.move_to_end(key)
                return answers[key]
        value = compute()
        with self._lock:
            answers[key] = value
            while len(answers) > self.size:
                answers.popitem(last=False)
        return value
