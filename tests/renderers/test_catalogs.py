"""The message catalogs (i18n/locales/<lang>/LC_MESSAGES/<area>.po) as a whole: every language
has every English message with the same plural structure and placeholders, a message that shows a
count is a plural entry, every key the code asks for exists, and every message is used."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.games import AI_LEVELS
from bot.service.board.page import PAGE_TEXTS
from bot.telegram.handlers import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.terminal.choices import COMMANDS as TERMINAL_COMMANDS
from engine.papa_paolo.components import ACTIONS as PAPA_ACTIONS
from engine.papa_paolo.components import COLOURS as PAPA_COLOURS
from engine.papa_paolo.game import OPTIONS as PAPA_OPTIONS
from engine.papa_paolo.steps import VERBS as PAPA_VERBS
from engine.paris_connection.board import COMPANIES
from engine.paris_paris.board import COLOURS
from engine.paris_paris.game import FINAL_TOURS
from i18n import DEFAULT_LANGUAGE, LANGUAGES, LOCALES, PLURAL_FORMS, catalog, plural_rule, t
from renderers.papa_paolo.final import PARTS as PAPA_PARTS
from renderers.papa_paolo.text import PHASES as PAPA_PHASES
from renderers.style import PLAYER_COLOURS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for folder in ("bot", "engine", "i18n", "renderers") for p in (ROOT / folder).rglob("*.py"))
ENGLISH = catalog(DEFAULT_LANGUAGE)


def _literals(paths) -> set[str]:
    found: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


# Keys the code builds from a prefix and a value (``t(lang, "pp.colour." + colour)``), with the
# values each prefix is completed with, taken from where the code gets them.
from bot.web.server import REFUSALS  # noqa: E402

DYNAMIC_KEYS: dict[str, set[str]] = {
    "pp.colour.": set(COLOURS),
    "colour_": set(COLOURS),
    "player_colour_": {colour.name for colour in PLAYER_COLOURS},
    "bot.language.": set(LANGUAGES),
    "bot.level.": set(AI_LEVELS),
    "discord.level.": set(AI_LEVELS),
    "pp.final_tours.": set(FINAL_TOURS),
    "tg.cmd.": set(GROUP_COMMANDS + PRIVATE_COMMANDS),
    "terminal.alias.": set(TERMINAL_COMMANDS),
    "pp.option.": {"final_tours"},
    "pp.option_help.": {"final_tours"},
    "pc.colour.": set(COMPANIES),
    "pc.colours.": set(COMPANIES),
    "pc.ev.ended_": {"marseille", "storage"},
    "pc.img.end_": {"marseille", "storage"},
    "pc.ev.traded_": {"1", "2"},
    "pc.reply.trade_": {"1", "2"},
    "pc.short.trade_": {"1", "2"},
    "pc.btn.take_": {"1", "2"},
    "papa.colour.": set(PAPA_COLOURS),
    "papa.action.": set(PAPA_ACTIONS) | {"nothing"},
    "papa.phase.": set(PAPA_PHASES),
    "papa.stretch_over.": {"place", "bid", "invest", "deliver"},     # the phases that close a stretch
    "papa.option.": set(PAPA_OPTIONS),
    "papa.option_help.": set(PAPA_OPTIONS),
    "papa.short.": set(PAPA_VERBS),
    "papa.btn.": {"drop", "end-trip", "done", "best-plan", "decline"},
    "papa.prompt.trip_": {"step", "drop", "end-trip", "undo-trip"},     # what a trip under way may do next
    "papa.grid.tag.": set(PAPA_COLOURS),
    "papa.prompt.": {"square", "pizzas", "which", "where", "from", "bid", "settle", "late"},
    "papa.ev.resolved_": {"track", "action", "unused"},
    "papa.img.act.": set(PAPA_ACTIONS),
    "papa.img.part.": set(PAPA_PARTS),
    # A presenter's own texts, asked for by renderers/presenter.py with the game's text_prefix.
    "pp.": {"rules", "help.board", "help.secret"},
    "pc.": {"name", "rules", "help", "help.board", "help.secret"},
    "papa.": {"name", "rules", "help", "help.board", "help.secret"},
    # The web board: the page's own words (sent with each state) and why a page gets nothing.
    "web.": set(PAGE_TEXTS),
    "web.err.": set(REFUSALS),
}
# Prefixes completed by string literals of one module: build_parser's tr("play.help"), the Discord
# command tree's L("...", "cmd.new"), error_text's t(lang, f"err_{code}") for the codes it names.
LITERAL_SUFFIXES: dict[str, Path] = {
    "terminal.cli.": ROOT / "bot" / "cli.py",
    "discord.": ROOT / "bot" / "discord" / "commands.py",
    "err_": ROOT / "renderers" / "paris_paris" / "text.py",
    "pc.img.legend_": ROOT / "renderers" / "paris_connection" / "mapimage.py",
}
# Error codes a game's text names by prefix (``t(lang, f"pc.err.{code}")``): every code the engine raises.
ERROR_CODE_SOURCES: dict[str, list[Path]] = {
    "pc.err.": [ROOT / "engine" / "errors.py", ROOT / "engine" / "paris_connection" / "errors.py"],
    "papa.err.": [ROOT / "engine" / "errors.py", ROOT / "engine" / "papa_paolo" / "errors.py"],
    # The web board's refusals (``t(lang, f"web.err.{code}")``): a pass's reasons and the server's codes.
    "web.err.": [ROOT / "bot" / "service" / "tokens" / "passes.py", ROOT / "bot" / "web" / "auth.py",
                 ROOT / "bot" / "web" / "server.py"],
}

# Parameters that hold a number of things; "{count} shops" must then be a plural entry.
COUNT_PARAMS = {"n", "count", "stacks", "points", "supply", "wins", "games", "rounds", "players", "ai", "seats"}
NOT_A_COUNT = {("pp.msg.round_over", "rounds"),     # "Round 3/20 is over": not a number of rounds
               ("lobby_players", "count")}          # "Players (3 of 4)"


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def english_fields(key: str) -> set[str]:
    return set().union(*(fields(form) for form in ENGLISH[key].forms))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_file_declares_the_languages_plural_forms(language):
    paths = sorted((LOCALES / language / "LC_MESSAGES").glob("*.po"))
    assert {p.stem for p in paths} >= {"bot", "discord", "render", "telegram", "terminal"}
    assert not list((LOCALES / language).glob("*.json")), "run python -m i18n.convert"
    for path in paths:
        with path.open("rb") as f:
            po = read_po(f)
        # Our rule, not the installed Babel's CLDR data (which changes between versions).
        assert po.plural_forms == PLURAL_FORMS[language], path
        assert str(po.locale) == language, path


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_message_has_the_forms_its_file_declares(language):
    for path in sorted((LOCALES / language / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as f:
            po = read_po(f)
        declared = int(re.search(r"nplurals=(\d+)", po.plural_forms).group(1))
        for message in po:
            if message.id and message.pluralizable:
                forms = tuple(message.string)
                assert len(forms) == declared and all(form.strip() for form in forms), (path.name, message.id)


def test_the_runtime_picks_forms_by_the_catalogs_rule():
    # French: 0 and 1 singular, any other count plural, a million included (a third CLDR form
    # for exact millions would show as the plural text here too, but only by luck of clamping).
    assert plural_rule("fr")(0) == plural_rule("fr")(1) == 0
    assert plural_rule("fr")(2) == plural_rule("fr")(1_000_000) == 1
    assert plural_rule("it")(1) == 0 and plural_rule("it")(1_000_000) == 1


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE])
def test_every_language_has_every_message_with_the_same_structure(language):
    mine = catalog(language)
    assert set(mine) == set(ENGLISH), (set(ENGLISH) - set(mine), set(mine) - set(ENGLISH))
    for key, english in ENGLISH.items():
        assert mine[key].area == english.area, key
        assert mine[key].count == english.count, key
        assert len(mine[key].forms) == len(english.forms), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_match_english_in_every_form(language):
    for key, message in catalog(language).items():
        wanted = english_fields(key)
        for form in message.forms:
            assert form.strip(), (language, key)
            # A singular form may spell the number out ("one stack"), nothing else may differ.
            assert wanted - {message.count} <= fields(form) <= wanted, (language, key, form)


def test_a_message_that_shows_a_count_is_a_plural_entry():
    for key, message in ENGLISH.items():
        if message.count is not None:
            assert message.count in english_fields(key), key
        for form in message.forms:
            for name in re.findall(r"\{(\w+)\}\s+[^\W\d_]", form):
                if name in COUNT_PARAMS and (key, name) not in NOT_A_COUNT:
                    assert message.count == name, (key, form)


def test_plural_forms_follow_each_language():
    assert t("en", "final_points", points=1) == "1 point"
    assert t("en", "final_points", points=0) == "0 points"
    assert t("fr", "final_points", points=0) == "0 point"         # French: 0 and 1 are singular
    assert t("fr", "final_points", points=2) == "2 points"
    assert t("de", "bot.stats.games", games=1) == "in 1 Spiel"
    assert t("de", "bot.stats.games", games=5) == "in 5 Spielen"
    assert t("it", "final_on_board", count=1) == "1 negozio sul tabellone"
    assert t("en", "final_points") == "{points} points"          # no number: the general form, unformatted


def _keys_in_calls() -> set[str]:
    """Literal keys passed to ``t(lang, key)``, ``c.t(key)``, ``say(key)`` and ``Refused(key)``."""
    keys: set[str] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            position = 1 if isinstance(node.func, ast.Name) and name == "t" else 0
            if name in ("t", "say", "Refused") and len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    keys.add(arg.value)
    return keys


def test_every_key_the_code_asks_for_exists():
    asked = _keys_in_calls()
    assert len(asked) > 150
    assert not asked - set(ENGLISH)
    for prefix, values in DYNAMIC_KEYS.items():
        assert not {prefix + value for value in values} - set(ENGLISH), prefix


def test_every_message_is_used():
    literals = _literals(SOURCES)
    built = {prefix + value for prefix, values in DYNAMIC_KEYS.items() for value in values}
    built |= {prefix + value for prefix, path in LITERAL_SUFFIXES.items() for value in _literals([path])}
    built |= {prefix + value for prefix, paths in ERROR_CODE_SOURCES.items() for value in _literals(paths)}
    unused = set(ENGLISH) - literals - built
    assert not unused, sorted(unused)


@pytest.mark.parametrize("language", ["de", "it", "fr"])
def test_translations_are_not_english_copies(language):
    same = [k for k, m in catalog(language).items() if m.forms == ENGLISH[k].forms and not k.startswith("bot.language.")
            and re.search(r"[a-z]{4,}", re.sub(r"\{\w+\}|Paris|Connection|Papà Paolo", "", m.text))]
    assert len(same) <= 5, same      # French shares some: "minutes", "orange", "points", "total"


def test_paris_connection_prompts_name_the_cancel_button_as_it_reads():
    """The first prompt of a build and the refusal of an empty one say the button's own words."""
    for language in LANGUAGES:
        button = t(language, "pc.btn.cancel").removeprefix("↩️").strip()
        undo = t(language, "pc.btn.undo").removeprefix("↩️").strip()
        for key in ("pc.prompt_build_first", "pc.err.nothing_placed"):
            text = t(language, key, player="Ann", colour="red")
            assert button in text and f"{undo} " not in text.replace(button, ""), (language, key, text)


def test_french_speaks_to_the_player_as_tu_throughout():
    vous = re.compile(r"\b(choisissez|posez|rendez|prenez|construisez|échangez|appuyez|tapez|vous|votre|vos|vôtre)\b",
                      re.IGNORECASE)
    for po in sorted((LOCALES / "fr" / "LC_MESSAGES").glob("*.po")):
        for number, line in enumerate(po.read_text(encoding="utf-8").splitlines(), 1):
            if not line.startswith("msgid"):
                assert not vous.search(line), f"{po.name}:{number}: {line}"


@pytest.mark.parametrize(("language", "key", "params", "never", "reads"), [
    ("fr", "pp.msg.marker_yours", {"colour": "bleue"}, "jeton est bleue", "ligne bleue"),
    ("fr", "bt_shop", {"station": "Centre Pompidou", "owners": "Ada"}, "Pompidou: ", "Centre Pompidou : Ada"),
    ("fr", "bot.options.option", {"name": "Tournées finales", "value": "jetons"}, "finales:", "Tournées finales : "),
    ("fr", "ev_small_tour_near", {"tile": "X", "stations": "Y", "distance": 2, "scores": "Z"}, "là", "à cette station"),
    ("fr", "pp.rules", {}, "l'emporte", "le plus de points gagne"),
    ("de", "terminal.ask_move", {"numbers": "3, 4"}, ", oder", "(3, 4 oder hilfe)"),
    ("de", "ev_shop_opened", {"player": "Ada", "tile": "Quartier Latin"}, "Laden an Quartier", "an der Station Quartier Latin"),
    ("it", "pp.msg.round_over", {"round": 2, "rounds": 15}, "turno", "round 2/15"),
    ("it", "pc.status", {"cycle": 2, "player": "Ada", "boards": 5}, "Giro", "Round 2"),
    ("fr", "pc.status", {"cycle": 2, "player": "Ada", "boards": 5}, "Tour", "Manche 2 · à Ada de jouer"),
])
def test_wording_players_flagged_reads_as_a_native_player_writes(language, key, params, never, reads):
    text = t(language, key, **params)
    assert text != key and never not in text and reads in text, text
