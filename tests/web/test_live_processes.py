"""Live pages across bot processes on PostgreSQL: this test's process serves one board
(server A), a second OS process (web_worker.py) another (server B), on one database; with
``watch_other_processes`` on, a move made through a page on either reaches the pages open on
the other (LISTEN/NOTIFY), with the moves the database holds, each page's version one on. Skips without
PostgreSQL, except under CI=true."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import web_worker
from test_live import acting
from web_kit import Page, choice, serve, stored, token

WORKER = str(Path(web_worker.__file__))


async def test_a_move_through_one_server_reaches_the_pages_on_another_process(postgres_url, session):
    a = await serve(postgres_url)
    await a.service.watch_other_processes()
    proc = await asyncio.create_subprocess_exec(sys.executable, WORKER, postgres_url,
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        assert line.startswith(b"port "), line
        url_a, url_b = a.board.local_url, f"http://127.0.0.1:{int(line.split()[1])}"
        passes = [token(a.board, a.game_id, None)] + [token(a.board, a.game_id, a.seat_user(n)) for n in range(3)]
        # a pass signed by one process opens pages on the other: the key is the database's
        on_a = [await Page.open(session, url_a, p) for p in passes]
        on_b = [await Page.open(session, url_b, p) for p in passes]
        version = (await stored(a.service, a.game_id))[0]
        last = {page: await page.state() for page in on_a + on_b}
        assert {got["version"] for got in last.values()} == {1}      # each viewer's stream begins

        for makers, others in ((on_a, on_b), (on_b, on_a)):
            seat = acting(last[makers[0]])
            maker = makers[1 + seat]
            await maker.send({"type": "act", "payload": choice(last[maker])})
            assert (await maker.next_of("reply"))["ok"]
            now = await stored(a.service, a.game_id)
            assert now[0] > version
            for page in others + makers:
                shown = last[page]["version"]
                last[page] = await page.state_after(shown)
                assert last[page]["version"] == shown + 1             # its own change, counted
                assert f"moves={now[1]}" in last[page]["state"]["pictures"][0]["src"]
            version = now[0]
        for page in on_a + on_b:
            await page.close()
    finally:
        if proc.returncode is None:
            proc.stdin.close()
            await asyncio.wait_for(proc.wait(), 30)
        await a.board.stop()
        await a.service.close()
