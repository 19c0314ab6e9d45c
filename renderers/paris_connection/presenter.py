"""Paris Connection for the bot: its words, buttons and pictures (renderers/presenter.py).

Menus. Before acting a seat sees one button per colour it can build and a Trade button; the
trade is two submenus (the colour returned, group "t", then what to take, group "t<colour>").
During a build it sees one button per legal hex (label: the id the map shows, and a city's
name and value), then Undo and Done. Discord shows at most 25 buttons (5 rows of 5), so when
more than ``MAX_HEXES`` hexes are legal they go into submenus by map columns (group
"h<first hex><last hex>").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.paris_connection.actions import Build, Done, Place, Trade, Undo
from engine.paris_connection.board import COMPANIES

from ..i18n import t
from ..presenter import ChoiceNotFound, Menu, MenuItem, Presenter
from . import text as words
from .text import COLOUR_EMOJI, colour_word

MAX_HEXES = 18          # hex buttons in one menu: with Undo and Done, 4 rows of 5 and one of 2
ROW = 5                 # buttons in a row (Discord's limit)


class ParisConnectionPresenter(Presenter):
    game_id = "paris-connection"
    image_prefix = "connection"

    def title(self, language: str) -> str:
        return t(language, "pc.name")

    def rules_text(self, language: str) -> str:
        return t(language, "pc.rules")

    def help_text(self, language: str) -> str:
        return t(language, "pc.help")

    # The game declares no options; these answer for any that a later version adds.
    def option_value_text(self, name: str, value: Any, language: str) -> str:
        return t(language, f"pc.option.{name}.{value}")

    def option_name_text(self, name: str, language: str) -> str:
        return t(language, f"pc.option.{name}")

    # ---- turns and cycles ----------------------------------------------------------------
    def status_line(self, view, language: str) -> str:
        if view.to_move is None:
            return t(language, "pc.status_over", cycle=view.cycle)
        boards = sum(1 for left in view.storage.values() if left)
        return t(language, "pc.status", cycle=view.cycle, player=view.players[view.to_move], boards=boards)

    def prompt_line(self, view, language: str) -> str:
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
        order = sorted(range(view.num_players), key=lambda s: -view.scores[s])
        lines += [t(language, "pc.score_line", player=view.players[s], total=view.scores[s],
                    detail=words.score_detail(view, s, language)) for s in order]
        return lines

    # ---- secrets ----------------------------------------------------------------------------
    def private_text(self, event, view, language: str, chat: str) -> str | None:
        keys = {"holdings_dealt": "pc.holdings_dealt", "holdings_changed": "pc.holdings_changed"}
        if not chat:        # the game's own conversation (a terminal): no need to say where
            keys = {"holdings_dealt": "pc.holdings_here", "holdings_changed": "pc.holdings_changed_here"}
        if event.kind not in keys:
            return None
        return t(language, keys[event.kind], chat=chat, holdings=words.holdings_text(event.holdings, language),
                 count=sum(event.holdings.values()), limit=view.holding_limit)

    def secret_text(self, view, language: str, chat: str) -> str | None:
        if view.holdings is None:
            return None
        return t(language, "pc.holdings_now" if chat else "pc.holdings_here", chat=chat,
                 holdings=words.holdings_text(view.holdings, language),
                 count=sum(view.holdings.values()), limit=view.holding_limit)

    def secret_button(self, language: str) -> str:
        return t(language, "pc.secret_button")

    def no_secret_text(self, language: str) -> str:
        return t(language, "pc.no_secret")

    # ---- choices ------------------------------------------------------------------------------
    def menu(self, view, choices: Sequence[Any], language: str, group: str | None = None) -> Menu:
        places = [c for c in choices if isinstance(c, Place)]
        trades = [c for c in choices if isinstance(c, Trade)]
        if group == "t" and trades:
            return self._give_menu(trades, language)
        if group and group.startswith("t") and group[1:] in COMPANIES:
            offered = [c for c in trades if c.give == group[1:]]
            if offered:
                return self._take_menu(offered, language)
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
                items = [MenuItem(t(language, "pc.btn.columns", first=chunk[0].hex, last=chunk[-1].hex,
                                    count=len(chunk)), group=key) for key, chunk in chunks.items()]
            return Menu(_rows(items) + ((tuple(ends),) if ends else ()))
        items = [MenuItem(t(language, "pc.btn.build", emoji=COLOUR_EMOJI[c.colour],
                            colour=colour_word(c.colour, language), left=view.storage[c.colour]),
                          choice=c, colour=c.colour) for c in choices if isinstance(c, Build)]
        rows = _rows(items, width=2)
        if trades:
            # What a seat may return depends on its holdings, a secret: the trade's submenus are private.
            rows += ((MenuItem(t(language, "pc.btn.trade"), group="t", private=True),),)
        return Menu(rows)

    def back_text(self, language: str) -> str:
        return t(language, "pc.reply.back")

    def _give_menu(self, trades: Sequence[Trade], language: str) -> Menu:
        gives = [c for c in COMPANIES if any(tr.give == c for tr in trades)]
        items = [MenuItem(t(language, "pc.btn.give", emoji=COLOUR_EMOJI[c], colour=colour_word(c, language)),
                          group=f"t{c}", colour=c) for c in gives]
        return Menu(_rows(items, width=3), text=t(language, "pc.ask.give"), back=True, private=True)

    def _take_menu(self, trades: Sequence[Trade], language: str) -> Menu:
        ordered = sorted(trades, key=lambda tr: (COMPANIES.index(tr.take), -tr.count))
        items = [MenuItem(t(language, f"pc.btn.take_{tr.count}", emoji=COLOUR_EMOJI[tr.take],
                            colour=colour_word(tr.take, language, count=tr.count)), choice=tr, colour=tr.take)
                 for tr in ordered]
        give = colour_word(trades[0].give, language)
        return Menu(_rows(items, width=4), text=t(language, "pc.ask.take", colour=give), back=True, private=True)

    def _step_item(self, choice, view, language: str) -> MenuItem:
        if isinstance(choice, Done):
            return MenuItem(t(language, "pc.btn.done"), choice=choice)
        cancels = view.draft is None or not view.draft.hexes
        return MenuItem(t(language, "pc.btn.cancel" if cancels else "pc.btn.undo"), choice=choice)

    def find_item(self, view, choices: Sequence[Any], text: str, language: str) -> MenuItem:
        """As the base class, and a hex id typed while the hexes sit in submenus finds its hex."""
        try:
            return super().find_item(view, choices, text, language)
        except ChoiceNotFound as missing:
            wanted = " ".join(str(text).split()).upper()
            for choice in choices:
                if isinstance(choice, Place) and choice.hex == wanted:
                    return _hex_item(choice)
            raise missing from None

    def choice_text(self, choice, view, language: str) -> str:
        if isinstance(choice, Build):
            return t(language, "pc.reply.build", colour=colour_word(choice.colour, language))
        if isinstance(choice, Place):
            return t(language, "pc.reply.place", hex=words.hex_text(choice.hex))
        if isinstance(choice, Undo):
            return t(language, "pc.reply.undo")
        if isinstance(choice, Done):
            return t(language, "pc.reply.done")
        return t(language, f"pc.reply.trade_{choice.count}", give=colour_word(choice.give, language),
                 take=colour_word(choice.take, language, count=choice.count))

    def short_choice_text(self, choice, language: str) -> str:
        if isinstance(choice, Build):
            return t(language, "pc.short.build", colour=colour_word(choice.colour, language))
        if isinstance(choice, Place):
            return t(language, "pc.short.place", hex=words.hex_text(choice.hex))
        if isinstance(choice, Undo | Done):
            return t(language, "pc.short.undo" if isinstance(choice, Undo) else "pc.short.done")
        return t(language, f"pc.short.trade_{choice.count}", give=colour_word(choice.give, language),
                 take=colour_word(choice.take, language, count=choice.count))

    # ---- boards and pictures ---------------------------------------------------------------------
    def board_text(self, view, language: str) -> str:
        return words.board_text(view, language)

    def error_text(self, exc: Exception, players: Sequence[str], language: str) -> str:
        return words.error_text(exc, players, language)

    def render(self, kind: str, view, events: Sequence[Any], language: str, *, layout: str = "landscape") -> bytes:
        public = [e for e in events if e.visible_to(None)]
        if kind == "final":
            from .final import render_final

            return render_final(view, events=public, language=language)
        from .mapimage import render_map

        return render_map(view, events=public, language=language, layout=layout)


def _hex_item(place: Place) -> MenuItem:
    return MenuItem(words.hex_label(place.hex), choice=place)


def _rows(items: Sequence[MenuItem], width: int = ROW) -> tuple[tuple[MenuItem, ...], ...]:
    return tuple(tuple(items[i:i + width]) for i in range(0, len(items), width))


def _hex_chunks(places: Sequence[Place]) -> dict[str, list[Place]]:
    """Legal hexes in map order (column, then row), cut into runs of at most ``MAX_HEXES``,
    whole columns where they fit; keyed by the group that opens them."""
    columns: dict[str, list[Place]] = {}
    for place in sorted(places, key=lambda p: (p.hex[0], int(p.hex[1:]))):
        columns.setdefault(place.hex[0], []).append(place)
    chunks: list[list[Place]] = []
    current: list[Place] = []
    for column in columns.values():
        if current and len(current) + len(column) > MAX_HEXES:
            chunks.append(current)
            current = []
        for place in column:
            if len(current) == MAX_HEXES:
                chunks.append(current)
                current = []
            current.append(place)
    if current:
        chunks.append(current)
    return {f"h{chunk[0].hex}{chunk[-1].hex}": chunk for chunk in chunks}


PRESENTER = ParisConnectionPresenter()
