"""Web twins: two served boards, each with the same game, that differ only in one seat's secret:
a dealt one (tests/conformance/twins.py ``TWINS``: the second board's game is dealt the twin), or
one seat's private planning (the same Papà Paolo game brought by the same public moves to a
delivery phase, ``moves_to_planning``, where that seat then plans on one board only). What every
other viewer gets must be the same on both boards: every frame on its socket, versions included,
and the set of pictures ``/picture`` answers for its pass.

The pages are real WebSockets (aiohttp's client) on real servers; ``Hub.settled`` is the barrier
after each action (the refresh it started has sent what it sends), then a probe drains each
socket (``Page.drained``), so "nothing came" is said without waiting. A delta frame is compared
both as sent and as the whole state the page holds after it (``web_kit.Page``).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from conformance.twins import TWINS, moves_to_planning
from service.service_helpers import chat, start_game, user
from web_kit import Page, token

from bot.contract import User
from bot.games import kind
from bot.service import GameService
from bot.service.board.page import PageRequest
from bot.service.delivery.pictures import Drawn
from bot.web.server import WebBoard, WebSettings

GAME = "papa-paolo"
NAMES = ("Ann", "Bob", "Cy")
PNG = b"\x89PNG\r\n\x1a\n"
Viewer = int | None          # a seat, or None: a spectator


@dataclass
class Twin:
    """One of the twins: its service, its board, the game, and each watching viewer's page and frames."""

    service: GameService
    board: WebBoard
    game_id: int
    users: list[User]
    pages: dict[Viewer, Page] = field(default_factory=dict)
    frames: dict[Viewer, list[dict[str, Any]]] = field(default_factory=dict)

    async def press(self, seat: int, text: str) -> None:
        """``seat`` makes the choice written ``text`` as its page offers it (the signed payload of
        the menu item), through the service's own path for a tap."""
        state = await self.service.page(PageRequest(self.game_id, seat, "en"))
        assert state is not None and state.choices is not None, f"seat {seat} has nothing to choose"
        payload = next((item.act for item in state.choices.items() if item.choice == text), None)
        if payload is None:         # a choice the menu nests too deep: typed, as the terminal does
            reply = await self.service.move(chat(1), self.users[seat], text)
        else:
            reply = await self.service.page_press(self.game_id, self.users[seat], payload)
        assert reply.ok, (seat, text, reply.text)

    async def press_as_its_button(self, seat: int, text: str) -> None:
        """``seat`` makes the choice written ``text`` with the payload its chat button carries (no
        page built: the public moves before the twins part)."""
        loaded = await self.service.store.load(self.game_id)
        meta, match = loaded.meta, loaded.match
        index = [str(c) for c in match.legal_choices(seat)].index(text)
        payload = self.service.codec.encode("c", meta.id, seat, match.moves_by(seat), meta.turn.acting_since(seat),
                                            index)
        reply = await self.service.page_press(self.game_id, self.users[seat], payload)
        assert reply.ok, (seat, text, reply.text)

    async def watch(self, session: aiohttp.ClientSession, viewers: list[Viewer]) -> None:
        for viewer in viewers:
            self.pages[viewer] = await Page.open(session, self.board.local_url, self.pass_of(viewer))
            self.frames[viewer] = []
        await self.sync()

    def pass_of(self, viewer: Viewer) -> str:
        return token(self.board, self.game_id, None if viewer is None else self.users[viewer])

    async def sync(self) -> None:
        """Every frame each watching page was sent since the last sync, added to its stream."""
        await self.board.hub.settled()
        for viewer, page in self.pages.items():
            self.frames[viewer] += await page.drained()

    def streams(self) -> dict[Viewer, list[Any]]:
        return {viewer: unsigned(frames) for viewer, frames in self.frames.items()}

    async def close(self) -> None:
        for page in self.pages.values():
            await page.close()
        await self.board.stop()
        await self.service.close()


def unsigned(value: Any) -> Any:
    """Frames without their payloads' signatures (each database signs with its own key)."""
    if isinstance(value, dict):
        return {key: (item.rsplit("_", 1)[0] if key == "act" else unsigned(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [unsigned(item) for item in value]
    return value


async def open_twins(tmp_path: Path, seed: int, *, game: str = GAME, dealt_apart: int | None = None,
                     monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[tuple[Twin, Twin], frozenset[int]]:
    """Two boards, each with a started game of three humans dealt alike (the same seed); with
    ``dealt_apart``, the second dealt the twin in which that seat's secret differs. Returns the
    twins and the seats whose secret differs."""
    definition = kind(game).definition
    real = definition.new_match
    changed: frozenset[int] = frozenset()

    def twin_deal(players: list[str], *, seed: int, options: dict | None = None) -> Any:
        nonlocal changed
        setup = real(players, seed=seed, options=options).stored_setup()
        setup, changed = TWINS[game](setup, dealt_apart, random.Random(seed))
        return definition.resume(setup, [])

    twins = []
    for n in (0, 1):
        service = await GameService.open(str(tmp_path / f"twin{n}.sqlite3"))

        async def drawn(render: dict, language: str, platform: str, rank: int = 2) -> Drawn:
            return Drawn(PNG)         # what a picture shows is the page twins' business; which are answered is this test's

        service.pictures.render = drawn
        users = [user(name) for name in NAMES]
        if n and dealt_apart is not None and monkeypatch is not None:
            with monkeypatch.context() as patch:
                patch.setattr(definition, "new_match", twin_deal)
                game_id = await start_game(service, chat(1), users, options={"game": game, "seed": seed})
        else:
            game_id = await start_game(service, chat(1), users, options={"game": game, "seed": seed})
        board = await WebBoard.start(service, WebSettings(port=0))
        twins.append(Twin(service, board, game_id, users))
    return (twins[0], twins[1]), changed


async def public_position(twin: Twin) -> tuple:
    """The public view and events of the game now (the twins part once the game reveals the secret)."""
    match = (await twin.service.store.load(twin.game_id)).match
    return match.view(None), match.log_for(None)


async def press_alike(twins: tuple[Twin, Twin], rng: random.Random) -> bool:
    """A seat to act makes the same choice on both boards, one both pages offer it (False:
    nobody is to act, or no choice is offered on both)."""
    info = await twins[0].service.game_info(game_id=twins[0].game_id)
    if not info.to_act:
        return False
    seat = rng.choice(info.to_act)
    offered = []
    for twin in twins:
        state = await twin.service.page(PageRequest(twin.game_id, seat, "en"))
        offered.append({item.choice: item.act for item in state.choices.items() if item.act is not None})
    both = sorted(set(offered[0]) & set(offered[1]))
    if not both:
        return False
    choice = rng.choice(both)
    for twin, acts in zip(twins, offered, strict=True):
        reply = await twin.service.page_press(twin.game_id, twin.users[seat], acts[choice])
        assert reply.ok, reply.text
    return True


async def to_planning(twins: tuple[Twin, Twin], seat: int, seed: int) -> None:
    """The same public moves on both boards, up to a delivery phase with every seat to plan."""
    loaded = await twins[0].service.store.load(twins[0].game_id)
    definition = loaded.kind.definition
    moves = moves_to_planning(definition, loaded.meta.setup, seat, random.Random(seed))
    assert moves is not None, "the game ended before a delivery phase"
    for mover, text in moves:
        for twin in twins:
            await twin.press_as_its_button(mover, text)


async def picture_answers(twin: Twin, session: aiohttp.ClientSession, viewers: list[Viewer],
                          top_moves: int) -> set[tuple]:
    """Which pictures ``/picture`` answers (200) for each viewer's pass, out of every public
    picture up to ``top_moves`` moves and every seat's own board, in the cycle under way."""
    loaded = await twin.service.store.load(twin.game_id)
    cycles = [loaded.match.rhythm.cycle]      # public: the twins are in the same one
    asked: list[tuple[Viewer, dict[str, str]]] = []
    for shown in ("map", "final"):
        asked += [(None, {"kind": shown, "moves": str(m), "cycle": str(c), "layout": "landscape"})
                  for m in range(top_moves + 2) for c in cycles]
    for viewer in viewers:
        asked += [(viewer, {"kind": "seat", "seat": str(s), "steps": "0", "phase": "0", "cycle": str(c),
                            "layout": "landscape"}) for s in range(len(NAMES)) for c in cycles]
    gate = asyncio.Semaphore(8)

    async def answered(viewer: Viewer, query: dict[str, str]) -> tuple | None:
        async with gate, session.get(f"{twin.board.local_url}/picture",
                                     params={**query, "t": twin.pass_of(viewer)}) as response:
            await response.read()
            assert response.status in (200, 404), (response.status, query)
            return (viewer, tuple(sorted(query.items()))) if response.status == 200 else None

    got = await asyncio.gather(*(answered(viewer, query) for viewer, query in asked))
    return {answer for answer in got if answer is not None}
