"""The outbox rows a load bench must still see after storage drops them.

A slot's sent message is deleted once a later version of it is sent (storage/outbox.py
``DROP_REPLACED``); the load benches count and order every message that was sent, so they keep
a copy of each row that leaves, on their own connection."""

from __future__ import annotations


async def keep_replaced_rows(db) -> None:
    """Copy each outbox row that leaves into ``temp.outbox_gone``, on this connection, so the
    checks and the order figures see every message that was sent (``ALL_OUTBOX``)."""
    await db.execute("CREATE TEMP TABLE outbox_gone AS SELECT * FROM main.outbox WHERE 0")
    await db.execute("CREATE TEMP TRIGGER outbox_gone AFTER DELETE ON main.outbox BEGIN "
                     "INSERT INTO outbox_gone SELECT OLD.id, OLD.game_id, OLD.platform, OLD.dest, OLD.state, OLD.body, "
                     "OLD.slot, OLD.mode, OLD.attempts, OLD.due, OLD.message_id, OLD.created, OLD.sent_at, OLD.error, "
                     "OLD.owner, OLD.lease, OLD.priority; END")


ALL_OUTBOX = "(SELECT * FROM main.outbox UNION ALL SELECT * FROM temp.outbox_gone)"
