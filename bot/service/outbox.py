"""The durable outbox's delivery: send after commit, record, retry, reroute.

Messages are committed with the action they describe (``storage.commit``); this loop
sends them in id order per destination (a chat or a user's private chat), so a chat
never sees its messages out of order, and records the platform's message id.

States: ``pending`` -> ``sending`` (committed just before ``Transport.deliver``) ->
``sent`` (with the message id); ``held`` (private chat closed, re-sent on
``private_started``); ``failed`` (the chat is gone). ``RetryLater`` reschedules the
message after the seconds the platform asked for, other errors after an exponential
backoff (1 s, 2 s, 4 s ... at most 10 min), and later messages to the same destination wait.

Delivery guarantee: a message is never lost (it stays ``pending``/``sending`` until the
transport returned an id and that id is committed). Exactly once needs the transport's
help: a crash between the platform accepting a message and the ``sent`` commit leaves
it ``sending``; on the next pass the service asks the transport's optional
``delivered_id(message) -> str | None`` whether that outbox id already went out, and
only re-sends when it did not. Without that hook (chat platforms offer no idempotency
key) such a message is re-sent: at-least-once, and a duplicate needs a crash in that
millisecond window. Edits are idempotent anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.contract import Chat, Outgoing, RetryLater, Transport, Undeliverable, User

from . import messages as M
from .clock import Clock
from .model import StoredOut
from .storage import Storage

log = logging.getLogger(__name__)
MAX_BACKOFF = 600.0


class Delivery:
    """Delivers the outbox through a ``Transport``.

    ``render(render, language, platform)`` draws a message's picture (PNG bytes or None);
    ``private_closed(game_id, user_id)`` is told when a player's private chat is closed;
    ``wake`` holds an event per platform that commits set when they add messages.
    """

    def __init__(self, storage: Storage, clock: Clock, *,
                 render: Callable[[dict, str, str], Awaitable[bytes | None]],
                 private_closed: Callable[[int | None, str], Awaitable[None]],
                 wake: dict[str, asyncio.Event]) -> None:
        self.storage = storage
        self.clock = clock
        self._render = render
        self._private_closed = private_closed
        self._wake = wake
        self._gone_slots: set[tuple[str, str | None]] = set()   # slots whose message was deleted
        self._next_wake: dict[str, float | None] = {}

    async def deliver_pending(self, transport: Transport) -> int:
        platform = transport.platform
        now = self.clock.now()
        sent = 0
        blocked: set[str] = set()
        wake: float | None = None
        for row in await self.storage.unsent(platform):
            if row.dest in blocked:
                continue
            if row.due > now:
                blocked.add(row.dest)   # keep each chat's messages in order
                wake = row.due if wake is None else min(wake, row.due)
                continue
            if await self._deliver_one(transport, row, blocked):
                sent += 1
            elif row.dest in blocked:
                wake = now if wake is None else min(wake, now)
        self._next_wake[platform] = wake
        return sent

    async def _deliver_one(self, transport: Transport, row: StoredOut, blocked: set[str]) -> bool:
        now = self.clock.now()
        outgoing = await self._materialise(row)
        if row.state == "sending":
            # A crash between sending and recording: ask the transport if it went out.
            check = getattr(transport, "delivered_id", None)
            if check is not None:
                found = await check(outgoing)
                if found is not None:
                    await self.storage.mark_sent(row, str(found), now)
                    return False
        # An edit committed since unsent() read this row may have been coalesced into it
        # (storage._enqueue); once it is 'sending' nothing more can be, so send the body
        # as stored at that moment rather than the copy read before.
        fresh = await self.storage.mark_sending(row.id)
        if fresh is not None and fresh.body != row.body:
            row = fresh
            outgoing = await self._materialise(row)
        try:
            message_id = await transport.deliver(outgoing)
        except RetryLater as exc:
            await self.storage.reschedule(row.id, now + max(0.0, float(exc.seconds)), row.attempts + 1, str(exc))
            blocked.add(row.dest)
            return False
        except Undeliverable as exc:
            await self._undeliverable(row, exc)
            return False
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - any other failure is retried with backoff
            log.warning("delivery of outbox %s failed: %r", row.id, exc)
            delay = min(MAX_BACKOFF, 2.0 ** min(row.attempts, 12))
            await self.storage.reschedule(row.id, now + delay, row.attempts + 1, repr(exc))
            blocked.add(row.dest)
            return False
        await self.storage.mark_sent(row, str(message_id), self.clock.now())
        self._gone_slots.discard((row.platform, row.slot))
        return True

    async def _undeliverable(self, row: StoredOut, exc: Undeliverable) -> None:
        if exc.reason == "private_closed" and row.dest.startswith("u:"):
            # Keep the message to re-send on private_started; tell the group in the prompt.
            await self.storage.set_state(row.id, "held", str(exc))
            await self._private_closed(row.game_id, row.dest[2:])
            return
        if exc.reason == "gone" and row.mode == "edit":
            # The message to edit is gone: post the content anew.
            await self.storage.reschedule(row.id, self.clock.now(), row.attempts + 1, str(exc))
            self._gone_slots.add((row.platform, row.slot))
            return
        await self.storage.set_state(row.id, "failed", str(exc))

    async def _materialise(self, row: StoredOut) -> Outgoing:
        body = row.body
        edit_id = None
        if row.mode == "edit" and row.slot is not None and (row.platform, row.slot) not in self._gone_slots:
            edit_id = await self.storage.slot_message(row.platform, row.slot)
        image = None
        render = body.get("render")
        if render:
            image = await self._render(render, body.get("language", "en"), row.platform)
        chat = body.get("chat")
        to = body.get("private_to")
        return Outgoing(
            id=row.id, text=body.get("text", ""),
            chat=Chat(chat["platform"], chat["id"], chat.get("title", "")) if chat else None,
            private_to=User(to["platform"], to["id"], to["name"], language=to.get("language")) if to else None,
            image=image, image_name=body.get("image_name", "board.png"),
            buttons=M.to_buttons(body.get("buttons") or []),
            mentions=tuple(User(m["platform"], m["id"], m["name"]) for m in body.get("mentions") or []),
            slot=row.slot, edit_message_id=edit_id, language=body.get("language", "en"))

    async def run(self, transport: Transport, *, max_sleep: float = 30.0) -> None:
        platform = transport.platform
        event = self._wake.setdefault(platform, asyncio.Event())
        while True:
            event.clear()
            try:
                await self.deliver_pending(transport)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep delivering
                log.exception("delivery pass failed")
            due = self._next_wake.get(platform)
            delay = max_sleep if due is None else min(max_sleep, max(0.05, due - self.clock.now()))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), delay)
