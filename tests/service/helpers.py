"""Shared test helpers: an in-memory Transport and a driver that plays games through the service."""

from __future__ import annotations

import itertools

from bot.contract import Chat, Outgoing, RetryLater, Undeliverable, User

PLATFORM = "fake"


class FakeTransport:
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


__all__ = ["FakeTransport", "RetryLater", "Undeliverable", "chat", "user"]
