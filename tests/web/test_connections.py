"""The board's connections (``bot.web.connections``): a connection that does not finish its
request's headers in time is answered 408 and closed; past the cap the oldest silent connection
makes room for a new one, so a normal request is served beside a crowd of silent ones; when every
connection is busy a new one is answered 503 at once; and the loop's "out of open files" accept
error is said once a minute, not each time."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import limited_worker
import pytest
from web_kit import WAIT, Page, serve, token

from bot.web.connections import ACCEPT_ERROR, AcceptErrors, ConnectionLimits
from bot.web.server import WebSettings


@pytest.fixture
async def board_with(tmp_path, request):
    got = await serve(str(tmp_path / "games.sqlite3"),
                      settings=WebSettings(port=0, connections=request.param))
    yield got
    await got.board.stop()
    await got.service.close()


async def silent(served) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", served.board.port)


async def answer(reader: asyncio.StreamReader) -> bytes:
    """All the server says until it closes the connection (a hang fails after WAIT seconds)."""
    return await asyncio.wait_for(reader.read(), WAIT)


@pytest.mark.parametrize("board_with", [ConnectionLimits(header_seconds=0.2)], indirect=True)
async def test_half_a_request_line_is_answered_408_and_closed(board_with):
    reader, writer = await silent(board_with)
    writer.write(b"GET /boa")
    await writer.drain()
    got = await answer(reader)
    assert got.startswith(b"HTTP/1.1 408 ")
    writer.close()


@pytest.mark.parametrize("board_with", [ConnectionLimits(header_seconds=0.2)], indirect=True)
async def test_a_body_sent_a_byte_at_a_time_is_answered_408_and_closed(board_with):
    reader, writer = await silent(board_with)
    writer.write(b"POST /api/telegram HTTP/1.1\r\nHost: board\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"init_data\": ")
    await writer.drain()
    got = await answer(reader)
    assert got.startswith(b"HTTP/1.1 408 ")
    writer.close()


@pytest.mark.parametrize("board_with", [ConnectionLimits(connections=4, header_seconds=60)], indirect=True)
async def test_silent_connections_past_the_cap_make_room_and_a_request_is_served(board_with, session):
    crowd = [await silent(board_with) for _ in range(8)]
    async with session.get(f"{board_with.board.local_url}/board") as response:
        assert response.status == 200
        await response.read()
    for reader, _ in crowd[:5]:                  # the oldest silent ones were closed, in order
        assert (await answer(reader)).startswith(b"HTTP/1.1 408 ")
    assert board_with.board.site.connections.open <= 4
    for _, writer in crowd:
        writer.close()


@pytest.mark.parametrize("board_with", [ConnectionLimits(connections=2, header_seconds=60)], indirect=True)
async def test_when_every_connection_is_busy_a_new_one_is_answered_503(board_with, session):
    url, pass_ = board_with.board.local_url, token(board_with.board, board_with.game_id, None)
    pages = [await Page.open(session, url, pass_) for _ in range(2)]
    for page in pages:
        await page.state()
    reader, writer = await silent(board_with)
    assert (await answer(reader)).startswith(b"HTTP/1.1 503 ")
    assert board_with.board.site.connections.refused == 1
    writer.close()
    await pages[0].close()


async def test_under_a_low_open_files_limit_a_crowd_of_silent_connections_leaves_the_board_serving(tmp_path):
    """The issue's attack: 300 silent connections to a board whose process may open 256 files."""
    log = open(tmp_path / "worker.log", "wb")     # noqa: SIM115 - the worker writes it until it ends
    worker = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(limited_worker.__file__)), str(tmp_path / "games.sqlite3"), "256",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log)
    crowd = []
    try:
        line = await asyncio.wait_for(worker.stdout.readline(), 60)
        assert line.startswith(b"port "), line
        port = int(line.split()[1])
        crowd = [await asyncio.open_connection("127.0.0.1", port) for _ in range(300)]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /board HTTP/1.1\r\nHost: board\r\nConnection: close\r\n\r\n")
        assert (await answer(reader)).startswith(b"HTTP/1.1 200 ")
        for silent_reader, _ in crowd[:100]:     # the oldest made room for the others
            assert (await answer(silent_reader)).startswith(b"HTTP/1.1 408 ")
    finally:
        for _, silent_writer in crowd:
            silent_writer.close()
        worker.stdin.close()
        await asyncio.wait_for(worker.wait(), WAIT)
        log.close()
    said = (tmp_path / "worker.log").read_text()
    # The board kept serving (above); running out of files for a moment (the worker's own files
    # under load) is said once a minute at most, never as a traceback (before: 30,547 of them).
    assert said.count("Too many open files") <= 1 and "Traceback" not in said, said[:2000]
    assert "at most 128 connections" in said        # the cap fitted under the limit, and said so


def test_out_of_open_files_is_said_once_a_minute(caplog):
    now = [0.0]
    passed_on = []
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(lambda _, context: passed_on.append(context["message"]))
        errors = AcceptErrors(loop, clock=lambda: now[0])
        errors.install()
        handler = loop.get_exception_handler()
        failure = {"message": ACCEPT_ERROR, "exception": OSError(24, "Too many open files")}
        with caplog.at_level(logging.ERROR, logger="bot.web.connections"):
            for step in range(3000):             # 3,000 failed accepts over 90 seconds
                now[0] = step * 0.03
                handler(loop, failure)
            handler(loop, {"message": "something else"})
        said = [r.getMessage() for r in caplog.records]
        assert len(said) == 2, said
        assert "Too many open files" in said[0] and "more since" in said[1]
        assert passed_on == ["something else"]
        errors.remove()
        assert loop.get_exception_handler() is not handler
    finally:
        loop.close()
