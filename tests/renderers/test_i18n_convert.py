"""python -m i18n.convert folds JSON catalogs (what other branches still add) into the .po files."""

from __future__ import annotations

import json
from pathlib import Path

from babel.messages.pofile import read_po

from i18n.convert import main


def write_json(locales: Path, language: str, area: str, texts: dict[str, str]) -> Path:
    path = locales / language / f"{area}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    return path


def messages(path: Path) -> dict:
    with path.open("rb") as f:
        po = read_po(f)
    return {"plural_forms": po.plural_forms, **{m.id if isinstance(m.id, str) else m.id[0]: m.string
                                                for m in po if m.id}}


def test_new_area_becomes_a_po_file_and_the_json_goes(tmp_path, capsys):
    source = write_json(tmp_path, "fr", "paris_connection", {"pc.hello": "Bonjour {name} !", "pc.bye": "Salut"})
    assert main(["--locales", str(tmp_path)]) == 0
    assert not source.exists()
    po = messages(tmp_path / "fr" / "LC_MESSAGES" / "paris_connection.po")
    assert po == {"plural_forms": "nplurals=2; plural=(n > 1);", "pc.hello": "Bonjour {name} !", "pc.bye": "Salut"}
    assert "fr/paris_connection.json: 2 new message(s)" in capsys.readouterr().out


def test_merge_keeps_po_texts_and_plurals_and_adds_new_keys(tmp_path, capsys):
    write_json(tmp_path, "de", "bot", {"bot.a": "A", "bot.count": "{n} Dinge"})
    main(["--locales", str(tmp_path)])
    target = tmp_path / "de" / "LC_MESSAGES" / "bot.po"
    # A person turns bot.count into a plural entry and fixes bot.a ...
    text = target.read_text(encoding="utf-8")
    text = text.replace('msgid "bot.count"\nmsgstr "{n} Dinge"',
                        'msgid "bot.count"\nmsgid_plural "n"\nmsgstr[0] "{n} Ding"\nmsgstr[1] "{n} Dinge"')
    target.write_text(text.replace('msgstr "A"', 'msgstr "A!"'), encoding="utf-8")
    # ... then a merged branch brings the old JSON back with one new key.
    write_json(tmp_path, "de", "bot", {"bot.a": "A", "bot.count": "{n} Dinge", "bot.new": "Neu"})
    write_json(tmp_path, "de", "render", {"bot.new": "Neu"})       # already there after bot.json: not twice
    capsys.readouterr()
    main(["--locales", str(tmp_path)])
    po = messages(target)
    assert po["bot.a"] == "A!" and po["bot.count"] == ("{n} Ding", "{n} Dinge") and po["bot.new"] == "Neu"
    assert "bot.new" not in messages(tmp_path / "de" / "LC_MESSAGES" / "render.po")
    out = capsys.readouterr().out
    assert "bot.a: kept the .po text" in out and "bot.count: kept the .po text" in out
    assert not list((tmp_path / "de").glob("*.json"))
    main(["--locales", str(tmp_path)])
    assert "no JSON catalogs left" in capsys.readouterr().out
