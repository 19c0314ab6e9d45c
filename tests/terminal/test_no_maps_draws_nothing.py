"""``boardchat play --no-maps``: nothing is drawn that nobody would see (issue 44). A whole AI game
asks for no picture at all, not the round maps nor the whole game's animation, and prints no line
that announces the animation; with a maps folder the same game draws them and says where they went."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_terminal_play import play

from bot.service.delivery.pictures import Drawn, Pictures
from bot.service.game.outmessage import RenderRequest

GAME = ["play", "--game", "paris-paris", "--players", "2", "--ai", "2", "--seed", "4", "--language", "en"]


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The kinds of the pictures asked for (maps, final standings, the animation); each is given
    as empty bytes, not drawn (drawing is not what is tested here, and costs seconds)."""
    kinds: list[str] = []

    async def counted(self: Pictures, request: RenderRequest, language: str, platform: str, rank: int = 2) -> Drawn:
        kinds.append(request.kind)
        return Drawn(b"")
    monkeypatch.setattr(Pictures, "render", counted)
    return kinds


def test_no_maps_draws_no_picture_and_announces_no_animation(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
                                                             tmp_path: Path, drawn: list[str]) -> None:
    code, out = play(monkeypatch, capsys, [*GAME, "--no-maps", "--db", str(tmp_path / "g.sqlite3")])
    assert code == 0 and "The game is over!" in out
    assert drawn == []
    assert "The whole of game" not in out and "as an animation" not in out


def test_with_maps_the_animation_is_drawn_and_told(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
                                                    tmp_path: Path, drawn: list[str]) -> None:
    maps = tmp_path / "maps"
    code, out = play(monkeypatch, capsys, [*GAME, "--maps", str(maps), "--db", str(tmp_path / "g.sqlite3")])
    assert code == 0 and "The game is over!" in out
    assert "animation" in drawn and "map" in drawn
    assert "The whole game as an animation:" in out
