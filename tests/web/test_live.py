"""Pages kept up to date: a page that resumes gets the state only if what it shows changed, its
version counting its own changes; and a move made on one page reaches every other page of the game (SQLite, one process; across
processes on PostgreSQL: test_live_processes.py)."""

from __future__ import annotations

from web_kit import Page, choice, stored, token


def acting(state: dict) -> int:
    return next(i for i, p in enumerate(state["state"]["players"]) if p.get("acting"))


async def open_seat(served, session, seat: int, **kw) -> Page:
    return await Page.open(session, served.board.local_url,
                           token(served.board, served.game_id, served.seat_user(seat)), **kw)


async def move_once(served, session) -> int:
    """The seat to act makes its first choice on its page; the game's stored moves after it."""
    spectator = await Page.open(session, served.board.local_url, token(served.board, served.game_id, None))
    seat = acting(await spectator.state())
    await spectator.close()
    page = await open_seat(served, session, seat)
    state = await page.state()
    await page.send({"type": "act", "payload": choice(state)})
    reply = await page.next_of("reply")
    assert reply["ok"], reply
    await page.close()
    return (await stored(served.service, served.game_id))[1]


async def test_a_page_resuming_at_its_version_gets_no_state_until_the_game_moved(served, session):
    url, pass_ = served.board.local_url, token(served.board, served.game_id, None)
    first = await Page.open(session, url, pass_)
    version = (await first.state())["version"]
    assert version == 1                        # the first state of this viewer's stream
    await first.close()

    same = await Page.open(session, url, pass_, since=version)
    assert await same.drained() == []          # nothing moved: nothing sent
    await same.close()

    moves = await move_once(served, session)
    behind = await Page.open(session, url, pass_, since=version)
    got = await behind.state()
    assert got["version"] == version + 1       # one change of what it shows, however many commits
    assert got["state"]["pictures"][0]["src"].count(f"moves={moves}") == 1
    assert await behind.drained() == []        # once, and nothing more
    await behind.close()

    current = await Page.open(session, url, pass_, since=got["version"])
    assert await current.drained() == []
    await current.close()


async def test_a_move_on_one_page_reaches_the_other_pages_of_the_game(served, session):
    url = served.board.local_url
    watcher = await Page.open(session, url, token(served.board, served.game_id, None))
    start = await watcher.state()
    seat = acting(start)
    pages = {n: await open_seat(served, session, n) for n in range(3)}
    states = {n: await page.state() for n, page in pages.items()}
    assert "choices" in states[seat]["state"]
    assert all("choices" not in states[n]["state"] for n in pages if n != seat)
    before = await stored(served.service, served.game_id)

    await pages[seat].send({"type": "act", "payload": choice(states[seat])})
    assert (await pages[seat].next_of("reply"))["ok"]

    after = await stored(served.service, served.game_id)
    assert after[0] > before[0] and after[1] == before[1] + 1
    latest = {}
    for name, page in (("watcher", watcher), *pages.items()):
        shown = start["version"] if name == "watcher" else states[name]["version"]
        latest[name] = await page.state_after(shown)
        assert latest[name]["version"] == shown + 1
        assert f"moves={after[1]}" in latest[name]["state"]["pictures"][0]["src"]
    # the next seat to act is offered its choices on its page, and nobody else is
    following = acting(latest["watcher"])
    assert following != seat
    assert [n for n in pages if "choices" in latest[n]["state"]] == [following]
    assert await watcher.drained() == []       # one state per move
    for page in (watcher, *pages.values()):
        await page.close()


async def test_a_page_resuming_where_its_stream_is_unknown_is_sent_its_state(served, session):
    """A page resuming at a version this process never numbered (it was served by another process,
    or before a restart) gets its state, under a version past its own."""
    pass_ = token(served.board, served.game_id, served.seat_user(0))
    page = await Page.open(session, served.board.local_url, pass_, since=7)
    got = await page.state()
    assert got["version"] == 8
    assert await page.drained() == []
    await page.close()
