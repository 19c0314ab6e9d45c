"""Paris Paris's map as a page draws it (``mapscene``): the same board as the chat's picture.

The scene's pieces, shapes and words, laid by PIL over its static art as the page lays them in
SVG, give back the picture ``render_map`` draws, pixel for pixel: no position is written twice.
Each labelled picture (a shop's initial, a slot's number) is laid with the words that follow it."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from renderers import style
from renderers.draw import paste
from renderers.fonts import font
from renderers.paris_paris import layout as L
from renderers.paris_paris import mapimage, mapscene, pieces, scenes, sprites
from renderers.paris_paris.spots import WIDTH
from renderers.scene import Piece, Scene, Shape, Words

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the shared pixel helpers
from render_testkit import scene_rgb  # noqa: E402


def _shape(img: Image.Image, d: ImageDraw.ImageDraw, shape: Shape) -> None:
    fill, stroke, width = scene_rgb(shape.fill), scene_rgb(shape.stroke), round(shape.width) or 1
    box = [round(c) for point in shape.points for c in point]
    if shape.kind == "rect" and shape.radius and shape.radius == (box[3] - box[1] + 1) // 2:
        # a points tag's pill (a sprite in the picture, a rounded rectangle on the page)
        pill = sprites.pill(box[2] - box[0] + 1, box[3] - box[1] + 1, fill, stroke, round(shape.width))
        img.paste(pill, (box[0], box[1]), pill)
    elif shape.kind == "rect" and shape.radius:
        d.rounded_rectangle(box, radius=round(shape.radius), fill=fill, outline=stroke, width=width)
    else:
        assert shape.kind == "rect", shape
        d.rectangle(box, fill=fill, outline=stroke, width=width)


def _piece(img: Image.Image, piece: Piece, k: float, label: str = "") -> None:
    kind = piece.sprite.partition("-")[0]
    if kind == "legend":
        key = mapimage.legend(round(L.BASE_WIDTH * k), piece.sprite.removeprefix("legend-"))
        img.paste(key, (round(piece.x - key.width / 2), round(piece.y - key.height / 2)), key)
        return
    if kind == "glow":
        glow, corner = mapimage.glow(piece.sprite.removeprefix("glow-"), round(L.BASE_WIDTH * k))
        img.paste(glow, corner, glow)
        return
    size = round(piece.size)
    if kind == "house":     # a shop's picture is its size and a rim around it
        size -= 2 if piece.sprite.endswith("-plain") else 6
    paste(img, pieces.picture(piece.sprite, size, k, label), piece.x, piece.y)


def laid(scene: Scene, layout: str) -> Image.Image:
    """The scene laid over its static art, in the page's order."""
    width = mapimage.portrait_virtual_width(WIDTH) if layout == "portrait" else WIDTH
    k = L.scale(width)
    board = mapimage.background(width)
    img = Image.new("RGB", (scene.width, scene.height), style.PAPER)
    img.paste(board.crop((0, 0, scene.width, scene.board_height or scene.height)), (0, 0))
    d = ImageDraw.Draw(img)
    assert not scene.below
    for piece in scene.pieces:
        _piece(img, piece, k)
    assert scene.over == f"names-{layout}"
    plain = mapimage.background(width)
    for box in mapimage.name_boxes(width):
        img.paste(plain.crop(box), box[:2])
    above = list(scene.above)
    while above:
        drawn = above.pop(0)
        if isinstance(drawn, Piece):
            labelled = drawn.sprite.partition("-")[0] in pieces.LABELLED and above and isinstance(above[0], Words)
            _piece(img, drawn, k, above.pop(0).text if labelled else "")
        elif isinstance(drawn, Words) and "\n" in drawn.text:
            d.multiline_text((drawn.x, drawn.y), drawn.text, font=font(drawn.size, drawn.bold), fill=scene_rgb(drawn.fill),
                             anchor=drawn.anchor, align="center", spacing=0)
        elif isinstance(drawn, Words):
            d.text((drawn.x, drawn.y), drawn.text, font=font(drawn.size, drawn.bold), fill=scene_rgb(drawn.fill),
                   anchor=drawn.anchor)
        else:
            _shape(img, d, drawn)
    return img


SAMPLES = {
    "mid-round": lambda: scenes.mid_round(2),
    "big-tour": lambda: scenes.big_tour(3),
    "eviction-done": lambda: scenes.eviction_done(4),
    "final": lambda: scenes.final(3),
}


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_the_scene_over_its_art_is_the_chats_picture(layout, sample):
    got = SAMPLES[sample]()
    view = got.game.view(None)
    language = "de" if sample == "eviction-done" else "en"
    scene = mapscene.map_scene(view, got.events, language, layout)
    picture = Image.open(io.BytesIO(mapimage.render_map(view, events=got.events, language=language, width=WIDTH,
                                                        layout=layout)))
    assert (scene.width, scene.height) == picture.size
    assert scene.art() <= mapscene.ART_NAMES
    # What a page opening preloads (bot/web/art.py) is in every scene: its static board first.
    assert mapscene.board_art(layout, language)[0] == scene.board
    assert set(mapscene.board_art(layout, language)) <= scene.art()
    # The chat's picture is quantized to 256 colours: the laid scene, quantized alike, is the same picture.
    laid_png = io.BytesIO()
    laid(scene, layout).quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(laid_png, "PNG")
    again = Image.open(laid_png).convert("RGB")
    assert ImageChops.difference(again, picture.convert("RGB")).getbbox() is None


def test_initials_are_words_over_letterless_pictures():
    got = scenes.eviction_done(4)
    scene = mapscene.map_scene(got.game.view(None), got.events, "en", "landscape")
    shops = [p for p in scene.above if isinstance(p, Piece) and p.key.startswith("shop@")]
    assert shops and all(p.sprite.startswith("house-") for p in shops)
    marks = set(mapimage._Canvas(WIDTH, "en", got.game.players).marks)
    labels = {d.text for d in scene.above if isinstance(d, Words) and d.anchor == "mm"}
    assert marks <= labels


def test_the_art_is_a_closed_set_of_webp_pictures():
    for name in sorted(mapscene.ART_NAMES):
        image = Image.open(io.BytesIO(mapscene.art(name)))
        assert image.format == "WEBP"
    for name in ("house-orange-plain-A", "ring-green-green", "legend-xx", "map-landscape-en", "badge-pink"):
        with pytest.raises(KeyError):
            mapscene.art(name)
