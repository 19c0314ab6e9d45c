"""Paris Connection in words: colours, hexes, events, holdings, errors and the text board.

Every text comes from the ``pc.*`` catalog keys (i18n/locales/<lang>/paris_connection.json).
A colour is always written as its word, and in labels also with its emoji: never colour alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.paris_connection.board import COMPANIES, HEXES
from engine.paris_connection.game import PENALTY
from i18n import t

COLOUR_EMOJI: dict[str, str] = {
    "red": "🔴", "blue": "🔵", "black": "⚫", "brown": "🟤", "yellow": "🟡", "purple": "🟣",
}

# Events that are steps of a build: worth words on their own, but a finished build says it all.
_STEPS = frozenset({"build_started", "locomotive_placed", "placement_undone"})


def colour_word(colour: str, language: str, *, count: int = 1) -> str:
    """The company's colour as a word (``count`` > 1: the plural some languages need)."""
    return t(language, ("pc.colour." if count == 1 else "pc.colours.") + colour)


def listing(items: Sequence[str], language: str) -> str:
    return t(language, "pc.list_sep").join(items)


def hex_text(hex_id: str) -> str:
    """A hex as players see it on the map and the buttons: "F7" or "F7 Lyon"."""
    cell = HEXES[hex_id]
    return f"{hex_id} {cell.city}" if cell.city else hex_id


def hex_label(hex_id: str) -> str:
    """A hex's button label: its id, and for a city its name and value ("F7 Lyon (2)")."""
    cell = HEXES[hex_id]
    return f"{hex_id} {cell.city} ({cell.value})" if cell.city else hex_id


def holdings_text(holdings: Mapping[str, int], language: str) -> str:
    items = [t(language, "pc.holdings_item", count=n, colour=f"{COLOUR_EMOJI[c]} {colour_word(c, language, count=n)}")
             for c in COMPANIES if (n := holdings.get(c, 0))]
    return listing(items, language) if items else t(language, "pc.holdings_none")


def values_text(values: Mapping[str, int], language: str) -> str:
    return listing([f"{COLOUR_EMOJI[c]} {colour_word(c, language)} {values[c]}" for c in COMPANIES], language)


def narrate(events: Sequence, players: Sequence[str], language: str) -> list[str]:
    """One line per public event worth words. The steps of a build that ends (or is cancelled)
    in the same batch are left out: the build's own line says where it went."""
    lines: list[str] = []
    steps: list[str] = []
    for event in events:
        if not event.visible_to(None):
            continue
        line = event_line(event, players, language)
        if event.kind in _STEPS:
            steps.append(line)
            continue
        if event.kind in ("build_completed", "build_cancelled"):
            steps.clear()
        lines.extend(steps)
        steps.clear()
        lines.append(line)
    return lines + steps


def event_line(event, players: Sequence[str], language: str) -> str:
    """One public event in words."""
    kind = event.kind
    player = players[event.seat] if hasattr(event, "seat") else ""
    colour = colour_word(event.colour, language) if hasattr(event, "colour") else ""
    if kind == "game_started":
        return t(language, "pc.started", players=listing(event.players, language),
                 player=event.players[event.first_player])
    if kind == "build_started":
        return t(language, "pc.ev.build_started", player=player, colour=colour)
    if kind == "locomotive_placed":
        key = "pc.ev.placed_city" if event.gain else "pc.ev.placed"
        return t(language, key, player=player, colour=colour, hex=hex_text(event.hex), gain=event.gain)
    if kind == "placement_undone":
        return t(language, "pc.ev.undone", player=player, colour=colour, hex=hex_text(event.hex))
    if kind == "build_cancelled":
        return t(language, "pc.ev.cancelled", player=player, colour=colour)
    if kind == "build_completed":
        key = "pc.ev.completed" if event.gain else "pc.ev.completed_nothing"
        return t(language, key, player=player, colour=colour, gain=event.gain, value=event.value,
                 hexes=listing([hex_text(h) for h in event.hexes], language))
    if kind == "traded":
        return t(language, f"pc.ev.traded_{event.count}", player=player, give=colour_word(event.give, language),
                 take=colour_word(event.take, language, count=event.count))
    if kind == "turn_skipped":
        return t(language, "pc.ev.skipped", player=player)
    if kind == "cycle_ended":
        return t(language, "pc.ev.cycle_ended", cycle=event.cycle, values=values_text(event.values, language))
    if kind == "game_ended":
        return t(language, f"pc.ev.ended_{event.reason}")
    raise ValueError(f"no words for a public {kind!r} event")


def score_detail(view, seat: int, language: str) -> str:
    """How a seat's final score is made: per colour count × value, and the penalty."""
    held = view.all_holdings[seat]
    items = [t(language, "pc.score_item", count=n, colour=colour_word(c, language, count=n), value=view.values[c])
             for c in COMPANIES if (n := held.get(c, 0))]
    if view.penalties[seat]:
        items.append(t(language, "pc.score_penalty", points=view.penalties[seat]))
    return listing(items, language) if items else t(language, "pc.score_nothing")


def error_text(exc: Exception, players: Sequence[str], language: str) -> str:
    """A refusal in words: every code of the shared family and of Paris Connection."""
    code = getattr(exc, "code", "illegal")
    params = dict(getattr(exc, "params", {}) or {})
    words: dict[str, object] = {}
    if "colour" in params and params["colour"] in COMPANIES:
        words["colour"] = colour_word(params["colour"], language)
    if "blocked" in params and params["blocked"] in COMPANIES:
        words["blocked"] = colour_word(params["blocked"], language)
    if "hex" in params and params["hex"] in HEXES:
        words["hex"] = hex_text(params["hex"])
    if "to_move" in params and isinstance(params["to_move"], int) and 0 <= params["to_move"] < len(players):
        words["player"] = players[params["to_move"]]
    if "count" in params:
        words["count"] = params["count"]
    key = f"pc.err.{code}"
    text = t(language, key, **words)
    if text == key or "{" in text:       # a code (or a parameter) this catalog does not know
        return t(language, "pc.err.illegal")
    return text


def _map_order(hex_id: str) -> tuple[str, int]:
    """Column letter, then row number: "J8" before "J10"."""
    return hex_id[0], int(hex_id[1:])


def board_text(view, language: str) -> str:
    """The board as text for the terminal and /board: values, storage, screens, lines by colour."""
    lines = [f"{t(language, 'pc.img.round', cycle=view.cycle)} · "
             + (t(language, "pc.img.to_move", player=view.players[view.to_move]) if view.to_move is not None
                else t(language, "pc.img.game_over"))]
    lines.append(t(language, "pc.heading", title=t(language, "pc.img.companies")))
    on_map: dict[str, list[str]] = {c: [] for c in COMPANIES}
    for hex_id, colours in view.board.items():
        for c in colours:
            on_map[c].append(hex_id)
    for c in COMPANIES:
        hexes = listing([hex_text(h) for h in sorted(on_map[c], key=_map_order)], language)
        lines.append("  " + t(language, "pc.pair", name=f"{COLOUR_EMOJI[c]} {colour_word(c, language)}",
                              value=f"{t(language, 'pc.img.value')} {view.values[c]}"
                                    f" · {t(language, 'pc.img.storage')} {view.storage[c]} · {hexes}"))
    lines.append(t(language, "pc.heading", title=t(language, "pc.img.players")))
    for seat, name in enumerate(view.players):
        mark = "👉 " if seat == view.to_move else "   "
        over = view.screens[seat] - view.holding_limit
        screen = t(language, "pc.img.screen_over", count=view.screens[seat], over=over) if over > 0 else \
            t(language, "pc.img.screen", count=view.screens[seat])
        lines.append(mark + t(language, "pc.pair", name=name, value=screen))
    if view.holdings is not None:          # the viewer's own screen: what they hold, and its worth now
        lines.append(t(language, "pc.your_holdings", holdings=holdings_text(view.holdings, language)))
        lines += worth_lines(view.holdings, view.values, view.holding_limit, language)
    if view.draft is not None:
        lines.append(draft_text(view, language))
    return "\n".join(lines)


def worth_lines(holdings: Mapping[str, int], values: Mapping[str, int], limit: int, language: str) -> list[str]:
    """What ``holdings`` are worth at today's values, and what holding over the limit costs."""
    lines = [t(language, "pc.holdings_worth", points=sum(values[c] * n for c, n in holdings.items()))]
    over = sum(holdings.values()) - limit
    if over > 0:
        lines.append(t(language, "pc.holdings_over", over=over, limit=limit, cost=over * PENALTY))
    return lines


def draft_text(view, language: str) -> str:
    """The build under way in words."""
    draft = view.draft
    player = view.players[view.to_move]
    if not draft.hexes:
        return t(language, "pc.img.building_none", player=player, colour=colour_word(draft.colour, language))
    return t(language, "pc.img.building", player=player, colour=colour_word(draft.colour, language),
             hexes=listing(list(draft.hexes), language), gain=draft.gain)
