"""The picture endpoint draws only what a page can show: while a game goes on, its public picture
now (and a seat's own board, for that seat); once it is finished, the public picture after each of
its moves with that moment's cycle, ``final`` only after the last. Every other name is refused
with a 404 before anything is drawn (``Pictures.drawn`` stays put)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from service.service_helpers import chat, play_to_end, start_game, user
from web_kit import Page, choice, token

from bot.board import LAYOUTS, PageRequest
from bot.web.hub import picture_source


def named(src: str) -> dict[str, str]:
    """A page's picture source as the query the endpoint reads."""
    return dict(parse_qsl(urlsplit(src).query))


async def status(served, session, pass_: str, asked: dict[str, str]) -> int:
    async with session.get(f"{served.board.local_url}/picture", params={"t": pass_, **asked}) as response:
        await response.read()
        return response.status


async def test_a_game_under_way_shows_its_picture_now_and_nothing_else(served, session):
    spectator = token(served.board, served.game_id, None)
    page = await Page.open(session, served.board.local_url, spectator)
    start = await page.state()
    first = named(start["state"]["pictures"][0]["src"])
    assert first["kind"] == "map"
    assert await status(served, session, spectator, first) == 200

    seat = next(i for i, p in enumerate(start["state"]["players"]) if p.get("acting"))
    acting = await Page.open(session, served.board.local_url,
                             token(served.board, served.game_id, served.seat_user(seat)))
    state = await acting.state()
    await acting.send({"type": "act", "payload": choice(state)})
    assert (await acting.next_of("reply"))["ok"]
    now = named((await page.state_after(state["version"]))["state"]["pictures"][0]["src"])
    assert int(now["moves"]) == int(first["moves"]) + 1

    drawn = served.service.pictures.drawn
    refused = [
        first,                                            # an old move of a game under way
        {**now, "kind": "final"},                         # the final standings before the end
        {**now, "cycle": str(int(now["cycle"]) + 1)},     # a cycle not reached
        {**now, "cycle": "0"},                            # ... or not the one under way
        {**now, "moves": str(int(now["moves"]) + 1)},     # a move not made
        {**now, "layout": "sideways"},
        {**now, "kind": "seat", "seat": "0"},             # a game without a seat's own board
    ]
    for asked in refused:
        assert await status(served, session, spectator, asked) == 404, asked
    assert served.service.pictures.drawn == drawn         # refused before anything was drawn
    for layout in LAYOUTS:
        assert await status(served, session, spectator, {**now, "layout": layout}) == 200
    for open_page in (page, acting):
        await open_page.close()


async def test_a_finished_game_shows_each_of_its_moves_at_its_cycle_and_final_only_at_the_end(served, session):
    people = [user("Eve"), user("Fay")]
    game = await start_game(served.service, chat(2), people, options={"seed": 5})
    await play_to_end(served.service, chat(2), {u.id: u for u in people})
    loaded = await served.service.store.load(game)
    total = loaded.meta.moves
    assert loaded.meta.status == "finished" and total > 4

    shown = []
    for at in range(total + 1):
        for layout in LAYOUTS:
            state = await served.service.page(PageRequest(game, None, "en", layout, at))
            shown.append(named(picture_source(state.pictures[0].render)))
    assert [p["kind"] for p in shown].count("final") == len(LAYOUTS)
    for asked in shown:             # every picture a page shows, and no drawing to find that out
        assert await served.service.pages.picture_request(game, asked, None) is not None, asked

    last = shown[-1]
    middle = shown[total]           # after about half the moves
    wrong = [
        {**middle, "kind": "final"},
        {**last, "kind": "map"},
        {**last, "moves": str(total + 1)},
        {**middle, "cycle": str(int(middle["cycle"]) + 1)},
        {**middle, "cycle": str(int(middle["cycle"]) - 1)},
        {**middle, "kind": "seat", "seat": "0"},
    ]
    spectator = token(served.board, game, None)
    drawn = served.service.pictures.drawn
    for asked in wrong:
        assert await status(served, session, spectator, asked) == 404, asked
    assert served.service.pictures.drawn == drawn
    assert await status(served, session, spectator, last) == 200
