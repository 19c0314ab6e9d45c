"""Papà Paolo's board as a page draws it (``mapscene``): the same board as the chat's picture.

The scene's shapes and words, laid by PIL over its paper as the page lays them in SVG, give back
the picture ``render_board`` draws, pixel for pixel (both quantized to the pictures' palette)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from renderers import style
from renderers.fonts import font
from renderers.papa_paolo import mapscene, pieces, scenes
from renderers.papa_paolo.board import render_board
from renderers.scene import Scene, Shape, Words

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the shared pixel helpers
from render_testkit import lay_shape, scene_rgb  # noqa: E402


def laid(scene: Scene) -> Image.Image:
    """The scene laid over its paper, in the page's order."""
    assert scene.board == "paper" and not scene.pieces and not scene.below
    img = Image.new("RGB", (scene.width, scene.height), style.PAPER)
    d = ImageDraw.Draw(img)
    for drawn in scene.above:
        if isinstance(drawn, Words):
            d.text((drawn.x, drawn.y), drawn.text, font=font(drawn.size, drawn.bold), fill=scene_rgb(drawn.fill),
                   anchor=drawn.anchor, stroke_width=round(drawn.halo), stroke_fill=scene_rgb(drawn.halo_fill))
        else:
            assert isinstance(drawn, Shape)
            lay_shape(d, drawn)
    return img


SAMPLES = {
    "3p-after-placing": lambda: scenes.after_phase(3, "place", 2),
    "4p-round-3": lambda: scenes.played(4, rounds_done=3, options={"hidden_money": True}),
    "2p-round-2": lambda: scenes.played(2, rounds_done=2),
    "3p-deliveries": lambda: scenes.after_phase(3, "deliver", 3),
}


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_the_scene_over_its_paper_is_the_chats_picture(layout, sample):
    match = SAMPLES[sample]()
    view, events = match.view(None), scenes.stretch_events(match)
    scene = mapscene.map_scene(view, events, "fr", layout)
    picture = Image.open(io.BytesIO(render_board(view, events=events, language="fr", layout=layout)))
    assert (scene.width, scene.height) == picture.size
    assert any(isinstance(d, Words) and d.halo for d in scene.above) or sample != "3p-deliveries"
    again = Image.open(io.BytesIO(pieces.png(laid(scene)))).convert("RGB")
    assert ImageChops.difference(again, picture.convert("RGB")).getbbox() is None
    # What a page opening preloads (bot/web/art.py) is in every scene: its static board first.
    assert mapscene.board_art(layout, "fr")[0] == scene.board
    assert set(mapscene.board_art(layout, "fr")) <= scene.art()


def test_the_art_is_a_closed_set_of_webp_pictures():
    assert {"paper"} == mapscene.ART_NAMES
    assert Image.open(io.BytesIO(mapscene.art("paper"))).format == "WEBP"
    with pytest.raises(KeyError):
        mapscene.art("board")
