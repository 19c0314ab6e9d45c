"""Papà Paolo in words: names of spaces, squares and tiles, the narration of public events, the
text board and refusals. Every text comes from the catalog area ``papa_paolo.po`` (keys ``papa.``).

Money: a balance is only ever read from a view (``view.lire``), which holds None for another
seat's Lire under the hidden_money option; events carry only amounts gained or paid, which the
whole table sees anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.papa_paolo import components as C
from engine.papa_paolo.phases import Phase
from i18n import t

COLOUR_EMOJI = {"yellow": "🟨", "blue": "🟦", "red": "🟥", "green": "🟩"}
ACTION_EMOJI = {"take": "🧱", "sponsor": "💶", "buy": "🛒", "express": "🛵", "build": "🏗", "nothing": "⏭"}
# Roads of a square as one box-drawing character (N, E, S, W present): a rotation's button shows it.
ROAD_CHAR = {
    frozenset("N"): "╵", frozenset("E"): "╶", frozenset("S"): "╷", frozenset("W"): "╴",
    frozenset("NS"): "│", frozenset("EW"): "─", frozenset("NE"): "└", frozenset("ES"): "┌",
    frozenset("SW"): "┐", frozenset("NW"): "┘", frozenset("NES"): "├", frozenset("ESW"): "┬",
    frozenset("NSW"): "┤", frozenset("NEW"): "┴", frozenset("NESW"): "┼", frozenset(): "·",
}


def space_name(space: Sequence[int]) -> str:
    """A grid space as the picture labels it: row letter (A at the top), column number ("B2")."""
    return f"{'ABCDEFGH'[space[0]]}{space[1] + 1}"


def colour_word(colour: str, language: str) -> str:
    return t(language, "papa.colour." + colour)


def action_word(action: str, language: str) -> str:
    return t(language, "papa.action." + action)


def tile_text(tile_id: str | None, language: str) -> str:
    """A city tile: its colour, id and houses ("🟥 R14 · 2 houses"); the houses in words, since an
    emoji alone says nothing without an emoji font (the page shows the colour as a named chip)."""
    if tile_id is None:
        return "—"
    tile = C.CITY_TILES[tile_id]
    return t(language, "papa.city_tile", emoji=COLOUR_EMOJI[tile.colour], tile=tile_id, houses=tile.houses)


def delivery_name(tile_id: str) -> str:
    """A delivery tile's name for players, "T1" to "T4": the staircase column it heads. Its id
    ("A2": round A's 2-pizza tile) reads like a space of the city grid (A1-D3), so it stays in
    the records and is never shown."""
    return f"T{C.DELIVERY_TILES[tile_id].column}"


def delivery_text(tile_id: str, language: str) -> str:
    """"T1 (🍕≤2, ↔≤2)": a delivery tile's name and limits."""
    tile = C.DELIVERY_TILES[tile_id]
    return t(language, "papa.delivery_tile", tile=delivery_name(tile_id), pizzas=tile.max_pizzas,
             distance=tile.max_distance)


def delivery_limits(tile_id: str, language: str) -> str:
    """"T1 (up to 2 pizzas, 2 squares)": a delivery tile's name and limits in words, for prompts and
    the log (the seat's board picture keeps the short signs of ``delivery_text``)."""
    tile = C.DELIVERY_TILES[tile_id]
    return t(language, "papa.delivery_limits", tile=delivery_name(tile_id), pizzas=tile.max_pizzas,
             distance=tile.max_distance)


def investment_text(tile_id: str, language: str) -> str:
    tile = C.INVESTMENT_TILES[tile_id]
    return t(language, "papa.investment_tile", tile=tile_id, emoji=COLOUR_EMOJI[tile.colour],
             colour=colour_word(tile.colour, language), action=action_word(tile.action, language),
             bonus=tile.bonus)


def rotated_roads(tile_id: str, rotation: int) -> frozenset[str]:
    """The roads of ``tile_id`` turned ``rotation`` quarter turns clockwise."""
    sides = C.SIDES
    return frozenset(sides[(sides.index(s) + rotation) % 4] for s in C.CITY_TILES[tile_id].roads)


def listing(items: Sequence[str], language: str) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return t(language, "papa.list", most=", ".join(items[:-1]), last=items[-1])


def money(view, seat: int, language: str) -> str:
    """A seat's Lire as the viewer may see them: the amount, or "hidden"."""
    lire = view.lire[seat]
    return t(language, "papa.money_hidden") if lire is None else t(language, "papa.money", lire=lire)


# ---- narration ---------------------------------------------------------------------------------

def narrate(events: Sequence[Any], players: Sequence[str], language: str) -> list[str]:
    """One line per public event worth words; a placement and what it did share one line."""
    lines: list[str] = []
    space: tuple[int, int] | None = None
    for e in events:
        if not e.visible_to(None):
            continue
        if e.kind == "marker_placed":
            space = e.space
            continue
        line = event_line(e, players, language)
        if line is None:
            continue
        if space is not None and e.kind in PLACED_KINDS:
            line = t(language, "papa.ev.at_space", space=space_name(space), what=line)
        if e.kind in PLACED_KINDS:
            space = None
        lines.append(line)
    return _fold_coins(lines, language)


MAX_LINES = 22      # a round's narration stays well inside a chat message (Discord: 2,000 characters)


def _fold_coins(lines: list[str], language: str) -> list[str]:
    """The subsidies' coins on one line, and only the latest ``MAX_LINES`` lines."""
    coins = [line for line in lines if line.startswith(COIN)]
    if coins:
        at = lines.index(coins[0])
        rest = [line for line in lines if not line.startswith(COIN)]
        folded = t(language, "papa.ev.coins", coins=" · ".join(c[len(COIN):] for c in coins))
        lines = rest[:at] + [folded] + rest[at:]
    if len(lines) > MAX_LINES:
        cut = len(lines) - MAX_LINES + 1
        lines = [t(language, "papa.ev.earlier", lines=cut)] + lines[cut:]
    return lines


COIN = "\x00coin "


PLACED_KINDS = {"tile_taken", "sponsored", "pizzas_bought", "express_delivered", "pizzeria_built", "no_action"}


def event_line(e: Any, players: Sequence[str], language: str) -> str | None:
    who = players[e.seat] if hasattr(e, "seat") and isinstance(e.seat, int) else ""
    k = e.kind
    if k == "round_started":
        return t(language, "papa.ev.round_started", round=e.round, of=C.ROUNDS)
    if k == "tile_taken":
        return t(language, "papa.ev.tile_taken", player=who, tile=tile_text(e.tile, language))
    if k == "sponsored":
        return t(language, "papa.ev.sponsored", player=who, lire=e.lire)
    if k == "pizzas_bought":
        key = "papa.ev.bought_lost" if e.lost else "papa.ev.bought"
        return t(language, key, player=who, pizzas=sum(p for _, _, p in e.received), cost=e.cost, lost=e.lost)
    if k == "express_delivered":
        return t(language, "papa.ev.express", player=who, pizzas=len(e.trip.get("drops", ())), fee=e.fee)
    if k == "pizzeria_built":
        return t(language, "papa.ev.built", player=who, pizzeria=e.pizzeria, cost=e.cost)
    if k == "no_action":
        return t(language, "papa.ev.no_action", player=who)
    if k == "track_advanced":
        key = "papa.ev.track_investment" if e.reason == "investment" else "papa.ev.track_completed"
        return t(language, key, player=who, emoji=COLOUR_EMOJI[e.colour], colour=colour_word(e.colour, language),
                 position=e.position)
    return _phase_line(e, who, players, language)


def _phase_line(e: Any, who: str, players: Sequence[str], language: str) -> str | None:
    k = e.kind
    if k == "coin_awarded":
        line = t(language, "papa.row" if e.line == "row" else "papa.column",
                 name="ABCDEFGH"[e.index] if e.line == "row" else str(e.index + 1))
        if e.seat is None:
            return COIN + t(language, "papa.ev.coin_bank", line=line, value=e.value)
        return COIN + t(language, "papa.ev.coin", line=line, value=e.value, player=players[e.seat])
    if k == "order_changed":
        return t(language, "papa.ev.order", order=" → ".join(players[s] for s in e.order))
    if k == "bid_placed":
        return t(language, "papa.ev.bid", player=who, column=e.column, step=e.row + 1,
                 cost=C.stair_cost(e.row, e.column))
    if k == "left_staircase":
        return t(language, "papa.ev.left_stairs", player=who)
    if k == "stairs_paid":
        return t(language, "papa.ev.stairs_paid", player=who, cost=e.cost)
    if k == "investment_taken":
        return t(language, "papa.ev.invest_late" if e.late else "papa.ev.invest", player=who,
                 tile=investment_text(e.tile, language), price=C.LATE_PRICE)
    if k == "late_declined":
        return t(language, "papa.ev.late_declined", player=who)
    if k == "delivery_tile_taken":
        return t(language, "papa.ev.delivery_tile", player=who, tile=delivery_limits(e.tile, language))
    if k == "investment_resolved":
        return t(language, f"papa.ev.resolved_{e.how}", player=who, tile=e.tile)
    if k == "plan_submitted":
        return t(language, "papa.ev.planned", player=who)
    if k == "deliveries_made":
        return deliveries_line(e, who, language)
    if k == "game_ended":
        return t(language, "papa.ev.game_over")
    return None


def deliveries_line(e: Any, who: str, language: str) -> str:
    if not e.trips:
        return t(language, "papa.ev.delivered_none", player=who)
    trips = [t(language, "papa.trip", steps=len(trip.get("path", ())), pizzas=len(trip.get("drops", ())))
             for trip in e.trips]
    return t(language, "papa.ev.delivered", player=who, pizzas=e.pizzas, trips="; ".join(trips))


# ---- the board in words -----------------------------------------------------------------------

def board_text(view, language: str) -> str:
    lines = [status_line(view, language), t(language, "papa.board.grid")]
    rows, cols = view.grid_size
    for r in range(rows):
        cells = []
        for c in range(cols):
            marker = view.markers.get((r, c))
            mark = f"[{view.players[marker][:3]}]" if marker is not None else ""
            cells.append(f"{space_name((r, c))} {tile_text(view.grid[r * cols + c], language)}{mark}")
        lines.append(" · ".join(cells))
    lines.append(t(language, "papa.board.delivery", tiles=", ".join(
        delivery_limits(d, language) for d in view.delivery_tiles)))
    lines.append(t(language, "papa.board.investment", tiles=", ".join(
        investment_text(i, language) for i in view.investment_open) or "—"))
    for seat in view.order:
        lines.append(seat_line(view, seat, language))
    return "\n".join(lines)


def seat_line(view, seat: int, language: str) -> str:
    tracks = " ".join(f"{COLOUR_EMOJI[c]}{view.tracks[seat][c]}" for c in C.COLOURS)
    hood = view.neighbourhoods[seat]
    pizzas = sum(q.pizzas for q in hood)
    served = sum(q.served for q in hood)
    houses = sum(q.houses for q in hood)
    return t(language, "papa.board.seat", player=view.players[seat], money=money(view, seat, language),
             tracks=tracks, pizzas=pizzas, served=served, houses=houses)


PHASES = tuple(Phase)       # each has its name in the catalogs ("papa.phase." + its value)


def running_score(view, seat: int) -> dict[str, int | None]:
    """A seat's score if the game ended now, in its parts (PAPA_PAOLO.md §10): pizzas delivered,
    the points under its lowest track, +2 a track at the top, −1 a pizza still in a pizzeria, and
    the money bonus (None while hidden money keeps it secret). Pizzas bought and not yet delivered
    make a score negative, as in round 1."""
    hood = view.neighbourhoods[seat]
    tracks = view.tracks[seat]
    parts: dict[str, Any] = {           # the bonus None while hidden Lire keep it unknown
        "delivered": sum(q.served for q in hood if q.kind == "city"),
        "experience": C.TRACK_VP[min(tracks.values())],
        "maxed": C.MAXED_VP * sum(1 for v in tracks.values() if v >= C.TRACK_TOP),
        "left": sum(q.pizzas for q in hood if q.kind == "pizzeria"),
        "bonus": 0,
    }
    if view.options.get("money_bonus"):
        parts["bonus"] = None
        if all(lire is not None for lire in view.lire):
            amounts = sorted(set(view.lire), reverse=True)
            place = amounts.index(view.lire[seat])
            parts["bonus"] = C.MONEY_BONUS[place] if place < len(C.MONEY_BONUS) else 0
    parts["total"] = parts["delivered"] + parts["experience"] + parts["maxed"] - parts["left"] + (parts["bonus"] or 0)
    return parts


def score_text(view, seat: int, language: str) -> tuple[str, str]:
    """("Score −3", "= 2 delivered + 0 experience − 5 left over"): the total and the parts that
    count now."""
    parts = running_score(view, seat)
    text = t(language, "papa.img.score_parts", delivered=parts["delivered"], experience=parts["experience"],
             left=parts["left"])
    if parts["maxed"]:
        text += t(language, "papa.img.score_maxed", maxed=parts["maxed"])
    if parts["bonus"]:
        text += t(language, "papa.img.score_bonus", bonus=parts["bonus"])
    return t(language, "papa.img.score", total=str(parts["total"]).replace("-", "−")), text


def score_rule(view, language: str) -> str:
    """How the scores on the board are counted, so that a negative one explains itself."""
    rule = t(language, "papa.img.score_rule")
    if view.options.get("money_bonus") and any(lire is None for lire in view.lire):
        rule += " " + t(language, "papa.img.score_rule_hidden")
    return rule


def status_line(view, language: str) -> str:
    if view.finished:
        return t(language, "papa.status_over")
    return t(language, "papa.status", round=view.round, of=C.ROUNDS, phase=t(language, "papa.phase." + view.phase))


def error_text(exc: Exception, players: Sequence[str], language: str) -> str:
    code = getattr(exc, "code", "illegal")
    key = f"papa.err.{code}"
    text = t(language, key)
    if text == key or "{" in text:
        return t(language, "papa.err.illegal")
    return text
