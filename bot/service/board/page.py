"""One viewer's page of a game: what the live web board shows a seat, or a spectator (``PageState``).

The page is built from the same pieces as the chat's messages, in the viewer's language: the
presenter's status and prompt lines, the public map (and a seat's own board, where the game draws
one), the menu of the seat's legal choices and where each sits on those pictures
(``Presenter.spots``), the seat's secret, and the game's log. A choice on the page is the same
signed payload as the button that makes it (one ``seatmenu.SeatChoices`` for both), so the service handles
a tap exactly as a press: refusals, stale and duplicate presses, deadlines, the outbox.

Secrets: a page is built only from ``match.view(seat)`` and the events ``seat`` may see (a
spectator's from the public view and public events), and carries nothing bound to another seat.
The pictures are named by what they show (move count, cycle, layout, language), never by who
looks, so two seats' pages share the public picture and twin games give the same names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from bot.board import PageRequest
from bot.games import GameKind
from bot.pagestate import (
    Choices,
    Colour,
    GameLabel,
    MenuGroup,
    MenuItem,
    PageState,
    Picture,
    PictureName,
    Player,
    Spot,
    TurnLine,
)
from engine.interface import Match
from i18n import t
from renderers.presenter import Presenter
from renderers.scene import Scene

from ..game.model import FINISHED, LOBBY, PLAYING, GameMeta
from ..game.phase import Phase
from ..posts.seatmenu import SeatChoices, SeatItem, SeatMenu, acting_names, decision_line, private_choices
from ..posts.turnmessages import cycle_events
from ..tokens.payloads import PayloadCodec

LOG_LINES = 40            # the log's last lines a page shows
LOG_EVENTS = 120          # the events they are drawn from (a long game's early ones stay out)
# The page's own words (its buttons and headings), sent with each state in the viewer's language.
PAGE_TEXTS = ("players", "you", "secret", "log", "back", "review", "first", "round_back", "move_back",
              "move_of", "move_on", "round_on", "last", "reconnecting", "paused", "tab_game", "tab_log",
              "tab_secret", "close", "zoom_in", "zoom_out", "zoom_fit", "board", "seat_board", "decision")
# Where the page's texts are read: the game's own page, so a secret says no chat's name
# ("Your Lire: 10 L", not "Your Lire in Pizza club: ...").
HERE = ""


def picture(kind: str, moves: int, cycle: int, layout: str) -> PictureName:
    """A public picture as a page names it: drawn after ``moves`` moves (``Pictures.render``)."""
    return PictureName(kind=kind, moves=moves, cycle=cycle, layout=layout)


def seat_picture(meta: GameMeta, match: Match, seat: int, layout: str) -> PictureName:
    """The seat's own board as its page names it: by the seat's own steps and its phase, never by
    the move count, which counts the other seats' private steps too. The picture endpoint draws
    it from the game as it is when asked (``Pages.picture``)."""
    return PictureName(kind="seat", seat=seat, steps=match.moves_by(seat),
                       phase=min(Phase.of(meta.turn, match).start, match.move_count), cycle=match.rhythm.cycle,
                       layout=layout)


def page_state(meta: GameMeta, kind: GameKind, match: Match | None, codec: PayloadCodec,
               request: PageRequest) -> PageState:
    """The page of ``request`` for the game ``meta`` (``match``: None in the lobby)."""
    lang = request.language
    pres = kind.presenter
    seat = request.seat
    game = GameLabel(meta.id, kind.id, pres.title(lang), meta.chat_title)
    texts = {key: t(lang, f"web.{key}", at="{at}", total="{total}") for key in PAGE_TEXTS}
    colours = colour_table(pres, lang)
    if meta.status == LOBBY or match is None:
        players = [Player(s.name, s.is_ai, i == seat) for i, s in enumerate(meta.seats)]
        return PageState(game, meta.status, seat, lang, request.layout, texts, players, colours,
                         turn=TurnLine("lobby", t(lang, "web.lobby")), lines=[t(lang, "web.lobby")])
    acting = match.to_act() if meta.status == PLAYING else ()
    players = [Player(s.name, s.is_ai, i == seat, i in acting) for i, s in enumerate(meta.seats)]
    turn = turn_line(meta, kind, match, seat, lang, reviewing=request.at is not None)
    view = match.view(seat)
    public = match.view(None) if seat is not None else view
    lines = [pres.status_line(public, lang)]
    prompt = final = None
    if meta.status == PLAYING:
        # The pointing hand it starts with says nothing the turn line does not (and is a box
        # where no emoji font is installed).
        prompt = without_leading_symbols(decision_line(meta, kind, match, seat, lang))
    else:
        final = pres.final_lines(public, lang)
    scores = match.rhythm.public_returns()
    if scores is not None:
        lines.append(pres.scores_line(public, scores, lang))
    moves, cycle = public_moves(meta, kind, match), match.rhythm.cycle
    events = [e for e in cycle_events(match, cycle) if e.visible_to(None)]
    shown = "final" if match.is_terminal() else "map"
    pictures = [Picture("map", picture(shown, moves, cycle, request.layout),
                        pres.picture_description(shown, public, events, match.players, lang),
                        map_scene(pres, match, public, shown, lang, request.layout))]
    if seat is not None and pres.private_pictures and not match.is_terminal() and request.at is None:
        pictures.append(Picture("seat", seat_picture(meta, match, seat, request.layout),
                                pres.picture_description("seat", view, (), match.players, lang)))
    secret = offered = None
    if seat is not None:
        secret = pres.secret_text(view, lang, HERE)
        if seat in acting and request.at is None:
            offered = choices(meta, kind, match, codec, seat, lang, request.layout)
    return PageState(game, meta.status, seat, lang, request.layout, texts, players, colours, turn, lines,
                     prompt=prompt, final=final, pictures=pictures, secret=secret, choices=offered,
                     log=log_lines(kind, match, seat, view, lang))


def map_scene(pres: Presenter, match: Match, public: Any, shown: str, lang: str, layout: str) -> Scene | None:
    """The public map as the page draws it (``Presenter.scene``), from the public view and the
    public events of the cycle, as the picture is drawn (``pictures.draw``); None where the game
    draws no scene, and for the final picture. While seats plan in private it is drawn from the
    public view of now, the whole phase long, like the state's other public lines: a seat's
    private steps change neither (a scene there only until the first step would tell it)."""
    if shown != "map":
        return None
    cycle = match.rhythm.cycle
    events = [] if cycle < 1 else [e for e in match.log[match.rhythm.cycle_start(cycle):] if e.visible_to(None)]
    return pres.scene(public, events, lang, layout=layout)


def turn_line(meta: GameMeta, kind: GameKind, match: Match, seat: int | None, lang: str, *,
              reviewing: bool = False) -> TurnLine:
    """Whose move it is, for ``seat``'s page (None: a spectator's)."""
    if meta.status == FINISHED or match.is_terminal() or reviewing:
        return TurnLine("over", t(lang, "web.turn.over"))
    if seat is not None and seat in match.to_act():
        return TurnLine("yours", t(lang, "web.turn.yours"))
    names = ", ".join(acting_names(meta, match))
    if private_choices(kind, match):
        return TurnLine("planning", t(lang, "web.turn.planning", players=names))
    return TurnLine("waiting", t(lang, "web.turn.waiting", players=names))


def public_moves(meta: GameMeta, kind: GameKind, match: Match) -> int:
    """The move count a public picture is drawn at: now, except while seats choose in private,
    when it is the start of their phase. Each private step is a move, so the count now would
    tell everyone how many steps a seat has taken in its plan; the board everyone sees does not
    change with them."""
    if meta.status == PLAYING and private_choices(kind, match):
        return min(Phase.of(meta.turn, match).start, match.move_count)
    return match.move_count


def choices(meta: GameMeta, kind: GameKind, match: Match, codec: PayloadCodec, seat: int, lang: str,
            layout: str) -> Choices:
    """The seat's legal choices as the page offers them (``seatmenu.SeatChoices``, as its chat's
    buttons): its menu, with every submenu the menu opens (the page opens them itself, so a
    submenu never touches the group's messages), and the spots on the pictures. Each choice is
    the signed payload of its button."""
    pres = kind.presenter
    seat_choices = SeatChoices(meta, kind, match, codec, seat, lang)
    top = seat_choices.menu()
    groups = seat_choices.submenus(top)
    labels = _labels(top, groups)
    pictures = ("map", "seat") if pres.private_pictures else ("map",)
    spots = []
    for name in pictures:
        for spot in pres.spots(name, seat_choices.view, seat_choices.legal, layout=layout):
            if seat_choices.offers(spot.choice):
                spots.append(Spot(spot.picture, list(spot.box), seat_choices.payload(spot.choice),
                                  labels.get(str(spot.choice), str(spot.choice)),
                                  [list(point) for point in spot.outline] if spot.outline else None,
                                  spot.round))
    return Choices(_rows(top, pres, lang), {key: MenuGroup(sub.text, _rows(sub, pres, lang)) for key, sub in groups.items()},
                   spots)


def _rows(menu: SeatMenu, pres: Presenter, lang: str) -> list[list[MenuItem]]:
    return [[_item(item, pres, lang) for item in row] for row in menu.rows]


def _item(item: SeatItem, pres: Presenter, lang: str) -> MenuItem:
    # The emoji a chat's button starts with says nothing its words do not (and is a box where
    # no emoji font is installed): the page's buttons go without it.
    label = without_leading_symbols(item.label)
    # The chip and its name say the colour (the emoji said it alone, and went).
    colour = colour_chip(pres, item.colour, lang) if item.colour else None
    if item.choice is not None:
        return MenuItem(label, act=item.payload, choice=item.choice, colour=colour)
    return MenuItem(label, open=item.group, colour=colour)


def colour_chip(pres: Presenter, colour: str, lang: str) -> Colour | None:
    name, rgb = pres.colour_name(colour, lang), pres.colour_rgb(colour)
    if name is None or rgb is None:
        return None
    return Colour(name, "#{:02x}{:02x}{:02x}".format(*rgb[:3]))


def colour_table(pres: Presenter, lang: str) -> dict[str, Colour]:
    """Each colour emoji the game's texts write, as the page shows it instead: a chip and a name."""
    table = {}
    for colour, emoji in pres.colour_emoji().items():
        chip = colour_chip(pres, colour, lang)
        if chip is not None:
            table[emoji] = chip
    return table


def without_leading_symbols(label: str) -> str:
    """``label`` without the emoji and spaces it starts with ("🟥 red" -> "red")."""
    start = 0
    while start < len(label) and (unicodedata.category(label[start]) in ("So", "Sk", "Mn", "Zs", "Cf")
                                  or label[start] in "\ufe0f\u200d "):
        start += 1
    return label[start:] or label


def _labels(top: SeatMenu, groups: dict[str, SeatMenu]) -> dict[str, str]:
    """Each choice's label as its menu item reads (what a spot's screen-reader label says): the
    top menu's, else the first submenu's that offers it."""
    labels: dict[str, str] = {}
    for item in (item for group in groups.values() for item in group.items()):
        if item.choice is not None:
            labels.setdefault(item.choice, without_leading_symbols(item.label))
    for item in top.items():
        if item.choice is not None:
            labels[item.choice] = without_leading_symbols(item.label)
    return labels


def log_lines(kind: GameKind, match: Match, seat: int | None, view: Any, lang: str) -> list[str]:
    """The game's log as ``seat`` may read it: the public events in words, and its own private
    ones (a dealt marker, new holdings) where they happened; the last ``LOG_LINES`` lines."""
    pres = kind.presenter
    # The window is taken from what the seat may see: from the whole log, its length would
    # depend on the others' private steps.
    events = [event for event in match.log if event.visible_to(seat)][-LOG_EVENTS:]
    lines: list[str] = []
    public: list[Any] = []
    for event in events:
        if event.visible_to(None):
            public.append(event)
            continue
        lines += _narrated(pres, public, match.players, lang)
        public = []
        text = pres.private_text(event, view, lang, HERE)
        if text:
            lines.append(text)
    lines += _narrated(pres, public, match.players, lang)
    return lines[-LOG_LINES:]


def _narrated(pres: Presenter, events: Sequence[Any], players: Sequence[str], lang: str) -> list[str]:
    return pres.narrate(events, players, lang) if events else []
