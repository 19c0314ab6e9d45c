"""Message catalogs: every user-facing text comes from here.

Catalogs are gettext PO files, ``i18n/locales/<language>/LC_MESSAGES/<area>.po``, one per
language and area of the code (``render`` for the renderers, ``bot`` for the service,
``telegram``, ``discord``, ``terminal``). They are read at run time with Babel
(``babel.messages.pofile.read_po``, once per language, then cached): no compile step, and
package-data ships the .po files. All areas of a language are merged.

The ``msgid`` is the key the code asks for (``t(language, "bot.msg.prompt", player=...)``) and the
``msgstr`` the text, with ``str.format`` placeholders. A message that shows a count is a plural
entry whose ``msgid_plural`` names the parameter that holds the count::

    msgid "pp.msg.round_header"
    msgid_plural "stacks"
    msgstr[0] "Round {round}/{rounds} · {stacks} stack left"
    msgstr[1] "Round {round}/{rounds} · {stacks} stacks left"

``t()`` picks the form with the language's ``Plural-Forms`` header from that parameter's value,
so call sites just pass their numbers. The headers are ours (``PLURAL_FORMS``), not whatever the
installed Babel's CLDR data says: see ``PLURAL_FORMS`` for why. A number shown with decimals goes through ``decimal()``
("4.5" in English, "4,5" in German, Italian and French).

A key missing in a language falls back to English, and a key missing everywhere shows as the
key itself, so a gap in a catalog is visible but never crashes a game. The tests check that
every language has every English message with the same plural structure and placeholders, and
that every message is used by the code (tests/renderers/test_catalogs.py).

Older branches add JSON catalogs (``locales/<language>/<area>.json``, key -> text): fold them in
with ``python -m i18n.convert`` (see that module).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import cast

from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES = ("en", "de", "it", "fr")
DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).with_name("locales")

# Each language's plural rule, as every .po file of that language declares it in its Plural-Forms
# header (the runtime reads the header; the converter writes this into new files; the tests check
# both). Fixed here rather than taken from Babel's CLDR data, which changes between Babel versions:
# Babel 2.19 gives French and Italian a third form, for exact millions ("1 000 000 de points"). Our
# counts are shops, points, stacks and Lire, never a million, so two forms say everything; a third
# would cost every translator a form that never shows.
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",        # French: 0 and 1 are singular ("0 point")
}


@dataclass(frozen=True)
class Message:
    """One catalog entry: a text, or one text per plural form chosen by the number in ``count``."""

    area: str
    forms: tuple[str, ...]
    count: str | None = None     # the parameter holding the count (plural entries only)

    @property
    def text(self) -> str:
        """The text of a simple message, the most general (last) form of a plural one."""
        return self.forms[-1]


def _po_files(language: str) -> list[Path]:
    return sorted((LOCALES / language / "LC_MESSAGES").glob("*.po"))


@cache
def _load(language: str) -> tuple[dict[str, Message], Callable[[int], int]]:
    """All messages of one language, merged from its area files, and its plural rule."""
    merged: dict[str, Message] = {}
    rule = "(n != 1)"
    for path in sorted((LOCALES / language / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as f:
            po = read_po(f, locale=language, domain=path.stem)
        rule = po.plural_expr
        for entry in po:
            if not entry.id:
                continue                        # the header
            # (babel types a message's parts loosely: a plural's id and strings are tuples, a
            # singular's are strings)
            if isinstance(entry.id, tuple):
                merged[entry.id[0]] = Message(path.stem, tuple(cast("tuple[str, ...]", entry.string)), entry.id[1])
            else:
                merged[str(entry.id)] = Message(path.stem, (cast(str, entry.string),))
    return merged, gettext.c2py(rule)


def catalog(language: str) -> dict[str, Message]:
    """All messages of one language, merged from its area files."""
    return _load(language)[0]


def plural_rule(language: str) -> Callable[[int], int]:
    """The language's ``Plural-Forms`` expression: a count -> the index of its plural form."""
    return _load(language)[1]


# The hints a process meets are few (its chats' and players' languages); bounded all the same:
# a platform passes on whatever a client says.
@lru_cache(maxsize=256)
def normalize_language(language: str | None) -> str:
    """A supported language code for any hint ("de-CH" -> "de"; unknown -> English)."""
    if not language:
        return DEFAULT_LANGUAGE
    code = language.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def t(language: str | None, key: str, /, **params: object) -> str:
    """The message ``key`` in ``language``, formatted with ``params``.

    For a plural entry the form follows the number in the parameter the entry names; without
    a usable number the most general form is shown.
    """
    # (``_load`` and ``forms[-1]`` rather than ``catalog`` and ``text``: a move's messages call this dozens of times)
    lang = normalize_language(language)
    message = _load(lang)[0].get(key)
    if message is None:
        lang = DEFAULT_LANGUAGE
        message = _load(lang)[0].get(key)
    if message is None:
        return key
    text = message.forms[-1]
    if message.count is not None:
        count = params.get(message.count)
        if isinstance(count, int):
            text = message.forms[min(plural_rule(lang)(abs(count)), len(message.forms) - 1)]
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def decimal(language: str | None, value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals as ``language`` writes it ("4.5", "4,5")."""
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(value, format=pattern, locale=normalize_language(language))


def name_list(items, language: str | None) -> str:
    """Names as a sentence lists them: "Ann", "Ann and Bob", "Ann, Bob and Cy" (in ``language``)."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return t(language, "list_and", head=", ".join(items[:-1]), last=items[-1])


def number_list(numbers) -> str:
    """The numbers a player may type, short: "1-4", "2, 3, 5", "2, 4-6" (runs of three or more
    as a range; a tile keeps its offer number, so the choices need not start at 1)."""
    ordered = sorted(set(numbers))
    parts, i = [], 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ordered[i]}-{ordered[j]}")
        else:
            parts.extend(str(n) for n in ordered[i:j + 1])
        i = j + 1
    return ", ".join(parts)
