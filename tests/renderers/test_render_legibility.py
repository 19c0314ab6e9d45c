"""The map stays legible: names next to their stations, clear of every icon and of each other,
and no text cut, for 2-4 players, both layouts, four languages and many seeded positions."""

from __future__ import annotations

import random
from functools import cache

import pytest
from PIL import ImageDraw

from engine.paris_paris import Game
from engine.paris_paris import events as E
from engine.paris_paris.board import CROSSINGS, DISPLAY_NAMES
from renderers import draw as D
from renderers.fonts import ELLIPSIS, font
from renderers.paris_paris import layout, mapimage, render_map, scenes
from renderers.paris_paris.names import SHORT_NAMES

LANGUAGES = ("en", "de", "it", "fr")
# Ordinary names (long ones included): all of them must be drawn whole.
NAMES = ("Amélie", "Bartholomäus", "Chiara", "Дмитрий")
# Landscape at 1280 px, and the map of a 1200 px portrait image (drawn at this virtual width).
WIDTHS = (1280, mapimage.portrait_virtual_width(1200))


@cache
def positions(n: int, seed: int) -> tuple:
    """(view, events since the previous map) each time a map is posted in a seeded game: at every
    round's start (so the bus is at every seat in turn) and after every pick."""
    game = Game.new(list(NAMES[:n]), seed=seed)
    rng = random.Random(seed)
    shown, since = [], []
    while not game.finished:
        events = game.apply(rng.choice(game.legal_actions()))
        since = list(events) if any(isinstance(e, E.RoundStarted) for e in since) else since + list(events)
        shown.append((game.view(None), tuple(since)))
    return tuple(shown)


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def gap(box, x, y) -> float:
    return layout.gap(box, x, y)


def check_boxes(view, events, width: int) -> None:
    boxes = layout.map_boxes(view, events, width)
    s = layout.scale(width)
    items = sorted(boxes.labels.items())
    for i, (a, box_a) in enumerate(items):
        x, y = layout.station_xy(a, width)
        own = gap(box_a, x, y)
        assert own <= layout.LABEL_MAX_GAP * s + 1, f"{a}: name {own:.0f} px from its station"
        for b in boxes.labels:
            if b != a:
                assert gap(box_a, *layout.station_xy(b, width)) > own, f"the name of {a} is nearer to {b}"
        for b, box_b in items[i + 1:]:
            assert not overlaps(box_a, box_b), f"names of {a} and {b} overlap"
        icons = [(f"shop {key}", box) for key, box in boxes.houses.items()]
        icons += [(f"offer badge {i + 1}", box) for i, box in enumerate(boxes.badges)]
        icons += [(f"tag {key}", box) for key, box in boxes.tags.items()]
        for what, box in icons:
            assert not overlaps(box_a, box), f"{what} covers the name of {a} at width {width}"


@pytest.mark.parametrize("n", (2, 3, 4))
@pytest.mark.parametrize("seed", (1, 2))
def test_names_stay_clear_and_close(n, seed):
    shown = positions(n, seed)
    assert {view.bus for view, _ in shown} == set(range(n)), "the bus visited every seat"
    assert any(isinstance(e, E.SmallTour) for _, events in shown for e in events)
    for view, events in shown:
        for width in WIDTHS:
            check_boxes(view, events, width)


def test_names_never_cover_a_station_or_shop_slot():
    """Whatever the board, a name never covers the room any station's shops take."""
    for width in WIDTHS:
        s = layout.scale(width)
        for station, box in layout.label_boxes(width).items():
            for other in layout.STATION_LAYOUT:
                room = tuple(v * s for v in layout.shop_box(other))
                assert not overlaps(box, room), f"the name of {station} covers {other} at width {width}"


def test_short_names_tell_stations_apart():
    assert len(set(SHORT_NAMES.values())) == len(SHORT_NAMES)
    for station, name in SHORT_NAMES.items():
        assert ELLIPSIS not in name and "..." not in name
        assert len(name) <= len(DISPLAY_NAMES[station])


def test_the_check_catches_a_covered_name(monkeypatch):
    """The overlap check can fail: a bus moved onto a name is reported."""
    view, events = next((v, ev) for v, ev in positions(3, 1) if any(isinstance(e, E.SmallTour) for e in ev))
    real = layout.map_boxes

    def bus_on_a_name(view, events=(), width=layout.BASE_WIDTH):
        boxes = real(view, events, width)
        boxes.tags[("bus", "test")] = boxes.labels["concorde"]
        return boxes

    monkeypatch.setattr(layout, "map_boxes", bus_on_a_name)
    with pytest.raises(AssertionError, match="concorde"):
        check_boxes(view, events, 1280)


class Recorder:
    """Every string drawn on an image, and every fitted text that did not fit its room."""

    def __init__(self, monkeypatch):
        self.drawn: list[str] = []
        self.overflow: list[str] = []
        text, multiline, fit_lines = ImageDraw.ImageDraw.text, ImageDraw.ImageDraw.multiline_text, D.fit_lines

        def record_text(draw, xy, value, *args, **kwargs):
            self.drawn.append(value)
            return text(draw, xy, value, *args, **kwargs)

        def record_multiline(draw, xy, value, *args, **kwargs):
            self.drawn.append(value)
            return multiline(draw, xy, value, *args, **kwargs)

        def checked_fit_lines(value, width, size, bold=False, max_lines=1, min_size=None, keep=()):
            lines, fitted = fit_lines(value, width, size, bold, max_lines, min_size, keep)
            if max(font(fitted, bold).getlength(line) for line in lines) > width:
                self.overflow.append(value)
            return lines, fitted

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", record_text)
        monkeypatch.setattr(ImageDraw.ImageDraw, "multiline_text", record_multiline)
        monkeypatch.setattr(D, "fit_lines", checked_fit_lines)
        mapimage.background.cache_clear()   # draw the station names and the legend again, recorded
        mapimage.legend.cache_clear()


SCENES = (scenes.mid_round, scenes.big_tour, scenes.eviction_pending, scenes.eviction_done)


@cache
def scene(make, n: int) -> scenes.Scene:
    return make(n, names=NAMES)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout_name", ("landscape", "portrait"))
def test_no_text_is_cut(monkeypatch, language, layout_name):
    recorder = Recorder(monkeypatch)
    for n in (2, 3, 4):
        for make in SCENES:
            shown = scene(make, n)
            render_map(shown.game.view(None), events=shown.events, pending_tile=shown.pending_tile,
                       language=language, layout=layout_name, width=1280 if layout_name == "landscape" else 1200)
    cut = [text for text in recorder.drawn if ELLIPSIS in text or "..." in text]
    assert not cut, f"cut texts: {cut}"
    assert not recorder.overflow, f"texts wider than their room: {recorder.overflow}"
    # Every station's name is drawn whole (full or short name), at the default width in both layouts.
    drawn = {text.replace("-\n", "-").replace("\n", " ") for text in recorder.drawn}
    for station in DISPLAY_NAMES:
        assert DISPLAY_NAMES[station] in drawn or SHORT_NAMES[station] in drawn, station
    mapimage.background.cache_clear()
    mapimage.legend.cache_clear()


def test_the_cut_check_can_fail(monkeypatch):
    """A name too long for its room is reported (here a player's, the one text allowed to be cut)."""
    recorder = Recorder(monkeypatch)
    scene = scenes.mid_round(2, names=("A" * 60, "B" * 60))
    render_map(scene.game.view(None))
    assert any(ELLIPSIS in text for text in recorder.drawn)
    mapimage.background.cache_clear()
    mapimage.legend.cache_clear()


def test_crossing_names_sit_by_their_crossing():
    """The complaint that started this: Quartier Latin's name beside Luxembourg's."""
    boxes = layout.label_boxes(1280)
    for station in CROSSINGS:
        x, y = layout.station_xy(station)
        box = boxes[station]
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        assert ((centre[0] - x) ** 2 + (centre[1] - y) ** 2) ** 0.5 < 110, station


def test_fit_lines_shrinks_then_wraps_and_never_cuts():
    face = font(20, True)
    lines, size = D.fit_lines("Saint-Germain-des-Prés", round(face.getlength("Saint-Germain-des-Prés")), 20, True)
    assert lines == ("Saint-Germain-des-Prés",) and size == 20
    lines, size = D.fit_lines("Saint-Germain-des-Prés", 120, 20, True, max_lines=2)
    assert "".join(lines) == "Saint-Germain-des-Prés" and len(lines) == 2   # broken after a hyphen
    assert all(font(size, True).getlength(line) <= 120 for line in lines)
    lines, size = D.fit_lines("Jardin des Plantes", 60, 20, True)   # too long: smallest size, whole
    assert lines == ("Jardin des Plantes",) and size == round(20 * D.SHRINK)


def test_fit_lines_keeps_a_station_name_whole():
    prompt = "Amélie: choose whose shop leaves Quartier Latin (Amélie / Chiara)"
    for width in range(140, 400, 20):
        lines, _ = D.fit_lines(prompt, width, 18, True, max_lines=4, keep=("Quartier Latin",))
        assert " ".join(lines) == prompt
        assert any("Quartier Latin" in line for line in lines), (width, lines)


def test_fit_lines_keeps_a_hyphenated_station_name_whole_and_unspaced():
    """"Saint-Nicolas" in "What just happened" stays one word: never "Saint- Nicolas"."""
    text = "Small tour: Saint-Nicolas: Ada +1, Blaise +1, Camille +2"
    for width in range(120, 420, 15):
        lines, _ = D.fit_lines(text, width, 18, max_lines=3, keep=("Saint-Nicolas",))
        assert "Saint- Nicolas" not in " ".join(lines) and any("Saint-Nicolas" in line for line in lines), lines
