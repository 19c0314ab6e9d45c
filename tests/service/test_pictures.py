"""Pictures drawn once per request, the ones a waiting player's prompt sits behind first, and
in processes of their own when the bot is configured so."""

from __future__ import annotations

import asyncio
import os

import msgspec
import pytest
from service_helpers import chat, start_game, user

from bot.config import ConfigError, Settings, drawing_processes_setting
from bot.games import kind
from bot.service import GameService
from bot.service.delivery.pictures import PAGE_NICENESS, Pictures
from bot.service.delivery.priority import RankedSlots
from bot.service.game.outmessage import RenderRequest


def request(game_id: int, moves: int = 0) -> RenderRequest:
    return RenderRequest("map", game_id, moves, 1)


async def test_a_picture_is_drawn_once_for_the_same_request(service, monkeypatch):
    game_id = await start_game(service, chat(1), [user("Ann"), user("Bob")], options={"seed": 4})
    drawn = []

    def recorder(what, view, events, language, *, layout="landscape"):
        drawn.append((what, language, layout))
        return f"png {language} {layout}".encode()

    monkeypatch.setattr(kind("paris-paris").presenter, "render", recorder)
    pictures = service.pictures
    together = await asyncio.gather(*(pictures.render(request(game_id), "en", "telegram") for _ in range(3)))
    assert [d.image for d in together] == [b"png en portrait"] * 3 and len(drawn) == 1   # three asked at once: one drawing
    assert (await pictures.render(request(game_id), "en", "telegram")).image == b"png en portrait"
    assert len(drawn) == 1                                               # sent again: kept
    assert (await pictures.render(request(game_id), "de", "telegram")).image == b"png de portrait"
    assert (await pictures.render(request(game_id), "en", "discord")).image == b"png en landscape"
    assert pictures.drawn == len(drawn) == 3                             # another language, another layout


async def test_a_failed_drawing_is_not_kept(service, monkeypatch):
    game_id = await start_game(service, chat(1), [user("Ann"), user("Bob")], options={"seed": 4})
    outcomes = iter([RuntimeError("font missing"), b"png"])

    def flaky(*_, **__):
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(kind("paris-paris").presenter, "render", flaky)
    assert await service.pictures.render(request(game_id), "en", "fake") is None     # the message goes without
    assert (await service.pictures.render(request(game_id), "en", "fake")).image == b"png"


async def test_slots_go_to_the_lowest_rank_first_then_by_arrival():
    slots = RankedSlots(1)
    order: list[str] = []
    await slots.acquire(2)                      # the only slot is taken

    async def draw(name: str, rank: int) -> None:
        await slots.acquire(rank)
        order.append(name)
        slots.release()

    waiting = [asyncio.ensure_future(draw(name, rank))
               for name, rank in (("map a", 2), ("map b", 2), ("map before a prompt", 1), ("map c", 2))]
    await asyncio.sleep(0)
    gone = asyncio.ensure_future(draw("cancelled", 0))
    await asyncio.sleep(0)
    gone.cancel()
    slots.release()
    await asyncio.gather(*waiting)
    assert order == ["map before a prompt", "map a", "map b", "map c"]
    await asyncio.wait_for(slots.acquire(0), 1)  # every slot came back


async def test_drawn_in_processes_of_their_own_the_picture_is_the_same(tmp_path):
    """The drawing processes get the stored game and draw what a thread draws."""
    svc = await GameService.open(str(tmp_path / "games.sqlite3"), drawing_processes=1)
    try:
        game_id = await start_game(svc, chat(1), [user("Ann"), user("Bob")], options={"seed": 4})
        # a chat's picture, and a page's, drawn in the pages' own process (both started at once)
        in_process, page = await asyncio.gather(svc.pictures.render(request(game_id), "en", "telegram"),
                                                svc.pictures.render_for_page(msgspec.structs.replace(request(game_id), layout="portrait"),
                                                                             "en"))
        in_thread = await Pictures(svc.storage).render(request(game_id), "en", "telegram")
        assert in_process is not None and in_process.image[:8] == b"\x89PNG\r\n\x1a\n"
        assert in_process == in_thread                                   # the picture and its words
        assert svc.pictures._chats_pool._executor is not None            # drawn in another process
        # The pages' process draws at a lower CPU priority.
        assert page is not None and page[:8] == b"\x89PNG\r\n\x1a\n"
        pages = svc.pictures._pages_pool.executor()
        niceness = await asyncio.get_running_loop().run_in_executor(pages, os.nice, 0)
        assert niceness == min(19, os.nice(0) + PAGE_NICENESS)
    finally:
        await svc.close()
    assert svc.pictures._chats_pool._executor is None                    # stopped with the service
    assert svc.pictures._pages_pool._executor is None


def test_drawing_processes_are_configured_like_the_other_settings():
    assert drawing_processes_setting(Settings({}, {})) == 2
    assert drawing_processes_setting(Settings({"BOARDCHAT_DRAWING_PROCESSES": "0"}, {})) == 0
    with pytest.raises(ConfigError):
        drawing_processes_setting(Settings({"BOARDCHAT_DRAWING_PROCESSES": "-1"}, {}))
