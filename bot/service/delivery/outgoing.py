"""Turning a stored outbox row into the ``Outgoing`` a transport posts (the game's side of delivery).

The row's body is what ``messages`` committed; its picture is drawn by ``render``
(``Pictures.render``: off the event loop, from the stored game), and said in words with it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

import msgspec

from bot.contract import Outgoing, User

from ..game.model import StoredOut
from ..game.outmessage import RenderRequest
from ..posts.animation import ANIMATION
from ..posts.links import BoardLinks
from ..posts.messages import slot_of
from .pictures import Drawn

# (render request, language, platform, rank: ``StoredOut.rank``, lowest drawn first): the picture
# drawn and its words (``Pictures.render``)
Render = Callable[[RenderRequest, str, str, int], Awaitable[Drawn | None]]


def without_picture(row: StoredOut) -> StoredOut:
    """``row`` for a transport that shows no pictures (``Transport.text_only``): its picture is not
    asked for, so not drawn; a message that is only the whole game's animation (its text is the
    animation's caption) keeps no text either, as it would announce what does not come."""
    body = row.body
    animation = body.render is not None and body.render.kind == ANIMATION
    return dataclasses.replace(row, body=msgspec.structs.replace(body, render=None, text="" if animation else body.text))


async def materialise(row: StoredOut, render: Render, links: BoardLinks) -> Outgoing:
    """The message of ``row`` with its picture rendered and its board buttons made links for where
    it goes (``links``), never an edit target: delivery adds that."""
    body = row.body
    image = animation = None
    description = body.description      # an animation's; a row stored before pictures said their own
    picture = body.render
    if picture is not None:
        drawn = await render(picture, body.language, row.platform, row.rank)
        if drawn is not None:
            description = description or drawn.description
            if picture.kind == ANIMATION:
                animation = drawn.image
            else:
                image = drawn.image
    to = body.private_to
    private_to = User(to.platform, to.id, to.name, language=to.language) if to else None
    buttons = links.resolve(body.buttons, row.platform, private_to, body.language)
    return Outgoing(
        id=row.id, text=body.text,
        chat=body.chat.chat() if body.chat else None,
        private_to=private_to,
        image=image, image_name=body.image_name,
        latest_image_name=body.latest_image_name,
        image_description=description if image is not None or animation is not None else "",
        animation=animation, animation_too_large=body.too_large,
        buttons=buttons,
        # a mention pings a person; the language of their client is the message's business
        mentions=tuple(User(m.platform, m.id, m.name) for m in body.mentions),
        slot=None if row.slot is None else slot_of(row.slot), language=body.language)
