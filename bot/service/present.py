"""The service's bridge to ``renderers``: words and pictures for a game, in its language.

Narration only ever receives public events, so a group message cannot carry a secret.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.paris_paris import Tile
from engine.paris_paris.board import DISPLAY_NAMES
from renderers import paris_paris as renderers
from renderers.paris_paris import text

# Telegram is read mostly on phones, where a portrait map (the panel under the map) shows
# station names about 1.4 times larger; Discord and the terminal keep the landscape map.
PORTRAIT_PLATFORMS = frozenset({"telegram"})


def station_name(station: str) -> str:
    return DISPLAY_NAMES.get(station, station)


def tile_text(tile: Tile, language: str) -> str:
    return text.tile_text(tile, language)


def tile_label(tile: Tile, key: int, language: str) -> str:
    return text.tile_label(tile, key, language=language)


def narrate(events: Sequence, players: Sequence[str], language: str) -> list[str]:
    """Lines for the public events among ``events``."""
    public = [e for e in events if e.visible_to(None)]
    return list(text.narrate(public, players=players, language=language, viewer=None))


def board_text(view, language: str) -> str:
    return text.board_text(view, language=language)


def error_text(exc: Exception, players: Sequence[str], language: str) -> str:
    return text.error_text(exc, players=players, language=language)


def render_image(kind: str, view, events: Sequence, language: str, *, platform: str = "") -> bytes:
    """A PNG: the map after a round ("map") or the final standings ("final")."""
    public = [e for e in events if e.visible_to(None)]
    if kind == "final":
        return renderers.render_final(view, events=public, language=language)
    layout = "portrait" if platform in PORTRAIT_PLATFORMS else "landscape"
    return renderers.render_map(view, events=public, language=language, layout=layout)
