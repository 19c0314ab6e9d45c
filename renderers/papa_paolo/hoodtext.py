"""A seat's own neighbourhood as monospace text, for a surface that prints text (the terminal):
what its private picture (hoodimage.py) draws, square by square.

Each square is a cell of ``HEIGHT`` lines of ``WIDTH`` characters: its number to type, then a
box (ASCII apart from the box lines, one column wide in every monospace font, so the columns line
up) whose sides a road goes through as a double line. A square
a legal step names carries the number its choice shows (``squares.square_keys``); a city tile
reads "R 1/2" (its colour, houses served of its houses), a pizzeria "P 3/5" (pizzas left after
the trips already planned, of its room); a trip being planned marks the squares it passes ("*")
and the pizzas it drops ("+1").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.papa_paolo.steps import parse
from i18n import t

from .squares import square_keys

WIDTH = 11          # a box: its two sides and 9 of contents
HEIGHT = 4          # the number to type, then the box's three lines
MIDDLE = WIDTH // 2


def planned_trips(draft: dict | None) -> list[dict]:
    """The trips of a plan (or an express delivery) under way: the finished ones, then the one
    being drawn."""
    if not draft:
        return []
    out = list(draft.get("trips", ()))
    for key in ("cur", "trip"):
        if draft.get(key):
            out.append(draft[key])
    return out


def pizzas_taken(draft: dict | None) -> Counter:
    """Pizzas each pizzeria gives to the trips planned so far."""
    taken: Counter = Counter()
    for trip in planned_trips(draft):
        taken[tuple(trip["from"])] += len(trip["drops"])
    return taken


def colour_tag(colour: str | None, language: str) -> str:
    return t(language, f"papa.grid.tag.{colour}") if colour else "·"


def own_board_text(view, language: str) -> str:
    """The viewer's neighbourhood as a grid of text cells, with a line that explains it."""
    squares = {(q.x, q.y): q for q in view.neighbourhoods[view.viewer]}
    keys = square_keys([parse(s) for s in view.legal])
    trips = planned_trips(view.draft)
    taken = pizzas_taken(view.draft)
    passed = {tuple(p) for trip in trips for p in (trip["from"], *trip["path"])}
    drops = Counter(tuple(p) for trip in trips for p in trip["drops"])
    spots = [*squares, *keys]
    xs = range(min(x for x, _ in spots), max(x for x, _ in spots) + 1)
    ys = range(min(y for _, y in spots), max(y for _, y in spots) + 1)
    lines = []
    for y in ys:
        cells = [_cell(squares.get((x, y)), keys.get((x, y)), (x, y) in passed, drops[(x, y)],
                       taken[(x, y)], language) for x in xs]
        lines += ["".join(cell[row] for cell in cells).rstrip() for row in range(HEIGHT)]
    colours = ", ".join(f"{colour_tag(c, language)} {t(language, 'papa.colour.' + c)}"
                        for c in ("yellow", "blue", "red", "green"))
    lines.append(t(language, "papa.grid.legend", colours=colours))
    return "\n".join(lines)


def _cell(square, key: int | None, passed: bool, drops: int, taken: int, language: str) -> Sequence[str]:
    """One square: the number to type above a box, the box's contents in its middle, a road a
    double line through the side it leaves by (═ west and east, ║ north and south), so that two
    squares joined by a road read ══ between their boxes; the trip's marks on the bottom line."""
    key_line, top, middle, bottom = [" "] * WIDTH, [" "] * WIDTH, [" "] * WIDTH, [" "] * WIDTH
    if square is not None:
        top = ["┌", *"─" * (WIDTH - 2), "┐"]
        bottom = ["└", *"─" * (WIDTH - 2), "┘"]
        middle[0] = middle[-1] = "│"
        roads = set(square.roads)
        if "N" in roads:
            top[MIDDLE] = "║"
        if "S" in roads:
            bottom[MIDDLE] = "║"
        if "W" in roads:
            middle[0] = "═"
        if "E" in roads:
            middle[-1] = "═"
        if square.kind == "pizzeria":
            contents = f"P {square.pizzas - taken}/{square.capacity}"
        else:
            contents = f"{colour_tag(square.colour, language)} {square.served}/{square.houses}"
        middle[1:WIDTH - 1] = f"{contents:^{WIDTH - 2}}"[:WIDTH - 2]
    elif key is not None:
        middle[MIDDLE] = "·"          # an empty square a tile or a pizzeria may go to
    if key is not None:
        tag = f"[{key}]"
        key_line[:len(tag)] = tag
    if passed:
        bottom[1] = "*"
    if drops:
        mark = f"+{drops}"
        bottom[-1 - len(mark):-1] = mark
    return ["".join(key_line), "".join(top), "".join(middle), "".join(bottom)]
