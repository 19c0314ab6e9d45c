"""The layers: bot/ reaches games only through bot/games.py (the registry); engines import no I/O;
the shared engine and renderer modules know games only through their registries; renderers never
import bot/. The game packages are read off the registries, so a new game is checked without an edit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = ("engine.registry", "renderers.registry")
# Tools that measure each game's internals side by side (speed, the searches' playouts); they sit beside
# the registry, not under it.
CROSS_GAME_TOOLS = ("engine.bench", "engine.arena")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports, anywhere in it (in functions too), relative imports made absolute."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names]
    return found


def _registered_packages() -> tuple[str, ...]:
    """The game packages the two registries import (``engine.papa_paolo``, ``renderers.paris_paris``, ...)."""
    packages = set()
    for registry in REGISTRIES:
        path = ROOT / Path(*registry.split(".")).with_suffix(".py")
        layer = registry.split(".")[0]
        packages |= {".".join(m.split(".")[:2]) for m in _imports(path)
                     if m.startswith(layer + ".") and (ROOT / layer / m.split(".")[1] / "__init__.py").is_file()}
    return tuple(sorted(packages))


GAME_PACKAGES = _registered_packages()


def _under(module: str, packages) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_every_game_package_is_in_its_registry():
    assert {"engine.paris_paris", "engine.paris_connection", "engine.papa_paolo", "renderers.paris_paris",
            "renderers.paris_connection", "renderers.papa_paolo"} <= set(GAME_PACKAGES)
    on_disk = {f"{layer}.{init.parent.name}" for layer in ("engine", "renderers")
               for init in (ROOT / layer).glob("*/__init__.py")}
    assert on_disk == set(GAME_PACKAGES), on_disk ^ set(GAME_PACKAGES)


def _shared_modules(layer: str) -> list[Path]:
    return sorted(p for p in (ROOT / layer).glob("*.py")
                  if _module_name(p) not in REGISTRIES + CROSS_GAME_TOOLS)


@pytest.mark.parametrize("path", _shared_modules("engine") + _shared_modules("renderers"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_modules_know_games_only_through_the_registry(path):
    games = [m for m in _imports(path) if _under(m, GAME_PACKAGES)]
    assert not games, f"{path.relative_to(ROOT)} imports a game package: {games}"


@pytest.mark.parametrize("path", sorted((ROOT / "renderers").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_renderers_never_import_the_bot(path):
    assert not [m for m in _imports(path) if _under(m, ("bot",))], path.relative_to(ROOT)


@pytest.mark.parametrize("path", sorted((ROOT / "bot").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_bot_knows_games_only_through_the_registry(path):
    names = _imports(path)
    games = [m for m in names if _under(m, GAME_PACKAGES)]
    assert not games, f"{path.relative_to(ROOT)} imports a game package: {games}"
    if path.name != "games.py" or path.parent.name != "bot":
        registries = [m for m in names if _under(m, REGISTRIES)]
        assert not registries, f"{path.relative_to(ROOT)} should ask bot.games, not {registries}"


def test_the_check_can_fail(tmp_path, monkeypatch):
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    sneaky = tmp_path / "renderers" / "sneaky.py"
    sneaky.parent.mkdir()
    sneaky.write_text("from engine.paris_paris.game import Game\nimport renderers.paris_connection\n"
                      "def later():\n    from .papa_paolo import hoodimage\n    from bot.service import t\n")
    names = _imports(sneaky)
    assert [m for m in names if _under(m, GAME_PACKAGES)] == [
        "engine.paris_paris.game", "engine.paris_paris.game.Game", "renderers.paris_connection",
        "renderers.papa_paolo", "renderers.papa_paolo.hoodimage"]
    assert "bot.service" in names


@pytest.mark.parametrize("path", sorted((ROOT / "engine").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_engines_do_no_io_and_use_no_global_random(path):
    names = _imports(path)
    forbidden = [m for m in names if _under(m, ("discord", "telegram", "aiosqlite", "asyncpg", "sqlite3", "PIL",
                                                 "bot", "renderers", "i18n"))]
    assert not forbidden, forbidden
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # random.Random(seed) is fine; random.random(), random.choice(...) on the module are not.
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "random" and n.func.attr != "Random"]
    assert not calls, [ast.unparse(c) for c in calls]


ADAPTERS = ("bot.telegram", "bot.discord", "bot.terminal", "bot.web")


@pytest.mark.parametrize("path", sorted((ROOT / "bot" / "service").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_service_imports_no_adapter(path):
    """Adapters call the service, never the other way round: the web board's passes, say, are the
    service's (bot/service/tokens/passes.py), which the web adapter reads."""
    adapters = [m for m in _imports(path) if _under(m, ADAPTERS)]
    assert not adapters, f"{path.relative_to(ROOT)} imports an adapter: {adapters}"


@pytest.mark.parametrize("path", sorted((ROOT / "i18n").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_i18n_sits_below_the_renderers_and_the_bot(path):
    """The message catalogs serve the renderers and the bot alike, so they import neither (nor a game)."""
    above = [m for m in _imports(path) if _under(m, ("engine", "renderers", "bot"))]
    assert not above, f"{path.relative_to(ROOT)} imports {above}"


ROOMS = tuple(sorted(p.parent.name for p in (ROOT / "bot" / "service").glob("*/__init__.py")))


def test_the_service_is_in_rooms():
    """bot/service keeps at its top only the facade and what every room shares; each room says what
    it serves in the first line of its ``__init__.py``, one sentence."""
    top = sorted(p.stem for p in (ROOT / "bot" / "service").glob("*.py"))
    assert top == ["__init__", "clock", "inputs", "metrics", "refusal", "service", "waiting"], top
    for room in ROOMS:
        purpose = ast.get_docstring(ast.parse((ROOT / "bot" / "service" / room / "__init__.py").read_text()))
        assert purpose and purpose.splitlines()[0].endswith("."), room
