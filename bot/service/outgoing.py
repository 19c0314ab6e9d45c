"""Turning a stored outbox row into the ``Outgoing`` a transport posts (the game's side of delivery).

The row's body is what ``messages`` committed; its picture is drawn by ``render``
(``Pictures.render``: off the event loop, from the stored game).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

from bot.contract import Chat, Outgoing, User

from . import messages as M
from .animation import ANIMATION
from .links import BoardLinks
from .model import StoredOut

# (render request, language, platform, rank: ``StoredOut.rank``, lowest drawn first)
Render = Callable[[dict[str, Any], str, str, int], Awaitable[bytes | None]]


def without_picture(row: StoredOut) -> StoredOut:
    """``row`` for a transport that shows no pictures (``Transport.text_only``): its picture is not
    asked for, so not drawn; a message that is only the whole game's animation (its text is the
    animation's caption) keeps no text either, as it would announce what does not come."""
    body = dict(row.body)
    picture = body.pop("render", None)
    if picture is not None and picture.get("kind") == ANIMATION:
        body["text"] = ""
    return dataclasses.replace(row, body=body)


async def materialise(row: StoredOut, render: Render, links: BoardLinks) -> Outgoing:
    """The message of ``row`` with its picture rendered and its board buttons made links for where
    it goes (``links``), never an edit target: delivery adds that."""
    body = row.body
    image = animation = None
    picture = body.get("render")
    if picture:
        drawn = await render(picture, body.get("language", "en"), row.platform, row.rank)
        if picture.get("kind") == ANIMATION:
            animation = drawn
        else:
            image = drawn
    chat = body.get("chat")
    to = body.get("private_to")
    language = body.get("language", "en")
    private_to = User(to["platform"], to["id"], to["name"], language=to.get("language")) if to else None
    buttons = links.resolve(M.to_buttons(body.get("buttons") or []), row.platform, private_to, language)
    return Outgoing(
        id=row.id, text=body.get("text", ""),
        chat=Chat(chat["platform"], chat["id"], chat.get("title", "")) if chat else None,
        private_to=private_to,
        image=image, image_name=body.get("image_name", "board.png"),
        latest_image_name=body.get("latest_image_name", ""),
        image_description=body.get("description", "") if image is not None or animation is not None else "",
        animation=animation, animation_too_large=body.get("too_large", ""),
        buttons=buttons,
        mentions=tuple(User(m["platform"], m["id"], m["name"]) for m in body.get("mentions") or []),
        slot=row.slot, language=language)
