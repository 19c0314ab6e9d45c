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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import GameKind
from renderers.i18n import t
from renderers.presenter import CHAT, Menu

from .model import LOBBY, PLAYING, GameMeta
from .payloads import PayloadCodec
from .phase import Phase
from .turnmessages import acting_names, cycle_events, private_choices

LOG_LINES = 40            # the log's last lines a page shows
LOG_EVENTS = 120          # the events they are drawn from (a long game's early ones stay out)
LAYOUTS = ("landscape", "portrait")
# The page's own words (its buttons and headings), sent with each state in the viewer's language.
PAGE_TEXTS = ("players", "you", "secret", "log", "back", "review", "first", "round_back", "move_back",
              "move_of", "move_on", "round_on", "last", "reconnecting")


@dataclass(frozen=True, slots=True)
class PageRequest:
    """What a page asks for: the game, whose view (None: a spectator's), in which language and
    layout, and, for a finished game being reviewed, after how many moves (None: now)."""

    game_id: int
    seat: int | None
    language: str
    layout: str = "landscape"
    at: int | None = None


def picture(kind: str, moves: int, cycle: int, layout: str) -> dict:
    """A public picture as a page names it: drawn after ``moves`` moves (``Pictures.render``)."""
    return {"kind": kind, "moves": moves, "cycle": cycle, "layout": layout}


def seat_picture(meta: GameMeta, match, seat: int, layout: str) -> dict:
    """The seat's own board as its page names it: by the seat's own steps and its phase, never by
    the move count, which counts the other seats' private steps too. The picture endpoint draws
    it from the game as it is when asked (``Pages.picture``)."""
    return {"kind": "seat", "seat": seat, "steps": match.moves_by(seat),
            "phase": min(Phase.of(meta, match).start, match.move_count), "cycle": match.pacing.cycle, "layout": layout}


def page_state(meta: GameMeta, kind: GameKind, match, codec: PayloadCodec, request: PageRequest) -> dict[str, Any]:
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
    }
    if meta.status == LOBBY or match is None:
        state["lines"] = [t(lang, "web.lobby")]
        return state
    acting = match.to_act() if meta.status == PLAYING else ()
    for index, player in enumerate(state["players"]):
        player["acting"] = index in acting
    view = match.view(seat)
    public = match.view(None) if seat is not None else view
    state["lines"] = [pres.status_line(public, lang)]
    if meta.status == PLAYING:
        state["prompt"] = _prompt(meta, kind, match, seat, lang)
    else:
        state["final"] = pres.final_lines(public, lang)
    scores = match.pacing.public_returns()
    if scores is not None:
        state["lines"].append(pres.scores_line(public, scores, lang))
    moves, cycle = public_moves(meta, kind, match), match.pacing.cycle
    events = [e for e in cycle_events(match, cycle) if e.visible_to(None)]
    shown = "final" if match.is_terminal() else "map"
    pictures = [{"name": "map", "render": picture(shown, moves, cycle, request.layout),
                 "alt": pres.picture_description(shown, public, events, match.players, lang)}]
    if seat is not None and pres.private_pictures and not match.is_terminal() and request.at is None:
        pictures.append({"name": "seat", "render": seat_picture(meta, match, seat, request.layout),
                         "alt": pres.picture_description("seat", view, (), match.players, lang)})
    state["pictures"] = pictures
    if seat is not None:
        state["secret"] = pres.secret_text(view, lang, CHAT)
        if seat in acting and request.at is None:
            state["choices"] = choices(meta, kind, match, codec, seat, view, lang, request.layout)
    state["log"] = log_lines(kind, match, seat, view, lang)
    return state


def public_moves(meta: GameMeta, kind: GameKind, match) -> int:
    """The move count a public picture is drawn at: now, except while seats choose in private,
    when it is the start of their phase. Each private step is a move, so the count now would
    tell everyone how many steps a seat has taken in its plan; the board everyone sees does not
    change with them."""
    if meta.status == PLAYING and private_choices(kind, match):
        return min(Phase.of(meta, match).start, match.move_count)
    return match.move_count


def _prompt(meta: GameMeta, kind: GameKind, match, seat: int | None, lang: str) -> str:
    """Who must act and what they choose; where seats choose in private, a seat's own question
    (or who is still to choose, never what anyone chose)."""
    pres = kind.presenter
    if private_choices(kind, match):
        if seat is not None and seat in match.to_act():
            return pres.prompt_line(match.view(seat), lang, CHAT)
        return t(lang, "bot.msg.waiting", players=", ".join(acting_names(meta, match)))
    return pres.prompt_line(match.view(None), lang, CHAT)


def choices(meta: GameMeta, kind: GameKind, match, codec: PayloadCodec, seat: int, view: Any, lang: str,
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
        return [[_item(item, act) for item in row] for row in menu.rows]

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
                spots.append({"picture": spot.picture, "box": list(spot.box), "act": act(spot.choice),
                              "label": labels.get(str(spot.choice), str(spot.choice))})
    return {"rows": rows(top), "groups": groups, "spots": spots}


def _item(item, act) -> dict[str, Any]:
    out: dict[str, Any] = {"label": item.label}
    if item.choice is not None:
        out["act"] = act(item.choice)
        out["choice"] = str(item.choice)
    else:
        out["open"] = item.group
    if item.colour:
        out["colour"] = item.colour
    return out


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
            labels[str(item.choice)] = item.label
    return labels


def log_lines(kind: GameKind, match, seat: int | None, view: Any, lang: str) -> list[str]:
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
        text = pres.private_text(event, view, lang, CHAT)
        if text:
            lines.append(text)
    lines += _narrated(pres, public, match.players, lang)
    return lines[-LOG_LINES:]


def _narrated(pres, events: Sequence[Any], players: Sequence[str], lang: str) -> list[str]:
    return pres.narrate(events, players, lang) if events else []
