"""What an operator reads against what the code does (issue 32): the chat docs cover every game,
the offline log is told as it is logged, the old variable prefix is the real one, and the
deployment recipes keep the database where the bots will find it again."""

from __future__ import annotations

import re
from pathlib import Path

from bot import product
from bot.games import KINDS
from bot.outage import REMIND_EVERY

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_each_chat_doc_says_how_to_start_every_game_and_how_papa_paolo_is_played():
    telegram, discord = read(DOCS / "telegram.md"), read(DOCS / "discord.md")
    for game in KINDS.values():
        name = game.definition.name
        assert re.search(rf"^  \| {name} \| .* \| `/newgame", telegram, re.M), name
        assert re.search(rf"^\| {name} \| .* \| `/boardchat new", discord, re.M), name
    assert "`/newgame papa`" in telegram and "`/boardchat new game:Papà Paolo`" in discord
    for text in (telegram, discord):
        section = " ".join(text[text.index("### Papà Paolo: every choice in private, several players at once"):].split())
        assert "My choices" in section and "planned by everyone at once" in section


def test_the_terminal_doc_lists_every_game_and_every_game_option():
    terminal = read(DOCS / "terminal.md")
    for game in KINDS.values():
        assert f"`{game.id}`" in terminal, game.id
        for spec in game.definition.options:
            assert "`--" + spec.name.replace("_", "-") in terminal, spec.name
    assert "asks whether to continue it" not in terminal        # it no longer asks: it says once
    assert "paris-1-round3.png" not in terminal                 # the files carry the deal's code


def test_the_offline_log_is_told_as_the_code_logs_it():
    minutes = round(REMIND_EVERY / 60)
    for doc in ("telegram.md", "discord.md"):
        text = " ".join(read(DOCS / doc).split())
        assert "one line per attempt" not in text, doc
        assert f"retrying quietly, a line every {minutes} minutes until it answers" in text, doc


def test_env_example_names_the_old_prefix():
    text = read(ROOT / ".env.example")
    assert f"Earlier versions called these variables {product.OLD_ENV_PREFIX}*" in text
    assert "called these variables BOARDCHAT_*" not in text


def units(text: str) -> list[str]:
    return [block for block in re.findall(r"```ini\n(.*?)```", text, re.S) if "[Service]" in block]


def test_every_systemd_unit_names_its_folder_and_one_runs_on_an_absolute_database():
    found = units(read(DOCS / "deployment.md"))
    assert len(found) >= 2
    for unit in found:
        assert re.search(r"^WorkingDirectory=/", unit, re.M), unit
    single = [u for u in found if "BOARDCHAT_INSTANCE" not in u]
    assert single and re.search(r"^Environment=BOARDCHAT_DB=/\S+\.sqlite3$", single[0], re.M)


def test_the_container_recipe_keeps_the_database_in_its_volume():
    dockerfile = read(ROOT / "Dockerfile")
    db = re.search(r"BOARDCHAT_DB=(\S+)", dockerfile).group(1)
    volume = re.search(r'^VOLUME \["(\S+)"\]', dockerfile, re.M).group(1)
    assert db.startswith(volume + "/")
    for package in ("engine", "i18n", "renderers", "bot"):                 # pyproject's packages.find
        assert re.search(rf"^COPY {package} ", dockerfile, re.M), package
    assert re.search(r"^USER \w+", dockerfile, re.M) and 'ENTRYPOINT ["boardchat"]' in dockerfile
    assert "boardchat\", \"health\"" in dockerfile
    ignored = read(ROOT / ".dockerignore").split()
    assert {".env", "*.sqlite3", ".git", ".venv"} <= set(ignored)
    assert "not built on the development machine" in read(DOCS / "deployment.md")
