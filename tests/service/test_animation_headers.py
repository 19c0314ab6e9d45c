"""Issue 46: an animation frame captioned "Round 6/15 is over." carried the header "Round 7 of 15"
(the board drawn as the next round begins). A frame that closes a round says that round in its header."""

from __future__ import annotations

import re

from test_animation import played

from bot.service.posts import animation
from i18n import t
from renderers.paris_connection import mapimage as pc_map
from renderers.paris_paris import mapimage as pp_map


def test_paris_paris_frames_name_the_round_their_caption_closes(monkeypatch):
    headers: list[str] = []
    real = pp_map._panel_header        # noqa: SLF001

    def spy(c, view, y=pp_map.PANEL_TOP, closed=None):
        headers.append(t("en", "map_round_over", round=closed, rounds=view.rounds) if closed is not None
                       else t("en", "map_round", round=view.round, rounds=view.rounds))
        return real(c, view, y, closed)

    monkeypatch.setattr(pp_map, "_panel_header", spy)
    game, setup, moves, match = played("paris-paris", 3, 7, upto=30)
    frames = animation.frames(game, setup, moves, "en")
    assert len(frames) == len(headers) >= 2
    for frame, header in zip(frames, headers, strict=True):
        number = re.search(r"Round (\d+)/15 is over", frame.caption).group(1)
        assert header == f"Round {number} of 15: over", (frame.caption, header)


def test_paris_connection_frames_name_the_round_their_caption_closes(monkeypatch):
    said: list[str] = []
    real_t = pc_map.t

    def spy(language, key, **params):
        text = real_t(language, key, **params)
        if key.startswith("pc.img.round"):
            said.append(text)
        return text

    monkeypatch.setattr(pc_map, "t", spy)
    game, setup, moves, match = played("paris-connection", 3, 7, upto=60)
    frames = animation.frames(game, setup, moves, "en")
    closing = [frame.caption.rstrip(".") for frame in frames if "is over" in frame.caption]
    assert len(closing) >= 2
    # (a picture may be measured or drawn besides the frames: only the frames' headers are compared)
    assert [header for header in said if "is over" in header] == closing
