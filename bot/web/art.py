"""The games' art for the pages' scenes (``renderers/scene.py``), under content-named addresses.

A scene names pictures of its game's closed set (``Presenter.art_names``: the static board, its
sprites). Each is drawn once per process and served under ``art/<game>/<name>.<digest>.webp``,
named by its bytes, so a browser keeps it for good (``Cache-Control: immutable``) and a new
drawing gets a new address. A name outside the set, or a digest not the picture's, is no picture:
refused before anything is drawn (the name), or after the one drawing the process keeps (the digest).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Iterable

from bot.games import KINDS

ART_CACHE_CONTROL = "public, max-age=31536000, immutable"
_FILE = re.compile(r"([a-z0-9-]{1,40})\.([0-9a-f]{16})\.webp")


# Every game's art drawn so far: a closed set per game, so the whole of it at most (a few MB).
_DRAWN: dict[tuple[str, str], tuple[bytes, str]] = {}


def _drawn(game_id: str, name: str) -> tuple[bytes, str]:
    """The picture ``name`` of ``game_id`` (one of its ``art_names``) and its digest."""
    got = _DRAWN.get((game_id, name))
    if got is None:
        image = KINDS[game_id].presenter.art(name)
        got = _DRAWN[(game_id, name)] = (image, hashlib.blake2b(image, digest_size=8).hexdigest())
    return got


def known(game_id: str, name: str) -> bool:
    """Whether ``name`` is one of the game's art: nothing else is ever drawn by name."""
    return game_id in KINDS and name in KINDS[game_id].presenter.art_names()


def url(game_id: str, name: str) -> str:
    """The address of one of the game's art, relative to the page (drawn now if not yet)."""
    if not known(game_id, name):
        raise KeyError(name)
    return f"art/{game_id}/{name}.{_drawn(game_id, name)[1]}.webp"


def opening_urls(game_id: str, layout: str, language: str) -> tuple[str, ...]:
    """The addresses of the art every scene of the game shows in ``layout`` and ``language``
    (``Presenter.board_art``), for a page to fetch before it has read its state: only those
    already drawn (nothing is drawn here, and an unknown game has none)."""
    if game_id not in KINDS:
        return ()
    names = KINDS[game_id].presenter.board_art(layout, language)
    return tuple(f"art/{game_id}/{name}.{_DRAWN[(game_id, name)][1]}.webp"
                 for name in names if (game_id, name) in _DRAWN)


async def prepare(game_id: str, names: Iterable[str]) -> None:
    """Draw the ones of ``names`` not drawn yet, off the event loop (``url`` then only looks up)."""
    missing = [name for name in names if known(game_id, name) and (game_id, name) not in _DRAWN]
    if missing:
        await asyncio.to_thread(lambda: [_drawn(game_id, name) for name in missing])


def draw_all() -> None:
    """Every game's art, drawn now (a board just started does it in a thread of its own, so the
    first page's board does not wait for its drawing)."""
    for game_id, kind in KINDS.items():
        for name in sorted(kind.presenter.art_names()):
            _drawn(game_id, name)


def known_file(game_id: str, file: str) -> bool:
    """Whether ``file`` names one of the game's art (its digest aside): checked before any drawing."""
    got = _FILE.fullmatch(file)
    return got is not None and known(game_id, got[1])


def picture(game_id: str, file: str) -> bytes | None:
    """The bytes at ``art/<game_id>/<file>``; None: no such picture (nothing drawn for a name
    outside the game's set)."""
    got = _FILE.fullmatch(file)
    if got is None or not known(game_id, got[1]):
        return None
    image, digest = _drawn(game_id, got[1])
    return image if digest == got[2] else None
