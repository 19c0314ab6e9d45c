"""Paris Connection for the bot: its words, buttons and pictures (renderers/presenter.py).

Menus. Before acting a seat sees one button per colour it can build and a Trade button; the
trade is two submenus (the colour returned, group "t", then what to take, group "t<colour>").
During a build it sees one button per legal hex (label: the id the map shows, and a city's
name and value), then Undo and Done. Discord shows at most 25 buttons (5 rows of 5), so when
more than ``MAX_HEXES`` hexes are legal they go into submenus by map columns (group
"h<first hex><last hex>").
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Any

from engine.interface import Label
from engine.paris_connection.actions import Build, Done, Place, Trade, Undo
from engine.paris_connection.board import COMPANIES, HEXES, TOWER, cities, hex_centre
from engine.paris_connection.game import PENALTY
from i18n import t

from ..presenter import CHAT, ChoiceNotFound, Menu, MenuItem, Presenter, Spot
from ..ranking import places
from . import text as words
from .text import COLOUR_EMOJI, colour_word

MAX_HEXES = 18          # hex buttons in one menu: with Undo and Done, 4 rows of 5 and one of 2
ROW = 5                 # buttons in a row (Discord's limit)


class ParisConnectionPresenter(Presenter):
    game_id = "paris-connection"
    image_prefix = "connection"
    text_prefix = "pc"
    mapscene = ".mapscene"      # its map drawn in a page from a scene

    # ---- turns and cycles ----------------------------------------------------------------
    def status_line(self, view, language: str) -> str:
        if view.to_move is None:
            return t(language, "pc.status_over", cycle=view.cycle)
        boards = sum(1 for left in view.storage.values() if left)
        return t(language, "pc.status", cycle=view.cycle, player=view.players[view.to_move], boards=boards)

    def prompt_line(self, view, language: str, surface: str = CHAT) -> str:
        if view.to_move is None:
            return t(language, "pc.prompt_over")
        player = view.players[view.to_move]
        if view.draft is None:
            return t(language, "pc.prompt", player=player)
        colour = f"{COLOUR_EMOJI[view.draft.colour]} {colour_word(view.draft.colour, language)}"
        placed = len(view.draft.hexes)
        key = {0: "pc.prompt_build_first", 1: "pc.prompt_build_one"}.get(placed, "pc.prompt_build")
        return t(language, key, player=player, colour=colour, placed=placed)

    def cycle_done_line(self, view, cycle: int, language: str) -> str:
        return t(language, "pc.cycle_done", cycle=cycle)

    def cycle_over_line(self, view, cycle: int, language: str) -> str:
        return t(language, "pc.cycle_over", cycle=cycle)

    def narrate(self, events: Sequence[Any], players: Sequence[str], language: str) -> list[str]:
        return words.narrate(events, players, language)

    def split_cycle(self, events: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        outcome = {"cycle_ended", "game_ended"}
        return ([e for e in events if e.kind not in outcome | {"game_started"}],
                [e for e in events if e.kind in outcome])

    def started_lines(self, view, language: str) -> list[str]:
        hexes = [f"{COLOUR_EMOJI[c]} {colour_word(c, language)} {view.start_hexes[c]}" for c in COMPANIES]
        return [t(language, "pc.started", players=words.listing(view.players, language),
                  player=view.players[view.first_player]),
                t(language, "pc.started_limit", limit=view.holding_limit),
                t(language, "pc.started_hexes", hexes=words.listing(hexes, language))]

    def scores_line(self, view, scores: Sequence[int], language: str) -> str:
        return t(language, "pc.scores", scores=words.listing(
            [f"{p} {s}" for p, s in zip(view.players, scores, strict=True)], language))

    def final_lines(self, view, language: str) -> list[str]:
        winners = words.listing([view.players[s] for s in view.winners], language)
        lines = [t(language, "pc.final_header"),
                 t(language, "pc.winner" if len(view.winners) == 1 else "pc.winners", players=winners)]
        order = sorted(range(view.num_players), key=lambda s: (-view.scores[s], s))
        lines += [t(language, "pc.score_line", place=place, player=view.players[s], total=view.scores[s],
                    detail=words.score_detail(view, s, language))
                  for place, s in zip(places(order, view.scores), order, strict=True)]
        return lines

    # ---- secrets ----------------------------------------------------------------------------
    def private_text(self, event, view, language: str, chat: str) -> str | None:
        keys = {"holdings_dealt": "pc.holdings_dealt", "holdings_changed": "pc.holdings_changed"}
        if not chat:        # the game's own conversation (a terminal): no need to say where
            keys = {"holdings_dealt": "pc.holdings_here", "holdings_changed": "pc.holdings_changed_here"}
        if event.kind not in keys:
            return None
        return "\n".join([t(language, keys[event.kind], chat=chat, holdings=words.holdings_text(event.holdings, language),
                             count=sum(event.holdings.values()), limit=view.holding_limit),
                           *words.worth_lines(event.holdings, view.values, view.holding_limit, language)])

    def secret_text(self, view, language: str, chat: str) -> str | None:
        if view.holdings is None:
            return None
        return "\n".join([t(language, "pc.holdings_now" if chat else "pc.holdings_here", chat=chat,
                             holdings=words.holdings_text(view.holdings, language),
                             count=sum(view.holdings.values()), limit=view.holding_limit),
                           *words.worth_lines(view.holdings, view.values, view.holding_limit, language)])

    def secret_button(self, language: str) -> str:
        return t(language, "pc.secret_button")

    def no_secret_text(self, language: str) -> str:
        return t(language, "pc.no_secret")

    # ---- choices ------------------------------------------------------------------------------
    def menu(self, view, choices: Sequence[Any], language: str, group: str | None = None) -> Menu:
        places = [c for c in choices if isinstance(c, Place)]
        trades = [c for c in choices if isinstance(c, Trade)]
        if group == "t" and trades:
            return self._give_menu(trades, view, language)
        if group and group.startswith("t") and group[1:] in COMPANIES:
            offered = [c for c in trades if c.give == group[1:]]
            if offered:
                return self._take_menu(offered, view, language)
        if group and group.startswith("h"):
            chunk = _hex_chunks(places).get(group)
            if chunk:
                return Menu(_rows([_hex_item(c) for c in chunk]), text=t(language, "pc.ask.hexes"), back=True)
        ends = [self._step_item(c, view, language) for c in choices if isinstance(c, Undo | Done)]
        if places or ends:
            chunks = _hex_chunks(places)
            if len(chunks) == 1:
                items = [_hex_item(c) for c in places]
            else:
                items = [MenuItem(_page_label(chunk, language), group=key) for key, chunk in chunks.items()]
            return Menu(_rows(items) + ((tuple(ends),) if ends else ()))
        items = [MenuItem(t(language, "pc.btn.build", emoji=COLOUR_EMOJI[c.colour],
                            colour=colour_word(c.colour, language), left=view.storage[c.colour]),
                          choice=c, colour=c.colour) for c in choices if isinstance(c, Build)]
        rows = _rows(items, width=2)
        if trades:
            # What a seat may return depends on its holdings, a secret: the trade's submenus are private.
            rows += ((MenuItem(t(language, "pc.btn.trade"), group="t", letter="t", private=True),),)
        return Menu(rows)

    def back_text(self, language: str) -> str:
        return t(language, "pc.reply.back")

    def _give_menu(self, trades: Sequence[Trade], view, language: str) -> Menu:
        gives = [c for c in COMPANIES if any(tr.give == c for tr in trades)]
        items = [MenuItem(t(language, "pc.btn.give", emoji=COLOUR_EMOJI[c], colour=colour_word(c, language)),
                          group=f"t{c}", colour=c) for c in gives]
        return Menu(_rows(items, width=3), text="\n".join([t(language, "pc.ask.give"), *_holding(view, language)]),
                    back=True, private=True)

    def _take_menu(self, trades: Sequence[Trade], view, language: str) -> Menu:
        ordered = sorted(trades, key=lambda tr: (COMPANIES.index(tr.take), -tr.count))
        held = sum(view.holdings.values()) if view.holdings is not None else 0
        limit = view.holding_limit

        def label(tr: Trade) -> str:
            text = t(language, f"pc.btn.take_{tr.count}", emoji=COLOUR_EMOJI[tr.take],
                     colour=colour_word(tr.take, language, count=tr.count))
            over = max(0, held - 1 + tr.count - limit) - max(0, held - limit)    # what this trade adds over it
            return t(language, "pc.btn.take_over", label=text, cost=over * PENALTY) if over > 0 else text

        items = [MenuItem(label(tr), choice=tr, colour=tr.take) for tr in ordered]
        lines = [t(language, "pc.ask.take", colour=colour_word(trades[0].give, language)), *_holding(view, language)]
        if held + 1 > limit:       # taking 2 for 1 goes over the limit: said before, with its cost
            lines.append(t(language, "pc.ask.take_over", count=held, limit=limit, penalty=PENALTY))
        return Menu(_rows(items, width=4), text="\n".join(lines), back=True, private=True)

    def _step_item(self, choice, view, language: str) -> MenuItem:
        # fixed keys: a player typing a remembered key never undoes by accident
        if choice.label().kind == "done":
            return MenuItem(t(language, "pc.btn.done"), choice=choice, letter="d")
        cancels = view.draft is None or not view.draft.hexes
        return MenuItem(t(language, "pc.btn.cancel" if cancels else "pc.btn.undo"), choice=choice, letter="u")

    def find_item(self, view, choices: Sequence[Any], text: str, language: str) -> MenuItem:
        """A hex id, or a city's name or a word of it, finds its hex wherever it sits in the
        menu (on a page or not); anything else as the base class. A hex of the map that names
        no legal choice (not next to the line, full, no build under way) still means placing
        there: the service's check then refuses it with the reason, not as an unknown word."""
        wanted = " ".join(str(text).split())
        places = [c for c in choices if isinstance(c, Place)]
        for choice in places:
            if choice.hex == wanted.upper():
                return _hex_item(choice)
        named = [c for c in places if _folded_words_start(HEXES[c.hex].city or "", wanted)]
        if len(named) == 1:
            return _hex_item(named[0])
        try:
            return super().find_item(view, choices, text, language)
        except ChoiceNotFound as miss:
            if miss.reason != "unknown":
                raise
            hexes = _hexes_named(wanted)
            if len(hexes) != 1:
                raise
            return _hex_item(Place(hexes[0]))

    def colour_name(self, colour: str, language: str) -> str | None:
        return colour_word(colour, language) if colour in COMPANIES else None

    def colour_emoji(self) -> dict[str, str]:
        return dict(COLOUR_EMOJI)

    def colour_rgb(self, colour: str) -> tuple[int, int, int] | None:
        from .palette import COMPANY_RGB

        return COMPANY_RGB.get(colour)

    def choice_text(self, choice, view, language: str) -> str:
        return _said(choice.label(), REPLY, "pc.reply.", language)

    def short_choice_text(self, choice, language: str) -> str:
        return _said(choice.label(), SHORT, "pc.short.", language)

    # ---- boards and pictures ---------------------------------------------------------------------
    def board_text(self, view, language: str) -> str:
        return words.board_text(view, language)

    def picture_subject(self, kind: str, view, language: str) -> str:
        return t(language, "pc.alt.final" if kind == "final" else "pc.alt.map")

    def error_text(self, exc: Exception, players: Sequence[str], language: str) -> str:
        return words.error_text(exc, players, language)

    def render(self, kind: str, view, events: Sequence[Any], language: str, *, layout: str = "landscape") -> bytes:
        public = [e for e in events if e.visible_to(None)]
        if kind == "final":
            from .final import render_final

            return render_final(view, events=public, language=language)
        from .mapimage import render_map
        from .spots import WIDTH

        return render_map(view, events=public, language=language, width=WIDTH, layout=layout)

    def spots(self, picture: str, view, choices: Sequence[Any], *, layout: str = "landscape") -> list[Spot]:
        if picture != "map":
            return []
        from .spots import map_spots

        return map_spots(choices, layout)


def _holding(view, language: str) -> list[str]:
    """What the one trading holds and what the companies are worth now, under a trade's question."""
    if view.holdings is None:
        return []
    return [t(language, "pc.ask.you_hold", holdings=words.holdings_text(view.holdings, language),
              values=words.values_text(view.values, language))]


def _folded_words_start(name: str, typed: str) -> bool:
    """"saint et" finds Saint-Étienne, "etienne" too: accents, case and hyphens aside."""
    def fold(text: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", text.casefold().replace("-", " "))
                       if not unicodedata.combining(c))
    name, typed = fold(name), fold(typed).strip()
    return bool(typed) and (name.startswith(typed) or any(w.startswith(typed) for w in name.split()))


def _hexes_named(typed: str) -> list[str]:
    """The hexes of the whole map ``typed`` names: its id ("N8"), or its city's name or a word of it."""
    if typed.upper() in HEXES:
        return [typed.upper()]
    if len(typed) < 3:      # a letter or two names no city: an unknown word, not a guess
        return []
    return [h for h, cell in HEXES.items() if cell.city and _folded_words_start(cell.city, typed)]


def _page_label(chunk: Sequence[Place], language: str) -> str:
    """"🗺️ Around Lyon, Dijon (12)": where on the map a page of hexes is."""
    names = chunk_cities(chunk)
    shown = words.listing(names[:3], language) + (" …" if len(names) > 3 else "")
    return t(language, "pc.btn.around", cities=shown, count=len(chunk))


def _hex_item(place: Place) -> MenuItem:
    return MenuItem(words.hex_label(place.hex), choice=place)


# A made choice in words, by its label's kind: for the one who made it, and in a few words (a trade's
# key also says its count: ``_said``).
REPLY = {"build": "pc.reply.build", "place": "pc.reply.place", "undo": "pc.reply.undo", "done": "pc.reply.done"}
SHORT = {"build": "pc.short.build", "place": "pc.short.place", "undo": "pc.short.undo", "done": "pc.short.done"}


def _said(label: Label, keys: dict[str, str], prefix: str, language: str) -> str:
    """A choice in words, from what its button names (``Choice.label``); ``keys``/``prefix``: how long."""
    kind, args = label.kind, label.args
    if kind == "build":
        return t(language, keys[kind], colour=colour_word(args["colour"], language))
    if kind == "place":
        return t(language, keys[kind], hex=words.hex_text(args["hex"]))
    if kind in keys:
        return t(language, keys[kind])
    count = args["count"]
    return t(language, f"{prefix}trade_{count}", give=colour_word(args["give"], language),
             take=colour_word(args["take"], language, count=count))


def _rows(items: Sequence[MenuItem], width: int = ROW) -> tuple[tuple[MenuItem, ...], ...]:
    return tuple(tuple(items[i:i + width]) for i in range(0, len(items), width))


def _hex_chunks(places: Sequence[Place]) -> dict[str, list[Place]]:
    """Legal hexes in pages of at most ``MAX_HEXES``, each page the hexes around one or a few
    cities (a page is where on the map it leads, not a range of ids), keyed by the group that
    opens it."""
    by_city: dict[str, list[Place]] = {}
    for place in sorted(places, key=lambda p: (p.hex[0], int(p.hex[1:]))):
        by_city.setdefault(nearest_city(place.hex), []).append(place)
    chunks: list[list[Place]] = []
    current: list[Place] = []
    for city in sorted(by_city, key=lambda c: _CITY_ORDER[c]):
        around = by_city[city]
        if current and len(current) + len(around) > MAX_HEXES:
            chunks.append(current)
            current = []
        for place in around:
            if len(current) == MAX_HEXES:
                chunks.append(current)
                current = []
            current.append(place)
    if current:
        chunks.append(current)
    return {f"h{chunk[0].hex}{chunk[-1].hex}": chunk for chunk in chunks}


def chunk_cities(chunk: Sequence[Place]) -> list[str]:
    """The cities a page of hexes lies around, in the order the page holds them."""
    return list(dict.fromkeys(nearest_city(place.hex) for place in chunk))


def nearest_city(hex_id: str) -> str:
    """The city nearest to ``hex_id`` on the map (counted in hexes; the city itself for a city)."""
    cell = HEXES[hex_id]
    return min(cities(), key=lambda c: (_distance(cell, c), c.id)).city or ""      # a city hex has a name


def _distance(a, b) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# Cities clockwise around Paris from the north: a page holds the hexes of one direction.
_CITY_ORDER = {c.city: math.atan2(hex_centre(c.q, c.r)[0] - hex_centre(HEXES[TOWER].q, HEXES[TOWER].r)[0],
                                  hex_centre(HEXES[TOWER].q, HEXES[TOWER].r)[1] - hex_centre(c.q, c.r)[1]) % math.tau
               for c in cities()}


PRESENTER = ParisConnectionPresenter()
