"""Paris Paris for the bot: its words, buttons and pictures (renderers/presenter.py)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, cast

from engine.paris_paris import board as B
from engine.paris_paris.actions import Pick, Tile
from i18n import t

from ..presenter import CHAT, Menu, MenuItem, Presenter, Spot
from ..ranking import places
from . import text

# Events that are a player's move; what a round's end brought is everything else but the
# set-up of the game and of the round (the prompt and the picture show those).
_MOVE_KINDS = frozenset({"shop_opened", "shop_evicted", "tile_taken"})
_SETUP_KINDS = frozenset({"game_started", "marker_dealt", "open_marker_shown", "round_started",
                          # the end is announced once, by ``final_lines``, not by the last round too
                          "game_ended"})


class ParisParisPresenter(Presenter):
    game_id = "paris-paris"
    image_prefix = "paris"
    text_prefix = "pp"
    mapscene = ".mapscene"      # its map drawn in a page from a scene

    def title(self, language: str) -> str:
        return "Paris Paris"          # the same in every language

    def help_text(self, language: str) -> str:
        return t(language, "paris_paris.help")

    def option_value_text(self, name: str, value: Any, language: str) -> str:
        return t(language, f"pp.{name}.{value}")      # the values' words, older than the option texts

    # ---- turns and cycles ----------------------------------------------------------------
    def status_line(self, view, language: str) -> str:
        return t(language, "pp.msg.round_header", round=view.round, rounds=view.rounds, stacks=view.stacks_left)

    def cycle_done_line(self, view, cycle: int, language: str) -> str:
        return t(language, "pp.msg.round_header_done", round=cycle, rounds=view.rounds)

    def cycle_over_line(self, view, cycle: int, language: str) -> str:
        return t(language, "pp.msg.round_over", round=cycle, rounds=view.rounds)

    def prompt_line(self, view, language: str, surface: str = CHAT) -> str:
        return t(language, "pp.msg.prompt", player=view.players[view.to_move])

    def narrate(self, events: Sequence[Any], players: Sequence[str], language: str) -> list[str]:
        return text.narrate([e for e in events if e.visible_to(None)], players=players, language=language)

    def split_cycle(self, events):
        moves = [e for e in events if e.kind in _MOVE_KINDS]
        return moves, [e for e in events if e.kind not in _MOVE_KINDS and e.kind not in _SETUP_KINDS]

    def started_lines(self, view, language: str) -> list[str]:
        first = view.bus
        lines = [t(language, "pp.msg.game_started", players=", ".join(view.players),
                   first=view.players[first], rounds=view.rounds)]
        if view.open_marker is not None:
            lines.append(t(language, "pp.msg.open_marker", colour=_colour_word(view.open_marker, language)))
        return lines

    def scores_line(self, view, scores: Sequence[int], language: str) -> str:
        return t(language, "pp.msg.scores",
                 scores=", ".join(f"{p} {s}" for p, s in zip(view.players, scores, strict=True)))

    def final_lines(self, view, language: str) -> list[str]:
        return [t(language, "pp.msg.final_header"),
                t(language, "pp.msg.winners", winners=", ".join(view.players[s] for s in view.winners)),
                t(language, "pp.msg.final_scores", ranking=ranking(view.players, view.scores))]

    # ---- secrets ----------------------------------------------------------------------------
    def private_text(self, event, view, language: str, chat: str) -> str | None:
        if event.kind != "marker_dealt":
            return None
        if not chat:        # the game's own conversation (a terminal): no need to say where
            return t(language, "pp.msg.marker_private_here", colour=_colour_word(event.colour, language))
        return t(language, "pp.msg.marker_private", chat=chat, colour=_colour_word(event.colour, language))

    def secret_text(self, view, language: str, chat: str) -> str | None:
        if view.marker is None:
            return None
        if not chat:        # asked about this game only: no need to name where it is played
            return t(language, "pp.msg.marker_yours", colour=_colour_word(view.marker, language))
        return t(language, "pp.msg.marker_line", chat=chat, colour=_colour_word(view.marker, language))

    def secret_button(self, language: str) -> str:
        return t(language, "pp.btn.marker")

    def no_secret_text(self, language: str) -> str:
        return t(language, "pp.err.no_marker")

    # ---- choices ------------------------------------------------------------------------------
    def menu(self, view, choices: Sequence[Pick], language: str, group: str | None = None) -> Menu:
        # A tile's number is its offer slot, the number the map shows (twins: the first one's).
        keys = {tile.code: slot for slot, tile in reversed(view.offer_numbered())}
        twins: dict[int, tuple[int, ...]] = {}      # the twin's own number means the same tile
        for slot, tile in view.offer_numbered():
            if slot != keys[tile.code]:
                twins[tile.code] = (*twins.get(tile.code, ()), slot)
        by_tile: dict[int, list[Pick]] = {}
        for pick in choices:
            by_tile.setdefault(_tile(pick).code, []).append(pick)
        if group is not None:
            picks = by_tile.get(int(group, 36)) if group.isalnum() and len(group) <= 3 else None
            if not picks:
                return self.menu(view, choices, language)
            return _eviction_menu(view, picks, language)
        rows = []
        for code, picks in by_tile.items():
            tile = _tile(picks[0])
            # twins: every number the map shows for the tile works, so the label shows them all
            label = text.tile_label(tile, keys.get(code, 0), language=language, also=twins.get(code, ()))
            if _only_replaces_own(view, tile):
                label = t(language, "pp.label.replaces_own", label=label)
            if len(picks) > 1:      # a full crossing with two owners: whose shop goes is a second step
                item = MenuItem(label, group=_b36(code), colour=tile.colour, key=keys.get(code),
                                also=twins.get(code, ()))
            else:
                item = MenuItem(label, choice=picks[0], colour=tile.colour, key=keys.get(code),
                                also=twins.get(code, ()))
            rows.append((item,))
        return Menu(tuple(rows))

    def colour_name(self, colour: str, language: str) -> str | None:
        return text.colour_name(colour, language)

    def colour_emoji(self) -> dict[str, str]:
        return dict(text.COLOUR_EMOJI)

    def colour_rgb(self, colour: str) -> tuple[int, int, int] | None:
        from .buslines import COLOURS

        return COLOURS.get(colour)

    def not_now(self, view, typed: str, language: str) -> list[str]:
        """Stations whose name starts with ``typed`` (accents, case and hyphens aside): real
        tiles, just not on offer now (a name on offer was found among the choices already)."""
        wanted = _folded(typed)
        if len(wanted) < 3:
            return []
        return sorted({name for station in B.STATIONS
                       if _folded(name := text.station_name(station)).startswith(wanted)})

    def not_now_text(self, view, names: Sequence[str], language: str) -> str:
        offer = "; ".join(text.tile_label(tile, slot, language=language) for slot, tile in view.offer_numbered())
        return t(language, "pp.err.not_on_offer", tiles=", ".join(names), offer=offer or "—")

    def choice_text(self, choice: Pick, view, language: str) -> str:
        return t(language, "pp.reply.moved", tile=text.tile_text(_tile(choice), language))

    def short_choice_text(self, choice: Pick, language: str) -> str:
        return text.tile_text(_tile(choice), language)

    # ---- boards and pictures ---------------------------------------------------------------------
    def board_text(self, view, language: str) -> str:
        return text.board_text(view, language=language)

    def picture_subject(self, kind: str, view, language: str) -> str:
        return t(language, "pp.alt.final" if kind == "final" else "pp.alt.map")

    def error_text(self, exc: Exception, players: Sequence[str], language: str) -> str:
        return text.error_text(exc, players=players, language=language)

    def render(self, kind: str, view, events: Sequence[Any], language: str, *, layout: str = "landscape") -> bytes:
        from . import render_final, render_map
        from .spots import WIDTH

        public = [e for e in events if e.visible_to(None)]
        if kind == "final":
            return render_final(view, events=public, language=language)
        return render_map(view, events=public, language=language, width=WIDTH, layout=layout)

    def spots(self, picture: str, view, choices: Sequence[Pick], *, layout: str = "landscape") -> list[Spot]:
        if picture != "map":
            return []
        from .spots import map_spots

        return map_spots(view, choices, layout)


def _eviction_menu(view, picks: Sequence[Pick], language: str) -> Menu:
    """Whose shop leaves a full crossing: the one choosing reads their own shop in the first
    person, with a warning before they evict it."""
    tile, me = _tile(picks[0]), view.to_move
    evicts = [_evicted(p) for p in picks]
    dot = text.COLOUR_EMOJI.get(tile.colour, "")
    row = tuple(MenuItem(f"{dot} " + (t(language, "pp.btn.evict_own") if evict == me else
                                     t(language, "pp.btn.evict", player=view.players[evict])),
                         choice=p, colour=tile.colour)
                for p, evict in zip(picks, evicts, strict=True))
    owners = ", ".join(view.players[evict] for evict in evicts)
    station = text.station_name(tile.station)
    ask = t(language, "pp.msg.choose_evict", player=view.players[me], tile=text.tile_text(tile, language),
            station=station, owners=owners)
    others = [evict for evict in evicts if evict != me]
    if others and len(others) < len(picks):
        # Evicting your own shop: the new one takes its place, and the board stays as it was.
        ask += "\n" + t(language, "pp.msg.evict_own_warning", station=station, other=view.players[others[0]])
    return Menu((row,), text=ask, back=True)


def _tile(pick: Pick) -> Tile:
    """The tile a pick takes, as its button names it (``Choice.label``)."""
    return cast(Tile, pick.label().args["tile"])


def _evicted(pick: Pick) -> int:
    """The seat whose shop a pick evicts, as its button names it (a pick of a full crossing's)."""
    return cast(int, pick.label().args["evict"])


def _only_replaces_own(view, tile) -> bool:
    """Does taking ``tile`` only put a new shop of the player's in place of their own? (The
    station is full and every shop there is theirs: the evicted one goes back to their supply,
    and the board stays as it was. A turn with no gain, said before it is taken.)"""
    me = view.to_move
    owners = view.board.get(tile.station, ())
    full = len(owners) == B.CAPACITY[B.STATIONS.index(tile.station)]
    return me is not None and view.supply[me] > 0 and full and set(owners) == {me}


def ranking(players: Sequence[str], scores: Sequence[int]) -> str:
    """"1. Ann 67, =2. Bea 63, =2. Cid 63, 4. Dan 51": highest first, ties share a marked place."""
    order = sorted(range(len(players)), key=lambda s: (-scores[s], s))
    return ", ".join(f"{place} {players[seat]} {scores[seat]}" for place, seat in zip(places(order, scores), order,
                                                                                       strict=True))


def _folded(words: str) -> str:
    """Lower case without accents or punctuation: "Notre Dame" finds "Notre-Dame"."""
    decomposed = unicodedata.normalize("NFKD", words.casefold())
    return "".join(c for c in decomposed if c.isalnum())


def _colour_word(colour: str, language: str) -> str:
    return t(language, "pp.colour." + colour)


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


PRESENTER = ParisParisPresenter()
