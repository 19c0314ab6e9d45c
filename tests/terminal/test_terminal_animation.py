"""``boardchat export --animation FILE``: a stored game as an animation the file's suffix names,
one frame per finished cycle and the final standings, the same frames a chat's animation has."""

from __future__ import annotations

import asyncio

import av
import pytest
from PIL import Image
from test_terminal_play import play

from bot.cli import main
from bot.games import kind
from bot.service.storage import open_storage


@pytest.fixture
def finished(monkeypatch, capsys, tmp_path):
    """A two-seat AI game played to its end in the terminal (no maps)."""
    db = tmp_path / "g.sqlite3"
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--ai", "2", "--seed", "4", "--no-maps",
                                           "--db", str(db)])
    assert code == 0 and "The game is over!" in out
    return db


def cycles(db) -> int:
    """How many cycles the stored game 1 had, replayed through its rules."""
    async def read():
        storage = await open_storage(str(db))
        try:
            meta, moves = await storage.load_game(1)
        finally:
            await storage.close()
        return kind(meta.kind).definition.resume(meta.setup, moves).rhythm.cycle
    return asyncio.run(read())


@pytest.mark.parametrize("suffix", [".gif", ".webp"])
def test_a_gif_or_webp_has_a_frame_per_cycle_and_the_final_standings(finished, capsys, tmp_path, suffix):
    path = tmp_path / f"game{suffix}"
    assert main(["export", "1", "--db", str(finished), "--animation", str(path)]) == 0
    assert f"Game 1 as an animation: {path}" in capsys.readouterr().out
    with Image.open(path) as animation:
        assert animation.format == {".gif": "GIF", ".webp": "WEBP"}[suffix]
        assert animation.n_frames == cycles(finished) + 1
        durations = []
        for index in range(animation.n_frames):
            animation.seek(index)
            animation.load()        # a WebP frame's duration is read with the frame
            durations.append(animation.info["duration"])
    assert durations[-1] == max(durations) >= 2 * durations[0]      # the final standings are held longest


def test_an_mp4_is_h264_without_sound(finished, capsys, tmp_path):
    path = tmp_path / "game.mp4"
    assert main(["export", "--db", str(finished), "--animation", str(path)]) == 0
    with av.open(str(path)) as video:
        assert not video.streams.audio
        stream = video.streams.video[0]
        assert stream.codec_context.name == "h264" and stream.codec_context.pix_fmt == "yuv420p"
        assert stream.width % 2 == 0 and stream.height % 2 == 0
        assert sum(1 for _ in video.decode(stream)) >= cycles(finished) + 1


def test_an_unknown_suffix_is_explained(finished, capsys, tmp_path):
    assert main(["export", "--db", str(finished), "--animation", str(tmp_path / "game.avi")]) == 2
    assert "must end in .mp4, .gif or .webp" in capsys.readouterr().err
    assert not (tmp_path / "game.avi").exists()
