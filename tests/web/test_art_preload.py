"""The first board sooner (issue 43): a link says its game's kind and language in its query (not
secret, not signed), and the page's answer names that game's static board for preloading, one per
layout, for the screens that ask for it: the browser fetches it beside the script instead of after
the state. A forged or unknown kind, or none (older links), preloads nothing and refuses nothing."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from web_kit import token

from bot.games import KINDS
from bot.web import art
from bot.web.server import ART_DRAWING, LAYOUT_MEDIA, PRELOAD

GAME = "paris-paris"          # ``serve``'s game


def preloaded(links: str) -> dict[str, str]:
    """The images a ``Link`` header preloads, each with its media query."""
    return dict(re.findall(r'<([^>]+)>; rel=preload; as=image; media="([^"]+)"', links))


async def page_links(served, session, query: str = "") -> str:
    async with session.get(f"{served.board.local_url}/board{query}") as response:
        assert response.status == 200
        return response.headers["Link"]


async def test_a_link_says_its_game_and_language_and_the_page_preloads_its_static_board(served, session):
    await served.board.app[ART_DRAWING]
    link = served.board.link(served.game_id, "fake", None, "Guest", "de", kind=GAME)
    parts = urlsplit(link)
    assert (parts.path, parts.query) == ("/board", f"game={GAME}&lang=de")
    assert parts.fragment.startswith("t=")
    links = await page_links(served, session, f"?{parts.query}")
    assert links.startswith(PRELOAD)
    got = preloaded(links)
    assert got == {url: LAYOUT_MEDIA[layout] for layout in LAYOUT_MEDIA
                   for url in (art.url(GAME, f"map-{layout}"), art.url(GAME, f"names-{layout}"), art.url(GAME, "legend-de"))}
    for url in got:
        async with session.get(f"{served.board.local_url}/{url}") as response:
            assert response.status == 200 and response.content_type == "image/webp"


async def test_the_preloaded_art_is_what_the_first_state_shows(served, session):
    """The preload is used only if the page's state names the very addresses: each layout's first
    scene shows every picture preloaded for it."""
    await served.board.app[ART_DRAWING]
    for layout in LAYOUT_MEDIA:
        pass_ = token(served.board, served.game_id, served.seat_user(0))
        async with session.post(f"{served.board.local_url}/api/pass", json={"pass": pass_, "layout": layout}) as got:
            state = (await got.json())["first"]["state"]
        (scene,) = [picture["scene"] for picture in state["pictures"] if picture.get("scene")]
        shown = {scene["board"], scene["over"], *scene["sprites"].values()}
        wanted = set(art.opening_urls(GAME, layout, "en"))
        assert wanted and wanted <= shown
        assert scene["board"] in wanted


async def test_a_forged_or_unknown_kind_preloads_nothing_and_refuses_nothing(served, session):
    await served.board.app[ART_DRAWING]
    for query in ("?game=chess&lang=en", "?game=../../etc/passwd", "?game=map-portrait", "?game=" + "x" * 4000,
                  f"?game=chess&game={GAME}", f"?lang=en&game={GAME.upper()}", "?game=",
                  "", "?lang=fr"):
        links = await page_links(served, session, query)
        assert links == PRELOAD, query
    # an unknown language preloads the game's board with the legend in the default language
    for language in ("<script>", "%00", "x" * 4000):
        assert set(preloaded(await page_links(served, session, f"?game={GAME}&lang={language}"))) == {
            url for layout in LAYOUT_MEDIA for url in art.opening_urls(GAME, layout, "en")}


async def test_every_game_drawn_in_a_page_preloads_the_art_of_its_every_scene(served, session):
    """Each registered game's opening art is of its closed set, and its page's answer names it."""
    await served.board.app[ART_DRAWING]
    for game, kind in KINDS.items():
        for layout in LAYOUT_MEDIA:
            names = kind.presenter.board_art(layout, "en")
            assert set(names) <= kind.presenter.art_names()
            assert bool(names) == bool(kind.presenter.art_names()), game
        links = preloaded(await page_links(served, session, f"?game={game}&lang=en"))
        assert set(links) == {url for layout in LAYOUT_MEDIA for url in art.opening_urls(game, layout, "en")}


async def test_nothing_is_drawn_for_a_preload(served, session, monkeypatch):
    """Art not drawn yet (a board just started) is not named, and the page's answer draws none."""
    await served.board.app[ART_DRAWING]
    monkeypatch.setattr(art, "_DRAWN", {})
    presenter = KINDS[GAME].presenter

    def refused(self, name: str) -> bytes:
        raise AssertionError(f"{name} drawn for a page's answer")

    monkeypatch.setattr(type(presenter), "art", refused)
    assert await page_links(served, session, f"?game={GAME}&lang=en") == PRELOAD


async def test_an_old_link_without_the_query_opens_as_before(served, session):
    link = served.board.link(served.game_id, "fake", None, "Guest", "en")
    assert urlsplit(link).query == ""
    assert await page_links(served, session) == PRELOAD
