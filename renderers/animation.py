"""A whole game as one animation: the pictures a game draws after each cycle, one frame each,
with a caption drawn on it, encoded as a GIF, an animated WebP (Pillow) or an H.264 MP4 (PyAV,
whose wheels carry FFmpeg and libx264).

Which frames and captions a game's animation has is the bot's business (bot/service/posts/animation.py
replays the stored game); here are only the frames' shape and the encoders. Every frame is put on
one canvas the size of the first one (a final picture of another shape is fitted into it), with
a band under the picture that carries its caption. A frame shows for ``Frame.seconds``: key
moments (a big scoring round, the end) longer (``holds``).
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image, ImageDraw

from . import style
from .fonts import fit, font

# What each format is called as a file, and what the platforms play inline (docs/telegram.md):
# Telegram's sendAnimation takes GIF or H.264 MP4 without sound; Discord plays GIF and animated WebP.
SUFFIXES = {"gif": ".gif", "webp": ".webp", "mp4": ".mp4"}
FORMATS = tuple(SUFFIXES)
# The widest frame of each format (None: the pictures' own width, 1280 px for a map): a GIF's and a
# WebP's bytes grow fast with the size, an H.264 video's hardly.
WIDTHS: dict[str, int | None] = {"gif": 800, "webp": 800, "mp4": None}

SECONDS = 0.8          # a cycle's frame
KEY_SECONDS = 1.6      # a key moment: a cycle that scored far more than most, the last cycle
FINAL_SECONDS = 4.0    # the final standings
LONGEST = 40.0         # seconds the ordinary frames take at most together (long games go faster)
SHORTEST = 0.3         # ... but no frame shows shorter than this
MP4_FPS = 4            # an MP4 repeats frames at this rate (x264 stores a repeat in a few bytes)
BAND = 0.055           # the caption band's height, a share of the frame's width
BAND_MIN = 28


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the animation (PNG bytes as a presenter draws them) and its caption."""

    png: bytes
    caption: str
    seconds: float = SECONDS


def holds(gains: Sequence[int | None], *, final: bool = True) -> list[float]:
    """Each cycle's seconds from the points it scored (``gains``, None where nobody may know them):
    a cycle that scored at least twice the median of the scoring cycles, and the last cycle, are
    key moments; a long game goes faster so the whole stays watchable. With ``final`` the final
    standings' frame comes after them."""
    count = len(gains)
    base = max(SHORTEST, min(SECONDS, LONGEST / max(1, count)))
    scored = sorted(g for g in gains if g)
    median = scored[len(scored) // 2] if scored else 0
    out = [base * 2 if (median and gain is not None and gain >= 2 * median) else base for gain in gains]
    if out:
        out[-1] = max(out[-1], KEY_SECONDS)
    return out + ([FINAL_SECONDS] if final else [])


def canvas_size(frames: Sequence[Frame], width: int | None, scale: float = 1.0) -> tuple[int, int, int]:
    """(width, height of the picture, height of the caption band) of every frame: the first
    picture's shape at ``width`` (its own width when None) times ``scale``, in even numbers
    (H.264 needs them)."""
    with Image.open(io.BytesIO(frames[0].png)) as first:
        w, h = first.size
    target = round(min(w, width or w) * scale)
    if target < w:
        h = round(h * target / w)
        w = target
    band = max(BAND_MIN, round(w * BAND))
    return w - w % 2, h - h % 2, band + band % 2


def composed(frame: Frame, size: tuple[int, int, int]) -> Image.Image:
    """``frame`` on the canvas: its picture fitted and centred, the caption in the band below."""
    width, height, band = size
    with Image.open(io.BytesIO(frame.png)) as opened:
        picture = opened.convert("RGB")
    # a picture of another shape (the final standings) sits on its own paper's colour
    canvas = Image.new("RGB", (width, height + band), picture.getpixel((0, 0)))
    scale = min(width / picture.width, height / picture.height)
    fitted = picture.resize((max(1, round(picture.width * scale)), max(1, round(picture.height * scale))),
                            Image.Resampling.LANCZOS)
    canvas.paste(fitted, ((width - fitted.width) // 2, (height - fitted.height) // 2))
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, height, width, height + band), fill=style.INK)
    size_px = max(10, round(band * 0.55))
    caption = fit(frame.caption, width - band, size_px, bold=True)
    draw.text((width // 2, height + band // 2), caption, font=font(size_px, True), fill=style.WHITE, anchor="mm")
    return canvas


def encode(frames: Sequence[Frame], fmt: str, *, width: int | None = None, scale: float = 1.0,
           step: int = 1) -> bytes:
    """The animation of ``frames`` as ``fmt`` ("gif", "webp" or "mp4"), ``width`` pixels wide at
    most (the format's ``WIDTHS`` when None), times ``scale``; ``step`` > 1 keeps only every step-th ordinary frame (for a size limit), and always the
    key moments and the last two (their time goes to the frames kept)."""
    if fmt not in SUFFIXES:
        raise ValueError(f"no such animation format: {fmt!r} (one of {', '.join(FORMATS)})")
    if not frames:
        raise ValueError("an animation needs at least one frame")
    kept = thinned(frames, step)
    size = canvas_size(kept, width or WIDTHS[fmt], scale)
    images = [composed(frame, size) for frame in kept]
    seconds = [frame.seconds for frame in kept]
    if fmt == "mp4":
        return _mp4(images, seconds)
    out = io.BytesIO()
    durations = [round(s * 1000) for s in seconds]
    if fmt == "gif":
        images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                       optimize=False, disposal=1)
    else:
        images[0].save(out, "WEBP", save_all=True, append_images=images[1:], duration=durations, loop=0,
                       quality=70, method=2)
    return out.getvalue()


def thinned(frames: Sequence[Frame], step: int) -> list[Frame]:
    """Every ``step``-th ordinary frame, each shown as long as the frames it stands for."""
    if step <= 1:
        return list(frames)
    kept: list[Frame] = []
    pending = 0.0
    last = len(frames) - 1
    for index, frame in enumerate(frames):
        key = index >= last - 1 or frame.seconds > min(f.seconds for f in frames)
        if key or index % step == 0:
            kept.append(Frame(frame.png, frame.caption, frame.seconds + pending))
            pending = 0.0
        else:
            pending += frame.seconds
    return kept


def _mp4(images: Sequence[Image.Image], seconds: Sequence[float]) -> bytes:
    """H.264 in MP4, no sound, yuv420p (what Telegram plays as an animation), ``MP4_FPS``
    frames a second: each picture repeated for its seconds (a repeat costs a few bytes)."""
    # To a file: "faststart" (the index before the frames, so a player starts at once) rewrites it
    # in a second pass that reopens the file by name, which an in-memory output cannot offer.
    with tempfile.TemporaryDirectory(prefix="boardchat-mp4-") as folder:
        path = os.path.join(folder, "animation.mp4")
        _mp4_file(path, images, seconds)
        with open(path, "rb") as done:
            return done.read()


def _mp4_file(path: str, images: Sequence[Image.Image], seconds: Sequence[float]) -> None:
    import av  # PyAV: FFmpeg's encoders; imported here, so that drawing pictures never loads it

    with av.open(path, mode="w", format="mp4", options={"movflags": "+faststart"}) as container:
        stream = container.add_stream("libx264", rate=Fraction(MP4_FPS))
        stream.width, stream.height = images[0].size
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": "26", "preset": "fast", "tune": "stillimage"}
        count = 0
        for image, shown in zip(images, seconds, strict=True):
            for _ in range(max(1, round(shown * MP4_FPS))):
                picture = av.VideoFrame.from_image(image)
                picture.pts = count
                count += 1
                container.mux(stream.encode(picture))
        container.mux(stream.encode(None))


def suffix(fmt: str) -> str:
    return SUFFIXES[fmt]
