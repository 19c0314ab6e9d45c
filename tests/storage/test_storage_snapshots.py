"""Snapshots on both backends: stored with the move in one transaction, only for the position they
hold, read with their game, dropped when the game ends."""

from __future__ import annotations

import pytest
from storage_kit import PLATFORM, a_move, message, move, playing

from bot.service.game.model import Changes, RatingRow, Snapshot
from bot.service.storage import Conflict


def snap(meta, data: bytes = b"\x00packed\xff", stamp: str = "1:test") -> Snapshot:
    return Snapshot(meta.id, meta.moves, stamp, data)


async def stored(storage, gid: int) -> Snapshot | None:
    return (await storage.load_with_snapshots([gid]))[gid][1]


async def test_a_snapshot_is_stored_with_its_move_and_read_with_its_game(storage):
    meta = playing(1)
    await storage.commit(Changes(meta=meta), 1.0)
    assert await stored(storage, 1) is None
    meta.moves = 1
    await storage.commit(Changes(meta=meta, moves=[move(1, 1)], snapshots=[snap(meta, b"one")]), 2.0)
    meta.moves = 2
    await storage.commit(Changes(meta=meta, moves=[move(1, 2)], snapshots=[snap(meta, bytes(range(256)))]), 3.0)
    got, snapshot = (await storage.load_with_snapshots([1, 99]))[1]
    assert got == meta and snapshot == Snapshot(1, 2, "1:test", bytes(range(256)))
    assert list(await storage.load_with_snapshots([1, 99])) == [1]


async def test_a_snapshot_lands_only_where_its_game_holds_its_move_count(storage):
    """Written late (a process that replayed the game while another one moved it on), or for a
    game that is not running, a snapshot is not stored: it never stands for another position."""
    meta = playing(1)
    await storage.commit(Changes(meta=meta), 1.0)
    await a_move(storage, meta, snapshots=[])
    current = snap(meta, b"at one")
    await storage.commit(Changes(snapshots=[current]), 2.0)
    await a_move(storage, meta)                                       # at 2 now, without a snapshot
    await storage.commit(Changes(snapshots=[current]), 3.0)            # the one for move 1: too late
    assert await stored(storage, 1) == current                        # left as it was: stale, and ignored on load
    await storage.commit(Changes(snapshots=[Snapshot(1, 5, "1:test", b"ahead")]), 3.0)
    assert await stored(storage, 1) == current


async def test_a_failed_commit_stores_neither_the_move_nor_its_snapshot(storage):
    meta = playing(1)
    meta.moves = 1
    await storage.commit(Changes(meta=meta, moves=[move(1, 1)], snapshots=[snap(meta, b"one")]), 1.0)
    rating = RatingRow(1, PLATFORM, "paris-paris", "ann", "Ann", "chat1", 1, 25.0, 8.3, 26.0, 8.0, 1, 1.0)
    await storage.commit(Changes(ratings=[rating]), 1.0)
    before = await storage.load_with_snapshots([1])
    meta.moves = 2
    # The last write of the transaction fails (the rating is stored already), after the snapshot's.
    with pytest.raises(Conflict):
        await storage.commit(Changes(meta=meta, moves=[move(1, 2)], snapshots=[snap(meta, b"two")],
                                     outbox=[message(1)], ratings=[rating]), 2.0)
    assert await storage.load_with_snapshots([1]) == before
    assert [n for n, _ in (await storage.load_game(1))[1]] == [1] and await storage.outbox_rows(1) == []


@pytest.mark.parametrize("end", ["finished", "aborted"])
async def test_a_game_that_ends_keeps_no_snapshot(storage, end):
    meta = playing(1)
    meta.moves = 1
    await storage.commit(Changes(meta=meta, moves=[move(1, 1)], snapshots=[snap(meta)]), 1.0)
    other = playing(2, "chat2")
    other.moves = 1
    await storage.commit(Changes(meta=other, moves=[move(2, 1)], snapshots=[snap(other)]), 1.0)
    meta.status, meta.moves = end, 2
    # Even a snapshot sent along with the end is not kept.
    await storage.commit(Changes(meta=meta, moves=[move(1, 2)], snapshots=[snap(meta)]), 2.0)
    assert await stored(storage, 1) is None
    assert await stored(storage, 2) == snap(other)                    # another game's stays
