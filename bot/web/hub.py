"""The open pages of each game, and bringing them up to date when the game changes.

Each open page (a WebSocket) belongs to one game and sees it as one viewer (a seat, or a
spectator) in one language and layout. When the service's ``GameWatch`` says a game changed (a
commit here, or another process's, heard through the database), the game's pages are refreshed
once: each distinct view is built once. Refreshes of one game never overlap: a change that comes
while one runs makes it run again.

A stream per viewer: a page is sent a state only when what it shows changed, and the state's
``version`` counts that viewer's own changes (``ViewerStream``), never the game's commits. A seat's
private steps (Papà Paolo's plans, each a commit) change nothing the other pages show, so they are
sent nothing, and no number on their states moves with those steps.

Delta frames (``frames.py``): a socket's first state is sent whole, and every later one as what
changed since the last state sent on that socket. A page keeps only the digests of that state's
parts (``frames.Sent``, shared by every page it was sent to).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlencode

import msgspec
from aiohttp import WSCloseCode, web

from bot.board import PageRequest, Viewer
from bot.contract import BoardAPI
from bot.pagestate import PageState, Picture, PictureName, ShownPicture

from . import art, frames

log = logging.getLogger(__name__)
T = TypeVar("T")
KEPT_STREAMS = 20_000      # viewers' streams remembered (a page resuming finds its own; ~300 bytes each)
RESUMABLE = 5_000_000      # a stream begun for a page resuming at a version past this starts again at 0


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
    held: frames.Sent | None = None   # what the state last sent on this socket was (None: nothing yet)
    acted: bool = False            # it sent a move since its last refresh: its own state goes first

    @property
    def viewer(self) -> Viewer:
        return self.user_id, self.language, self.layout

    def request(self) -> PageRequest:
        return PageRequest(self.game_id, self.seat, self.language, self.layout, self.at)


def picture_source(render: PictureName) -> str:
    """The picture endpoint's query for a page's picture (the page adds its pass)."""
    return "picture?" + urlencode(render.query())


def shown(state: PageState) -> frames.Cut:
    """What a page shows for ``state``, cut into its parts (``frames.cut``; ``full``: its JSON):
    pictures named by their endpoint query, and a picture the page draws itself with its scene
    (the game's art by its content-named address)."""
    pictures = [_shown_picture(state.game.kind, p) for p in state.pictures or () if isinstance(p, Picture)]
    return frames.cut(msgspec.structs.replace(state, pictures=pictures))


def _shown_picture(game: str, picture: Picture) -> ShownPicture:
    scene = None if picture.scene is None else picture.scene.wire(lambda name: art.url(game, name))
    return ShownPicture(picture.name, picture_source(picture.render), picture.alt, scene)


async def art_ready(states: Iterable[PageState]) -> None:
    """Draw the art the states' scenes name that this process has not drawn yet, off the event loop."""
    for state in states:
        for picture in state.pictures or ():
            if isinstance(picture, Picture) and picture.scene is not None:
                await art.prepare(state.game.kind, picture.scene.art())


@dataclass(frozen=True, slots=True)
class Opening:
    """A viewer's state as a page opening is shown it: the state, its version in the viewer's
    stream, its parts, and its whole frame (``frames.whole``)."""

    state: PageState
    version: int
    shown: frames.Cut

    @property
    def message(self) -> str:
        return frames.whole(self.version, self.shown)


@dataclass(slots=True)
class ViewerStream:
    """What one viewer of a game was last shown (a digest of it) and how many times that changed."""

    version: int = 0
    digest: bytes = b""

    def show(self, body: bytes) -> bool:
        """Note ``body`` as shown now; whether it differs from the last (the version moved on)."""
        digest = hashlib.blake2b(body, digest_size=16).digest()
        if digest == self.digest:
            return False
        self.version += 1
        self.digest = digest
        return True


class Hub:
    def __init__(self, service: BoardAPI) -> None:
        self.service = service
        self._pages: dict[int, set[OpenPage]] = {}
        self._refreshing: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._streams: OrderedDict[tuple[int, Viewer], ViewerStream] = OrderedDict()
        self._turns: dict[int, asyncio.Future[None]] = {}
        self._stop_watching = service.watch_games(self.changed)

    async def close(self) -> None:
        """Stop listening and close every open page (a page reconnects to whoever serves next)."""
        self._stop_watching()
        for task in self._refreshing.values():
            task.cancel()
        for pages in list(self._pages.values()):
            for page in list(pages):
                with contextlib.suppress(Exception):
                    await page.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    async def settled(self) -> None:
        """Wait until no refresh is under way: every page has what the game's last change gave it
        (a test's barrier; a refresh that fails is logged, not raised here)."""
        while self._refreshing:
            await asyncio.gather(*self._refreshing.values(), return_exceptions=True)

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
                await self._in_turn(game_id, lambda: self.refresh(game_id))
                if game_id not in self._again:
                    break
        except Exception:  # noqa: BLE001 - the next change tries again; the pages keep their last state
            log.exception("refreshing the pages of game %s failed", game_id)
        finally:
            self._refreshing.pop(game_id, None)

    async def _in_turn(self, game_id: int, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` after the game's work already waiting: a stream's states are read and
        numbered one at a time, or a page opening on a state read before a move could get it
        under a version newer than the move's."""
        previous = self._turns.get(game_id)
        mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._turns[game_id] = mine
        try:
            if previous is not None:
                await asyncio.shield(previous)      # a page gone meanwhile must not cancel the others' turn
            return await work()
        finally:
            if not mine.done():
                mine.set_result(None)
            if self._turns.get(game_id) is mine:
                del self._turns[game_id]

    def stream(self, game_id: int, viewer: Viewer, *, resuming_at: int | None = None) -> ViewerStream:
        """The viewer's stream of the game. One begun now for a page resuming at a version (this
        process never showed that viewer the game, or forgot it) starts at that version, so the
        page's first state here is sent, whatever it showed before."""
        key = (game_id, viewer)
        stream = self._streams.get(key)
        if stream is None:
            start = resuming_at if resuming_at is not None and resuming_at < RESUMABLE else 0
            stream = self._streams[key] = ViewerStream(start)
            while len(self._streams) > KEPT_STREAMS:
                self._streams.popitem(last=False)
        else:
            self._streams.move_to_end(key)
        return stream

    async def refresh(self, game_id: int, only: Collection[OpenPage] | None = None) -> None:
        """Send every open page of the game (or of ``only``) whose view changed since it was last
        sent one: the pages that sent a move first (``OpenPage.acted``), then the others."""
        pages = [page for page in (self._pages.get(game_id, ()) if only is None else only) if page.at is None]
        if not pages:
            return
        if only is None:
            # A tap's own page waits for no one else's view (a game of three seats and four
            # spectators' views takes 20-45 ms to build them all, one seat's 2-8 ms).
            acted = [page for page in pages if page.acted]
            for page in acted:
                page.acted = False
            if acted and len(acted) < len(pages):
                await self.refresh(game_id, acted)
                first = set(acted)
                pages = [page for page in pages if page not in first]
        # One read of the game for all of them; each distinct page built and written as JSON once.
        views = await self.service.views(game_id, {page.viewer for page in pages})
        if views is None:
            return
        cuts: dict[Viewer, frames.Cut] = {}
        await art_ready(views.values())
        for viewer, state in views.items():
            cuts[viewer] = shown(state)
            self.stream(game_id, viewer).show(cuts[viewer].full)
        made = frames.Frames()
        for page in pages:
            page.seat = views[page.viewer].seat
            stream = self.stream(game_id, page.viewer)
            if stream.version != page.version:
                await self.send(page, cuts[page.viewer], stream.version, made)

    async def seat(self, page: OpenPage) -> int | None:
        if page.user_id is None:
            return None
        seat, _ = await self.service.seat_of(page.game_id, page.user_id)
        return seat

    async def show(self, page: OpenPage) -> bool:
        """Send ``page`` its state now (on opening, on resuming at ``page.version``, on a review
        step); False: no such state."""
        if page.at is None:
            return await self._in_turn(page.game_id, lambda: self._show_live(page))
        page.seat = await self.seat(page)
        state = await self.service.page(page.request())
        if state is None:
            return False
        # A finished game stepped through: a view of the past, outside the page's live stream.
        await art_ready((state,))
        await self.send(page, shown(state), page.version)
        return True

    async def _show_live(self, page: OpenPage) -> bool:
        opening = await self._opening(page.game_id, page.viewer, page.version if page.version >= 0 else None)
        if opening is None:
            return False
        page.seat = opening.state.seat
        if opening.version != page.version:
            await self.send(page, opening.shown, opening.version)
        return True

    async def opening(self, game_id: int, viewer: Viewer) -> Opening | None:
        """What a page of ``viewer`` opening now is shown first, numbered in the viewer's stream as
        its socket would number it (the page's pass answer carries it, so the page draws its board
        before its socket opens; saying this version on the socket then sends nothing again)."""
        return await self._in_turn(game_id, lambda: self._opening(game_id, viewer, None))

    async def _opening(self, game_id: int, viewer: Viewer, resuming_at: int | None) -> Opening | None:
        # From the same one read of the game as a refresh, the seat looked up with it.
        views = await self.service.views(game_id, {viewer})
        state = None if views is None else views[viewer]
        if state is None:
            return None
        await art_ready((state,))
        body = shown(state)
        stream = self.stream(game_id, viewer, resuming_at=resuming_at)
        stream.show(body.full)
        return Opening(state, stream.version, body)

    @staticmethod
    async def send(page: OpenPage, state: frames.Cut, version: int, made: frames.Frames | None = None) -> None:
        """Send ``page`` ``state`` under ``version``: whole on a socket that was sent nothing yet,
        else as what changed since the state last sent on it (``frames``)."""
        if page.ws.closed:
            return
        # Noted before the send's first await: the next frame is made against this one, in order.
        text = (made or frames.Frames()).frame(max(version, 0), page.held, state)
        page.version = version
        page.held = state.sent
        with contextlib.suppress(ConnectionError, RuntimeError):   # gone: its handler removes it
            await page.ws.send_str(text)
