"""The pictures messages carry: drawn at delivery time, off the move path, from the stored game.

(A message may also carry the whole game as an animation, ``RenderRequest("animation", game_id,
moves)``: drawn the same way, by ``animation.py``.)

A message names its picture (a ``RenderRequest`` of kind "map" or "final", its game, moves and cycle):
the game is replayed to that move count and its presenter draws the public view, with the
public events of that cycle highlighted: a picture for the group never gets a private event
(a dealt marker, holdings) nor a seat's view. A picture of one seat's own view (``"seat"`` in
the request, ``Presenter.render_private``) is drawn from that seat's view and the events it
may see, and only ever goes to that seat's private chat. A platform read mostly on phones draws its
pictures in portrait (``Capabilities.portrait``: the panel under the map shows names larger); the
others keep landscape.

Drawing takes CPU (about 0.1 s a map on an idle core, far more on a busy machine), and when many
groups end a round at once their maps are what the sends wait for. So pictures are drawn
``DRAWN_AT_ONCE`` at a time, a picture a waiting player's prompt sits behind (a lower ``rank``)
before the others, never on the event loop; and each is drawn once for its request (game, move count,
kind, language, platform): a message sent again (after a refusal, or its slot's message gone)
gets the same bytes without drawing them again, and two messages asking for one picture at the
same time share the drawing. A bot draws in processes of its own (``BOARDCHAT_DRAWING_PROCESSES``):
drawn in a thread, a map holds the interpreter's lock most of the time it takes, and the
presses and sends of every group wait for it (measured, 200 groups pressing at once on 2 busy
cores: the last press handled after 2.9 s with the maps drawn in processes, 5.4 s in threads,
2.2 s with no maps at all). Those processes end with the bot's, even when it is killed
(``lifeline.py``).

A picture's words (``Presenter.picture_description``: what it shows, the board as the terminal
prints it, what changed; Discord gives them to screen readers) are made with it, from the same
replayed match (``Drawn.description``), not when the move that asked for the picture is handled:
a cycle-ending move no longer tells the board in words on its way to the commit (a fifth of such
a move's time, issue 44), and a picture never drawn (a chat that shows none) is never described.

The web board's pages ask for pictures too (``render_for_page``), at any moment and as many as
their visitors like. They come after the chats, with a budget of their own: one process of
their own, started on the first page picture, at a lower CPU priority (``PAGE_NICENESS``: the
system gives the chats' drawing processes and the bot the cores first), drawing
``PAGE_DRAWN_AT_ONCE`` picture at a time; at most ``PAGE_WAITING`` wait, past that a page is told
to come back (``PicturesBusy``) with nothing drawn. So a page never takes a chat's drawing slot
nor delays its picture by more than the machine's noise. (Drawing in a thread, as the tests do,
a page picture takes a chat's slot, at ``PAGE_RANK``: after every chat picture waiting.) A chat and
a page never share a drawing (their keys differ by platform), so a chat picture never waits in
the pages' queue. ``python -m bot.web.flood_bench`` measures the groups' round pictures beside a
flood of page pictures (docs/web.md).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import msgspec

from bot.board import PicturesBusy
from bot.games import kind
from bot.platforms import capabilities
from engine.interface import Match, SeatedMove
from renderers.presenter import Presenter

from ..game.outmessage import RenderRequest
from ..posts import animation
from ..posts.turnmessages import cycle_events
from ..storage import Storage
from .lifeline import Lifeline, end_with_parent
from .priority import RankedSlots

log = logging.getLogger(__name__)
DRAWN_AT_ONCE = 2     # the machine's cores, not the sends in flight: more would only share them
BEHIND_ROUNDS = 1     # pictures waiting, in rounds of drawing, that make the drawing "behind"
BEHIND_SECONDS = 0.5  # ... or how long ago the oldest picture not drawn yet was asked for
KEPT = 64             # pictures kept after they were drawn (a few rounds of the busiest moment)
KEPT_BYTES = 64 * 1024 * 1024   # ... and at most this much of them (an animation weighs megabytes)
PAGE_RANK = 3         # a page's picture in a thread: after every chat's (``StoredOut.rank`` is 0, 1 or 2)
PAGE_DRAWN_AT_ONCE = 1  # page pictures drawing at a time (in the pages' one process)
PAGE_WAITING = 16     # page pictures waiting, at most (a few pages' worth)
PAGE_NICENESS = 10    # the pages' process's CPU priority below the bot's (``os.nice``)
PAGE_PLATFORM = "web"
STOP_GRACE = 5.0      # seconds a stop waits for the pictures being drawn (an animation takes seconds)


@dataclass(frozen=True, slots=True)
class Drawn:
    """A picture drawn and its words (empty: the message says them, as an animation's does)."""

    image: bytes
    description: str = ""


class Pictures:
    """``processes``: how many processes draw (0: a thread of this process, as the tests do)."""

    def __init__(self, storage: Storage, *, processes: int = 0, at_once: int = DRAWN_AT_ONCE, kept: int = KEPT) -> None:
        self.storage = storage
        self.processes = processes
        self._chats_pool = DrawingPool(processes)
        self._pages_pool = DrawingPool(PAGE_DRAWN_AT_ONCE if processes else 0, niceness=PAGE_NICENESS)
        self._slots = max(at_once, processes)
        self._cores = RankedSlots(self._slots)
        self._kept: OrderedDict[str, Drawn] = OrderedDict()
        self._kept_size = kept
        self._drawing: dict[str, asyncio.Future[Drawn | None]] = {}
        self._page_slots = asyncio.Semaphore(PAGE_DRAWN_AT_ONCE)
        self._pages_waiting = 0
        self._asked: dict[str, float] = {}       # when each picture being drawn was asked for
        self.drawn = 0        # pictures actually drawn (the rest came from ``_kept``)
        self._stopping = False

    @property
    def waiting(self) -> int:
        """Pictures waiting for a core to be drawn on (the drawing queue)."""
        return self._cores.waiting

    def behind(self) -> bool:
        """Whether a picture asked for now would wait: a round of drawing (a picture for each
        process) waits already, or a picture asked for ``BEHIND_SECONDS`` ago is not drawn yet (a
        busy machine, many games starting at once, the drawing processes still starting). Then a
        game's first prompt does better not to wait in its chat behind its first picture."""
        if self._cores.waiting >= BEHIND_ROUNDS * self._slots:
            return True
        oldest = min(self._asked.values(), default=None)
        return oldest is not None and asyncio.get_running_loop().time() - oldest > BEHIND_SECONDS

    async def render(self, render: RenderRequest, language: str, platform: str, rank: int = 2) -> Drawn | None:
        """The picture ``render`` asks for, with its words; the lowest ``rank`` is drawn first
        (``StoredOut.rank``)."""
        key = drawing_key(render, language, platform)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        drawing = self._drawing.get(key)
        if drawing is None:
            self._asked[key] = asyncio.get_running_loop().time()
            drawing = self._drawing[key] = asyncio.ensure_future(self._draw(key, render, language, platform, rank))
        # shielded: one sender giving up (a stop) does not cancel the drawing the others share
        return await asyncio.shield(drawing)

    async def render_for_page(self, render: RenderRequest, language: str) -> bytes | None:
        """The picture a web page asks for, drawn after the chats' (see the module's note);
        ``PicturesBusy`` when ``PAGE_WAITING`` page pictures wait already. (A page says its own
        words: none are made for it.)"""
        key = drawing_key(render, language, PAGE_PLATFORM)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key].image
        drawing = self._drawing.get(key)
        if drawing is None:
            if self._pages_waiting >= PAGE_WAITING:
                raise PicturesBusy
            drawing = self._drawing[key] = asyncio.ensure_future(self._draw_for_page(key, render, language))
        drawn = await asyncio.shield(drawing)
        return None if drawn is None else drawn.image

    async def _draw_for_page(self, key: str, render: RenderRequest, language: str) -> Drawn | None:
        self._pages_waiting += 1
        waiting = True
        try:
            async with self._page_slots:
                self._pages_waiting -= 1
                waiting = False
                # in the pages' own process no chat slot is taken; in a thread, the last of them
                return await self._draw(key, render, language, PAGE_PLATFORM,
                                        None if self.processes else PAGE_RANK)
        finally:
            if waiting:
                self._pages_waiting -= 1
                self._drawing.pop(key, None)

    async def _draw(self, key: str, render: RenderRequest, language: str, platform: str, rank: int | None) -> Drawn | None:
        """Draw, in one of the chats' slots at ``rank`` (None: in no slot of theirs)."""
        try:
            if rank is None:
                image = await self._draw_now(render, language, platform)
            else:
                await self._cores.acquire(rank)
                try:
                    image = await self._draw_now(render, language, platform)
                finally:
                    self._cores.release()
        finally:
            del self._drawing[key]
            self._asked.pop(key, None)
        if image is not None:       # a failed drawing is tried again next time
            self._kept[key] = image
            while len(self._kept) > self._kept_size or len(self._kept) > 1 and sum(
                    len(kept.image) for kept in self._kept.values()) > KEPT_BYTES:
                self._kept.popitem(last=False)
        return image

    async def _draw_now(self, render: RenderRequest, language: str, platform: str) -> Drawn | None:
        self.drawn += 1
        got = await self.storage.load_game(render.game_id)
        if got is None or got[0].setup is None:
            return None
        meta, moves = got
        if meta.setup is None:
            return None
        args = (meta.kind, meta.setup, moves, render, language, platform, platform != PAGE_PLATFORM)
        pool = self._pages_pool if platform == PAGE_PLATFORM else self._chats_pool
        try:
            if pool.processes == 0:
                return await asyncio.to_thread(draw, *args)
            return await asyncio.get_running_loop().run_in_executor(pool.executor(), draw, *args)
        except BrokenProcessPool:
            if self._stopping:      # the pool was shut while this drawing waited: handed back, not lost
                return None
            log.exception("the drawing processes died drawing %s; they are started again", render)
            pool.drop()
            return None
        except Exception:  # noqa: BLE001 - a picture is not worth losing the message
            log.exception("rendering %s failed", render)
            return None

    def close(self) -> None:
        """Stop the drawing processes (a drawing under way is not waited for)."""
        self._stopping = True
        self._chats_pool.drop()
        self._pages_pool.drop()

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop drawing: the pictures under way get ``grace`` seconds to be finished (kept for the
        next start's sends), the rest are handed back (their messages stay in the outbox, sent
        after the next start); one line says which, then the drawing processes end."""
        drawing = [future for future in self._drawing.values() if not future.done()]
        finished = 0
        if drawing:
            done, pending = await asyncio.wait(drawing, timeout=grace)
            finished = len(done)
            self._stopping = True
            for future in pending:
                future.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            log.info("stopping: %d picture(s) being drawn were finished, %d handed back to the outbox "
                     "(sent after the next start)", finished, len(pending))
        self.close()

    async def warm_up(self) -> None:
        """Start the drawing processes now, each with the games' drawing code loaded, so that the
        first pictures after the bot starts do not wait for that (seconds on a busy machine: the
        processes are spawned, and import what they draw with)."""
        if self.processes == 0:
            return
        loop = asyncio.get_running_loop()
        try:
            await asyncio.gather(*(loop.run_in_executor(self._chats_pool.executor(), warm) for _ in range(self.processes)))
        except (BrokenProcessPool, RuntimeError) as exc:     # stopped meanwhile: drawn on demand later
            log.info("the drawing processes did not warm up: %r", exc)


class DrawingPool:
    """``processes`` drawing processes (0: none, drawing is in a thread), started on first use,
    at ``niceness`` below this process's CPU priority."""

    def __init__(self, processes: int, *, niceness: int = 0) -> None:
        self.processes = processes
        self.niceness = niceness
        self._executor: ProcessPoolExecutor | None = None
        self._lifeline: Lifeline | None = None

    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawned, not forked: this process runs threads (the database's, the HTTP
            # client's), which a fork would copy in whatever state they are in
            context = multiprocessing.get_context("spawn")
            # and tied to this process: killed or crashed, it takes them with it (lifeline.py)
            self._lifeline = Lifeline(context)
            self._executor = ProcessPoolExecutor(self.processes, mp_context=context, initializer=drawing_process,
                                                 initargs=(*self._lifeline.initargs, self.niceness))
        return self._executor

    def drop(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._lifeline is not None:
            self._lifeline.close()
            self._lifeline = None


def warm() -> None:
    """In a drawing process: load what every game draws with (its presenter, the fonts, the picture
    library) by drawing each game's board at a start once."""
    from bot.games import KINDS

    for game_kind in KINDS.values():
        definition = game_kind.definition
        match = definition.new_match([f"P{k}" for k in range(definition.min_players)], seed=1, options={})
        game_kind.presenter.render("map", match.view(None), [], "en", layout="portrait")


def drawing_process(lifeline: Connection, kernel_signal: bool = True, niceness: int = 0) -> None:
    """First thing in a drawing process: it ends with the bot (``lifeline.py``), and ignores the
    Ctrl+C and SIGTERM sent to the bot's whole process group: the bot decides what becomes of the
    drawing in hand (``Pictures.stop``), a signal must not break the pool under it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    end_with_parent(lifeline, kernel_signal)
    if niceness:        # the pages' process: below the bot's CPU priority
        os.nice(niceness)


def drawing_key(render: RenderRequest, language: str, platform: str) -> str:
    """The picture's name among those drawn and kept: one per request, language and platform."""
    return msgspec.json.encode((render, language, platform)).decode()


def draw(kind_id: str, setup: dict[str, Any], moves: list[SeatedMove], render: RenderRequest, language: str,
         platform: str, described: bool = True) -> Drawn:
    """Draw the picture ``render`` asks for from the stored game (in a drawing process, or a thread):
    a picture, or the whole game as an animation (``animation.py``) in the format ``platform`` plays;
    with its words where ``described`` (an animation's are its message's)."""
    if render.kind == animation.ANIMATION:
        return Drawn(animation.draw(kind_id, setup, moves[:render.moves], language, platform))
    game_kind = kind(kind_id)
    match = game_kind.definition.resume(setup, moves[:render.moves])
    cycle = render.shown_cycle
    if render.kind == "final":
        cycle = match.rhythm.cycle
    seat = render.seat
    events = [] if cycle < 1 else [e for e in match.log[match.rhythm.cycle_start(cycle):] if e.visible_to(seat)]
    # A page asks for the layout that fits its screen; a message's follows its platform.
    layout = render.layout or ("portrait" if capabilities(platform).portrait else "landscape")
    presenter = game_kind.presenter
    if seat is not None:
        image = presenter.render_private(match.view(seat), events, language, layout=layout)
    else:
        image = presenter.render(render.kind, match.view(None), events, language, layout=layout)
    return Drawn(image, described_as(presenter, match, render, language) if described else "")


def described_as(presenter: Presenter, match: Match, render: RenderRequest, language: str) -> str:
    """The picture ``render`` asks for in words, from ``match`` at its move count: a seat's own
    board from that seat's view, the others from the public view, a map with what its cycle
    changed (its public events)."""
    players = match.players
    if render.seat is not None:
        return presenter.picture_description("seat", match.view(render.seat), (), players, language)
    cycle = render.shown_cycle
    events = [] if render.kind == "final" or cycle < 1 else cycle_events(match, cycle)
    return presenter.picture_description(render.kind, match.view(None), events, players, language)
