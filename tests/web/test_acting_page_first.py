"""A tap's own page first (issue 43: tap to own page within 100 ms): the refresh a page's move
causes builds and sends that page's state before the other pages' views are built (a game of three
seats and four spectators' views takes 20-45 ms to build them all), then every other page's, as before."""

from __future__ import annotations

from test_live import acting
from web_kit import Page, choice, token

from bot.web.hub import Hub

LANGUAGES_LAYOUTS = (("en", "portrait"), ("en", "landscape"), ("de", "portrait"), ("de", "landscape"))


async def test_the_page_that_moved_is_built_and_sent_its_state_before_the_others(served, session, monkeypatch):
    url = served.board.local_url
    watchers = [await Page.open(session, url, token(served.board, served.game_id, None, language), layout=layout)
                for language, layout in LANGUAGES_LAYOUTS]
    starts = [await watcher.state() for watcher in watchers]
    seat = acting(starts[0])
    seats = {n: await Page.open(session, url, token(served.board, served.game_id, served.seat_user(n)),
                                layout="portrait") for n in range(3)}
    states = {n: await page.state() for n, page in seats.items()}

    built: list[set] = []
    sent: list[str | None] = []
    views, send = served.service.views, Hub.send

    async def counted_views(game_id, viewers):
        built.append(set(viewers))
        return await views(game_id, viewers)

    async def counted_send(page, *args):
        sent.append(page.user_id)
        await send(page, *args)

    monkeypatch.setattr(served.service, "views", counted_views)
    monkeypatch.setattr(Hub, "send", staticmethod(counted_send))
    mover = served.seat_user(seat)
    await seats[seat].send({"type": "act", "payload": choice(states[seat])})
    assert (await seats[seat].next_of("reply"))["ok"]
    for page, before in ((seats[n], states[n]) for n in seats):
        await page.state_after(before["version"])
    for watcher, before in zip(watchers, starts, strict=True):
        await watcher.state_after(before["version"])
    await served.board.hub.settled()

    assert built[0] == {(mover.id, "en", "portrait")}
    assert sent[0] == mover.id
    others = {(served.seat_user(n).id, "en", "portrait") for n in seats if n != seat} | {
        (None, language, layout) for language, layout in LANGUAGES_LAYOUTS}
    assert built[1] == others
    assert sorted(sent[1:], key=str) == sorted([served.seat_user(n).id for n in seats if n != seat] + [None] * 4, key=str)
    for page in (*watchers, *seats.values()):
        await page.close()
