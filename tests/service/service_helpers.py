"""Shared test helpers: an in-memory Transport and a driver that plays games through the service."""

from __future__ import annotations

import itertools

from bot.contract import Chat, Outgoing, RetryLater, Transport, Undeliverable, User

PLATFORM = "fake"


class FakeTransport(Transport):
    """Records every delivered message; can be told to fail the next deliveries."""

    platform = PLATFORM

    def __init__(self) -> None:
        self.sent: list[Outgoing] = []
        self.messages: dict[str, Outgoing] = {}    # platform message id -> latest content
        self.failures: list[Exception] = []          # raised, in order, by the next deliveries
        self.closed_private: set[str] = set()        # user ids whose private chat is closed
        self._ids = itertools.count(1)

    async def deliver(self, message: Outgoing) -> str:
        if self.failures:
            raise self.failures.pop(0)
        if message.private_to is not None and message.private_to.id in self.closed_private:
            raise Undeliverable("private_closed")
        if message.edit_message_id is not None:
            if message.edit_message_id not in self.messages:
                raise Undeliverable("gone")
            message_id = message.edit_message_id
        else:
            message_id = str(next(self._ids))
        self.sent.append(message)
        self.messages[message_id] = message
        return message_id

    def group(self) -> list[Outgoing]:
        return [m for m in self.sent if m.chat is not None]

    def private(self) -> list[Outgoing]:
        return [m for m in self.sent if m.private_to is not None]

    def new_group_posts(self) -> list[Outgoing]:
        return [m for m in self.group() if m.edit_message_id is None]


def chat(n: int = 1) -> Chat:
    return Chat(PLATFORM, f"chat{n}", f"Chat {n}")


def user(name: str, **kw) -> User:
    return User(PLATFORM, name.lower(), name, **kw)


def replaced_by_later(sent: dict[int, str | None], stored: dict[int, str | None]) -> bool:
    """Whether every message that went out (outbox id -> slot) but left the outbox was a slot's
    message replaced by a later one of its slot, which is still stored: a slot's latest delivered
    message always stays (storage/outbox.py DROP_REPLACED), so a lost message cannot hide here."""
    latest: dict[str, int] = {}
    for oid, slot in stored.items():
        if slot is not None:
            latest[slot] = max(latest.get(slot, 0), oid)
    return all(slot is not None and latest.get(slot, 0) > oid for oid, slot in sent.items() if oid not in stored)


__all__ = ["FakeTransport", "RetryLater", "Undeliverable", "chat", "user"]


async def snapshot(service) -> tuple:
    """Everything a refused input must leave unchanged: games, moves, outbox, timers."""
    db = service.storage.db
    out = []
    for sql in ("SELECT id, status, moves, seats, options, extra FROM games ORDER BY id",
                "SELECT game_id, n, pick FROM moves ORDER BY game_id, n",
                "SELECT id, state, body FROM outbox ORDER BY id",
                "SELECT game_id, kind, due, move FROM timers ORDER BY game_id, kind"):
        async with db.execute(sql) as cur:
            out.append(tuple(await cur.fetchall()))
    return tuple(out)


async def start_game(service, c, humans, *, ais=0, options=None):
    """A started game with the given human users (the first hosts) and AI seats."""
    host = humans[0]
    reply = await service.new_game(c, host, options=options)
    assert reply.ok, reply
    for u in humans[1:]:
        assert (await service.join(c, u)).ok
    for _ in range(ais):
        assert (await service.add_ai(c, host)).ok
    reply = await service.start(c, host)
    assert reply.ok, reply
    return (await service.game_info(c)).game_id


async def play_turn(service, c, users: dict, *, choice: int = 0):
    """The player to move presses a tile button (and an eviction button when asked)."""
    info = await service.game_info(c)
    seat = info.seats[info.to_move]
    u = users[seat.user_id]
    board = await service.board(c, u)
    tiles = [row[0] for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]
    reply = await service.press(c, u, tiles[choice % len(tiles)].payload)
    assert reply.ok, reply
    if reply.buttons and reply.buttons[0][0].payload.startswith("c_"):
        reply = await service.press(c, u, reply.buttons[0][0].payload)
        assert reply.ok, reply
    return reply


async def play_to_end(service, c, users: dict, transport=None, *, per_round=None):
    """Play the chat's game to its end; deliver after each move when a transport is given."""
    while True:
        info = await service.game_info(c)
        if info is None:
            return
        round_before = info.round
        await play_turn(service, c, users, choice=info.moves)
        if transport is not None:
            before = len(transport.new_group_posts())
            await service.deliver_pending(transport)
            if per_round is not None:
                per_round[round_before] = per_round.get(round_before, 0) + len(transport.new_group_posts()) - before
