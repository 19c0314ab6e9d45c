"""One viewer's page of a game: what the live web board shows a seat, or a spectator, as JSON-ready data.

The page is built from the same pieces as the chat's messages, in the viewer's language: the
presenter's status and prompt lines, the public map (and a seat's own board, where the game draws
one), the menu of the seat's legal choices and where each sits on those pictures
(``Presenter.spots``), the seat's secret, and the game's log. A choice on the page is the same
signed payload as the button that makes it (``TurnMessages.choice_buttons``), so the service handles
a tap exactly as a press: refusals, stale and duplicate presses, deadlines, the outbox.

Secrets: a page is built only from ``match.view(seat)`` and the events ``seat`` may see (a
spectator's from the public view and public events), and carries nothing bound to another seat.
The pictures are named by what they show (move count, cycle, layout, language), never by who
looks, so two seats' pages share the public picture and twin games give the same names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from bot.games import GameKind
from engine.interface import Match
from renderers.i18n import t
from renderers.presenter import Menu, MenuItem, Presenter
from renderers.scene import Scene

from .model import FINISHED, LOBBY, PLAYING, GameMeta
from .payloads import PayloadCodec
from .phase import Phase
from .turnmessages import acting_names, cycle_events, private_choices

LOG_LINES = 40            # the log's last lines a page shows
LOG_EVENTS = 120          # the events they are drawn from (a long game's early ones stay out)
LAYOUTS = ("landscape", "portrait")
# The page's own words (its buttons and headings), sent with each state in the viewer's language.
PAGE_TEXTS = ("players", "you", "secret", "log", "back", "review", "first", "round_back", "move_back",
              "move_of", "move_on", "round_on", "last", "reconnecting", "paused", "tab_game", "tab_log",
              "tab_secret", "close", "zoom_in", "zoom_out", "zoom_fit", "board", "seat_board", "decision")
# Where the page's texts are read: the game's own page, so a secret says no chat's name
# ("Your Lire: 10 L", not "Your Lire in Pizza club: ...").
HERE = ""
TurnKind = Literal["yours", "waiting", "planning", "over", "lobby"]


@dataclass(frozen=True, slots=True)
class TurnLine:
    """What the page says about whose move it is, in one line: the viewer's turn, whom the game
    waits for, that others are planning in private (never what), or that the game is over. A
    page that loses its server says it is paused itself (it cannot be told)."""

    kind: TurnKind
    text: str


@dataclass(frozen=True, slots=True)
class Colour:
    """A colour a choice is made in, as the page shows it: a chip of ``rgb`` beside its ``name``."""

    name: str
    rgb: str            # "#rrggbb"


@dataclass(frozen=True, slots=True)
class PageRequest:
    """What a page asks for: the game, whose view (None: a spectator's), in which language and
    layout, and, for a finished game being reviewed, after how many moves (None: now)."""

    game_id: int
    seat: int | None
    language: str
    layout: str = "landscape"
    at: int | None = None


def picture(kind: str, moves: int, cycle: int, layout: str) -> dict[str, Any]:
    """A public picture as a page names it: drawn after ``moves`` moves (``Pictures.render``)."""
    return {"kind": kind, "moves": moves, "cycle": cycle, "layout": layout}


def seat_picture(meta: GameMeta, match: Match, seat: int, layout: str) -> dict[str, Any]:
    """The seat's own board as its page names it: by the seat's own steps and its phase, never by
    the move count, which counts the other seats' private steps too. The picture endpoint draws
    it from the game as it is when asked (``Pages.picture``)."""
    return {"kind": "seat", "seat": seat, "steps": match.moves_by(seat),
            "phase": min(Phase.of(meta, match).start, match.move_count), "cycle": match.pacing.cycle, "layout": layout}


def page_state(meta: GameMeta, kind: GameKind, match: Match | None, codec: PayloadCodec,
               request: PageRequest) -> dict[str, Any]:
    """The page of ``request`` for the game ``meta`` (``match``: None in the lobby)."""
    lang = request.language
    pres = kind.presenter
    seat = request.seat
    state: dict[str, Any] = {
        "game": {"id": meta.id, "kind": kind.id, "title": pres.title(lang), "chat": meta.chat_title},
        "status": meta.status,
        "seat": seat,
        "language": lang,
        "layout": request.layout,
        "texts": {key: t(lang, f"web.{key}", at="{at}", total="{total}") for key in PAGE_TEXTS},
        "players": [{"name": s.name, "ai": s.is_ai, "you": i == seat} for i, s in enumerate(meta.seats)],
        "colours": colour_table(pres, lang),
    }
    if meta.status == LOBBY or match is None:
        state["lines"] = [t(lang, "web.lobby")]
        state["turn"] = asdict(TurnLine("lobby", t(lang, "web.lobby")))
        return state
    acting = match.to_act() if meta.status == PLAYING else ()
    for index, player in enumerate(state["players"]):
        player["acting"] = index in acting
    state["turn"] = asdict(turn_line(meta, kind, match, seat, lang, reviewing=request.at is not None))
    view = match.view(seat)
    public = match.view(None) if seat is not None else view
    state["lines"] = [pres.status_line(public, lang)]
    if meta.status == PLAYING:
        # The pointing hand it starts with says nothing the turn line does not (and is a box
        # where no emoji font is installed).
        state["prompt"] = without_leading_symbols(_prompt(meta, kind, match, seat, lang))
    else:
        state["final"] = pres.final_lines(public, lang)
    scores = match.pacing.public_returns()
    if scores is not None:
        state["lines"].append(pres.scores_line(public, scores, lang))
    moves, cycle = public_moves(meta, kind, match), match.pacing.cycle
    events = [e for e in cycle_events(match, cycle) if e.visible_to(None)]
    shown = "final" if match.is_terminal() else "map"
    pictures: list[dict[str, Any]] = [{"name": "map", "render": picture(shown, moves, cycle, request.layout),
                                       "alt": pres.picture_description(shown, public, events, match.players, lang)}]
    scene = map_scene(pres, match, public, shown, moves, lang, request.layout)
    if scene is not None:
        pictures[0]["scene"] = scene
    if seat is not None and pres.private_pictures and not match.is_terminal() and request.at is None:
        pictures.append({"name": "seat", "render": seat_picture(meta, match, seat, request.layout),
                         "alt": pres.picture_description("seat", view, (), match.players, lang)})
    state["pictures"] = pictures
    if seat is not None:
        state["secret"] = pres.secret_text(view, lang, HERE)
        if seat in acting and request.at is None:
            state["choices"] = choices(meta, kind, match, codec, seat, view, lang, request.layout)
    state["log"] = log_lines(kind, match, seat, view, lang)
    return state


def map_scene(pres: Presenter, match: Match, public: Any, shown: str, moves: int, lang: str, layout: str) -> Scene | None:
    """The public map as the page draws it (``Presenter.scene``): the very picture the page names,
    from the same public view and the same public events of the cycle (``pictures.draw``); None
    where the game draws no scene, for the final picture, and while seats plan in private (the
    public picture is then the one of the phase's start, not of now)."""
    if shown != "map" or moves != match.move_count:
        return None
    cycle = match.pacing.cycle
    events = [] if cycle < 1 else [e for e in match.log[match.pacing.cycle_start(cycle):] if e.visible_to(None)]
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
        return min(Phase.of(meta, match).start, match.move_count)
    return match.move_count


def _prompt(meta: GameMeta, kind: GameKind, match: Match, seat: int | None, lang: str) -> str:
    """Who must act and what they choose; where seats choose in private, a seat's own question
    (or who is still to choose, never what anyone chose)."""
    pres = kind.presenter
    if private_choices(kind, match):
        if seat is not None and seat in match.to_act():
            return pres.prompt_line(match.view(seat), lang)
        return t(lang, "bot.msg.waiting", players=", ".join(acting_names(meta, match)))
    return pres.prompt_line(match.view(None), lang)


def choices(meta: GameMeta, kind: GameKind, match: Match, codec: PayloadCodec, seat: int, view: Any, lang: str,
            layout: str) -> dict[str, Any]:
    """The seat's legal choices as the page offers them: its menu, with every submenu the menu
    opens (the page opens them itself, so a submenu never touches the group's messages), and
    the spots on the pictures. Each choice is the signed payload of its button."""
    pres = kind.presenter
    legal = match.legal_choices(seat)
    index = {str(c): i for i, c in enumerate(legal)}
    bound = (meta.id, seat, match.moves_by(seat), meta.turn.acting_since(seat))

    def act(choice: Any) -> str:
        return codec.encode("c", *bound, index[str(choice)])

    def rows(menu: Menu) -> list[list[dict[str, Any]]]:
        return [[_item(item, act, pres, lang) for item in row] for row in menu.rows]

    top = pres.menu(view, legal, lang)
    groups: dict[str, Any] = {}
    waiting = [item.group for item in top.items() if item.group is not None]
    while waiting and len(groups) < 64:
        key = waiting.pop(0)
        if key in groups:
            continue
        sub = pres.menu(view, legal, lang, key)
        groups[key] = {"text": sub.text, "rows": rows(sub)}
        waiting += [item.group for item in sub.items() if item.group is not None and item.group not in groups]
    labels = _labels(top, groups)
    pictures = ("map", "seat") if pres.private_pictures else ("map",)
    spots = []
    for name in pictures:
        for spot in pres.spots(name, view, legal, layout=layout):
            if str(spot.choice) in index:
                shown: dict[str, Any] = {"picture": spot.picture, "box": list(spot.box), "act": act(spot.choice),
                                         "label": labels.get(str(spot.choice), str(spot.choice))}
                if spot.outline:
                    shown["outline"] = [list(point) for point in spot.outline]
                if spot.round:
                    shown["round"] = True
                spots.append(shown)
    return {"rows": rows(top), "groups": groups, "spots": spots}


def _item(item: MenuItem, act: Callable[[Any], str], pres: Presenter, lang: str) -> dict[str, Any]:
    # The emoji a chat's button starts with says nothing its words do not (and is a box where
    # no emoji font is installed): the page's buttons go without it.
    out: dict[str, Any] = {"label": without_leading_symbols(item.label)}
    if item.choice is not None:
        out["act"] = act(item.choice)
        out["choice"] = str(item.choice)
    else:
        out["open"] = item.group
    if item.colour:
        colour = colour_chip(pres, item.colour, lang)
        if colour is not None:
            # The chip and its name say the colour (the emoji said it alone, and went).
            out["colour"] = asdict(colour)
    return out


def colour_chip(pres: Presenter, colour: str, lang: str) -> Colour | None:
    name, rgb = pres.colour_name(colour, lang), pres.colour_rgb(colour)
    if name is None or rgb is None:
        return None
    return Colour(name, "#{:02x}{:02x}{:02x}".format(*rgb[:3]))


def colour_table(pres: Presenter, lang: str) -> dict[str, dict[str, str]]:
    """Each colour emoji the game's texts write, as the page shows it instead: a chip and a name."""
    table = {}
    for colour, emoji in pres.colour_emoji().items():
        chip = colour_chip(pres, colour, lang)
        if chip is not None:
            table[emoji] = asdict(chip)
    return table


def without_leading_symbols(label: str) -> str:
    """``label`` without the emoji and spaces it starts with ("🟥 red" -> "red")."""
    start = 0
    while start < len(label) and (unicodedata.category(label[start]) in ("So", "Sk", "Mn", "Zs", "Cf")
                                  or label[start] in "\ufe0f\u200d "):
        start += 1
    return label[start:] or label


def _labels(top: Menu, groups: dict[str, Any]) -> dict[str, str]:
    """Each choice's label as its menu item reads (what a spot's screen-reader label says)."""
    labels: dict[str, str] = {}
    for group in groups.values():
        for row in group["rows"]:
            for item in row:
                if "choice" in item:
                    labels.setdefault(item["choice"], item["label"])
    for item in top.items():
        if item.choice is not None:
            labels[str(item.choice)] = without_leading_symbols(item.label)
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
