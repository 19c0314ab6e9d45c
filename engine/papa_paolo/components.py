"""The game's components, read once from components.json (PAPA_PAOLO.md §2; the JSON wins).

Everything here is constant data: city tiles, starting tiles, pizzerias, tracks, costs,
investment and delivery tiles, the staircase and the board of each player count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

DATA = json.loads(resources.files(__package__).joinpath("components.json").read_text(encoding="utf-8"))

SIDES = ("N", "E", "S", "W")
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
ACTIONS = ("sponsor", "buy", "express", "build")
# The JSON's action names, as the record's ACTION keys name them.
ACTION_OF = {"sponsor": "sponsor", "buy_ingredients": "buy", "express_delivery": "express",
             "build_pizzeria": "build"}

ROUNDS = DATA["rounds"]["count"]
MARKERS = DATA["action_markers_per_player"]["count"]
START_LIRE = DATA["starting_lire"]["amount"]
EXPRESS_FEE = DATA["actions"]["express_delivery"]["fee_lire"]
BUILD_PIZZAS = DATA["actions"]["build_pizzeria"]["bonus_pizzas"]
TRACK_VALUES = {c: tuple(DATA["tracks"][c]["values"]) for c in COLOURS}
TRACK_TOP = DATA["tracks"]["positions"] - 1
TRACK_VP = tuple(DATA["end_scoring"]["lowest_track_position_vp"])
MAXED_VP = DATA["end_scoring"]["per_track_at_last_space"]
INGREDIENT_COST = {int(k): v for k, v in DATA["ingredient_costs"]["pizzas_to_lire"].items()}
MAX_BUY = max(INGREDIENT_COST)
MAX_BBOX = tuple(DATA["neighbourhood"]["max_bbox"])
MONEY_BONUS = tuple(DATA["options"]["money_bonus"]["vp"])

STAIRS = DATA["staircase"]
STAIR_ROWS = STAIRS["rows"]
LATE_PRICE = STAIRS["late_investment_price"]


def stair_cost(row: int, col: int) -> int:
    """The cost of staircase space (row, col): row from 0 (bottom), col from 1 (left)."""
    return STAIRS["row_costs_bottom_to_top"][row] + STAIRS["column_surcharge"][col - 1]


@dataclass(frozen=True, slots=True)
class CityTile:
    id: str
    colour: str
    roads: frozenset[str]
    houses: int


@dataclass(frozen=True, slots=True)
class Pizzeria:
    id: str
    cost: int
    capacity: int


@dataclass(frozen=True, slots=True)
class StartingTile:
    id: str
    number: int
    pizzeria: str
    capacity: int
    pizzas: int
    colour: str
    roads: frozenset[str]
    houses: int


@dataclass(frozen=True, slots=True)
class InvestmentTile:
    id: str
    colour: str            # its type: the track it advances
    action: str            # sponsor / buy / express / build
    bonus: int             # Lire added (sponsor) or taken off the cost (the others)


@dataclass(frozen=True, slots=True)
class DeliveryTile:
    id: str
    round: int
    column: int
    max_pizzas: int
    max_distance: int


@dataclass(frozen=True, slots=True)
class Board:
    rows: int
    cols: int
    row_actions: tuple[tuple[str, ...], ...]
    col_actions: tuple[tuple[str, ...], ...]
    coins: tuple[int, ...]          # the coin multiset, sorted
    stair_columns: int
    pizzerias: tuple[str, ...]      # the supply at this player count

    def actions_at(self, row: int, col: int) -> tuple[str, ...]:
        """The actions of grid space (row, col): its row's, then its column's not already there."""
        return space_actions(self)[row * self.cols + col]


def space_actions(board: Board) -> tuple[tuple[str, ...], ...]:
    """``Board.actions_at`` of every space, row by row (read at every choice of a space and
    every view: the boards of the box are kept)."""
    return _SPACE_ACTIONS.get(id(board)) or _space_actions(board)


def _space_actions(board: Board) -> tuple[tuple[str, ...], ...]:
    out = []
    for row in range(board.rows):
        for col in range(board.cols):
            seen: list[str] = []
            for a in (*board.row_actions[row], *board.col_actions[col]):
                if a not in seen:
                    seen.append(a)
            out.append(tuple(seen))
    return tuple(out)


CITY_TILES = {t["id"]: CityTile(t["id"], t["colour"], frozenset(t["roads"]), t["houses"])
              for t in DATA["city_tiles"]}
CITY_IDS = tuple(CITY_TILES)
PIZZERIAS = {p["id"]: Pizzeria(p["id"], p["cost"], p["capacity"]) for p in DATA["pizzerias"]}


def _starting(t: dict) -> StartingTile:
    piz = next(s for s in t["squares"] if s["kind"] == "pizzeria")
    town = next(s for s in t["squares"] if s["kind"] == "town")
    return StartingTile(t["id"], t["number"], piz["pizzeria_id"], piz["capacity"], piz["initial_pizzas"],
                        town["colour"], frozenset(town["roads"]), town["houses"])


STARTING_TILES = {t["id"]: _starting(t) for t in DATA["starting_tiles"]}


def _investment(t: dict) -> InvestmentTile:
    act = t["option_action"]
    bonus = next(v for k, v in act.items() if k != "action")
    return InvestmentTile(t["id"], t["type"], ACTION_OF[act["action"]], bonus)


INVESTMENT_TILES = {t["id"]: _investment(t) for t in DATA["investment_tiles"]}
INVESTMENT_BY_COLOUR = {c: tuple(i for i, t in INVESTMENT_TILES.items() if t.colour == c) for c in COLOURS}
DELIVERY_TILES = {t["id"]: DeliveryTile(t["id"], t["round"], t["column"], t["max_pizzas"], t["max_distance"])
                  for t in DATA["delivery_tiles"]}


def _board(n: int) -> Board:
    b = DATA["boards"][str(n)]
    coins = tuple(sorted(int(v) for v, k in b["coins"].items() for _ in range(k)))
    acts = lambda lines: tuple(tuple(ACTION_OF[a] for a in line) for line in lines)  # noqa: E731
    supply = tuple(p for p in PIZZERIAS if p not in b["pizzerias_removed"])
    return Board(b["rows"], b["cols"], acts(b["row_actions"]), acts(b["col_actions"]), coins,
                 b["staircase_columns"], supply)


BOARDS = {n: _board(n) for n in (2, 3, 4)}
# By the identity of each board in ``BOARDS`` (they live as long as the process; hashing a
# board would read all its fields).
_SPACE_ACTIONS = {id(board): _space_actions(board) for board in BOARDS.values()}
MIN_PLAYERS, MAX_PLAYERS = DATA["players"]["min"], DATA["players"]["max"]


def delivery_tiles_for(round_: int, n: int) -> tuple[str, ...]:
    """The round's delivery tiles in ascending order, one a staircase column (highest dropped at 2-3p)."""
    tiles = sorted((t for t in DELIVERY_TILES.values() if t.round == round_), key=lambda t: t.max_pizzas)
    return tuple(t.id for t in tiles[:BOARDS[n].stair_columns])


def track_value(colour: str, position: int) -> int:
    return TRACK_VALUES[colour][position]
