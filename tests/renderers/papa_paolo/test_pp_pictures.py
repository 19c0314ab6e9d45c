"""Papà Paolo's pictures say what the board holds: the title names the round shown, the markers
and the coins' winners stand on the grid after placing, the scores (and why one is negative) are
on the board, a pizzeria's label stays clear of badges and trips, and the phone picture's texts
stay legible when a phone shows it 400 px wide."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.papa_paolo import components as C
from engine.papa_paolo.definition import GAME
from i18n import t
from renderers.papa_paolo import pieces, scenes
from renderers.papa_paolo.hoodimage import square_box
from renderers.papa_paolo.presenter import PRESENTER
from renderers.papa_paolo.text import running_score
from renderers.players import initials


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, int]]:
    """Every string written on a picture while the test runs, with its font size, in order."""
    texts: list[tuple[str, int]] = []
    real = ImageDraw.ImageDraw.text

    def record(draw, xy, value, *args, **kwargs):
        texts.append((value, kwargs["font"].size if kwargs.get("font") is not None else 0))
        return real(draw, xy, value, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    return texts


@cache
def stretches(n: int, seed: int) -> tuple:
    """(match view, the closed stretch's public events) at every picture of a seeded AI game, as
    the bot draws them (pictures.draw: the stretch's events from its start on)."""
    match = GAME.new_match(["Ada", "Blaise", "Cleo", "Dan"][:n], seed=seed)
    shown = []
    while not match.is_terminal():
        before = match.rhythm.cycle
        seat = match.to_act()[0]
        match.apply(GAME.choose(match, seat, seed=seed), by=seat)
        if match.rhythm.cycle > before or match.is_terminal():
            closed = match.rhythm.cycle - 1 if not match.is_terminal() else match.rhythm.cycle
            events = [e for e in match.log[match.rhythm.cycle_start(closed):] if e.visible_to(None)]
            shown.append((match.view(None), tuple(events), match.returns()))
    return tuple(shown)


def test_the_title_names_the_round_the_board_shows(drawn):
    """After round 1's deliveries the board already shows round 2's tiles and staircase: the
    title must say round 2, not only "Round 1/5 · deliveries are over"."""
    pictures = 0
    for view, events, _ in stretches(3, 5):
        if view.finished:
            continue
        drawn.clear()
        PRESENTER.render("map", view, events, "en")
        title = drawn[0][0]
        assert f"{view.round}/{C.ROUNDS}" in title, (title, view.round)
        pictures += 1
    assert pictures >= 15


def test_after_placing_the_grid_shows_each_marker_and_whom_each_coin_went_to(drawn):
    """Every marker of the round stands on its space, and each paid coin carries its winner's
    mark, so that "🪙 row A 3 L → Blaise" can be checked on the picture."""
    view, events, _ = next((v, ev) + (r,) for v, ev, r in stretches(3, 5)
                           if any(e.kind == "phase_ended" and e.phase == "place" for e in ev))
    assert not view.markers              # the game has lifted them as the coins paid out
    marks = initials(view.players)
    PRESENTER.render("map", view, (), "en")
    plain = [text for text, _ in drawn]
    drawn.clear()
    PRESENTER.render("map", view, events, "en")
    shown = [text for text, _ in drawn]
    for seat, mark in enumerate(marks):
        placed = sum(1 for e in events if e.kind == "marker_placed" and e.seat == seat)
        coins = sum(1 for e in events if e.kind == "coin_awarded" and e.seat == seat)
        assert placed > 0
        assert shown.count(mark) - plain.count(mark) == placed + coins, mark


def test_the_board_shows_every_score_and_why_it_can_be_negative(drawn):
    negative = False
    for view, events, returns in stretches(3, 5):
        if view.finished:
            continue
        drawn.clear()
        PRESENTER.render("map", view, events, "en")
        texts = [text for text, _ in drawn]
        for seat in range(view.num_players):
            score = running_score(view, seat)["total"]
            assert score == returns[seat]                 # as the engine counts it
            assert t("en", "papa.img.score", total=str(score).replace("-", "−")) in texts
            negative |= score < 0
        assert any(text.startswith("Score if the game ended now") for text in texts)
        assert any("−1 a pizza still in" in text for text in texts)
    assert negative                                       # round 1's pizzas bought and not delivered


@pytest.mark.parametrize("cell", (52, 80, 120))
@pytest.mark.parametrize("pizzas, capacity", ((0, 4), (4, 5), (6, 6)))
def test_a_pizzerias_number_badge_leaves_its_label_clear(cell, pizzas, capacity):
    label = pieces.pizzeria_label_box(1, 1, cell - 2, pizzas, capacity)
    badge = pieces.badge_box(0, 0, cell, pizzeria=True)
    assert badge[0] >= label[2] or badge[3] <= label[1], (label, badge)
    assert badge[0] >= 0 and badge[2] <= cell and badge[1] >= 0 and badge[3] <= cell


def test_a_trip_leaves_the_pizzerias_label_whole():
    """In the planning picture, the line of a trip left from the middle of "P 4/5" and crossed it."""
    match = scenes.choosing(3, "deliver-trip")
    seat = match.to_act()[0]
    view = match.view(seat)
    start = tuple(view.draft["cur"]["from"])
    pizzeria = next(q for q in view.neighbourhoods[seat] if (q.x, q.y) == start)
    x, y, _, _ = square_box(view, start)
    box = tuple(round(v) for v in pieces.pizzeria_label_box(x + 1, y + 1, 118, pizzeria.pizzas, pizzeria.capacity))
    with_trip = _load(PRESENTER.render_private(view, [], "en")).crop(box)
    without = _load(PRESENTER.render_private(dataclasses.replace(view, draft=None), [], "en")).crop(box)
    assert ImageChops.difference(with_trip, without).getbbox() is None


def _load(png: bytes) -> Image.Image:
    import io

    return Image.open(io.BytesIO(png)).convert("RGB")


PHONE = 400          # CSS px a phone shows a picture across
SMALLEST = 7         # px: what still reads there (as the Paris Paris map's names, layout.LABEL_SIZE)


@pytest.mark.parametrize("language", ("en", "de", "it", "fr"))
@pytest.mark.parametrize("n", (2, 4))
def test_the_phone_picture_reads_400_px_wide(drawn, n, language):
    """Telegram gets the portrait picture: no text in it is smaller than 7 px once a phone shows
    it 400 px wide (the grid's letters, the staircase, the scores, the neighbourhoods' counts)."""
    match = scenes.played(n, rounds_done=2, options={"hidden_money": n == 4})
    img = _load(PRESENTER.render("map", match.view(None), scenes.stretch_events(match), language,
                                  layout="portrait"))
    small = sorted({(size, text) for text, size in drawn if size * PHONE / img.width < SMALLEST})
    assert not small, small[:10]
