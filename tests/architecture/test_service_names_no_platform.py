"""The service names no platform: what differs between them is a ``Capabilities`` value the platform
declares (``bot/platforms.py``), read by the platform's name. A platform's name in the service's code
(outside comments and docstrings) is a branch on it that a new platform would have to find."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[2] / "bot" / "service"
PLATFORM = re.compile(r"telegram|discord|terminal", re.IGNORECASE)
# The engine's word for a game that is over (``Match.is_terminal``), not the platform.
NOT_A_PLATFORM = {"is_terminal"}
# Names and strings (an f-string's text is a token of its own from Python 3.12).
CODE = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def docstrings(source: str) -> set[int]:
    """The first lines of the module's, classes' and functions' docstrings."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.add(first.lineno)
    return lines


def platform_names(source: str) -> list[tuple[int, str]]:
    """Each name or string in ``source``'s code that names a platform, with its line."""
    skipped = docstrings(source)
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING and token.start[0] in skipped:
            continue
        if token.type in CODE \
                and token.string not in NOT_A_PLATFORM and PLATFORM.search(token.string):
            found.append((token.start[0], token.string))
    return found


@pytest.mark.parametrize("path", sorted(SERVICE.rglob("*.py")), ids=lambda p: str(p.relative_to(SERVICE)))
def test_the_service_names_no_platform(path: Path) -> None:
    assert platform_names(path.read_text(encoding="utf-8")) == []


def test_the_check_can_fail() -> None:
    source = '"""A docstring may say Telegram."""\n# so may a comment: discord\nif platform == "telegram":\n    mini = telegram_app\n'
    assert platform_names(source) == [(3, '"telegram"'), (4, "telegram_app")]
    assert platform_names("over = match.is_terminal()\n") == []


@pytest.mark.parametrize("adapter", ["telegram", "discord", "terminal"])
def test_each_transport_declares_its_platforms_capabilities(adapter: str) -> None:
    """What the service reads by the platform's name is what the platform's transport declares."""
    import importlib

    from bot.platforms import capabilities

    module = importlib.import_module(f"bot.{adapter}.transport")
    transports = [value for value in vars(module).values()
                  if isinstance(value, type) and getattr(value, "platform", None) == adapter]
    assert transports
    for transport in transports:
        assert transport.capabilities == capabilities(adapter)
        assert transport.capabilities is not capabilities("a platform nobody declared")
