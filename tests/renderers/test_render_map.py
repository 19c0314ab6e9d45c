"""The map image: real properties of the picture for every phase and 2-4 players."""

from __future__ import annotations

import math

import pytest
from PIL import Image
from render_testkit import close, count_colour, load, near_colour

from engine.paris_paris import Game
from engine.paris_paris.board import CROSSINGS, LINES
from renderers import paris_paris as renderers
from renderers import style
from renderers.paris_paris import buslines, layout, mapimage, scenes
from renderers.paris_paris.layout import label_boxes
from renderers.players import colour as player_colour

PLAYER_COUNTS = (2, 3, 4)


def _check_offer(img: Image.Image, view, width: int) -> None:
    """Every offered tile has a badge in its colour, and lone offers a ring around the station."""
    s = width / 1280
    for i, tile in enumerate(view.offer):
        rgb = buslines.COLOURS[tile.colour]
        bx, by = layout.offer_badge_xy(view.offer, i, width)
        side = round(8 * s)
        assert near_colour(img, (bx - side, by), rgb) or near_colour(img, (bx + side, by), rgb), \
            f"badge {i + 1} for {tile} not in {tile.colour}"
        same = [t for t in view.offer if t.station == tile.station]
        if len(same) == 1 and not view.board.get(tile.station):
            x, y = layout.station_xy(tile.station, width)
            r = 22 * s
            hits = sum(near_colour(img, (round(x + r * math.cos(a)), round(y + r * math.sin(a))), rgb, radius=1)
                       for a in (k * math.pi / 8 for k in range(16)))
            assert hits >= 4, f"no {tile.colour} ring around {tile.station} ({hits} samples)"


def _check_shops(img: Image.Image, view, width: int) -> None:
    for station, owners in view.board.items():
        for slot, owner in enumerate(owners):
            xy = layout.house_fill_xy(station, slot, len(owners), width)
            assert near_colour(img, xy, player_colour(owner).rgb, radius=1), \
                f"shop of seat {owner} at {station} not drawn in its colour"


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_lobby(n):
    names = scenes.players(n)
    img = load(renderers.render_lobby(names, title="Tea room"))
    assert img.size == (1280, 800)
    panel = (layout.MAP_WIDTH, 0, 1280, 800)
    for seat in range(n):
        assert count_colour(img, panel, player_colour(seat).rgb, 20) > 200, f"seat {seat} missing from the lobby"
    for seat in range(n, 4):
        assert count_colour(img, panel, player_colour(seat).rgb, 20) < 60


def test_empty_lobby_and_board():
    img = load(renderers.render_lobby([]))
    assert img.size == (1280, 800)
    # Every line is drawn in its colour next to its first stop.
    for colour, stops in LINES.items():
        (x0, y0), (x1, y1) = layout.station_xy(stops[0]), layout.station_xy(stops[1])
        mid = ((x0 + x1) // 2, (y0 + y1) // 2)
        assert near_colour(img, mid, buslines.COLOURS[colour]), colour


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_mid_round(n):
    scene = scenes.mid_round(n)
    view = scene.game.view(None)
    assert view.offer and view.board
    img = load(renderers.render_map(view))
    assert img.size == (1280, 800)
    _check_offer(img, view, 1280)
    _check_shops(img, view, 1280)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_mid_round_at_other_widths(n):
    view = scenes.mid_round(n).game.view(None)
    for width in (640, 800, 1600):
        img = load(renderers.render_map(view, width=width))
        assert img.size == (width, round(800 * width / 1280))
        _check_offer(img, view, width)
        _check_shops(img, view, width)
        # The side panel shows every player's house too, at any width.
        panel = (round(layout.MAP_WIDTH * width / 1280), 0, width, img.height)
        for seat in range(n):
            assert count_colour(img, panel, player_colour(seat).rgb, 20) > 60 * (width / 1280) ** 2, seat


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_eviction_pending(n):
    scene = scenes.eviction_pending(n)
    view = scene.game.view(None)
    tile = scene.pending_tile
    owners = view.eviction_options(tile)
    assert len(owners) == 2
    plain = load(renderers.render_map(view))
    img = load(renderers.render_map(view, pending_tile=tile))
    _check_shops(img, view, 1280)
    # A red dashed ring around the station, and both candidate shops outlined in red.
    x, y = layout.station_xy(tile.station)
    ring = [(round(x + 35 * math.cos(a)), round(y + 35 * math.sin(a))) for a in (k * math.pi / 12 for k in range(24))]
    red_now = sum(near_colour(img, p, style.EVICT, radius=1) for p in ring)
    red_before = sum(near_colour(plain, p, style.EVICT, radius=1) for p in ring)
    assert red_now >= red_before + 6
    for slot in range(2):
        hx, hy = layout.house_xy(tile.station, slot, 2)
        h = layout.HOUSE_SIZE
        box = (hx - h // 2 - 4, hy - h // 2 - 4, hx + h // 2 + 4, hy + h // 2 + 6)
        assert count_colour(img, box, style.EVICT) > count_colour(plain, box, style.EVICT) + 20


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_after_big_tour(n):
    scene = scenes.big_tour(n)
    view = scene.game.view(None)
    tour = next(e for e in scene.events if e.kind == "big_tour")
    plain = load(renderers.render_map(view))
    img = load(renderers.render_map(view, events=scene.events))
    _check_shops(img, view, 1280)
    # The toured line glows: beside the line, pixels change towards the line colour.
    rgb = buslines.COLOURS[tour.colour]
    stops = LINES[tour.colour]
    changed = 0
    for a, b in zip(stops, stops[1:], strict=False):
        (x0, y0), (x1, y1) = layout.station_xy(a), layout.station_xy(b)
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        px, py = round((x0 + x1) / 2 + nx * 11), round((y0 + y1) / 2 + ny * 11)
        before, after = plain.getpixel((px, py)), img.getpixel((px, py))
        if before != after and sum(abs(p - c) for p, c in zip(after, rgb, strict=True)) < \
                sum(abs(p - c) for p, c in zip(before, rgb, strict=True)):
            changed += 1
    assert changed >= 4
    # A points tag at each crossing where someone scored.
    for halt in tour.halts:
        if any(halt.points):
            box = layout.map_boxes(view, scene.events).tags[(halt.station, tour.colour)]
            assert count_colour(img, box, (255, 255, 255), 12) > count_colour(plain, box, (255, 255, 255), 12) + 100


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_after_eviction(n):
    scene = scenes.eviction_done(n)
    view = scene.game.view(None)
    index, evicted = next((i, e) for i, e in enumerate(scene.events) if e.kind == "shop_evicted")
    img = load(renderers.render_map(view, events=scene.events))
    plain = load(renderers.render_map(view))
    box = layout.map_boxes(view, scene.events).tags[(evicted.station, "evicted", index)]
    # The mark sits near the station (or just under its name, clear of the other stations' names:
    # tests/renderers/test_paris_paris_marks.py): the evicted owner's colour and the red cross.
    x, y = layout.station_xy(evicted.station)
    assert abs((box[0] + box[2]) / 2 - x) < 100 and abs((box[1] + box[3]) / 2 - y) < 100
    assert count_colour(img, box, style.EVICT, 12) > count_colour(plain, box, style.EVICT, 12) + 30
    assert count_colour(img, box, player_colour(evicted.owner).rgb, 20) > 30


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_final_map(n):
    scene = scenes.final(n)
    view = scene.game.view(None)
    assert view.finished and not view.offer
    img = load(renderers.render_map(view, events=scene.events))
    _check_shops(img, view, 1280)
    # The winner's row in the panel is highlighted.
    panel = (layout.MAP_WIDTH, 90, 1280, 340)
    assert count_colour(img, panel, style.HIGHLIGHT, 6) > 3000


def test_private_view_shows_own_marker_only():
    game = Game.new(["ann", "bob", "cat"], seed=11)
    public = load(renderers.render_map(game.view(None)))
    mine = load(renderers.render_map(game.view(0)))
    marker = game.view(0).marker
    # The private image differs only in the panel (the "your route" row).
    diff = [(x, y) for x in range(0, 1280, 4) for y in range(0, 800, 4)
            if not close(public.getpixel((x, y)), mine.getpixel((x, y)), 30)]
    assert diff and all(x >= layout.MAP_WIDTH for x, _ in diff)
    assert count_colour(mine, (layout.MAP_WIDTH, 0, 1280, 800), buslines.COLOURS[marker], 20) > \
        count_colour(public, (layout.MAP_WIDTH, 0, 1280, 800), buslines.COLOURS[marker], 20)


def test_two_player_face_up_marker_in_panel():
    game = Game.new(["ann", "bob"], seed=12)
    view = game.view(None)
    assert view.open_marker
    with_marker = load(renderers.render_map(view))
    from dataclasses import replace
    without = load(renderers.render_map(replace(view, open_marker=None)))
    panel = (layout.MAP_WIDTH, 0, 1280, 800)
    rgb = buslines.COLOURS[view.open_marker]
    assert count_colour(with_marker, panel, rgb, 20) > count_colour(without, panel, rgb, 20)


@pytest.mark.parametrize("names", [
    ("A" * 80, "B" * 80, "C" * 80, "D" * 80),
    ("王小明", "李华", "🎲🎲", "👩‍👩‍👧"),
    ("Zoë", "Ørjan", "Юлия", "שלום"),
    ("ann", "anna", "annie", "bob"),
])
def test_robust_names(names):
    game = Game.new(list(names), seed=5)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    img = load(renderers.render_map(game.view(None), events=game.log[-5:]))
    assert img.size == (1280, 800)
    _check_shops(img, game.view(None), 1280)
    load(renderers.render_lobby(names))


def test_station_names_do_not_overlap():
    boxes = label_boxes(1280)
    items = sorted(boxes.items())
    for i, (a, box_a) in enumerate(items):
        for b, box_b in items[i + 1:]:
            overlap = not (box_a[2] <= box_b[0] or box_b[2] <= box_a[0] or box_a[3] <= box_b[1] or box_b[3] <= box_a[1])
            assert not overlap, f"{a} and {b} labels overlap"
    # No name covers a station or its shops (two side by side at a crossing).
    half = layout.HOUSE_SIZE / 2
    for station, box in boxes.items():
        for other in layout.STATION_LAYOUT:
            x, y = layout.station_xy(other)
            rx, ry = (layout.HOUSE_GAP + half - 1, half) if other in CROSSINGS else (half - 1, half)
            inside = box[0] < x + rx and x - rx < box[2] and box[1] < y + ry and y - ry < box[3]
            assert not inside, f"label {station} covers station {other}"


def test_player_colours_are_distinct_for_colour_blindness():
    """Simulated deuteranopia/protanopia (Viénot 1999 approximation) keeps the four apart."""
    def simulate(rgb, kind):
        r, g, b = (c / 255 for c in rgb)
        if kind == "deutan":
            return (0.625 * r + 0.375 * g, 0.7 * r + 0.3 * g, 0.3 * g + 0.7 * b)
        return (0.567 * r + 0.433 * g, 0.558 * r + 0.442 * g, 0.242 * g + 0.758 * b)
    for kind in ("deutan", "protan"):
        sims = [simulate(c.rgb, kind) for c in style.PLAYER_COLOURS]
        for i in range(4):
            for j in range(i + 1, 4):
                d = sum((a - b) ** 2 for a, b in zip(sims[i], sims[j], strict=True)) ** 0.5
                assert d > 0.12, (kind, style.PLAYER_COLOURS[i].name, style.PLAYER_COLOURS[j].name, d)
    assert not any(close(a.rgb, b.rgb, 60) for i, a in enumerate(style.PLAYER_COLOURS)
                   for b in style.PLAYER_COLOURS[i + 1:])


def test_station_names_read_on_a_phone():
    """Names stay big enough to read when a phone shows the map 390 px wide (about 0.3x):
    the drawn capitals of every one-line name are at least 15 px tall at the default width
    (5 px on the phone; 16 px names, as before, drew them 12 px tall)."""
    img = load(renderers.render_lobby([]))
    assert img.width == 1280
    for station, label in layout.labels().items():
        if len(label.lines) > 1:
            continue
        x0, y0, x1, y1 = label_boxes(1280)[station]
        inked = [y for y in range(y0, y1 + 1)
                 if any(close(img.getpixel((x, y)), style.INK, 60) for x in range(x0, x1 + 1))]
        assert inked, f"no name drawn for {station}"
        assert inked[-1] - inked[0] + 1 >= 15, f"{station}: name only {inked[-1] - inked[0] + 1} px tall"


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_portrait_layout_for_phones(n):
    """The portrait map spans the whole width (1.4x the landscape map's size on a phone), with the
    offer, the shops and every player's row drawn as in the landscape image."""
    scene = scenes.eviction_pending(n)
    view = scene.game.view(None)
    img = load(renderers.render_map(view, events=scene.events, pending_tile=scene.pending_tile, width=1200,
                                    layout="portrait"))
    map_h = round(800 * mapimage.portrait_map_scale(1200))
    assert img.width == 1200 and img.height > map_h + 200
    virtual = mapimage.portrait_virtual_width(1200)
    assert virtual * layout.MAP_WIDTH / 1280 == pytest.approx(1200, abs=1)
    _check_offer(img, view, virtual)
    _check_shops(img, view, virtual)
    panel = (0, map_h, 1200, img.height)
    for seat in range(n):
        assert count_colour(img, panel, player_colour(seat).rgb, 20) > 200, f"seat {seat} missing from the panel"
    for i, tile in enumerate(view.offer):   # the offer list: each key's badge in its tile colour
        assert count_colour(img, panel, buslines.COLOURS[tile.colour], 20) > 150, i
    assert count_colour(img, panel, style.EVICT, 20) > 300   # the eviction prompt


def test_unknown_layout_is_refused():
    view = scenes.mid_round(2).game.view(None)
    with pytest.raises(ValueError, match="layout"):
        renderers.render_map(view, layout="square")


def test_offer_badges_sit_nearer_their_own_station_than_any_other():
    """A badge read against another station (3 for Madeleine by the Opéra, 4 on the Concorde-Louvre
    line) sends the player to the wrong tile: each badge is nearer its station than any other."""
    import math
    import random

    from engine.paris_paris.actions import Tile
    from engine.paris_paris.board import COLOURS, STATIONS
    from renderers.paris_paris import layout as L

    rng = random.Random(5)
    wrong = []
    for _ in range(200):
        offer = [Tile(rng.choice(STATIONS), rng.choice(COLOURS)) for _ in range(4)]
        for index, tile in enumerate(offer):
            x, y = L.offer_badge_xy(offer, index, L.BASE_WIDTH)
            sx, sy, _ = L.STATION_LAYOUT[tile.station]
            own = math.hypot(x - sx, y - sy)
            if any(math.hypot(x - ox, y - oy) < own for other, (ox, oy, _) in L.STATION_LAYOUT.items()
                   if other != tile.station):
                wrong.append(tile.station)
    assert not [s for s in wrong if s in ("madeleine", "concorde", "louvre", "opera")], wrong
    assert len(wrong) <= 8, wrong


def test_a_highlight_never_covers_its_stations_name():
    """Belleville and Odéon on offer: their rings reach towards their names; each name stays as the plain map
    draws it, pixel for pixel."""
    from PIL import ImageChops

    from engine.paris_paris import Game
    from renderers.paris_paris import layout as L
    from renderers.paris_paris import mapimage as M

    game = Game.new(["Ann", "Bob", "Cid"], seed=3)
    shown = {t.station for t in game.view(None).offer}
    img = load(M.render_map(game.view(None))).convert("RGB")
    plain = M.background(1280).convert("RGB")
    s = L.scale(1280)
    for station in shown:
        x0, y0, x1, y1 = (round(v * s) for v in L.labels()[station].box)
        diff = ImageChops.difference(img.crop((x0, y0, x1, y1)), plain.crop((x0, y0, x1, y1)))
        assert max(channel[1] for channel in diff.getextrema()) <= 40, station     # palette rounding only
