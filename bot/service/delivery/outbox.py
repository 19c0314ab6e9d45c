"""The durable outbox's delivery: send after commit, record, retry, reroute.

Messages are committed with the action they describe (``storage.commit``); ``Delivery``
sends them in id order per destination (a chat or a user's private chat), so a chat
never sees its messages out of order, and records the platform's message id.

States: ``pending`` -> ``sending`` (committed just before ``Transport.deliver``) ->
``sent`` (with the message id); ``held`` (private chat closed, re-sent on
``private_started``); ``failed`` (the chat is gone). ``RetryLater`` reschedules the
message the seconds the platform asked for after its refusal, other errors after an
exponential backoff (1 s, 2 s, 4 s ... at most 10 min), and later messages to the same
destination wait.

Several processes may share the outbox: a pass claims due messages for this process
(``owner``) under a lease, so no two live processes send the same message (see ``Delivery``).

Pacing (``flood_pacing.Pacer``, when the transport declares its platform's ``pace``): a pass
claims only the next message of each destination whose own budget allows one now, by rank
(``StoredOut.rank``): prompts a player waits for first, then what such a prompt waits behind in
its chat (a closing edit, the round's picture), then the rest; within a rank, shortest queue
first with aging (``StoredOut.turn``: a chat with nothing else to send passes chats with a
backlog, by a bounded number of seconds); and sends them side by side within the bot's overall
budget, which goes in the same order. So a
busy group waits for its own budget while the others go on, and a burst is spread over
time instead of refused. Each call is counted again at the moment it goes out
(``Pacer.at_call``, through ``contract.calling()``), so sends held up after their turn (a busy
event loop) do not leave in a burst. While the delivery is behind (``behind``), a round that ends posts its
new prompt before the round's closing edit and picture (``turnmessages.TurnMessages.after_moves``), so the
prompt waits for no other call of its chat. An edit that would show exactly what its slot shows already is
recorded as delivered without a call.

Folding (when the transport offers ``folded_caption(head, text)``: Telegram): a round's
picture and the new prompt right behind it in its chat go out as one message, the picture with
its summary and then the prompt as caption, and the prompt's buttons: every group call counts
against the group's 20 a minute. The prompt's later edits (the next turns of the round, its
closing edit) keep the summary above their text (``head`` in the body kept as shown), so a
round's end takes two calls (closing edit, picture with prompt) instead of three. A prompt
that does not fit a caption with the summary goes on its own, as before.

Delivery guarantee: a message is never lost (it stays ``pending``/``sending`` until the
transport returned an id and that id is committed). Exactly once needs the transport's
help: a crash between the platform accepting a message and the ``sent`` commit leaves
it ``sending``; whoever claims it next (the restarted process, or another once the lease
ran out) asks the transport's ``delivered_id(message) -> str | None`` whether
that outbox id already went out, and only re-sends when it did not. Where the transport cannot
tell (the default answer, None), it may make the repeat
harmless itself (Discord: a nonce derived from ``Outgoing.id``); otherwise such a
message is re-sent: at-least-once, and a duplicate needs a crash in that window.
Edits are idempotent anyway.

A normal stop (the delivery task cancelled) does not cut a send short: the send in
flight is allowed ``stop_grace`` seconds to finish and be recorded, so a clean restart
never posts anything twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable

import msgspec

from bot.contract import PACE_ANOTHER_CALL, PACE_CALL, Outgoing, RetryLater, Transport, Undeliverable

from ..clock import Clock
from ..game.model import StoredOut
from ..metrics import NO_METRICS, Metrics
from ..storage import Storage
from ..waiting import wait_event
from .flood_pacing import Pacer
from .outgoing import without_picture

log = logging.getLogger(__name__)
MAX_BACKOFF = 600.0
STOP_GRACE = 10.0     # seconds a stop waits for a send in flight
LEASE_SECONDS = 60.0  # how long a claimed message is one owner's (renewed before each send)
# A send starts only within this share of the lease after the renewal (30 s of the default 60), so
# the platform call itself has the rest (30 s, beyond every transport's own timeouts) to be accepted
# before another owner may take the message over (see ``Delivery._send``).
SEND_WITHIN = 1 / 2
CLAIM_BATCH = 50      # messages claimed at a time (one per destination)
# paced: destinations sent to side by side. Enough that the maps of later sends are drawn while
# earlier ones wait for the bot's budget (a map takes 0.1 s on an idle core, seconds on a busy
# machine); a new prompt does not queue behind them: it is claimed first as soon as one finishes (one
# finishes every 1/30 s at full pace) and takes the budget before them (``flood_pacing.Ranked``).
SEND_AT_ONCE = 24
BLOCKED_POLL = 0.5    # seconds between looks while a due message waits behind another owner's send
PACED_POLL = 0.2      # ... or for its chat's budget to refill
# The sends under way that make the delivery "behind" (``Delivery.behind``), in seconds of its
# overall budget: a quarter of a second of it (7 calls at Telegram's 28 a second). A prompt behind
# its chat's closing edit and map would wait that long for each of them, its picture's drawing
# besides; posted first, it waits that long once.
BEHIND_SECONDS = 0.25
# Where the transport folds a round's picture with its prompt: the seconds of the overall budget
# that the sends waiting for it must take before a new prompt goes first (``Delivery.behind``).
FOLDED_BEHIND_SECONDS = 1.0

Materialise = Callable[[StoredOut], Awaitable[Outgoing]]


@dataclasses.dataclass(frozen=True)
class Folded:
    """How a message goes out when it is more than its own row: under ``head`` (the text of a
    round's picture), and with ``prompt``, the new prompt that goes out with that picture as one
    message (None: an edit of such a message, which keeps the head above its new text)."""

    head: str
    prompt: StoredOut | None = None
PrivateClosed = Callable[[int, str], Awaitable[None]]


class Delivery:
    """Delivers the outbox of ``storage`` through a ``Transport``.

    ``materialise(row)`` turns a stored row into the ``Outgoing`` to post (rendering its
    picture; the edit target is filled in here); ``private_closed(game_id, user_id)`` is
    told when a player's private chat turned out closed (the message is held meanwhile).

    Several processes may deliver one database's outbox: each pass claims due messages for
    ``owner`` under a lease of ``lease_seconds`` (``Storage.claim_unsent``: a destination's
    messages go to one owner, in order), renews the lease just before each send and skips a
    message whose lease it lost, and gives back what it did not send. The send itself is
    fenced: a process that stalled past ``SEND_WITHIN`` of the lease after renewing it does not
    call the platform (another owner may hold the message by then). A dead process's
    messages are claimed by another once its lease ran out; one it was sending is checked
    with the transport's ``delivered_id`` before it is sent again.
    """

    def __init__(self, storage: Storage, clock: Clock, *, materialise: Materialise,
                 private_closed: PrivateClosed, stop_grace: float = STOP_GRACE, owner: str = "local",
                 lease_seconds: float = LEASE_SECONDS, share: float = 1.0, metrics: Metrics = NO_METRICS) -> None:
        self.storage = storage
        self.clock = clock
        self.materialise = materialise
        self.private_closed = private_closed
        self.stop_grace = stop_grace
        self.owner = owner
        self.lease_seconds = lease_seconds
        self._wake: dict[str, asyncio.Event] = {}
        self._next_wake: dict[str, float | None] = {}
        self._gone_slots: set[tuple[str, str | None]] = set()   # slots whose message was deleted
        self.share = share          # of the platform's overall budget, for this process
        self.metrics = metrics      # sends, refusals and retries, for an operator's monitoring
        self._pacers: dict[str, Pacer | None] = {}
        self._transports: dict[str, Transport] = {}     # the one delivering each platform: its pace
        self._in_flight: dict[str, int] = {}     # paced sends under way, per platform
        self._folds: set[str] = set()            # platforms whose transport folds (see "Folding")

    def behind(self, platform: str) -> bool:
        """Whether this process's paced delivery of ``platform`` is behind: the messages under
        way (each to another chat) take ``BEHIND_SECONDS`` of its overall budget or more (7 at
        Telegram's 28 a second), or are as many as it sends side by side (``SEND_AT_ONCE``: more
        that are due wait in the outbox), so what is committed now waits behind them. A round
        that ends meanwhile posts its new prompt before its picture (``turnmessages.TurnMessages.after_moves``)."""
        pacer = self._pacers.get(platform)
        if pacer is None:
            return False
        if platform in self._folds:
            # There the picture would go out with the new prompt (see "Folding"): posting the
            # prompt first costs its group one call of its 20 a minute. Worth it only when the
            # bot's overall budget is well behind (a second of it waiting: at 200 groups ending a
            # round at once), not while pictures are being drawn or a few groups end a round together.
            return pacer.total.waiting >= pacer.per_second * FOLDED_BEHIND_SECONDS
        return self._in_flight.get(platform, 0) >= min(SEND_AT_ONCE, pacer.per_second * BEHIND_SECONDS)

    def pacer(self, transport: Transport) -> Pacer | None:
        """This process's budgets for ``transport``'s platform (None: it declares no limits)."""
        platform = transport.platform
        self._transports[platform] = transport
        if platform not in self._pacers:
            limits = transport.pace
            self._pacers[platform] = Pacer(limits, self.share) if limits is not None else None
            if transport.folded_caption is not None:
                self._folds.add(platform)
        return self._pacers[platform]

    async def pace_reply(self, platform: str, dest: str) -> None:
        """A call to ``dest`` that the adapter makes outside the outbox (a command's reply): it
        waits its turn as a prompt does (rank 0: someone waits for it) and is counted in the same
        budgets, by the time it goes out. Nothing to wait for while ``platform`` is not paced."""
        transport = self._transports.get(platform)
        pacer = self.pacer(transport) if transport is not None else None
        if pacer is None:
            return
        await pacer.take(dest, rank=0, turn=self.clock.now())
        await pacer.at_call(dest)

    def reset_pacing(self) -> None:
        """Start again with full budgets, read afresh from the transports (tests, benchmarks)."""
        self._pacers.clear()
        self._folds.clear()

    def wake(self, platform: str) -> None:
        """New messages for ``platform`` were committed: the loop delivering it looks now."""
        self._event(platform).set()

    def _event(self, platform: str) -> asyncio.Event:
        event = self._wake.get(platform)
        if event is None:
            event = self._wake[platform] = asyncio.Event()
        return event

    async def deliver_pending(self, transport: Transport) -> int:
        """Send every message that may go out now; return how many were sent."""
        platform = transport.platform
        pacer = self.pacer(transport)
        blocked: set[str] = set()      # destinations that must wait (a refusal, a retry) this pass
        if pacer is not None:
            sent = await self._deliver_paced(transport, pacer, blocked)
        else:
            sent = 0
            while claimed := await self.storage.claim_unsent(platform, self.owner, self.clock.now(),
                                                             self.lease_seconds, limit=CLAIM_BATCH,
                                                             skip=frozenset(blocked)):
                sent += await self._deliver_in_turn(transport, claimed, blocked)
        await self._plan_wake(platform, pacer)
        return sent

    async def _deliver_paced(self, transport: Transport, pacer: Pacer, blocked: set[str]) -> int:
        """Up to ``SEND_AT_ONCE`` sends side by side, each to another destination (a chat's
        next message is claimable only once the one before it is recorded: its order is
        kept); a new claim as soon as one finishes, so a prompt committed meanwhile waits
        for one send, not for a batch."""
        sent = 0
        running: set[asyncio.Future[bool]] = set()
        try:
            while True:
                if len(running) < SEND_AT_ONCE:
                    claimed = await self.storage.claim_unsent(
                        transport.platform, self.owner, self.clock.now(), self.lease_seconds,
                        limit=SEND_AT_ONCE - len(running), skip=frozenset(blocked | pacer.busy()))
                    running |= {asyncio.ensure_future(self._deliver_one(transport, row, blocked, pacer))
                                for row in claimed}
                self._in_flight[transport.platform] = len(running)
                if not running:
                    return sent
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                sent += sum(1 for task in done if task.result() is True)     # a failure stops the pass
        finally:
            self._in_flight[transport.platform] = 0
            for task in running:        # a stop, or a failure: the sends in flight get their grace
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    async def _deliver_in_turn(self, transport: Transport, claimed: list[StoredOut], blocked: set[str]) -> int:
        """Send ``claimed`` one after the other; give back what was not tried."""
        sent = 0
        try:
            while claimed:
                row = claimed.pop(0)
                if row.dest in blocked:
                    await self.storage.release_claim(row, self.owner)
                    continue
                if await self._deliver_one(transport, row, blocked):
                    sent += 1
        finally:
            for row in claimed:   # not sent: any owner may take them again at once
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.storage.release_claim(row, self.owner))
        return sent

    async def _plan_wake(self, platform: str, pacer: Pacer | None = None) -> None:
        """When the loop looks again: when the first unsent message of some destination falls
        due or its lease (another owner's send) runs out; soon if one is due already (committed
        during the pass, or waiting for its chat's budget)."""
        due = await self.storage.next_due(platform)
        now = self.clock.now()
        if due is not None and due <= now:
            due = now + (PACED_POLL if pacer is not None and pacer.busy() else BLOCKED_POLL)
        self._next_wake[platform] = due

    async def _outgoing(self, row: StoredOut, transport: Transport) -> Outgoing:
        if transport.text_only and row.body.render is not None:
            row = without_picture(row)         # nothing drawn that nobody would see
        outgoing = await self.materialise(row)
        if row.mode == "edit" and row.slot is not None and (row.platform, row.slot) not in self._gone_slots:
            edit_id = await self.storage.slot_message(row.platform, row.slot)
            outgoing = dataclasses.replace(outgoing, edit_message_id=edit_id)
        return outgoing

    async def _unchanged(self, row: StoredOut) -> bool:
        """Whether ``row`` is an edit that would show just what its slot shows now: then it is
        recorded as delivered without a call (every call counts against the platform's limits)."""
        if row.mode != "edit" or row.slot is None or (row.platform, row.slot) in self._gone_slots:
            return False
        shown = await self.storage.last_shown(row.platform, row.slot)
        if shown is None or msgspec.structs.replace(shown, head=None) != row.body:
            return False
        message_id = await self.storage.slot_message(row.platform, row.slot)
        if message_id is None:
            return False
        if shown.head is not None:      # still folded under a picture's text: the next edit keeps it
            await self.storage.set_body(row.id, msgspec.structs.replace(row.body, head=shown.head))
        await self.storage.mark_sent(row, message_id, self.clock.now())
        return True

    async def _deliver_one(self, transport: Transport, row: StoredOut, blocked: set[str],
                           pacer: Pacer | None = None) -> bool:
        if await self._unchanged(row):
            return True
        outgoing = await self._outgoing(row, transport)
        if row.taken_over:
            # Its sender died (or stalled past its lease) between sending and recording: ask
            # the transport whether it went out.
            found = await transport.delivered_id(outgoing)
            if found is not None:
                await self.storage.mark_sent(row, str(found), self.clock.now())
                return False
        if pacer is not None:
            await pacer.take(row.dest, row.rank, row.turn)
        # Rendering and pacing may have taken a while: the lease must still be ours (and is
        # extended) right before the platform gets the message, or another owner may be sending it.
        renewed_at = self.clock.now()
        fresh = await self.storage.renew_lease(row.id, self.owner, renewed_at, self.lease_seconds)
        if fresh is None:
            log.warning("outbox %s: lease lost before sending; left to its new owner", row.id)
            blocked.add(row.dest)
            return False
        # What goes out with it is claimed after the renewal, so the fence below covers it too.
        outgoing, folded = await self._fold(transport, row, outgoing)
        # From here on the platform may accept the message at any moment: a stop must not
        # cut the send short, or the row stays 'sending' and is posted again after the restart.
        paced = PACE_ANOTHER_CALL.set(None if pacer is None else lambda: pacer.take(row.dest, row.rank, row.turn))
        at_call = PACE_CALL.set(None if pacer is None else lambda: pacer.at_call(row.dest))
        try:
            send = asyncio.ensure_future(self._send(transport, row, outgoing, blocked, renewed_at, folded))
        finally:
            PACE_CALL.reset(at_call)
            PACE_ANOTHER_CALL.reset(paced)
        try:
            sent = await asyncio.shield(send)
            if not sent and folded is not None and folded.prompt is not None:
                await self.storage.release_claim(folded.prompt, self.owner)    # it goes on its own later
            return sent
        except asyncio.CancelledError:
            try:
                await asyncio.wait({send}, timeout=self.stop_grace)
            finally:
                if not send.done():
                    log.warning("stopping: outbox %s was still being sent after %.0f s; it may be "
                                "sent again after the restart", row.id, self.stop_grace)
                    send.cancel()
                elif not send.cancelled() and send.exception() is not None:
                    log.warning("stopping: recording outbox %s failed: %r", row.id, send.exception())
            raise

    async def _fold(self, transport: Transport, row: StoredOut, outgoing: Outgoing) -> tuple[Outgoing, Folded | None]:
        """``outgoing`` folded with what goes out with it (see the module's "Folding")."""
        caption = transport.folded_caption
        if caption is None or row.slot is None and row.mode != "new":
            return outgoing, None
        if row.slot is not None:            # an edit of a folded message keeps its head
            if row.mode != "edit" or outgoing.edit_message_id is None or outgoing.image is not None:
                return outgoing, None
            last = await self.storage.last_shown(row.platform, row.slot)
            head = None if last is None else last.head
            if not head:
                return outgoing, None
            text = caption(head, outgoing.text)
            return (outgoing, None) if text is None else (dataclasses.replace(outgoing, text=text), Folded(head))
        if outgoing.image is None or row.taken_over:
            return outgoing, None
        prompt = await self.storage.claim_next(row, self.owner, self.clock.now(), self.lease_seconds)
        if prompt is None:
            return outgoing, None
        text = None
        if prompt.mode == "new" and prompt.slot is not None and prompt.body.buttons \
                and prompt.body.render is None:
            text = caption(outgoing.text, prompt.body.text)
        if text is None:
            await self.storage.release_claim(prompt, self.owner)
            return outgoing, None
        shown = await self.materialise(prompt)
        folded = dataclasses.replace(outgoing, text=text, buttons=shown.buttons, mentions=shown.mentions,
                                     slot=shown.slot)
        return folded, Folded(outgoing.text, prompt)

    async def _record_sent(self, row: StoredOut, message_id: str, folded: Folded | None) -> None:
        now = self.clock.now()
        if folded is not None and folded.prompt is not None:
            await self.storage.mark_sent(folded.prompt, message_id, now)
            await self.storage.set_body(folded.prompt.id, msgspec.structs.replace(folded.prompt.body, head=folded.head))
        elif folded is not None:
            await self.storage.set_body(row.id, msgspec.structs.replace(row.body, head=folded.head))
        await self.storage.mark_sent(row, message_id, now)

    async def _send(self, transport: Transport, row: StoredOut, outgoing: Outgoing, blocked: set[str],
                    renewed_at: float, folded: Folded | None = None) -> bool:
        waited = self.clock.now() - renewed_at
        if waited > self.lease_seconds * SEND_WITHIN:
            # The fence: this process stalled between renewing the lease and calling the
            # platform (a busy event loop, a paused process). Another owner may take the
            # message over once the lease runs out and, finding it not delivered, send it; so
            # this one must not. Nothing went out: the message is given back as it was.
            log.warning("outbox %s: %.1f s passed between renewing the lease and the send; left to be "
                        "sent again", row.id, waited)
            await self.storage.release_claim(row, self.owner)
            blocked.add(row.dest)
            return False
        try:
            message_id = await transport.deliver(outgoing)
        except RetryLater as exc:
            # Paced, a refusal is rare: the operator should see it (a platform gives longer
            # waits to a bot that keeps hitting its limits).
            log.warning("%s: outbox %s to %s must wait %.1f s (%s)", row.platform, row.id, row.dest,
                        float(exc.seconds), exc)
            if exc.refused:
                self.metrics.refused(row.platform)
            self.metrics.retried(row.platform)
            # Counted from the refusal, not from before the picture was rendered and uploaded.
            due = self.clock.now() + max(0.0, float(exc.seconds))
            await self.storage.reschedule(row.id, due, row.attempts + 1, str(exc))
            blocked.add(row.dest)
            return False
        except Undeliverable as exc:
            await self._undeliverable(row, exc)
            return False
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - any other failure is retried with backoff
            log.warning("delivery of outbox %s failed: %r", row.id, exc)
            self.metrics.retried(row.platform)
            delay = min(MAX_BACKOFF, 2.0 ** min(row.attempts, 12))
            await self.storage.reschedule(row.id, self.clock.now() + delay, row.attempts + 1, repr(exc))
            blocked.add(row.dest)
            return False
        if row.body.render is not None and outgoing.image is None and outgoing.animation is None:
            # Its picture could not be drawn and the text went alone: the row keeps no picture
            # request, so nothing reads the picture as shown (a /replay's wait after an animation).
            row = dataclasses.replace(row, body=msgspec.structs.replace(row.body, render=None))
        await self._record_sent(row, str(message_id), folded)
        self._gone_slots.discard((row.platform, row.slot))
        self.metrics.sent(row.platform)
        return True

    async def _undeliverable(self, row: StoredOut, exc: Undeliverable) -> None:
        if exc.reason == "private_closed" and row.dest.startswith("u:"):
            # Keep the message to re-send on private_started; the game tells the group.
            await self.storage.set_state(row.id, "held", str(exc))
            if row.game_id is not None:
                await self.private_closed(row.game_id, row.dest[2:])
            return
        if exc.reason == "gone" and row.mode == "edit":
            # The message to edit is gone: post the content anew.
            await self.storage.reschedule(row.id, self.clock.now(), row.attempts + 1, str(exc))
            self._gone_slots.add((row.platform, row.slot))
            return
        await self.storage.set_state(row.id, "failed", str(exc))

    async def run(self, transport: Transport, *, max_sleep: float = 30.0) -> None:
        """Deliver forever (until cancelled), waking when ``wake`` is called for the platform."""
        platform = transport.platform
        event = self._event(platform)
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
            await wait_event(event, delay)
