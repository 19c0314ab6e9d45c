"""Fold JSON message catalogs into the gettext catalogs, then delete the JSON.

Run from the repository root, as often as needed::

    python -m i18n.convert            # merge and delete every locales/<lang>/<area>.json
    python -m i18n.convert --keep     # merge, keep the JSON files

Each ``i18n/locales/<lang>/<area>.json`` (a flat object of key -> ``str.format`` text, the
format the catalogs had before they moved to gettext) is merged into
``i18n/locales/<lang>/LC_MESSAGES/<area>.po``, which is created when missing. A key the
.po file already has keeps its .po text (it may carry fixes and plural forms the JSON lacks);
when the two texts differ the script lists the key so a person can decide. New keys are
appended as simple (singular) messages: a message that shows a count should then be turned
into a plural entry by hand (see i18n/__init__.py), and the catalog tests say which keys
are missing in a language or unused in the code.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import sys
from pathlib import Path
from typing import cast

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from . import LOCALES, PLURAL_FORMS

# A fixed date in new headers, so that re-running the script on unchanged input changes nothing.
_FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def load_po(path: Path, language: str, area: str) -> Catalog:
    """The catalog in ``path``, or a new empty one for ``language`` (with our Plural-Forms header,
    ``PLURAL_FORMS``, whatever the installed Babel's CLDR data says)."""
    if path.exists():
        with path.open("rb") as f:
            return read_po(f, locale=language, domain=area)
    catalog = Catalog(locale=language, domain=area, project="boardchat", version="1", fuzzy=False,
                   header_comment=f"# Boardchat: the {area} messages in {language}. The msgid is the key the\n"
                                  "# code asks for; see i18n/__init__.py for placeholders and plural entries.",
                   msgid_bugs_address="the project's issue tracker", last_translator="Boardchat authors",
                   language_team=f"Boardchat ({language})",
                   creation_date=_FIXED_DATE, revision_date=_FIXED_DATE)
    if language not in PLURAL_FORMS:
        raise SystemExit(f"{language}: add the language's plural rule to PLURAL_FORMS in i18n/__init__.py first")
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    return catalog


def save_po(catalog: Catalog, path: Path) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def _texts_in(folder: Path) -> dict[str, str | tuple[str, ...]]:
    """Every message the .po files in ``folder`` hold (a key may live in another area than the JSON's)."""
    texts: dict[str, str | tuple[str, ...]] = {}
    for path in folder.glob("*.po"):
        with path.open("rb") as f:
            # (babel types a message's parts loosely: a plural's are tuples, a singular's strings)
            texts |= {m.id[0] if isinstance(m.id, tuple) else str(m.id): cast("str | tuple[str, ...]", m.string)
                      for m in read_po(f) if m.id}
    return texts


def merge_json(json_path: Path) -> tuple[int, list[str]]:
    """Merge ``<lang>/<area>.json`` into ``<lang>/LC_MESSAGES/<area>.po``: (keys added, keys kept)."""
    language, area = json_path.parent.name, json_path.stem
    texts: dict[str, str] = json.loads(json_path.read_text(encoding="utf-8"))
    folder = json_path.parent / "LC_MESSAGES"
    known = _texts_in(folder)
    target = folder / f"{area}.po"
    catalog = load_po(target, language, area)
    added, kept = 0, []
    for key, text in texts.items():
        if key not in known:
            catalog.add(key, text)
            added += 1
        elif known[key] != text:
            kept.append(key)
    save_po(catalog, target)
    return added, kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the JSON files after merging")
    parser.add_argument("--locales", type=Path, default=LOCALES, help="the locales folder (default: %(default)s)")
    args = parser.parse_args(argv)
    found = sorted(args.locales.glob("*/*.json"))
    for json_path in found:
        added, kept = merge_json(json_path)
        print(f"{json_path.relative_to(args.locales)}: {added} new message(s)")
        for key in kept:
            print(f"  {key}: kept the .po text, the JSON text differs")
        if not args.keep:
            json_path.unlink()
    if not found:
        print("no JSON catalogs left under", args.locales)
    return 0


if __name__ == "__main__":
    sys.exit(main())
