"""Page pictures come after the chats' (``Pictures.render_for_page``): a chat picture never waits
for a page's queue, at most one page picture takes a drawing slot, and past ``PAGE_WAITING``
waiting page pictures a page is told to come back with nothing drawn. The drawing is replaced by a
gate the test opens, so the order is the pictures' order, not a race."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.delivery.pictures import PAGE_WAITING, Drawn, Pictures, PicturesBusy


class Gated(Pictures):
    """Pictures whose drawing waits until the test lets it finish; the order drawings began in."""

    def __init__(self) -> None:
        super().__init__(None, at_once=2)       # two slots, as the bot's two drawing processes
        self.began: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    async def _draw_now(self, render: dict, language: str, platform: str) -> Drawn | None:
        name = render["name"]
        self.began.append(name)
        await self.gates.setdefault(name, asyncio.Event()).wait()
        return Drawn(name.encode())

    def finish(self, name: str) -> None:
        self.gates.setdefault(name, asyncio.Event()).set()


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def chat(pictures: Gated, name: str, rank: int = 2) -> asyncio.Task:
    async def image() -> bytes | None:
        drawn = await pictures.render({"name": name, "game_id": 1}, "en", "telegram", rank)
        return None if drawn is None else drawn.image
    return asyncio.ensure_future(image())


def page(pictures: Gated, name: str) -> asyncio.Task:
    return asyncio.ensure_future(pictures.render_for_page({"name": name, "game_id": 1}, "en"))


async def test_a_chat_picture_goes_before_every_waiting_page_picture():
    pictures = Gated()
    pages = [page(pictures, f"page{n}") for n in range(3)]
    await settled()
    assert pictures.began == ["page0"]           # one page picture at a time, one slot left free
    round_picture = chat(pictures, "round")
    await settled()
    assert pictures.began == ["page0", "round"]  # the free slot is the chat's at once
    busy = [chat(pictures, "prompt", rank=0), chat(pictures, "other")]
    pictures.finish("page0")
    await settled()
    assert pictures.began == ["page0", "round", "prompt"]    # the chats' waiting pictures first
    pictures.finish("round")
    await settled()
    assert pictures.began[-1] == "other"
    for name in ("prompt", "other", "page1", "page2"):
        pictures.finish(name)
        await settled()
    assert pictures.began[-2:] == ["page1", "page2"]
    assert [await task for task in (*pages, round_picture, *busy)] == [
        b"page0", b"page1", b"page2", b"round", b"prompt", b"other"]


async def test_past_the_waiting_bound_a_page_is_refused_and_nothing_more_is_drawn():
    pictures = Gated()
    drawing = [page(pictures, f"page{n}") for n in range(PAGE_WAITING + 1)]   # one drawing, the rest waiting
    await settled()
    with pytest.raises(PicturesBusy):
        await pictures.render_for_page({"name": "one too many", "game_id": 1}, "en")
    again = page(pictures, "page3")              # the same picture as one on its way: shared, not refused
    chat_picture = chat(pictures, "round")       # and the chats are not bound by the pages' queue
    await settled()
    assert pictures.began == ["page0", "round"]
    for n in range(PAGE_WAITING + 1):
        pictures.finish(f"page{n}")
    pictures.finish("round")
    assert await again == b"page3" and await chat_picture == b"round"
    await asyncio.gather(*drawing)
    assert "one too many" not in pictures.began and len(pictures.began) == PAGE_WAITING + 2
