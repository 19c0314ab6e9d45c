"""What the Paris Connection pictures write: city names over the locomotives, news lines whole,
and a penalty column that carries every player's amount or is left out."""

from __future__ import annotations

import dataclasses

import pytest
from pc_render_kit import load, played
from PIL import ImageChops, ImageDraw

from renderers.fonts import ELLIPSIS
from renderers.paris_connection import render_final, render_map, scenes
from renderers.paris_connection.mapimage import city_name_box, token_xy


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """Every string written on a picture while the test runs."""
    texts: list[str] = []
    real = ImageDraw.ImageDraw.text

    def record(draw, xy, value, *args, **kwargs):
        texts.append(value)
        return real(draw, xy, value, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    return texts


def test_news_lines_are_never_cut(drawn):
    """The gallery's 6-player map in French cut "… vaut désormais 7." short."""
    after = scenes.after_cycle(6)
    render_map(after.view, events=after.events, language="fr")
    assert any("désormais" in text for text in drawn)
    cut = [text for text in drawn if ELLIPSIS in text or text.endswith("...")]
    assert not cut, cut


def penalised(view, penalties):
    return dataclasses.replace(view, penalties=penalties,
                               scores=tuple(s - p for s, p in zip(view.scores, penalties, strict=True)))


def test_every_row_of_a_penalised_game_carries_its_penalty(drawn):
    """A player without a penalty reads 0 in the column, not an empty cell."""
    view = played(3, 11)[0].view(None)
    render_final(penalised(view, (20, 20, 40)), language="en")
    zeros_elsewhere = drawn.count("0")             # the chart's axes
    drawn.clear()
    render_final(penalised(view, (20, 0, 40)), language="en")
    assert "penalty" in drawn
    assert {"−20", "−40"} <= set(drawn)
    assert drawn.count("0") == zeros_elsewhere + 1


def test_no_penalty_column_when_nobody_was_penalised(drawn):
    match, _ = played(3, 11)
    view = match.view(None)
    assert not any(view.penalties)
    render_final(view, language="en")
    assert "penalty" not in drawn


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
def test_city_names_show_over_the_locomotives(layout):
    """A city's name tag looks the same with locomotives on the city as on an empty map
    (Auxerre, Besançon and Mulhouse were hidden under theirs)."""
    view = scenes.after_cycle(6).view
    full = load(render_map(view, layout=layout)).convert("RGB")
    empty = load(render_map(dataclasses.replace(view, board={}), layout=layout)).convert("RGB")
    covered = 0
    for hex_id, colours in view.board.items():
        try:
            box = city_name_box(hex_id, 1280, layout)
        except KeyError:
            continue                     # not a city
        covered += any(box[0] <= token_xy(view, hex_id, c, 1280, layout)[0] <= box[2] for c in colours)
        inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)     # inside the rounded corners
        diff = ImageChops.difference(full.crop(inner), empty.crop(inner)).getextrema()
        assert max(high for _, high in diff) < 40, (hex_id, layout)
    assert covered >= 3
