"""The open pages of each game, and bringing them up to date when the game changes.

Each open page (a WebSocket) belongs to one game and sees it as one viewer (a seat, or a
spectator) in one language and layout. When the service's ``GameWatch`` says a game changed (a
commit here, or another process's, heard through the database), the game's pages are refreshed
once: each distinct view is built once and sent to every page that shows it, in order of
version, so a page never goes back. Refreshes of one game never overlap: a change that comes
while one runs makes it run again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from aiohttp import WSCloseCode, web

from bot.service.page import PageRequest

log = logging.getLogger(__name__)


@dataclass(eq=False)
class OpenPage:
    """One page's connection, and what it shows."""

    ws: web.WebSocketResponse
    game_id: int
    user_id: str | None
    language: str
    layout: str = "landscape"
    at: int | None = None          # a finished game's move being reviewed (None: now)
    version: int = -1              # the version of the state it was sent last
    seat: int | None = None
    sent: dict[str, Any] = field(default_factory=dict)

    @property
    def viewer(self) -> tuple[str | None, str, str]:
        return self.user_id, self.language, self.layout

    def request(self) -> PageRequest:
        return PageRequest(self.game_id, self.seat, self.language, self.layout, self.at)


def picture_source(render: dict[str, Any]) -> str:
    """The picture endpoint's query for a page's picture (the page adds its pass)."""
    return "picture?" + urlencode(sorted(render.items()))


def message(state: dict[str, Any]) -> str:
    """The JSON a page receives for ``state``: pictures named by their endpoint query."""
    shown = dict(state)
    shown["pictures"] = [{"name": p["name"], "src": picture_source(p["render"]), "alt": p["alt"]}
                         for p in state.get("pictures", ())]
    return json.dumps({"type": "state", "version": state.get("version"), "state": shown},
                      ensure_ascii=False, separators=(",", ":"))


class Hub:
    def __init__(self, service) -> None:
        self.service = service
        self._pages: dict[int, set[OpenPage]] = {}
        self._refreshing: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._stop_watching = service.watch.add(self.changed)

    async def close(self) -> None:
        """Stop listening and close every open page (a page reconnects to whoever serves next)."""
        self._stop_watching()
        for task in self._refreshing.values():
            task.cancel()
        for pages in list(self._pages.values()):
            for page in list(pages):
                with contextlib.suppress(Exception):
                    await page.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    @property
    def open_pages(self) -> int:
        return sum(len(pages) for pages in self._pages.values())

    def pages(self, game_id: int) -> frozenset[OpenPage]:
        return frozenset(self._pages.get(game_id, ()))

    def join(self, page: OpenPage) -> None:
        self._pages.setdefault(page.game_id, set()).add(page)

    def leave(self, page: OpenPage) -> None:
        pages = self._pages.get(page.game_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._pages[page.game_id]

    def changed(self, game_id: int) -> None:
        if game_id not in self._pages:
            return
        if game_id in self._refreshing:
            self._again.add(game_id)
            return
        self._refreshing[game_id] = asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                await self.refresh(game_id)
                if game_id not in self._again:
                    break
        except Exception:  # noqa: BLE001 - the next change tries again; the pages keep their last state
            log.exception("refreshing the pages of game %s failed", game_id)
        finally:
            self._refreshing.pop(game_id, None)

    async def refresh(self, game_id: int) -> None:
        """Send every open page of the game that is behind its state now."""
        pages = [page for page in self._pages.get(game_id, ()) if page.at is None]
        if not pages:
            return
        # One read of the game for all of them; each distinct page built and written as JSON once.
        views = await self.service.pages.views(game_id, {page.viewer for page in pages})
        if views is None:
            return
        texts: dict[int, tuple[int, str]] = {}
        for page in pages:
            state = views[page.viewer]
            page.seat = state["seat"]
            if id(state) not in texts:
                texts[id(state)] = (state["version"], message(state))
            version, text = texts[id(state)]
            if version > page.version:
                await self.send(page, text, version)

    async def seat(self, page: OpenPage) -> int | None:
        if page.user_id is None:
            return None
        seat, _ = await self.service.pages.seat_of(page.game_id, page.user_id)
        return seat

    async def show(self, page: OpenPage) -> bool:
        """Send ``page`` its state now (on opening, on resuming, on a review step); False: no such state."""
        if page.at is None:
            # Live: from the same one read of the game as a refresh, the seat looked up with it.
            views = await self.service.pages.views(page.game_id, {page.viewer})
            state = None if views is None else views[page.viewer]
        else:
            page.seat = await self.seat(page)
            state = await self.service.page(page.request())
        if state is None:
            return False
        page.seat = state["seat"]
        if page.at is not None or state["version"] != page.version:
            await self.send(page, message(state), state["version"])
        return True

    @staticmethod
    async def send(page: OpenPage, text: str, version: int) -> None:
        if page.ws.closed:
            return
        page.version = version
        with contextlib.suppress(ConnectionError, RuntimeError):   # gone: its handler removes it
            await page.ws.send_str(text)
