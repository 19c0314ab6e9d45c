"""The live web board's values, spoken between the service and the web adapter (``contract.BoardAPI``).

Who looks at which game (a ``Pass``), what a page asks for (a ``PageRequest``) and, in
``bot.pagestate``, what it is shown. Plain frozen values: the service builds them, the adapter
reads them and encodes them only at its socket.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args
from urllib.parse import urlencode

# How a page lays its pictures out: the map beside its panel, or above it (a phone's).
Layout = Literal["landscape", "portrait"]
LAYOUTS: tuple[str, ...] = get_args(Layout)
# Who looks at a game's open page: a user id (None: a spectator), language, layout.
Viewer = tuple[str | None, str, str]
# A board link's query: its game's kind and language, neither secret nor signed (the pass, in the
# fragment, decides the game), so the page's answer can name the game's static board for preloading.
LINK_GAME, LINK_LANGUAGE = "game", "lang"


def link_query(kind: str | None, language: str) -> str:
    """A board link's query (``?game=<kind>&lang=<language>``, before its ``#t=<pass>``); "" without
    a kind: the page opens all the same, only without its static board preloaded."""
    return "" if kind is None else "?" + urlencode({LINK_GAME: kind, LINK_LANGUAGE: language})


class BadPass(ValueError):
    """A link or login that opens nothing; ``reason``: "forged" or "expired"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PicturesBusy(Exception):
    """Too many page pictures are waiting already: this one is not drawn (come back later)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Who looks at which game. ``user_id`` None: a spectator (the public view only)."""

    game_id: int
    platform: str
    user_id: str | None
    name: str
    language: str
    expires: float
    page: bool = False        # a page pass (in addresses a proxy may log), not a link's

    @property
    def spectator(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class PageRequest:
    """What a page asks for: the game, whose view (None: a spectator's), in which language and
    layout, and, for a finished game being reviewed, after how many moves (None: now)."""

    game_id: int
    seat: int | None
    language: str
    layout: str = "landscape"
    at: int | None = None
