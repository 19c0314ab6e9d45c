"""The product's names live in bot/product.py: no other code or message says the old ones (a text
naming /paris or PARIS_PARIS_DB would send a new operator or player to something that does not
exist for them). Game ids ("paris-paris") and record formats are the games' own and stay."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot import product

ROOT = Path(__file__).resolve().parents[2]
OLD = re.compile(rf"{product.OLD_ENV_PREFIX}|(?<![\w-]){re.escape(product.OLD_COMMAND)} (?!\()"
                 rf"|(?<![\w/.]){re.escape('/' + product.OLD_DISCORD_GROUP)}\b(?![/.-])")


def strings_in(path: Path):
    """The string constants of a module that are not docstrings (what the program says or reads)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_the_code_names_the_product_only_through_bot_product():
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.name == "product.py":
            continue
        found += [f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}" for line, text in strings_in(path)
                  if OLD.search(text)]
    assert not found, "old product names outside bot/product.py:\n" + "\n".join(found)


def test_no_message_names_the_old_command_group_or_variables():
    found = []
    for path in sorted((ROOT / "i18n" / "locales").rglob("*.po")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.startswith("#") and OLD.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line[:100]}")
    assert not found, "old product names in the catalogs:\n" + "\n".join(found)
