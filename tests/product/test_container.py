"""The container as far as this machine can check it (no Docker engine here): the wheel the image
installs (its packages, its data, its entry point), the Dockerfile (an unprivileged user, the board
on every interface inside the container only, its ports exposed, a health check that asks the
board), and deploy/compose.yaml with its Caddyfile (PostgreSQL and Caddy beside the bot, the
settings it names real ones)."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import yaml

from bot.config import Settings, ops_address, web_settings
from bot.telegram.settings import TelegramSettings

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE = ROOT / "deploy" / "compose.yaml"


def instructions(name: str) -> list[str]:
    """The arguments of every ``name`` instruction of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [m.group(1).strip() for m in re.finditer(rf"^{name}\s+(.*)$", text, re.M)]


def image_env() -> dict[str, str]:
    return {k: v for line in instructions("ENV") for k, v in re.findall(r"(\w+)=(\S+)", line)}


def test_the_wheel_the_image_installs_holds_every_package_its_data_and_the_command(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("boardchat-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(archive.read(n).decode() for n in names if n.endswith("entry_points.txt"))
        metadata = next(archive.read(n).decode() for n in names if n.endswith("METADATA"))
    assert re.search(r"^boardchat = bot\.cli:main$", entry_points, re.M)
    for path in ("bot/cli.py", "bot/health.py", "bot/web/ops.py",
                 "engine/__init__.py", "i18n/__init__.py", "i18n/locales/en/LC_MESSAGES/terminal.po"):
        assert path in names, path
    # The board's page, script and style are read from the installed package (before: left out,
    # so the image's board failed at its first import).
    for static in (ROOT / "bot" / "web" / "static").iterdir():
        assert f"bot/web/static/{static.name}" in names, static.name
    assert any(n.startswith("renderers/fonts/") and n.endswith((".ttf", ".otf")) for n in names)
    assert not any(n.startswith(("tests/", "docs/")) for n in names)
    assert re.search(r"^Requires-Dist: prometheus-client", metadata, re.M)


def test_the_image_runs_as_a_user_and_serves_the_board_to_other_containers() -> None:
    users = instructions("USER")
    assert users and users[-1] not in ("root", "0")
    assert re.search(rf"useradd .*--uid \d+ .*{users[-1]}", DOCKERFILE)
    env = image_env()
    # Inside the container the board listens on every interface, on the port the settings default to;
    # outside it (no such variable set) the default stays this machine's own address.
    host, port = ops_address(Settings({}, {}))
    assert (host, env["BOARDCHAT_WEB_PORT"]) == ("127.0.0.1", str(port))
    assert env["BOARDCHAT_WEB_HOST"] == "0.0.0.0"
    inside = web_settings(Settings({**env, "BOARDCHAT_WEB_URL": "https://board.example.org"}, {}))
    assert (inside.host, inside.port) == ("0.0.0.0", port)
    assert web_settings(Settings({"BOARDCHAT_WEB_URL": "https://board.example.org"}, {})).host == "127.0.0.1"
    exposed = {p for line in instructions("EXPOSE") for p in line.split()}
    assert {str(port), str(TelegramSettings(token="t").webhook_port)} <= exposed
    health = instructions("HEALTHCHECK")[0]
    assert '"boardchat", "health"' in health and '"--local"' in health
    assert instructions("ENTRYPOINT") == ['["boardchat"]']


def test_the_compose_file_runs_the_bot_with_postgresql_and_caddy() -> None:
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"bot", "db", "caddy"}
    bot, db, caddy = services["bot"], services["db"], services["caddy"]
    assert (COMPOSE.parent / bot["build"] / "Dockerfile").is_file()
    assert bot["command"] in (["telegram"], ["discord"])
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in bot["environment"]:
        assert re.search(rf"^{name}=", example, re.M), f"{name} is not a setting in .env.example"
    url = bot["environment"]["BOARDCHAT_DATABASE_URL"]
    assert url.startswith("postgresql://") and "@db:5432/" in url
    assert db["image"].startswith("postgres:") and db["healthcheck"]["test"][1] == "pg_isready"
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    env = image_env()
    assert {str(p) for p in bot["expose"]} == {env["BOARDCHAT_WEB_PORT"], bot["environment"]["TELEGRAM_WEBHOOK_PORT"]}
    assert caddy["image"].startswith("caddy:") and {"80:80", "443:443"} <= set(caddy["ports"])
    mounted = [v.split(":")[0] for v in caddy["volumes"] if v.startswith("./")]
    assert mounted == ["./Caddyfile"]
    caddyfile = (COMPOSE.parent / "Caddyfile").read_text(encoding="utf-8")
    # The board and the webhook, each to the port the bot listens on; a domain: automatic HTTPS.
    assert set(re.findall(r"reverse_proxy (\S+)", caddyfile)) == {
        f"bot:{env['BOARDCHAT_WEB_PORT']}", f"bot:{bot['environment']['TELEGRAM_WEBHOOK_PORT']}"}
    assert re.search(r"^\{\$BOARDCHAT_DOMAIN\} \{", caddyfile, re.M)
    assert "BOARDCHAT_DOMAIN" in caddy["environment"]


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def test_the_chat_docs_take_an_operator_from_botfather_to_the_board() -> None:
    """One path each: the tunnel's command to the port the board listens on, BotFather's Mini App
    with the 640x360 picture it asks for, the settings by their real names, and the health check."""
    port = ops_address(Settings({}, {}))[1]
    docs = ROOT / "docs"
    telegram = section((docs / "telegram.md").read_text(encoding="utf-8"),
                       "## With the board: from BotFather to a Mini App in ten minutes")
    discord = section((docs / "discord.md").read_text(encoding="utf-8"), "## The live board in ten minutes")
    for text in (telegram, discord):
        assert f"cloudflared tunnel --url http://localhost:{port}" in text
        assert "BOARDCHAT_WEB_URL=https://" in text and "boardchat health" in text
    assert "/newapp" in telegram and "640×360" in telegram
    assert "(gallery/botfather-640x360.png)" in telegram
    assert "BOARDCHAT_TELEGRAM_APP=board" in telegram


def test_every_metric_is_explained_for_the_operator() -> None:
    from bot.web.ops import PrometheusMetrics

    deployment = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    table = section(deployment, "## Numbers to watch: /metrics")
    for family in PrometheusMetrics().registry.collect():
        name = family.name + ("_total" if family.type == "counter" else "")
        assert re.search(rf"^\| `{name}[{{`]", table, re.M), name
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.search(r"^BOARDCHAT_METRICS=$", example, re.M) and "`BOARDCHAT_METRICS`" in deployment
