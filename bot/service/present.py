"""The service's bridge to ``renderers``: words and pictures for a game.

The renderers package is written alongside the service; each function here uses it when it
is importable and falls back to a plain rendering from the service's own catalog otherwise,
so the service never breaks on a renderer still in progress (or a renderer bug).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engine import Tile
from engine.board import DISPLAY_NAMES
from renderers.i18n import t

log = logging.getLogger(__name__)


def _text_module():
    try:
        from renderers import text
    except Exception:  # noqa: BLE001 - any import problem means: use the fallback
        return None
    return text


def station_name(station: str) -> str:
    return DISPLAY_NAMES.get(station, station)


def tile_text(tile: Tile, language: str) -> str:
    text = _text_module()
    if text is not None and hasattr(text, "tile_text"):
        try:
            return text.tile_text(tile, language)
        except Exception:  # noqa: BLE001
            log.exception("renderers.text.tile_text failed")
    return f"{station_name(tile.station)} ({t(language, 'bot.colour.' + tile.colour)})"


def tile_label(tile: Tile, key: int, language: str) -> str:
    text = _text_module()
    if text is not None and hasattr(text, "tile_label"):
        try:
            return text.tile_label(tile, key, language=language)
        except Exception:  # noqa: BLE001
            log.exception("renderers.text.tile_label failed")
    return f"{key} · {tile_text(tile, language)}"


def narrate(events: Sequence, players: Sequence[str], language: str) -> list[str]:
    """Lines for public events only (the caller passes the public log; viewer=None)."""
    public = [e for e in events if e.visible_to(None)]
    text = _text_module()
    if text is not None and hasattr(text, "narrate"):
        try:
            return list(text.narrate(public, players=players, language=language, viewer=None))
        except Exception:  # noqa: BLE001
            log.exception("renderers.text.narrate failed")
    return _fallback_narrate(public, players, language)


def _fallback_narrate(events: Sequence, players: Sequence[str], language: str) -> list[str]:
    lines = []
    for e in events:
        kind = e.kind
        if kind == "shop_opened":
            lines.append(t(language, "bot.narr.shop_opened", player=players[e.seat],
                           tile=tile_text(e.tile, language)))
        elif kind == "shop_evicted":
            lines.append(t(language, "bot.narr.shop_evicted", player=players[e.owner],
                           station=station_name(e.station), by=players[e.by]))
        elif kind == "small_tour":
            lines.append(t(language, "bot.narr.small_tour", tile=tile_text(e.tile, language),
                           points=_points(e.points, players, language)))
        elif kind == "big_tour":
            lines.append(t(language, "bot.narr.big_tour", colour=t(language, "bot.colour." + e.colour),
                           points=_points(e.points, players, language)))
        elif kind == "markers_revealed":
            lines.append(t(language, "bot.narr.markers", markers=", ".join(
                f"{players[s]}: {t(language, 'bot.colour.' + c)}" for s, c in enumerate(e.markers))))
        elif kind == "game_ended":
            lines.append(t(language, "bot.narr.game_ended",
                           winners=", ".join(players[s] for s in e.winners),
                           scores=", ".join(f"{players[s]} {p}" for s, p in enumerate(e.scores))))
    return lines


def _points(points: Sequence[int], players: Sequence[str], language: str) -> str:
    parts = [f"{players[s]} +{p}" for s, p in enumerate(points) if p]
    return ", ".join(parts) if parts else t(language, "bot.narr.nobody")


def board_text(view, language: str) -> str:
    text = _text_module()
    if text is not None and hasattr(text, "board_text"):
        try:
            return text.board_text(view, language=language)
        except Exception:  # noqa: BLE001
            log.exception("renderers.text.board_text failed")
    lines = [t(language, "bot.board.round", round=view.round, rounds=view.rounds)]
    for seat, name in enumerate(view.players):
        lines.append(f"{name}: {view.scores[seat]}")
    for station, owners in sorted(view.board.items()):
        lines.append(f"{station_name(station)}: {', '.join(view.players[o] for o in owners)}")
    return "\n".join(lines)


def error_text(exc: Exception, players: Sequence[str], language: str) -> str:
    text = _text_module()
    if text is not None and hasattr(text, "error_text"):
        try:
            return text.error_text(exc, players=players, language=language)
        except Exception:  # noqa: BLE001
            log.exception("renderers.text.error_text failed")
    return t(language, "bot.error.illegal", detail=str(exc))


def render_image(kind: str, view, events: Sequence, language: str) -> bytes | None:
    """A map PNG ("map" after a round, "final" at the end); None when no renderer is available."""
    try:
        import renderers
    except Exception:  # noqa: BLE001
        return None
    public = [e for e in events if e.visible_to(None)]
    fn = getattr(renderers, "render_final" if kind == "final" else "render_map", None)
    if fn is None and kind == "final":
        fn = getattr(renderers, "render_map", None)
    if fn is None:
        return None
    return fn(view, events=public, language=language)
