"""Words for a game: a compact textual board, event narration, button labels, errors.

Used for image captions and alt text, for the terminal, and by the chat adapters.
Everything a player reads comes from the message catalogs (i18n/__init__.py) in the
language asked for; station names stay French (they are names of places).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine.paris_paris import events as E
from engine.paris_paris.actions import Tile
from engine.paris_paris.board import COLOURS, DISPLAY_NAMES
from i18n import name_list, t

COLOUR_EMOJI: dict[str, str] = {"green": "🟢", "red": "🔴", "blue": "🔵", "purple": "🟣", "yellow": "🟡"}


def station_name(station: str) -> str:
    return DISPLAY_NAMES.get(station, station)


def colour_name(colour: str, language: str = "en") -> str:
    return t(language, f"colour_{colour}")


def tile_text(tile: Tile, language: str = "en") -> str:
    """``🟢 Centre Pompidou (green)``."""
    return f"{COLOUR_EMOJI.get(tile.colour, '')} {station_name(tile.station)} ({colour_name(tile.colour, language)})"


def tile_label(tile: Tile, key: int, *, language: str = "en", also: Sequence[int] = ()) -> str:
    """Button label for an offered tile: ``🟢 3 · Centre Pompidou``; ``key`` is its offer slot
    (``GameView.offer_numbered``: the number the map shows, stable through the round). ``also``:
    the other numbers the map shows for the same tile (two equal tiles on offer), ``🔵 1/3 · Madeleine``."""
    numbers = "/".join(str(n) for n in (key, *also))
    return f"{COLOUR_EMOJI.get(tile.colour, '')} {numbers} · {station_name(tile.station)}"


def join_list(items: Sequence[str], language: str = "en") -> str:
    return name_list(items, language)


def _name(players: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "?"
    return players[seat] if 0 <= seat < len(players) else f"#{seat + 1}"


def _scores(points: Sequence[int], players: Sequence[str], language: str) -> str:
    parts = [t(language, "score_item", player=_name(players, seat), points=p)
             for seat, p in enumerate(points) if p]
    return ", ".join(parts) if parts else t(language, "scores_none")


def narrate_event(event: E.Event, *, players: Sequence[str], language: str = "en") -> str | None:
    """One readable line for ``event`` (None for events that need no words)."""
    lang = language
    name = lambda seat: _name(players, seat)  # noqa: E731
    if isinstance(event, E.GameStarted):
        return t(lang, "ev_game_started", players=join_list(list(event.players), lang),
                 rounds=event.rounds, player=_name(event.players, event.first_player))
    if isinstance(event, E.MarkerDealt):
        return t(lang, "ev_marker_dealt", colour=_colour_words(event.colour, lang))
    if isinstance(event, E.OpenMarkerShown):
        return t(lang, "ev_open_marker_shown", colour=_colour_words(event.colour, lang))
    if isinstance(event, E.RoundStarted):
        offer = "; ".join(tile_label(tile, i, language=lang) for i, tile in enumerate(event.offer, 1))
        return t(lang, "ev_round_started", round=event.round, rounds=event.rounds,
                 player=name(event.bus), offer=offer)
    if isinstance(event, E.TileTaken):
        return t(lang, "ev_tile_taken", player=name(event.seat), tile=tile_text(event.tile, lang))
    if isinstance(event, E.ShopOpened):
        return t(lang, "ev_shop_opened", player=name(event.seat), tile=tile_text(event.tile, lang))
    if isinstance(event, E.ShopEvicted):
        if event.owner == event.by:     # a player makes room at a full station held only by them
            return t(lang, "ev_shop_evicted_own", by=name(event.by), station=station_name(event.station))
        key = "ev_shop_evicted_bag" if event.destination == "bag" else "ev_shop_evicted_supply"
        return t(lang, key, owner=name(event.owner), by=name(event.by), station=station_name(event.station))
    if isinstance(event, E.SmallTour):
        tile = tile_text(event.tile, lang)
        if event.distance is None:
            return t(lang, "ev_small_tour_none", tile=tile)
        scores = _scores(event.points, players, lang)
        if event.distance == 0:
            return t(lang, "ev_small_tour_here", tile=tile, scores=scores)
        stations = join_list(sorted({station_name(s) for s, _ in event.shops}), lang)
        return t(lang, "ev_small_tour_near", tile=tile, distance=event.distance, stations=stations,
                 scores=scores)
    if isinstance(event, E.TileDiscarded):
        key = "ev_tile_discarded_match" if event.big_tour else "ev_tile_discarded"
        return t(lang, key, tile=tile_text(event.tile, lang), colour=_colour_words(event.tile.colour, lang))
    if isinstance(event, E.BigTour):
        key = {"discard": "ev_big_tour_discard", "marker": "ev_big_tour_marker",
               "open_marker": "ev_big_tour_open_marker"}.get(event.reason, "ev_big_tour_all_lines")
        return t(lang, key, colour=_colour_words(event.colour, lang), player=name(event.seat),
                 scores=_scores(event.points, players, lang))
    if isinstance(event, E.MarkersRevealed):
        parts = [f"{name(seat)} {_colour_words(colour, lang)}" for seat, colour in enumerate(event.markers)]
        text = t(lang, "ev_markers_revealed", markers=", ".join(parts))
        if event.open_marker:
            text += " " + t(lang, "ev_open_marker_shown", colour=_colour_words(event.open_marker, lang))
        return text
    if isinstance(event, E.BagScored):
        counts = ", ".join(f"{name(seat)} {count}" for seat, count in enumerate(event.counts))
        if event.seat is None:
            return t(lang, "ev_bag_none", counts=counts)
        return t(lang, "ev_bag_scored", counts=counts, player=name(event.seat), points=event.points)
    if isinstance(event, E.GameEnded):
        winners = join_list([name(s) for s in event.winners], lang)
        points = event.scores[event.winners[0]] if event.winners else 0
        key = "ev_game_ended" if len(event.winners) == 1 else "ev_game_ended_shared"
        return t(lang, key, winners=winners, points=points)
    return None


def _colour_words(colour: str, language: str) -> str:
    return f"{COLOUR_EMOJI.get(colour, '')} {colour_name(colour, language)}".strip()


def narrate(events: Iterable[E.Event], *, players: Sequence[str], language: str = "en",
            viewer: int | None = None) -> list[str]:
    """One line per event that ``viewer`` may see (None: the public), in order."""
    names = tuple(players)
    lines = []
    for event in events:
        if not event.visible_to(viewer):
            continue
        line = _narrated(event, names, language)
        if line:
            lines.append(line)
    return lines


# A line depends only on its event (frozen, compared by value), the names and the language, and
# the same events are told again and again: a cycle's moves in each edit of its prompt, then in the
# closing edit, the summary and the picture's description. Enough lines for the cycles under way in
# a few hundred games; within one move's messages every repeat is found. (Not more: each line kept
# is a few objects more for every full garbage collection to walk.)
@lru_cache(maxsize=2048)
def _narrated(event: E.Event, players: tuple[str, ...], language: str) -> str | None:
    return narrate_event(event, players=players, language=language)


def board_text(view, *, language: str = "en") -> str:
    """A compact textual board: state, players, shops, offer, discard (no secrets)."""
    lang = language
    players = view.players
    lines = []
    if view.finished:
        lines.append(t(lang, "bt_title_over", rounds=view.rounds))
    else:
        lines.append(t(lang, "bt_title", round=view.round, rounds=view.rounds, stacks=view.stacks_left))
    on_board = [0] * len(players)
    for owners in view.board.values():
        for owner in owners:
            on_board[owner] += 1
    for seat, player in enumerate(players):
        marks = []
        if not view.finished and seat == view.to_move:
            marks.append("▶")
        if seat == view.bus and not view.finished:
            marks.append("🚌")
        if view.finished and seat in view.winners:
            marks.append("🏆")
        lines.append(t(lang, "bt_player", marks=" ".join(marks) + (" " if marks else ""), player=player,
                       points=t(lang, "final_points", points=view.scores[seat]),
                       supply=t(lang, "bt_supply", supply=view.supply[seat]), board=on_board[seat]))
    if view.board:
        shops = []
        for station, owners in sorted(view.board.items(), key=lambda item: station_name(item[0])):
            shops.append(t(lang, "bt_shop", station=station_name(station),
                           owners=", ".join(players[o] for o in owners)))
        lines.append(t(lang, "bt_shops", shops="; ".join(shops)))
    else:
        lines.append(t(lang, "bt_no_shops"))
    if view.offer:
        lines.append(t(lang, "bt_offer", offer="; ".join(
            tile_label(tile, slot, language=lang) for slot, tile in view.offer_numbered())))
    discard = [f"{COLOUR_EMOJI[c]} {station_name(tile.station)}" for c in COLOURS
               if (tile := view.discard.get(c)) is not None]
    lines.append(t(lang, "bt_discard", discard=", ".join(discard) if discard else t(lang, "bt_empty")))
    if view.open_marker:
        lines.append(t(lang, "open_marker", colour=_colour_words(view.open_marker, lang)))
    if view.marker and not view.finished:
        lines.append(t(lang, "your_marker", colour=_colour_words(view.marker, lang)))
    if view.finished:
        winners = join_list([players[s] for s in view.winners], lang)
        lines.append(t(lang, "bt_winners", winners=winners))
    elif view.to_move is not None:
        lines.append(t(lang, "bt_to_move", player=players[view.to_move]))
    return "\n".join(lines)


def error_text(exc: Exception, *, players: Sequence[str], language: str = "en") -> str:
    """A player-facing sentence for an engine ``GameError``, by its ``code`` and ``params``."""
    code = getattr(exc, "code", "error")
    params = dict(getattr(exc, "params", {}) or {})
    lang = language
    if code == "not_your_turn":
        return t(lang, "err_not_your_turn", player=_name(players, params.get("current")))
    if code == "tile_not_on_offer":
        tile = params.get("tile", "")
        try:
            tile = tile_text(Tile.parse(str(tile)), lang)
        except Exception:  # noqa: BLE001 - an unreadable tile is still worth naming as typed
            tile = str(tile)
        return t(lang, "err_tile_not_on_offer", tile=tile)
    if code in ("eviction_choice_required", "invalid_eviction"):
        owners = join_list([_name(players, o) for o in params.get("owners", ())], lang)
        return t(lang, f"err_{code}", station=station_name(str(params.get("station", ""))), owners=owners,
                 player=_name(players, params.get("evict")))
    if code == "invalid_record":
        index = params.get("move_index")
        where = t(lang, "err_where_setup") if index is None else t(lang, "err_where_move", index=index)
        return t(lang, "err_invalid_record", where=where, detail=str(exc))
    if code in ("malformed", "invalid_setup", "illegal", "game_over"):
        return t(lang, f"err_{code}", value=params.get("value", ""), detail=str(exc))
    return t(lang, "err_error", detail=str(exc))
