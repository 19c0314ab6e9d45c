"""The outbox on both backends: states, coalescing of edits, claims under leases."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

from storage_kit import PLATFORM, message

from bot.service.game.model import Changes, OutRow
from bot.service.game.outmessage import Group, MessageBody, Recipient, RenderRequest
from bot.service.storage import open_storage
from bot.service.storage.outbox import BACKLOG_COUNTED, BACKLOG_PENALTY


async def post(storage, *rows, now: float = 0.0) -> list[int]:
    return await storage.commit(Changes(outbox=list(rows)), now)


async def states(storage) -> dict[int, str]:
    return {o.id: o.state for o in await storage.outbox_rows()}


async def test_pending_sending_sent_and_the_slot_remembers_the_message(storage):
    [oid] = await post(storage, message(1, slot="g1:turn"))
    [row] = await storage.unsent(PLATFORM)
    assert (row.id, row.state, row.attempts) == (oid, "pending", 0)
    fresh = await storage.mark_sending(oid)
    assert (fresh.state, fresh.attempts) == ("sending", 1)
    assert [r.id for r in await storage.unsent(PLATFORM)] == [oid]      # still unsent until recorded
    await storage.mark_sent(fresh, "m-77", 3.0)
    assert await states(storage) == {oid: "sent"}
    assert await storage.slot_message(PLATFORM, "g1:turn") == "m-77"
    assert await storage.unsent(PLATFORM) == [] and await storage.next_due(PLATFORM) is None


async def test_an_edit_coalesces_into_a_pending_message_only(storage):
    [first] = await post(storage, message(1, text="v1", slot="g1:turn"))
    assert await post(storage, message(1, text="v2", slot="g1:turn", mode="edit")) == [first]
    [row] = await storage.outbox_rows()
    assert row.body == MessageBody("v2") and row.mode == "new"
    await storage.claim_unsent(PLATFORM, "a", 0.0, 60.0)
    [second] = await post(storage, message(1, text="v3", slot="g1:turn", mode="edit"))
    assert second != first
    assert [(o.body.text, o.mode) for o in await storage.outbox_rows()] == [("v2", "new"), ("v3", "edit")]


async def test_a_slots_earlier_messages_leave_once_a_later_one_went_out(storage):
    """Issue 31: a busy game's outbox held every version of its turn messages and menus for a
    week (680 rows a game). A slot's message replaced on the platform leaves the outbox with the
    commit that records the later one; the slot's latest delivered message stays (unchanged
    edits are told by it), and so do messages without a slot and those not yet delivered."""
    async def send(oid: int, message_id: str) -> None:
        await storage.mark_sent(await storage.mark_sending(oid), message_id, 1.0)

    [post_] = await post(storage, message(1, text="a picture"))
    [turn1] = await post(storage, message(1, text="v1", slot="g1:turn"))
    await send(post_, "m1")
    await send(turn1, "m2")
    [turn2] = await post(storage, message(1, text="v2", slot="g1:turn", mode="edit"))
    [menu] = await post(storage, message(1, "u:ann", "menu", slot="g1:s0"))
    await send(turn2, "m2")
    [turn3] = await post(storage, message(1, text="v3", slot="g1:turn", mode="edit"))
    bodies = {o.id: (o.state, o.body) for o in await storage.outbox_rows()}
    assert bodies == {post_: ("sent", MessageBody("a picture")), turn2: ("sent", MessageBody("v2")),
                      menu: ("pending", MessageBody("menu")), turn3: ("pending", MessageBody("v3"))}
    assert await storage.last_shown(PLATFORM, "g1:turn") == MessageBody("v2")
    await send(turn3, "m2")
    await send(menu, "m3")
    bodies = {o.id: o.body for o in await storage.outbox_rows()}
    assert bodies == {post_: MessageBody("a picture"), turn3: MessageBody("v3"), menu: MessageBody("menu")}
    assert await storage.last_shown(PLATFORM, "g1:turn") == MessageBody("v3")
    assert await storage.slot_message(PLATFORM, "g1:turn") == "m2"
    # The slot goes on as before: an edit still pending coalesces, a sent one is edited.
    [turn4] = await post(storage, message(1, text="v4", slot="g1:turn", mode="edit"))
    assert await post(storage, message(1, text="v5", slot="g1:turn", mode="edit")) == [turn4]
    await send(turn4, "m2")
    assert {o.id: o.body for o in await storage.outbox_rows()} == {
        post_: MessageBody("a picture"), turn4: MessageBody("v5"), menu: MessageBody("menu")}


async def test_a_slot_message_not_yet_delivered_stays_behind_a_later_one(storage):
    """Only delivered messages leave: one held (its private chat closed) or failed stays."""
    [held] = await post(storage, message(1, "u:ann", "menu 1", slot="g1:s0"))
    await storage.set_state(held, "held", "private chat closed")
    [later] = await post(storage, message(1, "u:ann", "menu 2", slot="g1:s0"))
    await storage.mark_sent(await storage.mark_sending(later), "m9", 1.0)
    assert {o.id: o.state for o in await storage.outbox_rows()} == {held: "held", later: "sent"}


async def test_a_message_without_a_slot_keeps_what_it_said_and_its_picture_once_delivered(storage):
    """Issue 31: a picture's message carried the picture in words for screen readers (two thirds
    of a finished game's message bytes), the chat, buttons and file names, kept a week after it
    went out although nothing reads them then. Delivered, it keeps its text, its picture
    request and file name; until then (pending, held) it keeps everything sending needs."""
    body = MessageBody("Round 1 is over", chat=Group(PLATFORM, "chat1", "T"), render=RenderRequest("map", 1, 9),
                       image_name="round1.png", description="The board in words " * 50)
    picture, notice = await post(storage, OutRow(1, PLATFORM, "c:chat1", body),
                                 OutRow(1, PLATFORM, "u:ann", MessageBody("your turn")))
    await storage.set_state(notice, "held", "private chat closed")
    await storage.mark_sent(await storage.mark_sending(picture), "m1", 1.0)
    rows = {o.id: (o.state, o.body) for o in await storage.outbox_rows()}
    assert rows == {picture: ("sent", MessageBody("Round 1 is over", render=body.render, image_name="round1.png")),
                    notice: ("held", MessageBody("your turn"))}
    await storage.release_held(PLATFORM, "u:ann", 2.0)
    await storage.mark_sent(await storage.mark_sending(notice), "m2", 3.0)
    assert {o.id: o.body for o in await storage.outbox_rows()}[notice] == MessageBody("your turn")


async def test_a_busy_slot_takes_little_room_in_the_sqlite_file(tmp_path):
    """Issue 31: a turn message edited 300 times (2 KB each) kept 301 pages of the outbox table
    when its rows were only updated; the page of its latest rows stays, the emptied ones go back
    for later rows to use."""
    path = str(tmp_path / "outbox.sqlite3")
    storage = await open_storage(path)
    try:
        for n in range(300):
            [oid] = await post(storage, message(1, text=f"{n} " + "x" * 2000, slot="g1:turn",
                                                mode="new" if n == 0 else "edit"))
            await storage.mark_sent(await storage.mark_sending(oid), "m1", 1.0)
    finally:
        await storage.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        pages, = db.execute("SELECT COUNT(*) FROM dbstat WHERE name = 'outbox'").fetchone()
    assert pages <= 15, pages


async def test_retry_hold_release_fail_and_prune(storage):
    a, b, c = await post(storage, message(1, "u:ann", "a"), message(1, "u:ann", "b"), message(1, "c:x", "c"))
    await storage.reschedule(a, 50.0, 1, "flood " * 200)
    assert await storage.next_due(PLATFORM) == 0.0
    rows = {o.id: o for o in await storage.outbox_rows()}
    assert (rows[a].state, rows[a].due, rows[a].attempts) == ("pending", 50.0, 1)
    await storage.set_state(a, "held", "private chat closed")
    await storage.set_state(b, "held", "private chat closed")
    assert [o.id for o in await storage.held_for(PLATFORM, "u:ann")] == [a, b]
    assert await storage.release_held(PLATFORM, "u:ann", 9.0) == 2
    assert await states(storage) == {a: "pending", b: "pending", c: "pending"}
    await storage.set_state(c, "failed", "chat gone")
    sent = await storage.mark_sending(a)
    await storage.mark_sent(sent, "m1", 10.0)
    assert await storage.prune_outbox(5.0) == 1                     # c: failed, created at 0
    assert await storage.prune_outbox(11.0) == 1                    # a: sent at 10
    assert await states(storage) == {b: "pending"}


async def test_a_slot_is_forgotten_with_its_last_message_and_kept_while_one_is_left(storage):
    old, kept, waiting = await post(storage, message(1, text="a", slot="g1:turn"),
                                    message(1, text="b", slot="g1:s0"), message(1, text="c", slot="g1:s1"))
    await storage.mark_sent(await storage.mark_sending(old), "m1", 10.0)
    await storage.mark_sent(await storage.mark_sending(kept), "m2", 20.0)
    await storage.mark_sent(await storage.mark_sending(waiting), "m3", 10.0)
    [again] = await post(storage, message(1, text="c2", slot="g1:s1", mode="edit"))   # not sent yet
    assert await storage.prune_outbox(15.0) == 2            # the turn's and g1:s1's first message
    # The turn's slot has no message left: forgotten. g1:s0's message went out after 15; g1:s1's
    # edit still waits (it will edit m3).
    assert await storage.slot_messages(PLATFORM, ["g1:turn", "g1:s0", "g1:s1"]) == {"g1:s0": "m2", "g1:s1": "m3"}
    assert await storage.slot_message(PLATFORM, "g1:s1") == "m3"
    assert [o.id for o in await storage.outbox_rows()] == [kept, again]


async def test_two_owners_never_get_the_same_message_while_the_lease_holds(storage):
    ids = await post(storage, *[message(1, f"c:chat{i}", f"m{i}") for i in range(6)])
    a = await storage.claim_unsent(PLATFORM, "a", 1.0, 30.0, limit=4)
    b = await storage.claim_unsent(PLATFORM, "b", 2.0, 30.0)
    assert [o.id for o in a] == ids[:4] and [o.id for o in b] == ids[4:]
    assert all(o.state == "sending" and o.attempts == 1 for o in a + b)
    assert await storage.claim_unsent(PLATFORM, "c", 30.9, 30.0) == []
    # a died: once its lease ran out (1 + 30) another owner takes its messages over.
    taken = await storage.claim_unsent(PLATFORM, "c", 31.0, 30.0)
    assert [o.id for o in taken] == ids[:4] and all(o.attempts == 2 for o in taken)
    await storage.mark_sent(taken[0], "x", 31.5)
    assert [o.id for o in await storage.claim_unsent(PLATFORM, "d", 33.0, 30.0)] == ids[4:]   # b's ran out


async def test_a_destination_goes_to_one_owner_in_order(storage):
    ids = await post(storage, message(1, "c:x", "1"), message(1, "c:x", "2"))
    # y's committed after the bound by which x's backlog lets others pass (see the claim order
    # below), so x's first message still goes first
    t = BACKLOG_PENALTY * BACKLOG_COUNTED + 1.0
    ids += await post(storage, message(1, "c:y", "3"), message(1, "c:x", "4"), now=t)
    a = await storage.claim_unsent(PLATFORM, "a", t, 30.0, limit=1)
    assert [o.id for o in a] == ids[:1]
    # x's first message is out with a: the rest of x waits; y is free.
    b = await storage.claim_unsent(PLATFORM, "b", t, 30.0)
    assert [o.id for o in b] == [ids[2]]
    await storage.mark_sent(a[0], "m1", t + 1)
    c = await storage.claim_unsent(PLATFORM, "c", t + 1, 30.0)
    assert [o.id for o in c] == [ids[1]]            # one message of a destination at a time
    await storage.mark_sent(c[0], "m2", t + 2)
    assert [o.id for o in await storage.claim_unsent(PLATFORM, "c", t + 2, 30.0)] == [ids[3]]


def prompt(dest, text):
    """A message naming a player: a prompt someone waits for (priority 0)."""
    return OutRow(1, PLATFORM, dest, MessageBody(text, mentions=(Recipient(PLATFORM, "u1", "U"),)))


async def test_a_prompt_someone_waits_for_is_claimed_before_other_chats_messages(storage):
    """By rank: a prompt first, then what a prompt waits behind in its chat (inherited), then
    the rest, each by age; a chat's own order never changes."""
    ids = await post(storage, message(1, "c:x", "picture x"), message(1, "c:y", "edit y"),
                     message(1, "c:z", "picture z"), prompt("c:z", "prompt z"), prompt("c:w", "prompt w"))
    claimed = await storage.claim_unsent(PLATFORM, "a", 1.0, 30.0, limit=3)
    assert [(o.id, o.rank) for o in claimed] == [(ids[4], 0), (ids[2], 1), (ids[0], 2)]
    for i, row in enumerate(claimed):
        await storage.mark_sent(row, f"m{i}", 2.0)
    rest = await storage.claim_unsent(PLATFORM, "a", 2.0, 30.0, skip=frozenset({"c:y"}))
    assert [(o.id, o.rank) for o in rest] == [(ids[3], 0)]         # y skipped (waiting for its pace)
    assert [(o.id, o.rank) for o in await storage.claim_unsent(PLATFORM, "b", 2.0, 30.0)] == [(ids[1], 2)]


async def test_a_quick_exchange_goes_before_chats_with_a_backlog(storage):
    """Within a rank, shortest queue first: a chat whose prompt has nothing behind it passes
    the prompts of chats with a closing edit and a picture still to come, committed earlier."""
    ids = []
    for chat in ("c:x", "c:y"):      # a round ended in x and y: new prompt first, then edit, picture
        ids += await post(storage, prompt(chat, "prompt"), message(1, chat, "closing edit"),
                          message(1, chat, "picture"), now=0.0)
    [quick] = await post(storage, prompt("c:q", "prompt q edited"), now=1.0)
    claimed = await storage.claim_unsent(PLATFORM, "a", 1.0, 30.0)
    backlog = 2 * BACKLOG_PENALTY     # two more messages to x (and to y) after its prompt
    assert [(o.id, o.rank, o.turn) for o in claimed] == [(quick, 0, 1.0), (ids[0], 0, backlog),
                                                         (ids[3], 0, backlog)]


async def test_a_backlog_is_passed_only_by_messages_committed_within_the_bound(storage):
    """Aging: a chat's backlog counts up to ``BACKLOG_COUNTED`` more messages, so its first
    message is passed only by messages committed less than ``BACKLOG_PENALTY * BACKLOG_COUNTED``
    seconds after it: it cannot starve however long its backlog."""
    bound = BACKLOG_PENALTY * BACKLOG_COUNTED
    [busy, *_] = await post(storage, prompt("c:busy", "prompt"),
                            *[message(1, "c:busy", f"m{i}") for i in range(3 * BACKLOG_COUNTED)], now=0.0)
    [early] = await post(storage, prompt("c:a", "prompt a"), now=bound - 0.5)
    [late] = await post(storage, prompt("c:b", "prompt b"), now=bound + 0.5)
    claimed = await storage.claim_unsent(PLATFORM, "a", bound + 1.0, 30.0)
    assert [(o.id, o.turn) for o in claimed] == [(early, bound - 0.5), (busy, bound), (late, bound + 0.5)]


async def test_a_message_not_due_holds_back_its_destination(storage):
    ids = await post(storage, message(1, "c:x", "1"), message(1, "c:x", "2"), message(1, "c:y", "3"))
    await storage.reschedule(ids[0], 100.0, 1, "retry later")
    assert [o.id for o in await storage.claim_unsent(PLATFORM, "a", 50.0, 300.0)] == [ids[2]]
    assert [o.id for o in await storage.claim_unsent(PLATFORM, "a", 100.0, 30.0)] == ids[:1]


async def test_claims_are_per_platform(storage):
    [mine] = await post(storage, message(1))
    await post(storage, OutRow(1, "other", "c:chat1", MessageBody("elsewhere")))
    assert [o.id for o in await storage.claim_unsent(PLATFORM, "a", 0.0, 30.0)] == [mine]


async def test_a_claimed_message_is_next_due_when_its_lease_runs_out(storage):
    [oid] = await post(storage, message(1), now=5.0)
    assert await storage.next_due(PLATFORM) == 5.0
    await storage.claim_unsent(PLATFORM, "a", 6.0, 30.0)
    assert await storage.next_due(PLATFORM) == 36.0
    await storage.reschedule(oid, 8.0, 1, "retry")
    assert await storage.next_due(PLATFORM) == 8.0


async def test_claims_racing_from_several_connections_split_the_messages(storage, target):
    """Ten destinations with three messages each, claimed at once through four connections:
    no message goes to two owners, a destination's messages go to one owner, oldest first."""
    ids = await post(storage, *[message(1, f"c:chat{i // 3}", str(i)) for i in range(30)])
    others = [await open_storage(target) for _ in range(4)]
    try:
        claims = await asyncio.gather(*(s.claim_unsent(PLATFORM, f"o{k}", 1.0, 60.0, limit=4)
                                        for k, s in enumerate(others * 3)))
    finally:
        for other in others:
            await other.close()
    got = sorted(o.id for claim in claims for o in claim)
    assert got and len(got) == len(set(got))
    owners: dict[str, set[int]] = {}
    claimed: dict[str, list[int]] = {}
    for k, claim in enumerate(claims):
        for o in claim:
            owners.setdefault(o.dest, set()).add(k)
            claimed.setdefault(o.dest, []).append(o.id)
    assert all(len(found) == 1 for found in owners.values()), owners
    for dest, found in claimed.items():
        first = ids[int(dest[6:]) * 3]
        assert sorted(found) == list(range(first, first + len(found)))   # the oldest ones


async def test_a_message_taken_over_from_a_dead_owner_says_so(storage):
    first, second = await post(storage, message(1, "c:x", "1"), message(1, "c:y", "2"))
    [a] = await storage.claim_unsent(PLATFORM, "a", 1.0, 30.0, limit=1)
    assert (a.id, a.taken_over) == (first, False)
    # a dies while sending; b takes the message over after the lease and is told it may have gone out
    taken = await storage.claim_unsent(PLATFORM, "b", 31.0, 30.0)
    assert [(o.id, o.taken_over) for o in taken] == [(first, True), (second, False)]


async def test_only_the_owner_may_renew_and_send_until_another_claims_it(storage):
    [oid] = await post(storage, message(1, text="v1"))
    [a] = await storage.claim_unsent(PLATFORM, "a", 1.0, 30.0)
    assert await storage.renew_lease(oid, "b", 2.0, 30.0) is None           # not b's
    renewed = await storage.renew_lease(oid, "a", 20.0, 30.0)
    assert renewed.id == oid and renewed.body == MessageBody("v1") and renewed.state == "sending"
    assert await storage.claim_unsent(PLATFORM, "b", 49.0, 30.0) == []     # the lease now runs to 50
    # Ran out, but nobody claimed it: still a's, and renewing makes it a's again for a while.
    assert (await storage.renew_lease(oid, "a", 60.0, 30.0)).id == oid
    assert await storage.claim_unsent(PLATFORM, "b", 89.0, 30.0) == []
    [b] = await storage.claim_unsent(PLATFORM, "b", 90.0, 30.0)             # ran out again: b takes it
    assert b.id == oid and b.taken_over
    assert await storage.renew_lease(oid, "a", 91.0, 30.0) is None          # b's now: a must not send it


async def test_released_messages_are_claimable_at_once_in_their_state(storage):
    first, second = await post(storage, message(1, "c:x", "1"), message(1, "c:y", "2"))
    a = await storage.claim_unsent(PLATFORM, "a", 1.0, 30.0)
    await storage.release_claim(a[1], "b")                                  # not b's to give back
    assert await states(storage) == {first: "sending", second: "sending"}
    await storage.release_claim(a[1], "a")
    await storage.release_claim(a[0], "a")
    assert await states(storage) == {first: "pending", second: "pending"}
    again = await storage.claim_unsent(PLATFORM, "b", 2.0, 30.0)
    assert [o.id for o in again] == [first, second]
    # a taken-over message goes back as 'sending' (it may have been sent): the next claim checks it
    taken = await storage.claim_unsent(PLATFORM, "c", 40.0, 30.0)
    assert all(o.taken_over for o in taken)
    await storage.release_claim(taken[0], "c")
    assert (await storage.claim_unsent(PLATFORM, "d", 41.0, 30.0, limit=1))[0].taken_over


async def test_a_restarted_owner_takes_its_messages_and_timers_back(storage):
    from storage_kit import playing, timer
    await storage.commit(Changes(meta=playing(1), timers=[timer(1, "reminder", 1.0)]), 0.0)
    ids = await post(storage, message(1, "c:x", "1"), message(1, "c:y", "2"))
    await storage.claim_unsent(PLATFORM, "bot-1", 2.0, 60.0)
    await storage.claim_due_timers(2.0, "bot-1", 60.0)
    await storage.release_owner("bot-2")                                   # someone else's: nothing
    assert await storage.claim_unsent(PLATFORM, "bot-1", 3.0, 60.0) == []
    await storage.release_owner("bot-1")
    back = await storage.claim_unsent(PLATFORM, "bot-1", 3.0, 60.0)
    assert [(o.id, o.taken_over) for o in back] == [(ids[0], True), (ids[1], True)]
    assert [t.kind for t in await storage.claim_due_timers(3.0, "bot-1", 60.0)] == ["reminder"]


async def test_next_due_looks_only_at_the_first_unsent_message_of_each_destination(storage):
    ids = await post(storage, message(1, "c:x", "1"), message(1, "c:x", "2"), now=5.0)
    await storage.reschedule(ids[0], 100.0, 1, "retry later")
    assert await storage.next_due(PLATFORM) == 100.0        # x's second message waits for the first
    [y] = await post(storage, message(1, "c:y", "3"), now=7.0)
    assert await storage.next_due(PLATFORM) == 7.0
    await storage.claim_unsent(PLATFORM, "a", 8.0, 30.0)
    assert await storage.next_due(PLATFORM) == 38.0         # y is out with a until its lease ends


async def test_the_message_behind_a_claimed_one_is_claimed_with_it_only_while_pending(storage):
    """A round's picture and the prompt behind it go out as one message (``Delivery``'s folding):
    the prompt is claimed by the picture's owner, after which no edit coalesces into it."""
    picture, prompt, other = await post(storage, message(1, text="map"), message(1, text="p1", slot="g1:m4:turn"),
                                        message(1, "c:chat2", "elsewhere"))
    [first] = [r for r in await storage.claim_unsent(PLATFORM, "a", 0.0, 60.0) if r.dest == "c:chat1"]
    assert first.id == picture
    claimed = await storage.claim_next(first, "a", 0.0, 60.0)
    assert (claimed.id, claimed.state, claimed.body) == (prompt, "sending", MessageBody("p1"))
    assert await storage.claim_next(first, "a", 0.0, 60.0) is None           # claimed already
    [edit] = await post(storage, message(1, text="p2", slot="g1:m4:turn", mode="edit"))
    assert edit != prompt                                                      # not coalesced any more
    await storage.mark_sent(claimed, "m-9", 1.0)
    await storage.set_body(prompt, MessageBody("p1", head="map"))
    assert await storage.last_shown(PLATFORM, "g1:m4:turn") == MessageBody("p1", head="map")
    assert await storage.slot_message(PLATFORM, "g1:m4:turn") == "m-9"
    await storage.release_claim(claimed, "a")                                 # sent: stays sent
    assert (await states(storage))[prompt] == "sent"
    assert await storage.claim_next(await storage.mark_sending(other), "a", 0.0, 60.0) is None   # nothing behind


async def test_a_games_latest_picture_of_a_kind_to_a_chat_on_its_way_then_sent(storage):
    """What /replay asks before it queues an animation again: the latest picture of that kind
    of that game to that chat, on its way (pending, sending, held) or sent and when. Another
    game's, another chat's or another kind's pictures do not count, nor a failed one."""
    def picture(gid: int, kind: str, dest: str = "c:chat1") -> OutRow:
        return OutRow(gid, PLATFORM, dest, MessageBody(kind, render=RenderRequest(kind, gid, 0),
                                                        image_name=f"{kind}.png", description="words"))

    async def latest(gid: int = 1, dest: str = "c:chat1", kind: str = "animation"):
        return await storage.latest_picture(gid, PLATFORM, dest, kind)

    assert await latest() is None
    mine, other_game, other_chat, other_kind, plain = await post(
        storage, picture(1, "animation"), picture(2, "animation"), picture(1, "animation", "c:chat2"),
        picture(1, "map"), message(1))
    assert (await latest()).state == "pending" and (await latest()).sent_at is None
    await storage.set_state(mine, "held", "chat unreachable")
    assert (await latest()).state == "held"
    await storage.release_held(PLATFORM, "c:chat1", 1.0)
    await storage.mark_sending(mine)
    assert (await latest()).state == "sending"
    await storage.mark_sent(await storage.mark_sending(mine), "m1", 7.5)     # the body trimmed: its render stays
    assert (await latest()).state == "sent" and (await latest()).sent_at == 7.5
    assert (await latest(2)).sent_at is None and (await latest(dest="c:chat2")).sent_at is None
    assert (await latest(kind="map")).state == "pending"
    [again] = await post(storage, picture(1, "animation"))
    assert (await latest()).state == "pending"                              # the newest one counts
    await storage.set_state(again, "failed", "chat gone")
    assert (await latest()).sent_at == 7.5
    await storage.set_state(mine, "failed", "chat gone")
    assert await latest() is None and await latest(3) is None
