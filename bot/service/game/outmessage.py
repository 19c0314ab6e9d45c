"""An outbox message as a typed value: what ``messages`` and ``turnmessages`` build, the outbox
stores and ``outgoing`` turns into the ``Outgoing`` a transport posts.

Encoded to JSON only at the storage edge (``storage/outbox.py``, with msgspec: docs/typed-values.md).
Every field has the default a row stored before it existed reads as, and a default is left out
of the JSON, so the rows written by the dict-building code before these types still decode, and
a row names only what it has.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from bot.contract import Button, Chat, User

# What a picture request draws: the public board after a cycle ("map"), the final board ("final"),
# one seat's own board ("seat"), or the whole game as an animation (``animation.ANIMATION``).
PictureKind = Literal["map", "final", "seat", "animation"]


class RenderRequest(msgspec.Struct, frozen=True, omit_defaults=True):
    """A picture to draw from the stored game (``pictures.draw``): ``kind`` after ``moves`` moves,
    showing the events of ``cycle``; ``seat``: that seat's own board; ``layout``: the one a page
    asked for (None: the platform's)."""

    kind: str
    game_id: int
    moves: int
    cycle: int | None = None
    seat: int | None = None
    layout: str | None = None
    # Rows stored before cycles had their name call the cycle a round.
    round: int | None = None

    @property
    def shown_cycle(self) -> int:
        """The cycle whose events the picture shows."""
        if self.cycle is not None:
            return self.cycle
        return 1 if self.round is None else self.round


class Recipient(msgspec.Struct, frozen=True, omit_defaults=True):
    """A person a message goes to or mentions, as stored."""

    platform: str
    id: str
    name: str
    language: str | None = None

    @classmethod
    def of(cls, user: User) -> Recipient:
        return cls(user.platform, user.id, user.name, user.language)


class Group(msgspec.Struct, frozen=True, omit_defaults=True):
    """The group chat a message goes to, as stored."""

    platform: str
    id: str
    title: str = ""

    @classmethod
    def of(cls, chat: Chat) -> Group:
        return cls(chat.platform, chat.id, chat.title)

    def chat(self) -> Chat:
        return Chat(self.platform, self.id, self.title)


class MessageBody(msgspec.Struct, frozen=True, omit_defaults=True):
    """What an outbox message says and shows. Exactly one of ``chat`` and ``private_to`` is set
    (the storage tests' bare rows aside); ``render``: its picture, drawn when it is sent, with
    ``description``, the picture in words; ``too_large``: the line posted instead of an animation
    the chat cannot take; ``head``: the text of the picture it was folded under (``outbox``)."""

    text: str = ""
    chat: Group | None = None
    private_to: Recipient | None = None
    buttons: tuple[tuple[Button, ...], ...] = ()
    mentions: tuple[Recipient, ...] = ()
    language: str = "en"
    render: RenderRequest | None = None
    image_name: str = "board.png"
    latest_image_name: str = ""
    description: str = ""
    too_large: str = ""
    head: str | None = None


_decoder = msgspec.json.Decoder(MessageBody)
_encoder = msgspec.json.Encoder()


def encode_body(body: MessageBody) -> str:
    return _encoder.encode(body).decode()


def decode_body(stored: str | bytes) -> MessageBody:
    return _decoder.decode(stored)
