"""The web board's reads: a viewer's page of a game now, or of a finished game at any move.

Built on the store (the same cache and version checks as every action) and ``page.page_state``.
A finished game is stepped through by replaying its stored moves to the move asked for; the
moves at which each round (cycle) begins are found once per game, by one replay.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from bot.board import LAYOUTS, PageRequest, Viewer
from bot.games import kind
from bot.pagestate import PageState, ReviewSpan
from engine.interface import Match

from ..game.model import FINISHED
from ..game.outmessage import RenderRequest
from ..storage.store import GameStore, Loaded
from ..tokens.payloads import PayloadCodec
from .page import page_state, public_moves

KEPT_REVIEWS = 32      # finished games whose round starts are kept


@dataclass(frozen=True, slots=True)
class Timeline:
    """A finished game's cycles, from one replay: the move count at which each cycle begins (the
    first: 0), and the cycle the game is in after each move count (0 to the last move)."""

    starts: list[int]
    cycles: list[int]


class Pages:
    def __init__(self, store: GameStore, codec: PayloadCodec) -> None:
        self.store = store
        self.codec = codec
        self._timelines: OrderedDict[int, Timeline] = OrderedDict()

    async def page(self, request: PageRequest) -> PageState | None:
        """The page ``request`` asks for; None: no such game, or a move out of range."""
        loaded = await self.store.load(request.game_id)
        if loaded is None:
            return None
        meta, match = loaded.meta, loaded.match
        if request.at is not None and meta.status == FINISHED and match is not None and meta.setup is not None:
            if not 0 <= request.at <= match.move_count:
                return None
            if request.at != match.move_count:
                got = await self.store.storage.load_game(meta.id)
                if got is None:
                    return None
                match = await asyncio.to_thread(loaded.kind.definition.resume, meta.setup, got[1][:request.at])
        return await self._state(loaded, match, request)

    async def views(self, game_id: int, viewers: Iterable[Viewer]) -> dict[Viewer, PageState] | None:
        """The page now of each viewer (user id, None for a spectator; language; layout) from
        one read of the game, each distinct page built once (a game's open pages, refreshed
        after a move); None: no such game."""
        loaded = await self.store.load(game_id)
        if loaded is None:
            return None
        built: dict[PageRequest, PageState] = {}
        out = {}
        for viewer in viewers:
            user_id, language, layout = viewer
            seat = None if user_id is None else loaded.meta.seat_of(user_id)
            request = PageRequest(game_id, seat, language, layout)
            if request not in built:
                built[request] = await self._state(loaded, loaded.match, request)
            out[viewer] = built[request]
        return out

    async def _state(self, loaded: Loaded, match: Match | None, request: PageRequest) -> PageState:
        meta = loaded.meta
        # No version of the game's: it counts every commit, a seat's private steps too. A page's
        # stream numbers its own changes (bot/web/hub.py).
        state = page_state(meta, loaded.kind, match, self.codec, request)
        if meta.status == FINISHED and match is not None:
            state = msgspec.structs.replace(state, review=ReviewSpan(match.move_count, meta.moves,
                                                                     await self.round_starts(meta.id)))
        return state

    async def round_starts(self, game_id: int) -> list[int]:
        """The move count at which each cycle of a finished game begins (the first: 0)."""
        return (await self.timeline(game_id)).starts

    async def timeline(self, game_id: int) -> Timeline:
        """A finished game's ``Timeline``, kept for the ``KEPT_REVIEWS`` games used last."""
        if game_id in self._timelines:
            self._timelines.move_to_end(game_id)
            return self._timelines[game_id]
        got = await self.store.storage.load_game(game_id)
        if got is None:
            return Timeline([0], [])
        meta, moves = got
        if meta.setup is None:
            return Timeline([0], [])
        timeline = await asyncio.to_thread(_timeline, meta.kind, meta.setup, moves)
        self._timelines[game_id] = timeline
        while len(self._timelines) > KEPT_REVIEWS:
            self._timelines.popitem(last=False)
        return timeline

    async def picture_request(self, game_id: int, asked: Mapping[str, str], user_id: str | None) -> RenderRequest | None:
        """What to draw for a picture a page names, if it is one a page of this viewer can show
        (``page.page_state``); None otherwise, before anything is drawn. While the game goes on:
        its public picture now, and the viewer's own board; once it is finished: the public
        picture after any of its moves, with that moment's cycle, ``final`` only after the last.
        Any other move, cycle or kind would be a picture no page shows: drawing it on demand
        would let one link keep the drawing processes busy."""
        try:
            kind_, layout, cycle = asked["kind"], asked.get("layout", "landscape"), int(asked["cycle"])
            moves = int(asked["moves"]) if kind_ != "seat" else None
            seat = int(asked["seat"]) if kind_ == "seat" else None
        except (KeyError, TypeError, ValueError):
            return None
        if layout not in LAYOUTS:
            return None
        loaded = await self.store.load(game_id)
        if loaded is None or loaded.match is None:
            return None
        meta, match = loaded.meta, loaded.match
        if kind_ == "seat":
            if meta.status == FINISHED or match.is_terminal() or cycle != match.rhythm.cycle \
                    or user_id is None or meta.seat_of(user_id) != seat or not loaded.kind.presenter.private_pictures:
                return None
            # The seat's own board as it is now (its name says which of its states it shows).
            return RenderRequest(kind_, game_id, meta.moves, cycle, seat, layout)
        if kind_ not in ("map", "final") or moves is None:
            return None
        if meta.status == FINISHED:
            cycles = (await self.timeline(game_id)).cycles
            if not (0 <= moves < len(cycles) and cycles[moves] == cycle
                    and (kind_ == "final") == (moves == len(cycles) - 1)):
                return None
        elif (kind_ == "final") != match.is_terminal() or moves != public_moves(meta, loaded.kind, match) \
                or cycle != match.rhythm.cycle:
            return None
        return RenderRequest(kind_, game_id, moves, cycle, layout=layout)

    async def seat_of(self, game_id: int, user_id: str) -> tuple[int | None, str | None]:
        """``user_id``'s seat in the game (None: not seated) and the game's platform (None: no game)."""
        loaded = await self.store.load(game_id)
        if loaded is None:
            return None, None
        return loaded.meta.seat_of(user_id), loaded.meta.platform

    async def is_finished(self, game_id: int) -> bool:
        loaded = await self.store.load(game_id)
        return loaded is not None and loaded.meta.status == FINISHED



def _timeline(game_id: str, setup: dict[str, Any], moves: list[tuple[int, str]]) -> Timeline:
    match = kind(game_id).definition.resume(setup, [])
    starts, cycle = [0], match.rhythm.cycle
    cycles = [cycle]
    for count, (seat, text) in enumerate(moves, 1):
        match.apply(match.parse_choice(text), by=match.to_act()[0] if seat is None else seat)
        if match.rhythm.cycle != cycle and not match.is_terminal():
            cycle = match.rhythm.cycle
            starts.append(count)
        cycles.append(match.rhythm.cycle)
    return Timeline(starts, cycles)
