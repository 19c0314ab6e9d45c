"""The board drawn in the page: the static board fetched once, the scene's pieces drawn over it, the
last move animated (not where the reader asks for reduced motion), no picture fetched per move."""

from __future__ import annotations

from browser_kit import PHONE, play_by_taps
from test_hardened_page import LISTEN

SCENE = "window.boardState.pictures[0].scene"
DRAWN = "() => window.boardState && window.boardDrawn === window.boardVersion"
PIECES = "#world svg.pieces g[data-key]"


async def _open(browser, table, game: str = "paris-connection", ais: int = 2, **options):
    """Ann's page of a new game against ``ais`` AIs, drawn: the game, the page, the addresses it fetched."""
    game_id = await table.game(game, ["Ann"], ai=ais)
    page = await browser.new_page(viewport=PHONE, **options)
    await page.add_init_script(LISTEN)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    await page.goto(table.link(game_id, "Ann"))
    await page.wait_for_function(DRAWN)
    return game_id, page, fetched


SPOTS = "window.boardState.choices?.spots || []"


async def _move(page) -> None:
    """Ann taps a lit hex (a locomotive goes there), and the page draws the state that follows."""
    await _hexes_lit(page)
    await _tap(page, f"() => ({SPOTS}).find((spot) => spot.outline).act")


async def _hexes_lit(page) -> None:
    """Until Ann's lit places are hexes: a build begun from its company's row if none is."""
    await page.wait_for_function(f"() => ({SPOTS}).length > 0")
    if not await page.evaluate(f"() => ({SPOTS}).some((spot) => spot.outline)"):
        await _tap(page, f"() => ({SPOTS})[0].act")
        await page.wait_for_function(f"() => ({SPOTS}).some((spot) => spot.outline)")


async def _tap(page, payload: str) -> None:
    before = await page.evaluate("window.boardVersion")
    act = await page.evaluate(payload)
    await page.locator(f'.spot[data-act="{act}"]').click()
    await page.wait_for_function(f"() => window.boardVersion > {before} && window.boardDrawn === window.boardVersion")


async def _drawn_pieces(page, computed: bool = False) -> dict[str, list[float]]:
    """Each drawn piece's place, by key: as the page set it, or (``computed``) where it stands now."""
    read = "getComputedStyle(node).transform" if computed else "node.style.transform"
    return await page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll('{PIECES}')].map((node) => {{
        const m = new DOMMatrix({read}); return [node.dataset.key, [m.m41, m.m42]]; }}))""")


def _at(drawn: list[float], x: float, y: float) -> bool:
    return abs(drawn[0] - x) < 0.01 and abs(drawn[1] - y) < 0.01


async def test_the_scene_draws_every_piece_over_a_board_fetched_once(browser, table):
    _, page, fetched = await _open(browser, table)
    for _ in range(3):
        scene = await page.evaluate(f"() => {SCENE}")
        drawn = await _drawn_pieces(page)
        assert scene["pieces"], "a Paris Connection board starts with locomotives"
        assert sorted(drawn) == sorted(piece[0] for piece in scene["pieces"])
        for key, _sprite, x, y, _size in scene["pieces"]:
            assert _at(drawn[key], x, y), key
        # The panel's words and the rims are drawn too, and the static board under them.
        assert await page.locator("#world svg.above text").count() == sum(1 for d in scene["above"] if d[0] == "words")
        assert await page.locator("#world img").first.get_attribute("src") == scene["board"]
        await _move(page)
    # The board and each sprite were fetched once, and no picture is drawn per move.
    boards = [url for url in fetched if "/art/" in url]
    assert len(boards) == len(set(boards))
    assert not [url for url in fetched if "/picture" in url]
    # Drawn under the page's strict policy: pieces placed through the CSSOM, no style attribute.
    assert await page.evaluate("window.violations") == []


async def test_a_move_animates_and_ends_at_its_place(browser, table):
    _, page, _ = await _open(browser, table)
    await _hexes_lit(page)
    before = set(await _drawn_pieces(page))
    # Counted in the page as the state is drawn: the animations the new state started.
    await page.evaluate("""() => { window.sceneAnimations = null; const seen = window.boardVersion;
        const look = () => { if (window.boardDrawn !== undefined && window.boardVersion !== seen)
            window.sceneAnimations = document.getAnimations().filter((a) => a.effect.target.closest('svg.pieces')).length;
          else requestAnimationFrame(look); };
        requestAnimationFrame(look); }""")
    await _move(page)
    await page.wait_for_function("() => window.sceneAnimations !== null")
    assert await page.evaluate("window.sceneAnimations") > 0
    # At most 300 ms, and then every piece stands where the scene puts it.
    durations = await page.evaluate("() => document.getAnimations().map((a) => a.effect.getTiming().duration)")
    assert all(duration <= 300 for duration in durations)
    await page.wait_for_function("() => document.getAnimations().length === 0", timeout=5_000)
    await page.wait_for_function(DRAWN)
    scene = await page.evaluate(f"() => {SCENE}")
    drawn = await _drawn_pieces(page, computed=True)
    assert set(drawn) - before, "the move put a locomotive down"
    for key, _sprite, x, y, _size in scene["pieces"]:
        assert _at(drawn[key], x, y), key


async def test_reduced_motion_draws_the_move_without_animation(browser, table):
    _, page, _ = await _open(browser, table, reduced_motion="reduce")
    await _hexes_lit(page)
    await page.evaluate("""() => { window.sceneAnimations = 0;
        new MutationObserver(() => { window.sceneAnimations = Math.max(window.sceneAnimations,
            document.getAnimations().filter((a) => a.effect.target.closest('svg.pieces')).length); })
          .observe(document.getElementById('world'), { subtree: true, childList: true, attributes: true }); }""")
    before = set(await _drawn_pieces(page))
    await _move(page)
    assert set(await _drawn_pieces(page)) - before, "the move put a locomotive down"
    assert await page.evaluate("window.sceneAnimations") == 0
    assert await page.evaluate("() => document.getAnimations().length") == 0


SHOPS = "#world svg.above g[data-key^='shop@']"


async def _played(browser, table, game: str, ais: int, *, seed: int, until: str) -> tuple:
    """Ann's page of a new game against ``ais`` AIs, played by taps until ``until`` holds and
    drawn: the page, the addresses it fetched, and the scene it drew last."""
    _, page, fetched = await _open(browser, table, game, ais)
    await play_by_taps(page, seed=seed, until=until)
    await page.wait_for_function(DRAWN)
    return page, fetched, await page.evaluate(f"() => {SCENE}")


async def test_paris_paris_draws_its_scene_with_initials_over_letterless_shops(browser, table):
    """Paris Paris's pieces (the offer's rings), shops and panel drawn from its scene, the players'
    initials as words over letterless shops, over a board fetched once: no picture per move."""
    page, fetched, scene = await _played(browser, table, "paris-paris", 1, seed=3,
                                         until=f"document.querySelectorAll(\"{SHOPS}\").length >= 3")
    drawn = await _drawn_pieces(page)
    assert sorted(drawn) == sorted(piece[0] for piece in scene["pieces"])
    for key, _sprite, x, y, *_size in scene["pieces"]:
        assert _at(drawn[key], x, y), key
    above = [d[1:] for d in scene["above"] if d[0] == "piece"]
    shops = await page.evaluate(f"""() => [...document.querySelectorAll("{SHOPS}")].map((node) => {{
        const m = new DOMMatrix(node.style.transform);
        return [node.dataset.key, node.dataset.sprite, m.m41, m.m42, node.firstChild.getAttribute('href')]; }})""")
    wanted = [(key, name, x, y, scene["sprites"][name]) for key, name, x, y, *_ in above if key.startswith("shop@")]
    assert len(shops) == len(wanted) >= 3
    for (key, name, x, y, href), got in zip(wanted, shops, strict=True):
        assert got[:2] == [key, name] and _at(got[2:4], x, y) and got[4] == href
    # The initials are words over the letterless shops; every word of the scene is drawn.
    texts = await page.locator("#world svg.above text").all_text_contents()
    marks = [scene["above"][i + 1] for i, d in enumerate(scene["above"]) if d[0] == "piece" and d[1].startswith("shop@")]
    assert all(mark[0] == "words" and mark[1] in ("An", "Ad") for mark in marks)   # Ann and Ada, the AI
    assert "An" in texts
    assert len(texts) == sum(1 for d in scene["above"] if d[0] == "words")
    assert await page.locator("#world img").first.get_attribute("src") == scene["board"]
    art = [url for url in fetched if "/art/" in url]
    assert len(art) == len(set(art)) and not [url for url in fetched if "/picture" in url]
    assert await page.evaluate("window.violations") == []


async def test_papa_paolo_draws_its_board_from_its_scene(browser, table):
    """Papà Paolo's board (no static part: shapes and words over a paper) drawn as its scene says.
    (While seats plan in private the public board is the phase's start, shown as a picture.)"""
    page, fetched, scene = await _played(browser, table, "papa-paolo", 2, seed=5,
                                         until=f"{SCENE} && {SCENE}.above.length > 300")
    assert scene["board"].rsplit("/", 1)[1].startswith("paper.") and not scene["pieces"]
    texts = await page.locator("#world svg.above text").all_text_contents()
    assert texts == [d[1] for d in scene["above"] if d[0] == "words"]
    shapes = await page.locator("#world svg.above > :not(text)").count()
    assert shapes == sum(1 for d in scene["above"] if d[0] not in ("words", "piece"))
    assert await page.locator("#world img").first.get_attribute("src") == scene["board"]
    art = [url for url in fetched if "/art/papa-paolo/" in url]
    assert len(art) == 1 and "/paper." in art[0], "its one art, the paper, fetched once"
    assert await page.evaluate("window.violations") == []
