"""Papà Paolo played from the text alone (issue 32): the player's neighbourhood printed as a grid
with the numbers to type, delivery menus in the order of their numbers, a planned trip taken back
with "u", one picture file per seat and one for the board, and the terminal's own words (no "tap",
no group chat)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_terminal_play import Screen

from bot.terminal.play import EXIT_OK, PlayOptions, run_play


class Planner:
    """Standard input of a player who reads each menu: plans every delivery trip by hand (a
    pizzeria, on until a pizza can be dropped, drop, end the trip), takes the first trip back
    once with "u", and otherwise types the first number shown."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.lines = 0
        self.undone = False
        self.menus: list[str] = []

    def readline(self, size: int = -1) -> str:
        self.lines += 1
        screen = self.screen
        with screen.changed:
            screen.changed.wait_for(lambda: screen.prompts >= self.lines or screen.done, timeout=60)
            if screen.prompts < self.lines or self.lines > 2000:
                return ""
            text = screen.getvalue()
        menu = text[text.rfind("\n\n"):]
        self.menus.append(menu)
        return self.answer(menu) + "\n"

    def answer(self, menu: str) -> str:
        choices = dict((label, key) for key, label in re.findall(r"^\s*(\w+)\. (.*)$", menu, re.M))
        if "↩ Undo last trip" in choices and not self.undone:
            self.undone = True
            return "u"
        delivering = any(word in menu for word in ("Deliver nothing", "Done: deliver", "Drop here", "End trip"))
        if delivering or all(re.fullmatch(r"\d+( · ➡ go on)?|↩ .*", label) for label in choices):
            # a pizzeria ("1 · 3 pizzas ..."), drop, end, send; else the next square ("2 · ➡ go on")
            for wanted in (r"^\d+ · (holds )?\d+ pizzas?\b", "Drop here", "End trip", "Done: deliver", r"^\d+\b"):
                for label, key in choices.items():
                    if re.search(wanted, label):
                        return key
        return re.search(r"^\s*(\d+)\. ", menu, re.M).group(1)


@dataclass
class Played:
    out: str
    menus: list[str]
    undone: bool
    maps: Path


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    """One two-seat game against the AI, to the end, by a ``Planner``, with pictures."""
    folder = tmp_path_factory.mktemp("papa-text")
    maps = folder / "maps"
    options = PlayOptions(kind="papa-paolo", players=2, name="Ann", seed=4, db=folder / "g.sqlite3", maps=maps)
    screen = Screen()
    player = Planner(screen)
    try:
        code = asyncio.run(run_play(options, stdin=player, stdout=screen, colour=False))
    finally:
        screen.finish()
    out = screen.getvalue()
    assert code == EXIT_OK, out[-3000:]
    assert "Papà Paolo is over" in out
    return Played(out, player.menus, player.undone, maps)


def test_the_neighbourhood_is_printed_as_a_grid_with_the_numbers_to_type(played):
    # Before a square is chosen: the numbers typed, the starting pizzeria with its 3 pizzas of
    # room 5, a red town square with 2 houses, and their roads.
    out = played.out
    first_square = out.index("choose a numbered square of the grid")
    grid = out[first_square:out.index("Your choice", first_square)]
    assert "[1]" in grid and "P 3/5" in grid and "R 0/2" in grid
    # each square a box, a road a double line through its side: "═══" or "║" where two squares join
    assert re.search(r"│ +P 3/5 +[│═]", grid) and re.search(r"[│═] +R 0/2 +[│═]", grid)
    assert "═" in grid or "║" in grid
    assert "[1] the number to type" in grid


def test_the_trip_being_planned_is_marked_on_the_grid(played):
    # the squares it passes ("*") and the pizza it drops ("+1"), on the grid's bottom lines
    assert re.search(r"^└\*.*\+1.?┘", played.out, re.M)


def test_one_picture_file_per_seat_and_one_for_the_board(played):
    names = sorted(p.name for p in played.maps.iterdir())
    code = names[0].split("-")[2]
    assert names == [f"papa-1-{code}-board.png", f"papa-1-{code}-final.png", f"papa-1-{code}-replay.mp4",
                     f"papa-1-{code}-seat0.png"]
    assert played.out.count(f"Map saved: {played.maps / names[3]}") == 1     # told once, then followed


def test_the_terminal_has_its_own_words(played):
    # nothing to tap, no group chat, and no "nothing more to choose" before the next question
    assert not re.search(r"\btap\b|\bbuttons?\b", played.out, re.I)
    assert "group chat" not in played.out and "Nothing more to choose" not in played.out


def test_every_menu_is_printed_in_the_order_of_its_numbers(played):
    deliveries = [m for m in played.menus if "Deliver nothing" in m]
    assert deliveries and all(m.index("start here") < m.index("Best plan") for m in deliveries)
    for menu in played.menus:
        numbers = [int(n) for n in re.findall(r"^\s*(\d+)\. ", menu, re.M)]
        assert numbers == sorted(numbers), menu


def test_a_planned_trip_is_taken_back_with_u(played):
    assert played.undone
    after = played.out[played.out.index("↩ Undo last trip"):]
    assert "0 of 1 trips planned" in after.split("Your choice")[1]


def test_the_prompt_offers_what_the_menu_offers(played):
    # A prompt that names the best plan or a next square comes with such a choice.
    for block in played.out.split("Your choice")[1:]:
        prompt = next((line for line in block.splitlines() if "Plan your deliveries" in line
                       or "Trip under way" in line), "")
        menu = block[block.rfind("\n\n"):]
        if "best plan" in prompt.lower():
            assert "⭐ Best plan" in menu, block
        if "numbered square" in prompt:
            assert "go on" in menu, block

