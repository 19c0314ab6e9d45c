"""``boardchat play --web``: the terminal serves the live board on 127.0.0.1 and prints its link;
a move made on the page interrupts the wait for a typed line, and the terminal goes on from it."""

from __future__ import annotations

import asyncio
import io
import os
import re

import aiohttp

from bot.service import GameService
from bot.terminal.play import EXIT_OK, PlayOptions, run_play
from bot.web import frames

SHORT_LINK = re.compile(r"http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]+$", re.M)


def live_url(link: str) -> str:
    """The page's socket for a board link: its pass moves from the fragment to the query."""
    page, _, fragment = link.replace("http://", "ws://").partition("#")
    return page.split("?")[0].replace("/board", "/live") + "?" + fragment


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
        assert "/board?game=paris-paris&lang=en#t=" in link     # its static board preloaded by name
        shown_before = out.getvalue().count("Ann, your turn")
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(live_url(link))
            await ws.send_json({"type": "hello", "since": None, "layout": "landscape", "at": None})
            state = (await ws.receive_json())["state"]
            assert state["seat"] == 0 and state["players"][0]["you"]
            while "choices" not in state:           # the AI may move first (later states: delta frames)
                frame = frames.decoded((await ws.receive()).data)
                assert frame is not None
                state = frames.merged(state, frame)
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


async def test_the_link_is_short(tmp_path):
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    out = io.StringIO()
    options = PlayOptions(kind="paris-paris", players=2, name="Ann", seed=4, db=tmp_path / "games.sqlite3",
                          maps=None, web_port=0)
    session = asyncio.ensure_future(run_play(options, stdin=stdin, stdout=out, colour=False))
    try:
        link = await board_link(out)
        short = SHORT_LINK.search(out.getvalue()).group(0)
        assert len(short) < 45 < len(link)          # one line, where the signed link wraps
        async with aiohttp.ClientSession() as http:
            async with http.get(short) as page:     # followed: the board's page itself
                assert page.status == 200 and "<html" in (await page.text()).lower()
            async with http.get(short[:-1] + ("x" if short[-1] != "x" else "y")) as wrong:
                assert wrong.status == 403          # a code that leads nowhere opens nothing
    finally:
        os.write(write, b"quit\n")
        os.close(write)
        assert await asyncio.wait_for(session, 30) == EXIT_OK
        stdin.close()


async def page_state(link: str) -> dict:
    """The state the board's page gets for ``link`` right after it says hello."""
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(live_url(link))
        await ws.send_json({"type": "hello", "since": None, "layout": "landscape", "at": None})
        message = await ws.receive_json()
        await ws.close()
        return message["state"]


async def test_a_finished_game_keeps_its_board_until_the_terminal_closes_it_and_can_be_reviewed(tmp_path):
    """At the end of a game the board shows it over (not a lost connection) until Enter; a finished
    game resumed with --web opens for review instead of "nothing to continue"."""
    db = tmp_path / "games.sqlite3"
    for resume in (False, True):
        read, write = os.pipe()
        stdin = os.fdopen(read, "r")
        out = io.StringIO()
        options = PlayOptions(kind="paris-paris", players=2, ai=2, seed=4, db=db, maps=None, web_port=0,
                              resume=resume, resume_id=1 if resume else None)
        session = asyncio.ensure_future(run_play(options, stdin=stdin, stdout=out, colour=False))
        try:
            link = await board_link(out)
            for _ in range(3000):      # (a safety net, not a timing: the end comes when the game is played)
                if "until you press Enter here" in out.getvalue() or session.done():
                    break
                await asyncio.sleep(0.05)
            assert "The board stays open in your browser until you press Enter here." in out.getvalue(), \
                out.getvalue()[-1500:]
            assert not session.done()
            state = await page_state(link)
            assert state["status"] == "finished"
            if resume:
                assert "Game 1 (Paris Paris) is over: its board shows the final standings" in out.getvalue()
                assert "nothing to continue" not in out.getvalue()
        finally:
            os.write(write, b"\n")
            os.close(write)
            code = await asyncio.wait_for(session, 60)
            stdin.close()
        assert code == EXIT_OK


class PageTapsWhileTheTerminalReads:
    """The service, with one tap on the web board that lands while the terminal looks at the game:
    the page's move is under way (its AI answer still being chosen) when the terminal asks for
    its choices, as a quick tap on the page does."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.raced = False
        self.tap: asyncio.Future | None = None

    def __getattr__(self, name: str):          # everything else, as the service has it
        return getattr(self.service, name)

    async def board(self, chat, user, *, private: bool = False):
        if self.raced or not private:
            return await self.service.board(chat, user, private=private)
        self.raced = True
        mine = await self.service.board(chat, user, private=True)
        info = await self.service.game_info(chat)
        play, choosing, release = self.service.play, asyncio.Event(), asyncio.Event()
        ai_choice = play.ai_choice

        async def held(loaded, seat):
            choosing.set()
            await release.wait()
            return await ai_choice(loaded, seat)

        play.ai_choice = held
        tap = asyncio.ensure_future(self.service.page_press(info.game_id, user, mine.buttons[0][0].payload))
        await choosing.wait()
        try:
            return await self.service.board(chat, user, private=True)    # the terminal looks now
        finally:
            play.ai_choice = ai_choice
            release.set()
            self.tap = tap


async def test_a_move_from_the_page_never_ends_the_terminal_game(tmp_path):
    from bot.terminal.play import TerminalSession
    from bot.web.server import WebBoard, WebSettings

    service = await GameService.open(str(tmp_path / "games.sqlite3"))
    board = await WebBoard.start(service, WebSettings(port=0))
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    out = io.StringIO()
    racing = PageTapsWhileTheTerminalReads(service)
    options = PlayOptions(kind="paris-paris", players=2, name="Ann", seed=4, maps=None, web_port=0,
                          db=tmp_path / "games.sqlite3")
    session = TerminalSession(racing, options, stdin=stdin, stdout=out, colour=False)
    await session.serve_board(board)
    running = asyncio.ensure_future(session.run())
    try:
        for _ in range(600):      # the tap made, the terminal asks again after it
            if racing.raced and out.getvalue().count("Your choice") >= 1 or running.done():
                break
            await asyncio.sleep(0.05)
        await asyncio.wait_for(racing.tap, 30)
        assert (await racing.tap).ok
        assert not running.done(), out.getvalue()[-1500:]
    finally:
        os.write(write, b"quit\n")
        os.close(write)
        code = await asyncio.wait_for(running, 30)
        stdin.close()
        await board.stop()
        await service.close()
    assert code == EXIT_OK, out.getvalue()[-1500:]
    assert "Something went wrong" not in out.getvalue()
    # the page's move is the game's: it is told here like any other
    assert out.getvalue().count("Ann opens a shop at") >= 1
