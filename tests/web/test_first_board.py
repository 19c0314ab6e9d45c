"""The first board sooner (issue 43): the page's first state in the answer to its pass's trade
(equal to the socket's first, the viewer's own only), its pictures drawn ahead, its script and style
sheet named in a preload header, and its text answers compressed."""

from __future__ import annotations

import asyncio
import gzip
import re

from web_kit import Page, serve, token

from bot.web.server import DRAWING_AHEAD, STATIC


async def trade(session, served, who, **extra) -> dict:
    link = token(served.board, served.game_id, who)
    async with session.post(f"{served.board.local_url}/api/pass", json={"pass": link, **extra}) as response:
        assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
        return await response.json()


async def test_the_pass_answer_carries_the_sockets_first_state(served, session):
    ann, bob = served.seat_user(0), served.seat_user(1)
    got = await trade(session, served, ann, layout="portrait")
    page = await Page.open(session, served.board.local_url, got["pass"], layout="portrait")
    assert got["first"] == await page.state()
    await page.close()
    # a page opening with the version it was given is sent nothing again
    again = await Page.open(session, served.board.local_url, got["pass"], since=got["first"]["version"],
                            layout="portrait")
    assert await again.drained() == []
    await again.close()
    # the viewer's own state: another seat's answer shows that seat, and its own secret only
    theirs = (await trade(session, served, bob, layout="portrait"))["first"]["state"]
    mine = got["first"]["state"]
    assert (mine["seat"], theirs["seat"]) == (0, 1)
    assert mine["secret"] != theirs["secret"]
    spectator = (await trade(session, served, None, layout="portrait"))["first"]["state"]
    assert spectator["seat"] is None and not spectator.get("secret")


async def test_without_a_layout_the_answer_is_the_pass_alone(served, session):
    got = await trade(session, served, served.seat_user(0))
    assert set(got) == {"pass", "seconds"}
    got = await trade(session, served, served.seat_user(0), layout="sideways")
    assert set(got) == {"pass", "seconds"}


async def test_the_first_states_pictures_are_drawn_ahead(tmp_path, session):
    # Papà Paolo: its page shows pictures the server draws (Paris Paris and Paris Connection draw
    # theirs in the page from a scene, and nothing is drawn ahead for them).
    served = await serve(str(tmp_path / "games.sqlite3"), game="papa-paolo")
    try:
        await _drawn_ahead(served, session)
    finally:
        await served.close()


async def _drawn_ahead(served, session) -> None:
    before = served.service.pictures.drawn
    got = await trade(session, served, served.seat_user(0), layout="portrait")
    pictures = [p for p in got["first"]["state"]["pictures"] if not p.get("scene")]
    assert pictures, "the game's page shows a drawn picture"
    while drawing := served.board.app[DRAWING_AHEAD]:
        await asyncio.gather(*drawing)
    drawn = served.service.pictures.drawn
    assert drawn - before == len(pictures)
    for picture in pictures:
        async with session.get(f"{served.board.local_url}/{picture['src']}&t={got['pass']}") as response:
            assert response.status == 200
    assert served.service.pictures.drawn == drawn, "the page's pictures were drawn again"


def _page_files() -> list[str]:
    html = (STATIC / "board.html").read_text(encoding="utf-8")
    return re.findall(r'<script (?:type="module" )?src="([^"]+)"', html) + re.findall(
        r'<link rel="stylesheet" href="([^"]+)"', html)


async def test_the_page_names_its_scripts_and_style_sheet_for_preloading(served, session):
    async with session.get(f"{served.board.local_url}/board") as response:
        links = response.headers["Link"]
    named = dict(re.findall(r"<([^>]+)>; rel=(\w+)", links))
    assert named == {"static/open.js": "preload", "static/board.js": "modulepreload", "static/board.css": "preload"}
    assert sorted(named) == sorted(_page_files())
    assert "as=style" in links.split("<static/board.css>")[1]
    assert links.split("<static/open.js>")[1].split(",")[0] == "; rel=preload; as=script"
    # the page's first request (open.js: its pass's trade) is asked for first, and run as the head is read
    assert list(named)[0] == "static/open.js"
    html = (STATIC / "board.html").read_text(encoding="utf-8")
    assert html.index('<script src="static/open.js">') < html.index("static/board.js") < html.index("</head>")


async def test_text_answers_are_gzipped_and_decode_to_the_same_bytes(served, session):
    url = served.board.local_url
    for path, file in (("static/open.js", "open.js"), ("static/board.js", "board.js"), ("static/board.css", "board.css")):
        plain = (STATIC / file).read_bytes()
        async with session.get(f"{url}/{path}", headers={"Accept-Encoding": "gzip"}, auto_decompress=False) as got:
            assert got.headers["Content-Encoding"] == "gzip" and got.headers["Vary"] == "Accept-Encoding"
            body = await got.read()
        assert gzip.decompress(body) == plain and len(body) < len(plain)
        async with session.get(f"{url}/{path}", headers={"Accept-Encoding": "identity"}) as got:
            assert "Content-Encoding" not in got.headers and await got.read() == plain
    # a browser's list of codings gets gzip too
    browser = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    async with session.get(f"{url}/board", headers=browser, auto_decompress=False) as got:
        assert got.headers["Content-Encoding"] == "gzip"
        page = gzip.decompress(await got.read())
    async with session.get(f"{url}/board", headers={"Accept-Encoding": "identity"}) as got:
        assert page == await got.read()
    # the first state's answer too; pictures are sent as they are
    link = token(served.board, served.game_id, served.seat_user(0))
    async with session.post(f"{url}/api/pass", json={"pass": link, "layout": "portrait"},
                            headers={"Accept-Encoding": "gzip"}) as got:
        assert got.headers["Content-Encoding"] == "gzip"
        answer = await got.json()
    picture = answer["first"]["state"]["pictures"][0]["src"]
    async with session.get(f"{url}/{picture}&t={answer['pass']}", headers={"Accept-Encoding": "gzip"}) as got:
        assert got.status == 200 and "Content-Encoding" not in got.headers


async def test_a_file_revalidated_is_answered_304_and_the_connection_goes_on(served, session):
    url = served.board.local_url
    gzipped = {"Accept-Encoding": "gzip"}
    async with session.get(f"{url}/static/board.js", headers=gzipped) as got:
        etag = got.headers["ETag"]
    for file in ("board.js", "board.css", "icon.svg"):
        async with session.get(f"{url}/static/{file}", headers={**gzipped, "If-None-Match": etag}) as got:
            assert (got.status, await got.read()) == ((304, b"") if file == "board.js" else (200, (STATIC / file).read_bytes()))
    # the pictures of the folder are served as before, on the same connections
    async with session.get(f"{url}/static/icon-32.png", headers=gzipped) as got:
        assert got.status == 200 and "Content-Encoding" not in got.headers
        assert await got.read() == (STATIC / "icon-32.png").read_bytes()
