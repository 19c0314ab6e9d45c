"""A finished game as an animation: one frame per cycle, drawn as the chat saw it, then the final standings.

The stored game is replayed from its setup, a move at a time (what ``definition.resume(setup,
moves[:k])`` does); at the end of each cycle the game's presenter draws the board as the group's
picture of that cycle shows it (``Presenter.render("map", public view, public events of the cycle)``)
and the cycle's closing line becomes the frame's caption; the final standings ("final") close it.
Only the public view and public events are drawn, so the frames give nothing away that the
group's own pictures did not. A cycle that scored far more than most, and the last one, are held
longer (``renderers.animation.holds``, from the scores everyone may know).

Each platform gets the format it plays inline, within its upload limit, as it declares them
(``Capabilities.animation``, bot/platforms.py: an H.264 MP4 is much smaller than a GIF, an animated
WebP a fifth of the GIF's size): an animation over it is drawn again smaller, then with
fewer frames (``draw``). Drawing takes seconds (every cycle's picture, then the encoder), so it
runs where pictures are drawn: in the drawing processes (``pictures.py``), never on the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.contract import AnimationFormat
from bot.games import GameKind, kind
from bot.platforms import capabilities
from engine.interface import SeatedMove
from renderers.animation import Frame, encode, holds
from renderers.fonts import drawable

ANIMATION = "animation"       # the render kind of an animation (``messages.animation_message``)
# Tried in turn while the animation is over its limit: (a share of the width, keep every n-th frame).
SMALLER = ((1.0, 1), (0.75, 1), (0.75, 2), (0.5, 2), (0.5, 4))


def spec(platform: str) -> AnimationFormat:
    """The animation ``platform`` plays (``Capabilities.animation``)."""
    return capabilities(platform).animation


def frames(game_kind: GameKind, setup: dict[str, Any], moves: Sequence[SeatedMove], language: str) -> list[Frame]:
    """The frames of the game stored as ``setup`` and ``moves`` ((seat, text) pairs): one for each
    cycle that ended, as its picture in the chat shows it, then the final standings when it is over."""
    match = game_kind.definition.resume(setup, [])
    presenter = game_kind.presenter
    drawn: list[tuple[bytes, str]] = []
    gains: list[int | None] = []
    scores = match.rhythm.public_returns()
    for seat, text in moves:
        cycle = match.rhythm.cycle
        match.apply(match.parse_choice(text), by=seat)
        ended = list(range(cycle, match.rhythm.cycle)) + ([match.rhythm.cycle] if match.is_terminal() else [])
        if not ended:
            continue
        view = match.view(None)
        now = match.rhythm.public_returns()
        for done in ended:
            events = [e for e in match.log[match.rhythm.cycle_start(done):] if e.visible_to(None)]
            drawn.append((presenter.render("map", view, events, language, layout="landscape"),
                          caption(presenter.cycle_over_line(view, done, language))))
            gains.append(None if now is None or scores is None else sum(now) - sum(scores))
            scores = now
    over = match.is_terminal()
    seconds = holds(gains, final=over)
    out = [Frame(png, text, held) for (png, text), held in zip(drawn, seconds, strict=False)]
    if over:
        view = match.view(None)
        final = " · ".join(caption(line) for line in presenter.final_lines(view, language)[:2])
        out.append(Frame(presenter.render("final", view, [], language, layout="landscape"), final, seconds[-1]))
    return out


def caption(line: str) -> str:
    """A line of the chat's text as a frame's caption: without the emoji the frame's font cannot draw."""
    return drawable(line, empty="")


def draw(kind_id: str, setup: dict[str, Any], moves: Sequence[SeatedMove], language: str, platform: str) -> bytes:
    """The animation of a stored game in the format ``platform`` plays, within its limit where
    a smaller drawing or fewer frames can bring it there (else the last try: the transport then
    sends the message without it)."""
    wanted = spec(platform)
    shown = frames(kind(kind_id), setup, moves, language)
    data = b""
    for scale, step in SMALLER:
        data = encode(shown, wanted.format, scale=scale, step=step)
        if len(data) <= wanted.limit:
            break
    return data
