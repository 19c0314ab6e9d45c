"""Pictures: locomotives in their colours at their hexes, highlights, barriers, nothing cut off,
shapes that tell the companies apart without colour, and the final standings."""

from __future__ import annotations

import math

import pytest
from pc_render_kit import close, load, near_colour, played
from PIL import ImageChops

from engine.paris_connection.board import BARRIERS, COMPANIES
from engine.paris_connection.events import HoldingsChanged
from renderers import style
from renderers.paris_connection import palette, render_final, render_map, scenes
from renderers.paris_connection.mapimage import geometry, hex_xy, token_xy
from renderers.paris_connection.presenter import PRESENTER

GAMES = [(3, 11), (4, 12), (5, 13), (6, 14)]


def rim_point(hex_id: str, width: int = 1280, layout: str = "landscape") -> tuple[int, int]:
    """A point on a hex's highlight rim: the middle of its right edge (the upper edges may lie
    under the name of the city above, which is drawn over locomotives and rims)."""
    x, y = hex_xy(hex_id, width, layout)
    r = geometry(width, layout).size * 0.9 * math.cos(math.radians(30))
    return round(x + r), round(y)


def locomotives(view):
    yield from ((h, c) for h, colours in view.board.items() for c in colours)
    if view.draft is not None:
        yield from ((h, view.draft.colour) for h in view.draft.hexes)


def panel_edge_is_clean(img, box) -> bool:
    """No ink in the strip along the panel's right edge: no text ran past its margin."""
    x0, y0, x1, y1 = box
    strip = img.crop((x1 - 8, y0 + 3, x1, y1)).getcolors(maxcolors=1 << 16)   # below its top rule
    return all(close(colour, style.PANEL, 12) for _, colour in strip)


@pytest.mark.parametrize("players, seed", GAMES)
def test_every_locomotive_is_drawn_in_its_colour_on_its_hex(players, seed):
    _, steps = played(players, seed)
    for index in (len(steps) // 3, len(steps) - 1):
        view, _, _, events = steps[index]
        img = load(render_map(view, events=events))
        for hex_id, colour in locomotives(view):
            assert near_colour(img, token_xy(view, hex_id, colour), palette.COMPANY_RGB[colour], radius=2,
                               tolerance=45), (hex_id, colour)
        assert panel_edge_is_clean(img, geometry().panel)


def test_the_build_under_way_is_highlighted_and_shown_in_the_panel():
    scene = scenes.building(4)
    view = scene.view
    img = load(render_map(view, events=scene.events))
    for hex_id in view.draft.hexes:
        assert near_colour(img, rim_point(hex_id), palette.DRAFT, radius=2, tolerance=40), hex_id
    quiet = next(h for h in ("K24", "A9", "T21") if h not in view.draft.hexes and h not in view.legal_hexes)
    assert not near_colour(img, rim_point(quiet), palette.DRAFT, radius=2, tolerance=40)
    before = load(render_map(view, events=scene.events, language="de"))
    assert before.size == img.size


def test_what_a_finished_build_placed_is_highlighted():
    _, steps = played(4, 12)
    view, _, _, events = next(s for s in steps if any(e.kind == "build_completed" for e in s[3]))
    built = next(e for e in events if e.kind == "build_completed")
    img = load(render_map(view, events=events))
    plain = load(render_map(view))
    for hex_id in built.hexes:
        assert near_colour(img, rim_point(hex_id), palette.RECENT, radius=2, tolerance=40), hex_id
        assert not near_colour(plain, rim_point(hex_id), palette.RECENT, radius=2, tolerance=40), hex_id


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
def test_barriers_are_dashed_red_on_the_shared_edge(layout):
    view = scenes.after_cycle(3).view
    img = load(render_map(view, layout=layout))
    g = geometry(1280, layout)
    for edge in sorted(sorted(e) for e in BARRIERS)[:8]:
        (ax, ay), (bx, by) = (hex_xy(h, 1280, layout) for h in edge)
        length = math.hypot(bx - ax, by - ay)
        ux, uy = -(by - ay) / length, (bx - ax) / length
        along = -g.size / 2 + g.size / max(2, round(g.size / max(2.0, g.size * 0.25))) / 2   # first dash's middle
        point = (round((ax + bx) / 2 + ux * along), round((ay + by) / 2 + uy * along))
        assert near_colour(img, point, palette.BARRIER, radius=2, tolerance=40), edge


def test_portrait_puts_the_panel_under_a_larger_map():
    view = scenes.after_cycle(6).view
    tall = load(render_map(view, layout="portrait"))
    wide = load(render_map(view))
    assert tall.height > tall.width and wide.width > wide.height
    assert geometry(1280, "portrait").size > geometry().size * 1.4
    assert panel_edge_is_clean(tall, geometry(1280, "portrait").panel)


def test_private_events_change_nothing_in_the_picture():
    scene = scenes.after_cycle(4)
    secret = HoldingsChanged(0, {"red": 9, "blue": 9, "black": 9, "brown": 9, "yellow": 9, "purple": 9})
    shown = PRESENTER.render("map", scene.view, [*scene.events, secret], "en")
    assert shown == PRESENTER.render("map", scene.view, scene.events, "en")


def deuteranopia(rgb) -> tuple[float, float, float]:
    """Machado, Oliveira & Fernandes (2009), severity 1, on linear-ish sRGB: enough to compare colours."""
    m = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
    return tuple(sum(m[i][j] * rgb[j] for j in range(3)) for i in range(3))


def test_companies_that_look_alike_to_colour_blind_eyes_differ_in_shape():
    masks = {c: palette.token(c, 40).getchannel("A").point(lambda a: 255 if a > 128 else 0) for c in COMPANIES}
    confusable = 0
    for i, a in enumerate(COMPANIES):
        for b in COMPANIES[i + 1:]:
            if math.dist(deuteranopia(palette.COMPANY_RGB[a]), deuteranopia(palette.COMPANY_RGB[b])) >= 60:
                continue
            confusable += 1
            both = ImageChops.multiply(masks[a], masks[b]).histogram()[255]
            either = ImageChops.lighter(masks[a], masks[b]).histogram()[255]
            assert both / either < 0.8, (a, b)
    assert confusable, "the simulation finds no look-alikes: it would prove nothing"


@pytest.mark.parametrize("players, seed", GAMES)
def test_the_final_picture_shows_winners_scores_and_the_value_chart(players, seed):
    match, _ = played(players, seed)
    view = match.view(None)
    img = load(render_final(view, language="fr"))
    assert img.width == 1280
    colours = {colour for _, colour in img.getcolors(maxcolors=1 << 16)}
    assert any(close(c, style.HIGHLIGHT, 10) for c in colours)               # the winner's row
    for company in COMPANIES:
        assert any(close(c, palette.COMPANY_RGB[company], 30) for c in colours), company
    assert panel_edge_is_clean(img, (0, 0, img.width, img.height))


def test_the_value_chart_tells_its_lines_apart_by_shape_along_them(monkeypatch):
    """Each company's line carries its shape at points of its own, not only at its end."""
    from renderers.paris_connection import final

    rounds = {c: final.marker_rounds(16, i) for i, c in enumerate(COMPANIES)}
    assert all(len(r) >= 2 for r in rounds.values()), rounds
    every = [i for r in rounds.values() for i in r]
    assert len(every) == len(set(every))           # staggered: no two shapes on the same round
    match, _ = played(4, 12)
    view = match.view(None)
    with_shapes = load(render_final(view, language="en"))
    monkeypatch.setattr(final, "marker_rounds", lambda points, offset: [])
    plain = load(render_final(view, language="en"))
    chart = (0, with_shapes.height // 2, with_shapes.width, with_shapes.height)      # below the table
    assert ImageChops.difference(with_shapes.crop(chart).convert("RGB"), plain.crop(chart).convert("RGB")).getbbox()


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
def test_the_map_names_its_cities_and_draws_the_coast_of_france(layout):
    """Under every city hex a white tag carries its name; France's coast and borders are drawn."""
    from engine.paris_connection.board import HEXES

    view = played(3, 11)[1][0][0]
    img = load(render_map(view, events=[], language="en", layout=layout)).convert("RGB")
    g = geometry(1280, layout)
    for hex_id, cell in HEXES.items():
        if cell.kind != "city":
            continue
        x, y = hex_xy(hex_id, 1280, layout)
        tag = img.crop((x - 6, round(y + g.size * 0.6), x + 6, round(y + g.size * 0.95)))
        inks = {colour for _, colour in tag.getcolors(maxcolors=1 << 16)}
        assert any(close(c, palette.NAME_TAG, 12) for c in inks), (hex_id, cell.city)     # the tag
        assert any(sum(c) < 450 for c in inks), (hex_id, cell.city)                        # letters on it
    coast = sum(n for n, colour in img.getcolors(maxcolors=1 << 16) if close(colour, palette.COAST, 10))
    assert coast > 1000
