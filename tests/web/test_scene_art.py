"""A scene's art (``bot/web/art.py``): each game's closed set of static boards and sprites, under
addresses named by their bytes and cached for good; any other name is 404 before anything is drawn."""

from __future__ import annotations

import pytest

from bot.games import KINDS
from bot.web import art
from bot.web.server import ART_DRAWING

GAME = "paris-connection"


@pytest.fixture
async def drawings(served, monkeypatch) -> list[tuple[str, str]]:
    """Each drawing of art, in order, from a process that has drawn none yet (once the board has
    drawn its own as it started)."""
    await served.board.app[ART_DRAWING]
    monkeypatch.setattr(art, "_DRAWN", {})
    drawn: list[tuple[str, str]] = []
    presenter = KINDS[GAME].presenter
    real = type(presenter).art

    def counted(self, name: str) -> bytes:
        drawn.append((GAME, name))
        return real(self, name)

    monkeypatch.setattr(type(presenter), "art", counted)
    return drawn


async def fetched(served, session, path: str) -> tuple[int, dict[str, str], bytes]:
    async with session.get(f"{served.board.local_url}/{path}") as response:
        return response.status, dict(response.headers), await response.read()


async def test_art_is_served_once_drawn_under_its_content_named_address(served, session, drawings):
    address = art.url(GAME, "loco-red")
    assert drawings == [(GAME, "loco-red")]
    status, headers, body = await fetched(served, session, address)
    assert status == 200 and body.startswith(b"RIFF") and body[8:12] == b"WEBP"
    assert headers["Content-Type"] == "image/webp"
    assert "immutable" in headers["Cache-Control"] and "max-age=31536000" in headers["Cache-Control"]
    again = await fetched(served, session, address)
    assert again[2] == body and drawings == [(GAME, "loco-red")], "drawn once, kept"
    # Its bytes name it: another digest of the same name is no picture.
    name, digest, _ = address.rsplit("/", 1)[1].split(".")
    assert (await fetched(served, session, f"art/{GAME}/{name}.{'0' * 16}.webp"))[0] == 404


@pytest.mark.parametrize("path", [
    f"art/{GAME}/loco-pink.0123456789abcdef.webp",          # no such colour
    f"art/{GAME}/map-landscape-2.0123456789abcdef.webp",    # no such board
    f"art/{GAME}/map-portrait.webp",                        # no digest
    f"art/{GAME}/map-portrait.0123456789abcdef.png",
    f"art/{GAME}/%2e%2e%2fboard.0123456789abcdef.webp",
    "art/no-such-game/loco-red.0123456789abcdef.webp",
    "art/papa-paolo/loco-red.0123456789abcdef.webp",        # another game's name
    "art/paris-paris/house-orange-plain-A.0123456789abcdef.webp",   # an initial is words, never a picture
    "art/paris-paris/ring-green-green.0123456789abcdef.webp",       # a ring of one colour has one name
    "art/paris-paris/legend-xx.0123456789abcdef.webp",              # no such language
])
async def test_a_forged_name_is_404_without_drawing(served, session, drawings, path):
    status, _, _ = await fetched(served, session, path)
    assert status == 404
    assert drawings == []


def test_every_scene_names_only_its_games_art():
    from renderers.paris_connection import scenes
    from renderers.paris_paris import scenes as pp_scenes

    presenter = KINDS[GAME].presenter
    for layout in ("landscape", "portrait"):
        sample = scenes.after_cycle(6)
        scene = presenter.scene(sample.view, sample.events, "en", layout=layout)
        assert scene is not None and scene.pieces
        assert scene.art() <= presenter.art_names()
    # Paris Paris: shops marked with players' initials, whatever the names, from the same closed set.
    pp = KINDS["paris-paris"].presenter
    for names in (pp_scenes.NAMES, ("Zoë", "Zed", "Ω", "42")):
        sample = pp_scenes.big_tour(4, names=names)
        for layout in ("landscape", "portrait"):
            scene = pp.scene(sample.game.view(None), sample.events, "fr", layout=layout)
            assert scene is not None and scene.pieces
            assert scene.art() <= pp.art_names()
    for game, kind in KINDS.items():
        assert all(art.known(game, name) for name in kind.presenter.art_names())
