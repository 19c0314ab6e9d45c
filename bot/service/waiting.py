"""Waiting for an event with a time limit, in a way that a cancellation always ends.

Python 3.11's ``asyncio.wait_for`` can swallow a ``cancel()`` that arrives just as the
awaited event is set (the race behind a stop that never finished); ``asyncio.wait`` does not.
"""

from __future__ import annotations

import asyncio


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait until ``event`` is set or ``timeout`` seconds pass; True if it was set."""
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiter}, timeout=timeout)
    finally:
        waiter.cancel()
    return event.is_set()
