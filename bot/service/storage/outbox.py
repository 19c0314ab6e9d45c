"""Outgoing messages (``outbox``) and the platform message each slot shows (``slots``).

A message about a move is committed with the move (``enqueue``, inside the commit). Several
processes share the outbox through time-limited leases: ``claim_unsent`` hands each due
message to one owner, and a dead owner's messages are claimed again once its lease expires.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..game.model import OutRow, PictureState, StoredOut
from ..game.outmessage import MessageBody, decode_body, encode_body
from .leases import WAKE
from .sql import Connection, Database, marks

OUT_COLS = "id, game_id, platform, dest, state, body, slot, mode, attempts, due"
TABLES = {
    "outbox": (("id", "game_id", "platform", "dest", "state", "body", "slot", "mode", "attempts", "due",
                "message_id", "created", "sent_at", "error", "owner", "lease", "priority"), ("id",)),
    "slots": (("platform", "slot", "message_id"), ("platform", "slot")),
}
UNSENT = "state IN ('pending', 'sending')"

LATEST_IN_SLOT = "SELECT id, state FROM outbox WHERE platform = ? AND slot = ? ORDER BY id DESC LIMIT 1"
# Coalesce only into a message nobody has started sending (a concurrent claim may just have).
COALESCE_EDIT = "UPDATE outbox SET body = ?, priority = ? WHERE id = ? AND state = 'pending'"
INSERT_OUT = ("INSERT INTO outbox (game_id, platform, dest, state, body, slot, mode, due, created, priority) "
              "VALUES (?,?,?,'pending',?,?,?,?,?,?) RETURNING id")
# What a slot shows now: the content of its latest message that went out.
LAST_SHOWN = ("SELECT body FROM outbox WHERE platform = ? AND slot = ? AND state = 'sent' "
              "ORDER BY id DESC LIMIT 1")
MARK_SENT = ("UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, error = NULL, owner = NULL, "
             "lease = NULL WHERE id = ?")
# A message without a slot (a picture, a notice) is never read again once it went out: it keeps
# what it said, the picture it asked for and its file name (``delivered_body``), for the week
# delivered messages stay; what only sending needed (the picture in words, the chat, mentions,
# buttons) goes. Issue 31: two thirds of a finished game's message bytes were such descriptions.
MARK_SENT_TRIMMED = ("UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, body = ?, error = NULL, "
                     "owner = NULL, lease = NULL WHERE id = ?")
KEPT_WHEN_DELIVERED = ("text", "render", "image_name")
# A slot shows one message at a time (a turn message, a seat's menu): once a later message of
# the slot went out, an earlier one is never read again (``LAST_SHOWN`` reads the latest, an edit
# coalesces only into the latest, an edit goes to the message id in ``slots``), so its row is
# deleted then, in the transaction that records the later one. A busy game's slots were most of
# its outbox (issue 31: 680 rows a game, each kept a week). Messages without a slot (pictures,
# notices) and a slot's latest delivered message stay for the week delivered messages are kept.
DROP_REPLACED = "DELETE FROM outbox WHERE platform = ? AND slot = ? AND state = 'sent' AND id < ?"
UPSERT_SLOT = ("INSERT INTO slots (platform, slot, message_id) VALUES (?,?,?) "
               "ON CONFLICT (platform, slot) DO UPDATE SET message_id = excluded.message_id")
RESCHEDULE = ("UPDATE outbox SET state = 'pending', due = ?, attempts = ?, error = ?, owner = NULL, "
              "lease = NULL WHERE id = ?")
SET_STATE = "UPDATE outbox SET state = ?, error = ?, owner = NULL, lease = NULL WHERE id = ?"
RELEASE_HELD = "UPDATE outbox SET state = 'pending', due = ? WHERE platform = ? AND dest = ? AND state = 'held'"
PRUNE = "DELETE FROM outbox WHERE state IN ('sent', 'failed') AND COALESCE(sent_at, created) < ?"
# A slot's platform message id, once no message of the slot is left in the outbox: its latest
# delivered message was pruned (it went out over a week ago) and nothing for it waits. Every
# game leaves a few dozen slots (a prompt each, a seat's turn message, the lobby); kept, they
# grew with every game ever played. A later edit of such a slot (a game resumed after a week)
# finds no message id and posts its message anew, below the chat's recent messages.
PRUNE_SLOTS = ("DELETE FROM slots WHERE NOT EXISTS "
               "(SELECT 1 FROM outbox WHERE outbox.platform = slots.platform AND outbox.slot = slots.slot)")
# A game's pictures to one destination that are on their way or went out, newest first: a
# picture has no slot, and its body keeps ``render`` when delivered (``KEPT_WHEN_DELIVERED``), so
# what it showed is known for the week delivered messages stay.
PICTURES_TO = ("SELECT state, sent_at, body FROM outbox WHERE game_id = ? AND platform = ? AND dest = ? "
               "AND slot IS NULL AND state IN ('pending', 'sending', 'held', 'sent') ORDER BY id DESC")

# A message may be claimed when it is due and nobody holds a live lease on it, and only
# when every earlier unsent message to the same destination may be claimed too: a chat
# must never see its messages out of order, so a destination waits while an earlier
# message of it is not due yet or is being sent by someone.
# Each destination's first unsent message, when it is due and nobody holds a live lease on
# it (a destination's later messages wait for it: per-chat order), leaving out ``skip``
# (destinations waiting for their pace); then by rank and turn. The rank: 0 for a prompt a
# player waits for (priority 0), 1 for a message such a prompt waits behind in its chat (a
# closing edit, the round's picture: the prompt cannot go before them, so they inherit part
# of its urgency; otherwise the prompt would sit behind its own chat's map while other chats'
# maps go out), 2 for anything else.
# The turn, within a rank: shortest queue first, aged. A message's commit time plus
# ``BACKLOG_PENALTY`` seconds for every other unsent message of its destination, counted up to
# ``BACKLOG_COUNTED``: a quick exchange (a prompt edited, nothing behind it) goes before the
# prompts of chats that have a closing edit and a picture still to come (they wait for their
# own chat's budget anyway), while no message is ever passed within its rank by one committed
# more than ``BACKLOG_PENALTY * BACKLOG_COUNTED`` seconds after it: a backlog cannot starve. (3 s:
# about the spacing a chat's own budget puts between its calls after a burst, 0.3 a second on
# Telegram; README "Performance" has the measurements.) The pacer
# hands out the overall budget in the same order (``StoredOut.turn``, ``flood_pacing.Ranked``). Commit
# times come from each committing process's clock: processes on several machines need their clocks
# in step (as the leases do already).
BACKLOG_PENALTY = 3.0
BACKLOG_COUNTED = 2
CLAIMABLE_OUT = (
    "SELECT o.id, o.state, CASE WHEN o.priority = 0 THEN 0 WHEN f.urgency = 0 THEN 1 ELSE 2 END AS rank, "
    f"o.created + {BACKLOG_PENALTY!r} * (CASE WHEN f.backlog > {BACKLOG_COUNTED + 1} THEN {BACKLOG_COUNTED} "
    "ELSE f.backlog - 1 END) AS turn "
    "FROM outbox o JOIN ("
    f"SELECT MIN(id) AS first, MIN(priority) AS urgency, COUNT(*) AS backlog FROM outbox WHERE platform = ? "
    f"AND {UNSENT} GROUP BY dest) f ON o.id = f.first "
    "WHERE o.due <= ? AND (o.state = 'pending' OR o.lease IS NULL OR o.lease <= ?){skip} "
    "ORDER BY rank, turn, o.id LIMIT ?")
# The messages a claim chose (``c``, from ``CLAIMABLE_OUT``) marked 'sending' for an owner, with
# what the choice saw of each (its state before, rank and turn): ``Dialect.chained_writes`` only.
CLAIM_CHOSEN = ("UPDATE outbox SET state = 'sending', owner = ?, lease = ?, attempts = outbox.attempts + 1 "
                f"FROM c WHERE outbox.id = c.id RETURNING {', '.join('outbox.' + c for c in OUT_COLS.split(', '))}, "
                "c.state, c.rank, c.turn")
# Claims of one platform take turns (``Dialect.take_turns``): a claim must see the claims
# before it, or two owners could split one destination's messages.
CLAIMS_OF = "outbox claim {platform}"
# An owner keeps a claimed message until another owner claims it (which a claim may do once
# the lease ran out); renewing makes the lease live again, so nobody can claim it meanwhile.
RENEW_OUT = (f"UPDATE outbox SET lease = ? WHERE id = ? AND owner = ? AND state = 'sending' "
             f"RETURNING {OUT_COLS}")
# The message right after ``id`` to one destination, claimed only if nobody has started it (a
# pending edit may still be coalesced into a pending row; a claimed one no longer takes any).
CLAIM_NEXT_OUT = ("UPDATE outbox SET state = 'sending', owner = ?, lease = ?, attempts = attempts + 1 "
                  "WHERE id = (SELECT MIN(id) FROM outbox WHERE platform = ? AND dest = ? AND id > ? "
                  "AND state IN ('pending', 'sending', 'held')) AND state = 'pending' "
                  f"RETURNING {OUT_COLS}")
SET_OUT_BODY = "UPDATE outbox SET body = ? WHERE id = ?"
RELEASE_OUT = "UPDATE outbox SET state = ?, owner = NULL, lease = NULL WHERE id = ? AND owner = ? AND state = 'sending'"
# When there is work next. Only a destination's first unsent message counts: the ones after it
# wait for it. (Written as a join on each destination's first id, so it costs one pass over the
# unsent messages.)
NEXT_DUE = (f"SELECT {WAKE} FROM outbox o JOIN (SELECT MIN(id) AS first FROM outbox WHERE platform = ? "
            f"AND {UNSENT} GROUP BY dest) f ON o.id = f.first")


def claimed_from_row(row: Any, state_before: str, rank: int, turn: float) -> StoredOut:
    """A claimed message: taken over when it was 'sending' already (a dead owner's)."""
    return replace(out_from_row(row), taken_over=state_before == "sending", rank=rank, turn=float(turn))


async def enqueue(conn: Connection, out: OutRow, now: float) -> int:
    """Insert a message (``Changes.outbox``); an edit of a slot whose latest message is still
    pending replaces that message's content instead (coalescing several moves into one post)."""
    body = encode_body(out.body)
    if out.slot is not None and out.mode == "edit":
        latest = await conn.one(LATEST_IN_SLOT, (out.platform, out.slot))
        if (latest is not None and latest[1] == "pending"
                and await conn.execute(COALESCE_EDIT, (body, out.priority, latest[0])) == 1):
            replaced: int = latest[0]
            return replaced
    out_id: int = await conn.value(INSERT_OUT, (out.game_id, out.platform, out.dest, body, out.slot, out.mode,
                                                now, now, out.priority))
    return out_id


class StoredOutbox:
    """The outbox and the slots."""

    database: Database

    async def backlog(self) -> list[tuple[str, int, float]]:
        """(platform, messages not yet delivered, the oldest one's commit time) for each platform
        with any: what an operator watches of the delivery (``/metrics``)."""
        rows = await self.database.all(f"SELECT platform, COUNT(*), MIN(created) FROM outbox WHERE {UNSENT} "
                                       "GROUP BY platform ORDER BY platform")
        return [(str(platform), int(count), float(oldest)) for platform, count, oldest in rows]

    async def unsent(self, platform: str, limit: int = 500) -> list[StoredOut]:
        rows = await self.database.all(f"SELECT {OUT_COLS} FROM outbox WHERE platform = ? AND {UNSENT} "
                                       f"ORDER BY id LIMIT ?", (platform, limit))
        return [out_from_row(r) for r in rows]

    async def claim_unsent(self, platform: str, owner: str, now: float, lease_seconds: float,
                           limit: int = 100, skip: frozenset[str] = frozenset()) -> list[StoredOut]:
        """The first unsent message of each destination (but ``skip``) when it is due and
        nobody else works on it (pending, or 'sending' under an expired lease: a dead
        process's), marked 'sending' for ``owner`` until ``now + lease_seconds``: a
        destination's messages are handed out one at a time, in order, to one owner at a
        time. By ``StoredOut.rank``: prompts a player waits for (priority 0) first, then the
        messages such a prompt waits behind in its chat, then the rest; within a rank by
        ``StoredOut.turn`` (commit time, later for a destination with a backlog: see
        ``CLAIMABLE_OUT``), then by id."""
        dialect = self.database.dialect
        dests = sorted(skip)
        claim = CLAIMABLE_OUT.format(skip=f" AND o.dest NOT IN ({marks(len(dests))})" if dests else "")
        # Rows are locked with a waiting FOR UPDATE, not SKIP LOCKED: a row locked by a commit
        # coalescing an edit into it must not be skipped while the messages after it are handed out.
        claim += dialect.for_update(of="o")

        params = (platform, now, now, *dests, limit)

        async def run(conn: Connection) -> list[StoredOut]:
            if dialect.take_turns is not None:
                await conn.execute(dialect.take_turns, (CLAIMS_OF.format(platform=platform),))
            if dialect.chained_writes:
                # The choice and the marking in one statement (one round trip, as before the split).
                rows = await conn.all(f"WITH c AS ({claim}) {CLAIM_CHOSEN}", (*params, owner, now + lease_seconds))
                return [claimed_from_row(r[:-3], r[-3], r[-2], r[-1]) for r in rows]
            chosen = {out_id: (state, rank, turn) for out_id, state, rank, turn in await conn.all(claim, params)}
            if not chosen:
                return []
            rows = await conn.all(f"UPDATE outbox SET state = 'sending', owner = ?, lease = ?, attempts = attempts + 1 "
                                  f"WHERE id IN ({marks(len(chosen))}) RETURNING {OUT_COLS}",
                                  (owner, now + lease_seconds, *chosen))
            return [claimed_from_row(r, *chosen[r[0]]) for r in rows]
        claimed = await self.database.transaction(run)
        return sorted(claimed, key=lambda o: (o.rank, o.turn, o.id))      # the claim's order

    async def last_shown(self, platform: str, slot: str) -> MessageBody | None:
        """The body of ``slot``'s latest message that went out (None: none is kept)."""
        row = await self.database.one(LAST_SHOWN, (platform, slot))
        return decode_body(row[0]) if row else None

    async def renew_lease(self, out_id: int, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        """Extend ``owner``'s lease on a claimed message to ``now + lease_seconds`` and return
        the message as stored; None when another owner claimed it meanwhile (possible once
        the lease ran out): then ``owner`` must not send it."""
        row = await self.database.change_returning(RENEW_OUT, (now + lease_seconds, out_id, owner))
        return out_from_row(row) if row else None

    async def claim_next(self, out: StoredOut, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        """Claim the message right after ``out`` (which ``owner`` holds) to the same destination,
        to send the two as one; None when there is none, or it is not pending."""
        row = await self.database.change_returning(
            CLAIM_NEXT_OUT, (owner, now + lease_seconds, out.platform, out.dest, out.id))
        return out_from_row(row) if row else None

    async def set_body(self, out_id: int, body: MessageBody) -> None:
        """Keep ``body`` as what message ``out_id`` shows (after it went out in another form)."""
        await self.database.change(SET_OUT_BODY, (encode_body(body), out_id))

    async def release_claim(self, out: StoredOut, owner: str) -> None:
        """Give back a claimed message unsent (back to 'pending', or 'sending' if it was
        taken over): any owner may claim it again at once."""
        await self.database.change(RELEASE_OUT, ("sending" if out.taken_over else "pending", out.id, owner))

    async def next_due(self, platform: str) -> float | None:
        due: float | None = await self.database.value(NEXT_DUE, (platform,))
        return due

    async def mark_sending(self, out_id: int) -> StoredOut | None:
        """Mark a message as being sent (no edit can be coalesced into it any more) and
        return it as stored now: an edit may have been merged in since it was read."""
        row = await self.database.change_returning(
            f"UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ? RETURNING {OUT_COLS}",
            (out_id,))
        return out_from_row(row) if row else None

    async def mark_sent(self, out: StoredOut, message_id: str, now: float) -> None:
        if out.slot is None:
            await self.database.change(MARK_SENT_TRIMMED, (message_id, now, delivered_body(out.body), out.id))
            return

        if self.database.dialect.chained_writes:
            # One statement (one round trip); its parts touch different rows (the message sent,
            # the slot, the slot's earlier messages), so none needs to see another's write.
            await self.database.change(f"WITH sent AS ({MARK_SENT}), slot AS ({UPSERT_SLOT}) {DROP_REPLACED}",
                                       (message_id, now, out.id, out.platform, out.slot, message_id,
                                        out.platform, out.slot, out.id))
            return

        async def run(conn: Connection) -> None:
            await conn.execute(MARK_SENT, (message_id, now, out.id))
            await conn.execute(UPSERT_SLOT, (out.platform, out.slot, message_id))
            await conn.execute(DROP_REPLACED, (out.platform, out.slot, out.id))
        await self.database.transaction(run)

    async def reschedule(self, out_id: int, due: float, attempts: int, error: str) -> None:
        await self.database.change(RESCHEDULE, (due, attempts, error[:500], out_id))

    async def set_state(self, out_id: int, state: str, error: str = "") -> None:
        await self.database.change(SET_STATE, (state, error[:500], out_id))

    async def held_for(self, platform: str, dest: str) -> list[StoredOut]:
        rows = await self.database.all(f"SELECT {OUT_COLS} FROM outbox WHERE platform = ? AND dest = ? "
                                       f"AND state = 'held' ORDER BY id", (platform, dest))
        return [out_from_row(r) for r in rows]

    async def release_held(self, platform: str, dest: str, now: float) -> int:
        return await self.database.change(RELEASE_HELD, (now, platform, dest))

    async def slot_message(self, platform: str, slot: str) -> str | None:
        message_id: str | None = await self.database.value(
            "SELECT message_id FROM slots WHERE platform = ? AND slot = ?", (platform, slot))
        return message_id

    async def slot_messages(self, platform: str, slots: list[str]) -> dict[str, str]:
        """The platform message id of each of ``slots`` that has one (``slot_message`` for many)."""
        if not slots:
            return {}
        rows = await self.database.all(f"SELECT slot, message_id FROM slots WHERE platform = ? "
                                       f"AND slot IN ({marks(len(slots))})", (platform, *slots))
        return {slot: message_id for slot, message_id in rows}

    async def latest_picture(self, game_id: int, platform: str, dest: str, render_kind: str) -> PictureState | None:
        """Where the latest picture of ``render_kind`` of game ``game_id`` to ``dest`` is: on its
        way (pending, sending, held) or sent, and when; None when there is none (or it failed)."""
        for state, sent_at, body in await self.database.all(PICTURES_TO, (game_id, platform, dest)):
            render = decode_body(body).render
            if render is not None and render.kind == render_kind:
                return PictureState(state, sent_at)
        return None

    async def outbox_rows(self, game_id: int | None = None) -> list[StoredOut]:
        if game_id is None:
            rows = await self.database.all(f"SELECT {OUT_COLS} FROM outbox ORDER BY id")
        else:
            rows = await self.database.all(f"SELECT {OUT_COLS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [out_from_row(r) for r in rows]

    async def prune_outbox(self, before: float) -> int:
        """Forget sent (or failed) messages older than ``before``, and the slots left with no
        message (``PRUNE_SLOTS``); return how many messages."""
        async def prune(conn: Connection) -> int:
            pruned = await conn.execute(PRUNE, (before,))
            await conn.execute(PRUNE_SLOTS)
            return pruned
        return await self.database.transaction(prune)


def delivered_body(body: MessageBody) -> str:
    """The stored body of a message without a slot once it went out (``MARK_SENT_TRIMMED``)."""
    return encode_body(MessageBody(**{k: getattr(body, k) for k in KEPT_WHEN_DELIVERED}))


def out_from_row(row: Any) -> StoredOut:
    oid, game_id, platform, dest, state, body, slot, mode, attempts, due = row
    return StoredOut(oid, game_id, platform, dest, state, decode_body(body), slot, mode, attempts, due)
