"""Turning a stored outbox row into the ``Outgoing`` a transport posts (the game's side of delivery).

The row's body is what ``messages`` committed; a map or final picture is rendered here,
off the event loop, by replaying the game up to the move the message describes.
"""

from __future__ import annotations

import asyncio
import logging

from bot.contract import Chat, Outgoing, User

from . import messages as M
from . import present, records
from .model import StoredOut
from .storage import Storage

log = logging.getLogger(__name__)


async def materialise(storage: Storage, row: StoredOut) -> Outgoing:
    """The message of ``row`` with its picture rendered (never an edit target: delivery adds that)."""
    body = row.body
    image = None
    render = body.get("render")
    if render:
        image = await _render(storage, render, body.get("language", "en"), row.platform)
    chat = body.get("chat")
    to = body.get("private_to")
    return Outgoing(
        id=row.id, text=body.get("text", ""),
        chat=Chat(chat["platform"], chat["id"], chat.get("title", "")) if chat else None,
        private_to=User(to["platform"], to["id"], to["name"], language=to.get("language")) if to else None,
        image=image, image_name=body.get("image_name", "paris.png"),
        buttons=M.to_buttons(body.get("buttons") or []),
        mentions=tuple(User(m["platform"], m["id"], m["name"]) for m in body.get("mentions") or []),
        slot=row.slot, language=body.get("language", "en"))


async def _render(storage: Storage, render: dict, language: str, platform: str) -> bytes | None:
    got = await storage.load_game(render["game_id"])
    if got is None or got[0].setup is None:
        return None
    meta, moves = got

    def work() -> bytes | None:
        game = records.replay(meta.setup, moves, upto=render["moves"])
        if render["kind"] == "final":
            events = game.log
            for i in range(len(game.log) - 1, -1, -1):
                if game.log[i].kind == "round_started":
                    events = game.log[i:]
                    break
        else:
            starts = [i for i, e in enumerate(game.log) if e.kind == "round_started"]
            r = render.get("round", 1)
            events = game.log[starts[r - 1]:starts[r]] if len(starts) > r else game.log[starts[r - 1]:]
        return present.render_image(render["kind"], game.view(None), events, language, platform=platform)

    try:
        return await asyncio.to_thread(work)
    except Exception:  # noqa: BLE001 - a picture is not worth losing the message
        log.exception("rendering %s failed", render)
        return None
