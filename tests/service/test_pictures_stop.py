"""A stop while pictures are drawn (issue 46: SIGTERM a few seconds after a game's end, its
animation being drawn): the drawing in hand is finished or handed back, said in one line, with no
error, no pool broken by the signal and no task left pending."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from service_helpers import chat, start_game, user

from bot.games import kind
from bot.service.delivery.lifeline import Lifeline
from bot.service.delivery.pictures import drawing_process
from bot.service.game.outmessage import RenderRequest


def request(game_id: int) -> RenderRequest:
    return RenderRequest("map", game_id, 0, 1)


async def test_a_stop_hands_back_a_drawing_it_cannot_wait_for(service, monkeypatch, caplog):
    game_id = await start_game(service, chat(1), [user("Ann"), user("Bob")], options={"seed": 4})
    release = threading.Event()

    def slow(*_, **__) -> bytes:
        release.wait(10)          # a drawing that outlasts the stop's patience
        return b"png"

    monkeypatch.setattr(kind("paris-paris").presenter, "render", slow)
    caplog.set_level(logging.INFO, logger="bot.service.delivery.pictures")
    sending = asyncio.ensure_future(service.pictures.render(request(game_id), "en", "telegram"))
    await asyncio.sleep(0)
    try:
        await service.pictures.stop(grace=0.01)
    finally:
        release.set()
    assert not service.pictures._drawing              # noqa: SLF001 - nothing left pending
    assert [r.levelno for r in caplog.records] == [logging.INFO]
    assert "0 picture(s) being drawn were finished, 1 handed back" in caplog.records[0].getMessage()
    sending.cancel()


async def test_a_stop_waits_for_a_drawing_that_ends_in_time(service, monkeypatch, caplog):
    game_id = await start_game(service, chat(1), [user("Ann"), user("Bob")], options={"seed": 4})
    monkeypatch.setattr(kind("paris-paris").presenter, "render", lambda *_, **__: b"png")
    caplog.set_level(logging.INFO, logger="bot.service.delivery.pictures")
    sending = asyncio.ensure_future(service.pictures.render(request(game_id), "en", "telegram"))
    await asyncio.sleep(0)
    await service.pictures.stop(grace=30)
    assert (await sending).image == b"png"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == [
        "stopping: 1 picture(s) being drawn were finished, 0 handed back to the outbox (sent after the next start)"]


def signals_ignored() -> tuple[bool, bool]:
    return (signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.getsignal(signal.SIGTERM) == signal.SIG_IGN)


def test_a_drawing_process_leaves_the_stop_signals_to_the_bot():
    """Ctrl+C reaches the whole process group: a drawing process that took it would break the pool
    ("the drawing processes died drawing ...") while the bot stops cleanly."""
    context = get_context("spawn")
    lifeline = Lifeline(context)
    with ProcessPoolExecutor(1, mp_context=context, initializer=drawing_process, initargs=lifeline.initargs) as pool:
        assert pool.submit(signals_ignored).result(timeout=60) == (True, True)
    lifeline.close()
