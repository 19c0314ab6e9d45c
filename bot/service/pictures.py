"""The pictures messages carry: drawn at delivery time, off the move path, from the stored game.

A message names its picture (``{"kind": "map" | "final", "game_id", "moves", "cycle"}``):
the game is replayed to that move count and its presenter draws the public view, with the
public events of that cycle highlighted: a picture for the group never gets a private event
(a dealt marker, holdings) nor a seat's view. A picture of one seat's own view (``"seat"`` in
the request, ``Presenter.render_private``) is drawn from that seat's view and the events it
may see, and only ever goes to that seat's private chat. Telegram is read mostly on phones, where a portrait
picture (the panel under the map) shows names larger; Discord and the terminal keep landscape.
"""

from __future__ import annotations

import asyncio
import logging

from bot.games import kind

from .storage import Storage

log = logging.getLogger(__name__)
PORTRAIT_PLATFORMS = frozenset({"telegram"})


class Pictures:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def render(self, render: dict, language: str, platform: str) -> bytes | None:
        got = await self.storage.load_game(render["game_id"])
        if got is None or got[0].setup is None:
            return None
        meta, moves = got
        game = kind(meta.game)

        def work() -> bytes:
            match = game.definition.resume(meta.setup, moves[:render["moves"]])
            cycle = render.get("cycle", render.get("round", 1))
            if render["kind"] == "final":
                cycle = match.cycle
            seat = render.get("seat")
            events = [] if cycle < 1 else [e for e in match.log[match.cycle_start(cycle):] if e.visible_to(seat)]
            layout = "portrait" if platform in PORTRAIT_PLATFORMS else "landscape"
            if seat is not None:
                return game.presenter.render_private(match.view(seat), events, language, layout=layout)
            return game.presenter.render(render["kind"], match.view(None), events, language, layout=layout)

        try:
            return await asyncio.to_thread(work)
        except Exception:  # noqa: BLE001 - a picture is not worth losing the message
            log.exception("rendering %s failed", render)
            return None
