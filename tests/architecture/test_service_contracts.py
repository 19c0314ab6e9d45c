"""The service keeps both contracts the adapters are written against: every method of
``GameServiceAPI`` and ``BoardAPI`` is on ``GameService`` with the same parameters (and maybe
more of its own, with defaults) (mypy checks the
types too: ``service._implements``), and the web adapter reaches the service only through them."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.contract import BoardAPI, GameServiceAPI
from bot.service.service import GameService

WEB = Path(__file__).resolve().parents[2] / "bot" / "web"


def members(protocol: type) -> list[str]:
    return [name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")]


def parameters(function: object) -> list[tuple[str, object, object]]:
    signature = inspect.signature(inspect.unwrap(function))   # through ``@cleaned``
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


@pytest.mark.parametrize("protocol", [GameServiceAPI, BoardAPI])
def test_the_service_has_every_method_of_the_protocol_alike(protocol: type) -> None:
    assert members(protocol)
    for name in members(protocol):
        assert hasattr(GameService, name), f"GameService lacks {protocol.__name__}.{name}"
        kept, declared = parameters(getattr(GameService, name)), parameters(getattr(protocol, name))
        # Alike, but for parameters of the service's own after the declared ones, each with a default.
        assert kept[:len(declared)] == declared, name
        assert all(default is not inspect.Parameter.empty for _, _, default in kept[len(declared):]), name


def test_the_check_can_fail() -> None:
    class Narrow:
        async def add_ai(self, chat: object, user: object) -> None: ...

    declared = parameters(GameServiceAPI.add_ai)
    assert parameters(Narrow.add_ai)[:len(declared)] != declared


@pytest.mark.parametrize("path", sorted(WEB.glob("*.py")), ids=lambda p: p.name)
def test_the_web_adapter_never_reaches_into_the_service(path: Path) -> None:
    """No ``service.passes``, ``.codec``, ``.pages``, ``.watch`` (or ``.clock``) in bot/web: only
    ``BoardAPI``'s methods (the benches, which set games up, apart)."""
    if "bench" in path.name:
        return
    inside = {"passes", "codec", "pages", "watch", "clock", "store", "storage"}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in inside:
            owner = node.value
            named = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            assert "service" not in named.lower() and not (isinstance(owner, ast.Subscript)), \
                f"{path.name}:{node.lineno} reaches into the service's {node.attr}"
