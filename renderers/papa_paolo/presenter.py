"""Papà Paolo for the bot: its words, buttons and pictures (renderers/presenter.py).

Every decision is made in the seat's private chat (the game declares simultaneous phases), one
small menu at a time, built from the seat's legal steps only:
- phase 1: a grid space (rows of buttons as the grid's rows), then the tile's square (numbered;
  it takes the tile) or an action with its amount on the button ("🛒 Buy 3 · 6 L", "🏗 Build
  P4-1", "💶 Sponsor +4 L", the best express trip; an express delivery step by step beside it),
  then the rotation (its roads drawn as one character; skipped where only one fits), the
  pizzeria's square (skipped where one is free) or where the pizzas go (whole splits as
  buttons, only where several pizzerias have room; one pizza at a time beside them);
- phase 3: a staircase space, one tap (columns as submenus only where more than ``MAX_ITEMS`` are open);
- settlement: an investment tile (late: one, or none); phase 4: its track or its action, the
  action with its amount as in phase 1;
- phase 5: the one-tap best plan first, then the trip step by step (numbered squares).
Squares of the seat's neighbourhood are numbered in the order of its legal steps: its private
picture (render_private) prints the same numbers on them (``square_keys``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.papa_paolo import components as C
from engine.papa_paolo.phases import Phase
from engine.papa_paolo.steps import (
    ACTIONS,
    BestPlan,
    Drop,
    EndTrip,
    From,
    OnSquare,
    Place,
    Put,
    Split,
    Stairs,
    Step,
    StepTo,
    UndoTrip,
    as_kind,
    parse,
)
from i18n import t

from ..presenter import CHAT, TERMINAL, ChoiceNotFound, Menu, MenuItem, Presenter, Spot, fit_description
from . import text as words
from .hoodtext import own_board_text, pizzas_taken
from .scoring import score_parts
from .squares import NUMBERED, numbered_kinds, square_keys
from .text import ACTION_EMOJI, COLOUR_EMOJI, ROAD_CHAR, delivery_name

ROW = 5                 # buttons in a row (Discord's limit)
MAX_ITEMS = 25          # buttons in one message (Discord's most); more go into submenus: a bid is one
                        # tap up to there (4 columns of 6 steps at most, 24 buttons)


# A verb left off a menu when any of its shortcuts is offered beside it (both stay legal).
HIDDEN_BESIDE = {"take": {"square"}, "buy": {"pizzas"}, "build": {"pizzeria"}, "action": {"pizzas", "pizzeria"}}


class PapaPaoloPresenter(Presenter):
    game_id = "papa-paolo"
    image_prefix = "papa"
    private_pictures = True
    text_prefix = "papa"
    mapscene = ".mapscene"      # its board drawn in a page from a scene

    def colour_name(self, colour: str, language: str) -> str | None:
        return words.colour_word(colour, language) if colour in COLOUR_EMOJI else None

    def colour_emoji(self) -> dict[str, str]:
        return dict(COLOUR_EMOJI)

    def colour_rgb(self, colour: str) -> tuple[int, int, int] | None:
        from .pieces import TILE_RGB

        return TILE_RGB.get(colour)

    def option_value_text(self, name: str, value: Any, language: str) -> str:
        return t(language, "papa.on" if value else "papa.off")        # every option is on or off

    # ---- turns and cycles ----------------------------------------------------------------
    def status_line(self, view, language: str) -> str:
        return words.status_line(view, language)

    def prompt_line(self, view, language: str, surface: str = CHAT) -> str:
        if view.finished:
            return t(language, "papa.prompt.over")
        if view.viewer is None or view.viewer not in view.to_act:
            return t(language, "papa.prompt.waiting",
                     players=words.listing([view.players[s] for s in view.to_act], language))
        return _own_prompt(view, language, surface)

    # A cycle is a stretch of play closed by a picture of the board: a phase of a round
    # (``view.stretches`` names each closed one); the last is closed by the end of the game.
    def cycle_done_line(self, view, cycle: int, language: str) -> str:
        round_, phase = _stretch(view, cycle)
        if phase is None:
            return t(language, "papa.round_done", round=round_, of=C.ROUNDS)
        return t(language, "papa.stretch_done", round=round_, of=C.ROUNDS,
                 phase=t(language, "papa.phase." + phase))

    def cycle_over_line(self, view, cycle: int, language: str) -> str:
        round_, phase = _stretch(view, cycle)
        if phase is None:
            return t(language, "papa.round_over", round=round_, of=C.ROUNDS)
        return t(language, "papa.stretch_over." + phase, round=round_, of=C.ROUNDS)

    def cycle_label(self, view, cycle: int) -> str:
        """``round2-phase3-bid``: the round and the phase that closed the stretch (``round5-end``
        for the last, closed by the end of the game), so the files sort in the order played."""
        round_, phase = _stretch(view, cycle)
        return f"round{round_}-phase{Phase(phase).number}-{phase}" if phase else f"round{round_}-end"

    def narrate(self, events: Sequence[Any], players: Sequence[str], language: str) -> list[str]:
        return words.narrate(events, players, language)

    def split_cycle(self, events: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        outcome = {"cycle_ended", "game_ended"}
        return ([e for e in events if e.kind not in outcome | {"game_started", "phase_ended"}],
                [e for e in events if e.kind in outcome])

    def started_lines(self, view, language: str) -> list[str]:
        return [t(language, "papa.started", players=words.listing(list(view.players), language),
                  player=view.players[view.order[0]]),
                t(language, "papa.started_adaptation")]

    def scores_line(self, view, scores: Sequence[int], language: str) -> str:
        """The scores so far, and a line that says what makes each (the picture's panel, in words)."""
        reasons = "; ".join(f"{view.players[seat]}: {score_reasons(view, seat, language)}"
                            for seat in range(view.num_players))
        return "\n".join([t(language, "papa.scores", scores=words.listing(
            [f"{p} {s}" for p, s in zip(view.players, scores, strict=True)], language)),
            t(language, "papa.scores_why", reasons=reasons)])

    def final_lines(self, view, language: str) -> list[str]:
        winners = words.listing([view.players[s] for s in view.winners], language)
        lines = [t(language, "papa.final_header"),
                 t(language, "papa.winner" if len(view.winners) == 1 else "papa.winners", players=winners)]
        order = sorted(range(view.num_players), key=lambda s: -view.scores[s])
        for s in order:
            parts = score_parts(view, s)
            lines.append(t(language, "papa.score_line", player=view.players[s], total=view.scores[s],
                           delivered=parts["delivered"], experience=parts["experience"],
                           maxed=parts["maxed"], left=parts["left"], bonus=parts["bonus"],
                           money=words.money(view, s, language)))
        return lines

    # ---- secrets ----------------------------------------------------------------------------
    def private_text(self, event, view, language: str, chat: str) -> str | None:
        return None         # a plan under way is shown on the seat's own turn message

    def secret_text(self, view, language: str, chat: str) -> str | None:
        if view.viewer is None or view.lire[view.viewer] is None:
            return None
        key = "papa.secret" if chat else "papa.secret_here"
        return t(language, key, chat=chat, lire=view.lire[view.viewer])

    def secret_button(self, language: str) -> str:
        return t(language, "papa.secret_button")

    def no_secret_text(self, language: str) -> str:
        return t(language, "papa.no_secret")

    # ---- choices ------------------------------------------------------------------------------
    def menu(self, view, choices: Sequence[Any], language: str, group: str | None = None) -> Menu:
        steps = [c if isinstance(c, Step) else parse(c) for c in choices]
        if not steps:
            return Menu(())
        stairs = [s for s in steps if isinstance(s, Stairs)]
        if stairs:
            return _stairs_menu(stairs, view.delivery_tiles, language, group)
        keys = square_keys(steps)
        numbered = numbered_kinds(steps)
        keyed = [_item(s, view, language, keys, numbered) for s in steps if isinstance(s, numbered)]
        best = [_item(s, view, language, keys, numbered) for s in steps if isinstance(s, BestPlan)]
        # Shortcuts are offered at once (a square takes the tile there, "pizzas 3" buys three, a
        # pizzeria builds it): the steps that lead to the same moves are left off the menu.
        verbs = {s.verb for s in steps}
        hidden = {"best-plan"} | {v for v, short in HIDDEN_BESIDE.items() if short & verbs}
        others = [_item(s, view, language, keys, numbered) for s in steps
                  if not isinstance(s, numbered) and s.verb not in hidden]
        if isinstance(steps[0], Place):
            cols = view.grid_size[1]
            by_row: dict[int, list[MenuItem]] = {}
            for step, item in zip(steps, others, strict=True):
                by_row.setdefault(as_kind(step, Place).space[0], []).append(item)
            return Menu(tuple(tuple(row) for _, row in sorted(by_row.items())) if cols <= ROW else _rows(others))
        rows = (tuple(best),) if best else ()
        return Menu(rows + _rows(keyed) + _rows(others, width=3))

    def find_item(self, view, choices: Sequence[Any], text: str, language: str) -> MenuItem:
        """As the base class, but a number means what the menu shows for it: a square's key, the
        other buttons counted on from 1 past the keys (as the terminal numbers them); a button
        with a fixed letter (undo a trip) takes no number."""
        typed = " ".join(str(text).split())
        if typed.isascii() and typed.isdigit() and len(typed) <= 4:
            items = [i for i in self.menu(view, choices, language).items() if not i.letter]
            for item, number in zip(items, numbering([i.key for i in items]), strict=True):
                if number == int(typed):
                    return item
            raise ChoiceNotFound(typed, reason="unknown")
        return super().find_item(view, choices, text, language)

    def choice_text(self, choice, view, language: str) -> str:
        return t(language, "papa.reply", what=self.short_choice_text(choice, language))

    def short_choice_text(self, choice, language: str) -> str:
        step = choice if isinstance(choice, Step) else parse(choice)
        label, place = step.label(), step.place()
        kind = label.kind
        arg: Any = label.args.get("arg")        # a count, a tile: said as they are
        if kind == "place":
            arg = words.space_name(arg)
        elif kind == "stairs":
            arg = t(language, "papa.stairs_space", column=arg[1], step=arg[0] + 1)
        elif kind == "rotate":
            arg = f"{arg * 90}°"
        elif kind == "split":
            arg = ", ".join(f"({x},{y}) ×{k}" for (x, y), k in label.args["parts"])
        elif place is not None and place.area == "neighbourhood":
            arg = f"({arg[0]},{arg[1]})"
        return t(language, "papa.short." + kind, arg=arg)

    # ---- boards and pictures ---------------------------------------------------------------------
    def board_text(self, view, language: str) -> str:
        return words.board_text(view, language)

    def picture_subject(self, kind: str, view, language: str) -> str:
        return t(language, {"final": "papa.alt.final", "seat": "papa.alt.seat"}.get(kind, "papa.alt.map"))

    def picture_description(self, kind: str, view, events: Sequence[Any], players: Sequence[str],
                            language: str) -> str:
        if kind != "seat" or view is None:
            return super().picture_description(kind, view, events, players, language)
        # A seat's own picture shows its neighbourhood, not the city: its own line says what is in it.
        return fit_description([self.picture_subject(kind, view, language), words.status_line(view, language),
                                words.seat_line(view, view.viewer, language)])

    def error_text(self, exc: Exception, players: Sequence[str], language: str) -> str:
        return words.error_text(exc, players, language)

    # The drawing modules (and Pillow under them) are imported when a picture is first asked for:
    # a terminal without maps, or a chat without pictures, never needs them.

    def render(self, kind: str, view, events: Sequence[Any], language: str, *, layout: str = "landscape") -> bytes:
        public = [e for e in events if e.visible_to(None)]
        if kind == "final":
            from .final import render_final

            return render_final(view, events=public, language=language, layout=layout)
        from .board import render_board

        return render_board(view, events=public, language=language, layout=layout)

    def render_private(self, view, events: Sequence[Any], language: str, *, layout: str = "landscape") -> bytes:
        from .hoodimage import render_own

        return render_own(view, events=events, language=language, layout=layout)

    def spots(self, picture: str, view, choices: Sequence[Any], *, layout: str = "landscape") -> list[Spot]:
        from .spots import board_spots, seat_spots

        if picture == "map":
            return board_spots(view, choices, layout)
        return seat_spots(view, choices) if picture == "seat" and view.viewer is not None else []

    def render_private_text(self, view, language: str) -> str | None:
        return own_board_text(view, language) if view.viewer is not None else None


def _stretch(view, cycle: int) -> tuple[int, str | None]:
    """The round and phase that closed stretch ``cycle``; phase None for the one the end of the
    game closed (the last round's deliveries)."""
    if 1 <= cycle <= len(view.stretches):
        return view.stretches[cycle - 1]
    return view.round, None


def numbering(keys: Sequence[int | None]) -> list[int]:
    """The number of each item: its key, or the next number no key takes (in order)."""
    taken = {k for k in keys if k is not None}
    out, free = [], 1
    for key in keys:
        if key is None:
            while free in taken:
                free += 1
            key = free
            taken.add(key)
        out.append(key)
    return out


def _rows(items: Sequence[MenuItem], width: int = ROW) -> tuple[tuple[MenuItem, ...], ...]:
    return tuple(tuple(items[i:i + width]) for i in range(0, len(items), width))


def _stairs_menu(stairs: list[Stairs], tiles: Sequence[str], language: str, group: str | None) -> Menu:
    """Staircase spaces by column (a column is a delivery tile: the picture heads it "T1")."""
    columns: dict[int, list[Stairs]] = {}
    for s in stairs:
        columns.setdefault(s.space[1], []).append(s)
    if group and group.startswith("s") and group[1:].isdigit() and int(group[1:]) in columns:
        column = int(group[1:])
        items = [_stair_item(s, tiles, language) for s in columns[column]]
        return Menu(_rows(items, width=3), text=t(language, "papa.ask.column", column=column,
                                                   tile=_column_tile(tiles, column)), back=True)
    if len(stairs) <= MAX_ITEMS:
        return Menu(tuple(tuple(_stair_item(s, tiles, language) for s in col) for _, col in sorted(columns.items())))
    items = [MenuItem(t(language, "papa.btn.column", column=c, tile=_column_tile(tiles, c),
                        cheapest=min(C.stair_cost(*s.space) for s in col)), group=f"s{c}")
             for c, col in sorted(columns.items())]
    return Menu(_rows(items, width=2))


def score_reasons(view, seat: int, language: str) -> str:
    """"+2 for 2 houses served, −3 for 3 pizzas left (−1 each)": the parts of a seat's score so far."""
    parts = score_parts(view, seat)
    said = [t(language, "papa.why.delivered", count=parts["delivered"]) if parts["delivered"] else "",
            t(language, "papa.why.experience", points=parts["experience"]) if parts["experience"] else "",
            t(language, "papa.why.maxed", points=parts["maxed"]) if parts["maxed"] else "",
            t(language, "papa.why.left", count=parts["left"]) if parts["left"] else ""]
    return ", ".join(part for part in said if part) or t(language, "papa.why.nothing")


def _column_tile(tiles: Sequence[str], column: int) -> str:
    return delivery_name(tiles[column - 1]) if 0 < column <= len(tiles) else "?"


def _stair_item(step: Stairs, tiles: Sequence[str], language: str) -> MenuItem:
    row, col = step.space
    return MenuItem(t(language, "papa.btn.stairs", column=col, tile=_column_tile(tiles, col), step=row + 1,
                      cost=C.stair_cost(row, col)), choice=step)


def _item(step: Step, view, language: str, keys: dict,
          numbered: tuple[type[OnSquare], ...] = NUMBERED) -> MenuItem:
    if isinstance(step, numbered):
        square = step.square
        key = keys[square]
        label = t(language, "papa.btn.drop_at", key=key) if isinstance(step, Drop) else str(key)
        if isinstance(step, From | Put):
            # what the pizzeria holds once the trips already planned have taken theirs
            pizzas = next((q.pizzas for q in view.neighbourhoods[view.viewer] if (q.x, q.y) == square), 0) \
                if view.viewer is not None else 0
            pizzas -= pizzas_taken(view.draft)[square] if isinstance(step, From) else 0
            label = t(language, "papa.btn.from" if isinstance(step, From) else "papa.btn.put", key=key,
                      pizzas=pizzas)
        elif isinstance(step, StepTo):
            label = t(language, "papa.btn.step", key=key)
        return MenuItem(label, choice=step, key=key)
    if isinstance(step, UndoTrip):
        # a fixed letter, as Paris Connection's Undo: typed from memory, it never takes a number
        cancels = bool((view.draft or {}).get("cur"))
        return MenuItem(t(language, "papa.btn.cancel_trip" if cancels else "papa.btn.undo_trip"), choice=step,
                        letter="u")
    if isinstance(step, Place):
        r, c = step.space
        tile = view.grid[r * view.grid_size[1] + c]
        sign = f"{COLOUR_EMOJI[C.CITY_TILES[tile].colour]}{C.CITY_TILES[tile].houses}" if tile else "—"
        return MenuItem(f"{words.space_name(step.space)} {sign}", choice=step)
    if isinstance(step, Split):
        # "Place: 1 pizza → 1 · 2 pizzas → 2": how many go to each numbered pizzeria, in words (a
        # label opening with a number would read as the map's number of one place)
        parts = [t(language, "papa.btn.split_part", count=k, key=keys.get(p, "?")) for p, k in step.parts]
        return MenuItem(t(language, "papa.btn.split", parts=" · ".join(parts)), choice=step)
    return MenuItem(_label(step, view, language), choice=step)


def _bonus(view, action: str) -> int:
    """What the held investment tile takes off (or adds to) ``action`` now: phase 4 only."""
    held = view.investment_held[view.viewer] if view.viewer is not None and view.phase == Phase.INVEST else None
    tile = C.INVESTMENT_TILES[held] if held else None
    return tile.bonus if tile is not None and tile.action == action else 0


def _action_label(action: str, view, language: str) -> str:
    """An action's button with its amount where it has one without more choices."""
    if action == "sponsor" and view.viewer is not None:
        lire = C.track_value("yellow", view.tracks[view.viewer]["yellow"]) + _bonus(view, "sponsor")
        return t(language, "papa.btn.sponsor", emoji=ACTION_EMOJI[action], action=words.action_word(action, language),
                 lire=lire)
    if action == "express" and "best-trip" in view.legal:
        return t(language, "papa.btn.express_steps", emoji=ACTION_EMOJI[action])
    return f"{ACTION_EMOJI[action]} {words.action_word(action, language)}"


def _label(step: Step, view, language: str) -> str:
    """A step's button, from what it names (``Choice.label``) and what the view tells."""
    draft = view.draft or {}
    label = step.label()
    kind = label.kind
    arg: Any = label.args.get("arg")     # a rotation, a count, a tile id (steps.py)
    if kind == "take":
        space = draft.get("space") or (0, 0)
        tile = view.grid[space[0] * view.grid_size[1] + space[1]]
        return t(language, "papa.btn.take", emoji=ACTION_EMOJI["take"], tile=words.tile_text(tile, language))
    if kind in ACTIONS:
        return _action_label(kind, view, language)
    if kind == "best-trip":
        fee = max(0, C.EXPRESS_FEE - _bonus(view, "express"))
        return t(language, "papa.btn.best_trip", emoji=ACTION_EMOJI["express"], cost=fee)
    if kind == "rotate":
        tile = _draft_tile(view)
        roads = ROAD_CHAR[words.rotated_roads(tile, arg)] if tile else ""
        return f"↻ {arg * 90}° {roads}"
    if kind == "pizzas":
        return t(language, "papa.btn.pizzas", pizzas=arg,
                 cost=max(0, C.INGREDIENT_COST[arg] - _bonus(view, "buy")))
    if kind == "pizzeria":
        p = C.PIZZERIAS[arg]
        return t(language, "papa.btn.pizzeria", pizzeria=arg, cost=max(0, p.cost - _bonus(view, "build")),
                 capacity=p.capacity)
    if kind in ("invest", "late"):
        tile = C.INVESTMENT_TILES[arg]
        return t(language, "papa.btn.invest", emoji=COLOUR_EMOJI[tile.colour], tile=arg,
                 action=words.action_word(tile.action, language), bonus=tile.bonus)
    if kind == "track":
        colour = C.INVESTMENT_TILES[view.investment_held[view.viewer]].colour if view.viewer is not None else None
        return t(language, "papa.btn.track", emoji=COLOUR_EMOJI.get(colour or "", ""),
                 colour=words.colour_word(colour, language) if colour else "")
    if kind == "action":
        action = C.INVESTMENT_TILES[view.investment_held[view.viewer]].action if view.viewer is not None else "nothing"
        return _action_label(action, view, language)
    if kind == "done" and view.phase == Phase.DELIVER and not (draft.get("trips")):
        return t(language, "papa.btn.deliver_nothing")
    return t(language, "papa.btn." + kind)


def _draft_tile(view) -> str | None:
    draft = view.draft or {}
    space = draft.get("space")
    if not space:
        return None
    return view.grid[space[0] * view.grid_size[1] + space[1]]


def _own_prompt(view, language: str, surface: str) -> str:
    draft = view.draft or {}
    phase = view.phase
    if phase == Phase.PLACE and not draft:
        return t(language, "papa.prompt.place")
    if phase == Phase.DELIVER:
        return _plan_prompt(view, language, surface)
    if phase in (Phase.BID, Phase.SETTLE, Phase.LATE):
        return t(language, f"papa.prompt.{phase}", money=words.money(view, view.viewer, language))
    if phase == Phase.INVEST and not draft:
        return t(language, "papa.prompt.invest",
                 tile=words.investment_text(view.investment_held[view.viewer], language))
    mode = draft.get("mode", "choose")
    typed = surface == TERMINAL
    if mode == "choose":
        tile = _draft_tile(view)
        key = "papa.prompt.choose"
        if any(s.startswith("square ") for s in view.legal):
            key = "papa.prompt.choose_square_typed" if typed else "papa.prompt.choose_square"
        return t(language, key, space=words.space_name(draft["space"]),
                 tile=words.tile_text(tile, language))
    if mode == "rotate":
        return t(language, "papa.prompt.rotate_typed" if typed else "papa.prompt.rotate",
                 tile=words.tile_text(_draft_tile(view), language))
    if mode == "put":
        return t(language, "papa.prompt.put_typed" if typed else "papa.prompt.put", left=draft.get("left", 0))
    if mode == "square" and typed:
        return t(language, "papa.prompt.square_typed")
    if mode == "trip":
        return t(language, "papa.prompt.express_trip", drops=len(draft["trip"]["drops"]),
                 most=C.track_value("red", view.tracks[view.viewer]["red"]))
    return t(language, "papa.prompt." + mode, money=words.money(view, view.viewer, language))


PRESENTER = PapaPaoloPresenter()


def _plan_prompt(view, language: str, surface: str) -> str:
    """Phase 5: where the plan stands, then what the choices offered now do (and only those)."""
    draft = view.draft or {}
    tile = view.delivery_held[view.viewer]
    limits = words.delivery_limits(tile, language) if tile else ""
    kinds = {type(parse(s)) for s in view.legal}
    if draft.get("cur"):
        ways = [t(language, f"papa.prompt.trip_{kind.verb}") for kind in (StepTo, Drop, EndTrip, UndoTrip)
                if kind in kinds]
        return t(language, "papa.prompt.trip", drops=len(draft["cur"]["drops"]), limits=limits,
                 ways=_either(ways, language))
    trips = len(draft.get("trips", ()))
    head = t(language, "papa.prompt.deliver", trips=trips, limits=limits,
             allowed=C.track_value("green", view.tracks[view.viewer]["green"]))
    if BestPlan in kinds:
        key = ("papa.prompt.deliver_first_typed" if surface == TERMINAL else "papa.prompt.deliver_first") \
            if From in kinds else "papa.prompt.deliver_none"
    else:
        key = "papa.prompt.deliver_more" if From in kinds else "papa.prompt.deliver_send"
    return f"{head} {t(language, key)}"


def _either(ways: Sequence[str], language: str) -> str:
    """"a, b or c": the ways a player may go on."""
    if len(ways) <= 1:
        return "".join(ways)
    return t(language, "papa.either", most=", ".join(ways[:-1]), last=ways[-1])
