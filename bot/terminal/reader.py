"""Reading the player's lines without blocking the event loop.

A daemon thread reads standard input and hands whole lines to the loop. It reads the
file descriptor with ``os.read`` rather than through ``sys.stdin``'s buffer, so a thread
still waiting for a line when the game exits holds no interpreter lock and cannot stall
or crash the shutdown. Streams without a descriptor (tests) are read line by line.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import threading
from typing import TextIO


class LineReader:
    """``await reader.readline()`` gives the next line without its newline, None at end of input."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._queue: asyncio.Queue[str | None] | None = None
        self._thread: threading.Thread | None = None
        self._eof = False

    async def readline(self) -> str | None:
        if self._eof:
            return None
        if self._queue is None:
            self._start()
        assert self._queue is not None
        line = await self._queue.get()
        if line is None:
            self._eof = True
        return line

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        queue = self._queue

        def post(line: str | None) -> None:
            # RuntimeError: the loop has closed and nobody is waiting any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(queue.put_nowait, line)

        fd = _fileno(self._stream)
        target = _read_fd if fd is not None else _read_stream
        source = fd if fd is not None else self._stream
        self._thread = threading.Thread(target=target, args=(source, post), name="stdin-reader",
                                        daemon=True)
        self._thread.start()


def _fileno(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _read_fd(fd: int, post) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        pending += decoder.decode(chunk, final=not chunk)
        while "\n" in pending:
            line, pending = pending.split("\n", 1)
            post(line.rstrip("\r"))
        if not chunk:
            if pending:
                post(pending.rstrip("\r"))
            post(None)
            return


def _read_stream(stream: TextIO, post) -> None:
    while True:
        try:
            line = stream.readline()
        except (OSError, ValueError):
            line = ""
        if not line:
            post(None)
            return
        post(line.rstrip("\r\n"))
