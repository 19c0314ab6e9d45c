"""``boardchat play --web``: the terminal serves the live board on 127.0.0.1 and prints its link;
a move made on the page interrupts the wait for a typed line, and the terminal goes on from it."""

from __future__ import annotations

import asyncio
import io
import os
import re

import aiohttp

from bot.terminal.play import EXIT_OK, PlayOptions, run_play

SHORT_LINK = re.compile(r"http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]+$", re.M)


async def board_link(out: io.StringIO) -> str:
    """The long board link the short one printed leads to (waiting for it to be printed)."""
    for _ in range(200):
        if SHORT_LINK.search(out.getvalue()):
            break
        await asyncio.sleep(0.05)
    short = SHORT_LINK.search(out.getvalue())
    assert short is not None, out.getvalue()
    async with aiohttp.ClientSession() as http, http.get(short.group(0), allow_redirects=False) as answer:
        assert answer.status == 302
        base = short.group(0).split("/p/")[0]
        return base + answer.headers["Location"]


async def test_the_terminal_serves_the_board_and_a_move_there_goes_on_here(tmp_path):
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    out = io.StringIO()
    options = PlayOptions(kind="paris-paris", players=2, name="Ann", seed=4, db=tmp_path / "games.sqlite3",
                          maps=None, web_port=0)
    session = asyncio.ensure_future(run_play(options, stdin=stdin, stdout=out, colour=False))
    try:
        link = await board_link(out)
        shown_before = out.getvalue().count("Ann, your turn")
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(link.replace("http://", "ws://").replace("/board?", "/live?"))
            await ws.send_json({"type": "hello", "since": None, "layout": "landscape", "at": None})
            state = (await ws.receive_json())["state"]
            assert state["seat"] == 0 and state["players"][0]["you"]
            while "choices" not in state:           # the AI may move first
                state = (await ws.receive_json())["state"]
            await ws.send_json({"type": "act", "payload": state["choices"]["spots"][0]["act"]})
            reply = await ws.receive()
            while reply.type == aiohttp.WSMsgType.TEXT and reply.json()["type"] != "reply":
                reply = await ws.receive()
            assert reply.type == aiohttp.WSMsgType.TEXT and reply.json()["ok"], (reply, out.getvalue()[-3000:])
        # The terminal, waiting for a line, shows what followed the move and asks again.
        for _ in range(200):
            if out.getvalue().count("Ann, your turn") > shown_before:
                break
            await asyncio.sleep(0.05)
        assert out.getvalue().count("Ann, your turn") > shown_before, out.getvalue()[-1500:]
    finally:
        os.write(write, b"quit\n")
        os.close(write)
        code = await asyncio.wait_for(session, 30)
        stdin.close()
    assert code == EXIT_OK
    assert "Traceback" not in out.getvalue()
