"""The layers: bot/ reaches games only through bot/games.py (the registry); engines import no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME_PACKAGES = ("engine.paris_paris", "engine.paris_connection", "renderers.paris_paris",
                 "renderers.paris_connection")
REGISTRIES = ("engine.registry", "renderers.registry")


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def _under(module: str, packages) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


@pytest.mark.parametrize("path", sorted((ROOT / "bot").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_bot_knows_games_only_through_the_registry(path):
    names = _imports(path)
    games = [m for m in names if _under(m, GAME_PACKAGES)]
    assert not games, f"{path.relative_to(ROOT)} imports a game package: {games}"
    if path.name != "games.py" or path.parent.name != "bot":
        registries = [m for m in names if _under(m, REGISTRIES)]
        assert not registries, f"{path.relative_to(ROOT)} should ask bot.games, not {registries}"


def test_the_check_can_fail(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from engine.paris_paris.game import Game\nimport renderers.paris_connection\n")
    assert [m for m in _imports(sneaky) if _under(m, GAME_PACKAGES)]


@pytest.mark.parametrize("path", sorted((ROOT / "engine").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_engines_do_no_io_and_use_no_global_random(path):
    names = _imports(path)
    forbidden = [m for m in names if _under(m, ("discord", "telegram", "aiosqlite", "asyncpg", "sqlite3", "PIL",
                                                 "bot", "renderers"))]
    assert not forbidden, forbidden
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # random.Random(seed) is fine; random.random(), random.choice(...) on the module are not.
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "random" and n.func.attr != "Random"]
    assert not calls, [ast.unparse(c) for c in calls]
