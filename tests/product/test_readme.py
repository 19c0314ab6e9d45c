"""The README's first screen: the product's name, the play and test commands (in step with .ci/run),
and every game the bot hosts, each with a picture that exists."""

from __future__ import annotations

import re
from pathlib import Path

from bot import product
from bot.games import KINDS

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST_SCREEN = README[:README.index("## Contents")]


def command_of(label: str) -> str:
    found = re.search(rf"^{label}: `(.+)`$", README, re.M)
    assert found, f"no '{label}:' line in the README"
    return found.group(1)


def test_the_title_and_the_play_command_carry_the_product_name():
    assert README.splitlines()[0].startswith(f"# {product.NAME}")
    play = command_of("Play")
    assert "pip install -e ." in play and play.endswith(f"&& {product.COMMAND} play")


def test_the_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    ci_command = ci[ci.index("# The README's test command (keep the two in step):") + 1]
    assert command_of("Test").endswith(ci_command)


def test_every_game_is_on_the_first_screen_with_a_picture():
    pictures = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", FIRST_SCREEN)
    for game in KINDS.values():
        name = game.definition.name
        shown = [path for alt, path in pictures if alt.startswith(name)]
        assert shown, f"{name} has no picture on the README's first screen"
        assert all((ROOT / path).is_file() for path in shown), shown
        players = f"{game.definition.min_players}-{game.definition.max_players} players"
        assert re.search(rf"\[{name}\]\([^)]+\) · {players}", FIRST_SCREEN), f"{name}: no '{players}' heading"
