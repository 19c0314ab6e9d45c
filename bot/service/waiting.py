"""Waiting for an event with a time limit, in a way that a cancellation always ends.

Python 3.11's ``asyncio.wait_for`` can swallow a ``cancel()`` that arrives just as the
awaited event is set (the race behind a stop that never finished); ``asyncio.wait`` does not.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Literal


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait until ``event`` is set or ``timeout`` seconds pass; True if it was set."""
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiter}, timeout=timeout)
    except GeneratorExit:
        raise                 # the loop is being torn down: nothing can be scheduled any more
    except BaseException:
        await _reap(waiter)
        raise
    await _reap(waiter)
    return event.is_set()


async def _reap(waiter: asyncio.Future[Literal[True]]) -> None:
    """Cancel the helper task and wait for it, so none is left pending when the loop closes."""
    if waiter.done() or waiter.get_loop().is_closed():
        return
    waiter.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiter
