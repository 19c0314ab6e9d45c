"""Paris Connection's map as a page draws it (``mapscene``): the same board as the chat's picture.

The scene's shapes, pieces and words, laid by PIL over its static art as the page lays them in
SVG, give back the picture ``board_image`` draws, pixel for pixel: no position is written twice."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from renderers.draw import paste
from renderers.fonts import font
from renderers.paris_connection import mapimage, mapscene, scenes
from renderers.paris_connection import palette as P
from renderers.paris_connection.spots import WIDTH
from renderers.scene import Piece, Scene, Words

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the shared pixel helpers
from render_testkit import lay_shape, scene_rgb  # noqa: E402


def _piece(img: Image.Image, piece: Piece) -> None:
    # A sprite is one company's locomotive, drawn by the page at the piece's size.
    paste(img, P.token(piece.sprite.removeprefix("loco-"), round(piece.size)), piece.x, piece.y)


def laid(scene: Scene, layout: str) -> Image.Image:
    """The scene laid over its static art, in the page's order."""
    img = mapimage.background(WIDTH, layout).copy()
    d = ImageDraw.Draw(img)
    for shape in scene.below:
        lay_shape(d, shape)
    for piece in scene.pieces:
        _piece(img, piece)
    assert scene.over == f"names-{layout}"
    mapimage.city_names(d, mapimage.geometry(WIDTH, layout), WIDTH, layout)     # the names' art
    for drawn in scene.above:
        if isinstance(drawn, Words):
            d.text((drawn.x, drawn.y), drawn.text, font=font(drawn.size, drawn.bold), fill=scene_rgb(drawn.fill),
                   anchor=drawn.anchor)
        elif isinstance(drawn, Piece):
            _piece(img, drawn)
        else:
            lay_shape(d, drawn)
    return img


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
@pytest.mark.parametrize("sample", [lambda: scenes.after_cycle(6), lambda: scenes.building(4)])
def test_the_scene_over_its_art_is_the_chats_picture(layout, sample):
    got = sample()
    scene = mapscene.map_scene(got.view, got.events, "de", layout)
    picture = mapimage.board_image(got.view, got.events, "de", width=WIDTH, layout=layout)
    assert (scene.width, scene.height) == picture.size
    assert scene.pieces and len({p.key for p in scene.pieces}) == len(scene.pieces)
    assert ImageChops.difference(laid(scene, layout), picture).getbbox() is None
    # What a page opening preloads (bot/web/art.py) is in every scene: its static board first.
    assert mapscene.board_art(layout, "de")[0] == scene.board
    assert set(mapscene.board_art(layout, "de")) <= scene.art()


def test_the_art_is_a_closed_set_of_webp_pictures():
    for name in sorted(mapscene.ART_NAMES):
        image = Image.open(io.BytesIO(mapscene.art(name)))
        assert image.format == "WEBP"
    with pytest.raises(KeyError):
        mapscene.art("loco-pink")
