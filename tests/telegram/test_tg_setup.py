"""Configuration, webhook mode, and the text helpers of the Telegram adapter."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
import pytest
from telegram import MessageEntity

from bot.config import ConfigError, Settings, parse_env
from bot.contract import Chat, User
from bot.limits import UTF16
from bot.service import GameService
from bot.telegram.app import (
    build_application,
    run_telegram,
    start_application,
    stop_application,
    webhook_options,
)
from bot.telegram.formatting import mention_entities, split_text
from bot.telegram.settings import TelegramSettings
from i18n import LANGUAGES, catalog, t

REPO = str(Path(__file__).resolve().parents[2])


def test_env_file_parsing():
    text = """
# a comment
export TELEGRAM_BOT_TOKEN = "123:abc"
BOARDCHAT_DB='games.sqlite3'
TELEGRAM_WEBHOOK_PORT=8443   # trailing comment
EMPTY=
broken line
"""
    assert parse_env(text) == {"TELEGRAM_BOT_TOKEN": "123:abc", "BOARDCHAT_DB": "games.sqlite3",
                               "TELEGRAM_WEBHOOK_PORT": "8443", "EMPTY": ""}


def test_environment_wins_over_env_file_and_empty_means_unset():
    env = Settings({"TELEGRAM_BOT_TOKEN": "from-env", "BOARDCHAT_DB": ""},
                   {"TELEGRAM_BOT_TOKEN": "from-file", "BOARDCHAT_DB": "file.sqlite3"})
    config = TelegramSettings.from_env(env)
    assert config.token == "from-env" and config.db_path == "file.sqlite3"
    assert config.webhook_url is None and config.webhook_port == 8443


def test_missing_token_and_bad_values_are_explained():
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN"):
        TelegramSettings.from_env(Settings({}, {}))
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_PORT"):
        TelegramSettings.from_env(Settings({"TELEGRAM_BOT_TOKEN": "x", "TELEGRAM_WEBHOOK_PORT": "eighty"}, {}))
    with pytest.raises(ConfigError, match="https"):
        TelegramSettings.from_env(Settings({"TELEGRAM_BOT_TOKEN": "x", "TELEGRAM_WEBHOOK_URL": "http://a/b"}, {}))


def test_run_telegram_without_a_token_exits_with_a_message(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)                     # no .env here
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.delenv("BOARDCHAT_ENV_FILE", raising=False)
    assert run_telegram() == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().err


def test_webhook_settings():
    config = TelegramSettings.from_env(Settings({"TELEGRAM_BOT_TOKEN": "1:x",
                                                 "TELEGRAM_WEBHOOK_URL": "https://bot.example.org/paris/hook"}, {}))
    options = webhook_options(config)
    assert options["url_path"] == "paris/hook" and options["webhook_url"] == "https://bot.example.org/paris/hook"
    assert options["secret_token"] and options["secret_token"] == config.secret_token
    assert TelegramSettings("2:y").secret_token != TelegramSettings("1:x").secret_token


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_webhook_mode_receives_updates(api, tmp_path):
    ann = api.add_user(101, "Ann", started=True)
    api.add_group(-100777, "Hook club", owner=ann)
    port = free_port()
    config = TelegramSettings(api.token, webhook_url="https://bot.example.org/paris/hook", webhook_port=port,
                              webhook_listen="127.0.0.1")
    service = await GameService.open(str(tmp_path / "hook.sqlite3"))
    app = build_application(api.token, service=service, base_url=api.base_url, register_menu=False)
    await start_application(app, webhook=webhook_options(config))
    try:
        assert api.webhook["url"] == "https://bot.example.org/paris/hook"
        assert api.webhook["secret_token"] == config.secret_token
        url = f"http://127.0.0.1:{port}/paris/hook"
        async with aiohttp.ClientSession() as http:
            forged = api.message_update(-100777, ann, "/newgame")
            async with http.post(url, json=forged, headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}) as r:
                assert r.status == 403
            update = api.message_update(-100777, ann, "/newgame")
            async with http.post(url, json=update,
                                 headers={"X-Telegram-Bot-Api-Secret-Token": config.secret_token}) as r:
                assert r.status == 200
        lobby = await api.wait_for(lambda: next((m for m in api.bot_messages(-100777) if m.buttons()), None),
                                   what="the lobby")
        assert "Ann" in lobby.body
        assert len([m for m in api.bot_messages(-100777) if m.reply_to]) == 1     # one /newgame handled
        assert api.calls_of("getUpdates") == []
    finally:
        await stop_application(app)
        await service.close()


def test_split_text_prefers_paragraphs_and_loses_nothing():
    text = "\n\n".join(["a" * 600, "b" * 600, "c" * 600])
    parts = split_text(text, 1024)
    assert parts == ["a" * 600, "b" * 600, "c" * 600]
    long_word = "x" * 2500
    parts = split_text(long_word, 1024)
    assert "".join(parts) == long_word and all(len(p) <= 1024 for p in parts)
    emoji = "🚌" * 700                                       # 1400 UTF-16 units
    parts = split_text(emoji, 1024)
    assert "".join(parts) == emoji and all(UTF16.length(p) <= 1024 for p in parts)
    assert split_text("", 1024) == [""]


def test_mentions_skip_non_telegram_users_and_taken_spans():
    ann = User("telegram", "1", "Ann")
    ann2 = User("telegram", "2", "Ann")             # same display name: the next occurrence
    robot = User("telegram", "ai:Bot Ada", "Bot Ada")
    entities = mention_entities("Ann and Ann, then Bot Ada", (ann, ann2, robot))
    assert [(e.type, e.offset, e.user.id) for e in entities] == [(MessageEntity.TEXT_MENTION, 0, 1),
                                                                 (MessageEntity.TEXT_MENTION, 8, 2)]


def test_telegram_texts_exist_in_every_language():
    english = {k for k in catalog("en") if k.startswith("tg.")}
    assert len(english) >= 20
    for language in LANGUAGES:
        keys = {k for k in catalog(language) if k.startswith("tg.")}
        assert keys == english, language
        for key in english:
            text = t(language, key, name="Ann", games="-", game="G", min=2, max=4, command="/newgame")
            assert text and "{" not in text, (language, key)
            if key.startswith("tg.cmd."):
                assert 3 <= len(text) <= 256           # Telegram's limits for command descriptions


async def test_paris_paris_telegram_command_runs_and_stops_cleanly(api, tmp_path):
    """The real entry point (``paris-paris telegram``) in a subprocess, configured by the environment."""
    import asyncio
    import os
    import signal
    import sys

    ann = api.add_user(101, "Ann", started=True)
    api.add_group(-100888, "CLI club", owner=ann)
    env = dict(os.environ, TELEGRAM_BOT_TOKEN=api.token, TELEGRAM_API_BASE_URL=api.base_url,
               BOARDCHAT_DB=str(tmp_path / "cli.sqlite3"), TELEGRAM_WEBHOOK_URL="")
    env.pop("BOARDCHAT_ENV_FILE", None)
    env["PYTHONPATH"] = REPO          # this checkout's code, not whatever is installed
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "telegram", cwd=tmp_path, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await api.wait_for(lambda: api.calls_of("getUpdates") or api.commands, timeout=20, what="the bot to start")
        api.send_text(-100888, ann, "/newgame")
        lobby = await api.wait_for(lambda: next((m for m in api.bot_messages(-100888) if m.buttons()), None),
                                   timeout=10, what="the lobby")
        assert "Ann" in lobby.body
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert (tmp_path / "cli.sqlite3").exists()
    assert api.token not in err.decode()             # httpx request logging (with the token) is silenced


async def test_a_bot_started_before_the_network_comes_up_by_itself(tmp_path):
    """Nothing listens at the Bot API address yet: one clear line (not one per attempt), no
    traceback; once the server is there the bot starts on its own and says so."""
    import asyncio
    import os
    import signal
    import sys

    from fakebotapi import FakeBotAPI

    with socket.socket() as probe:                   # a port with nothing listening (for now)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    api = FakeBotAPI(max_poll=0.3, port=port)
    env = dict(os.environ, TELEGRAM_BOT_TOKEN=api.token, TELEGRAM_API_BASE_URL=api.base_url,
               BOARDCHAT_DB=str(tmp_path / "cli.sqlite3"), TELEGRAM_WEBHOOK_URL="")
    env.pop("BOARDCHAT_ENV_FILE", None)
    env["PYTHONPATH"] = REPO          # this checkout's code, not whatever is installed
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "telegram", cwd=tmp_path, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        first = (await asyncio.wait_for(proc.stderr.readline(), 20)).decode()
        await asyncio.sleep(3.5)                     # retries after 1 and 2 s: told no more
        await api.start()
        await api.wait_for(lambda: api.calls_of("getUpdates") or api.commands, timeout=20, what="the bot to start")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 20)
        await api.stop()
    assert proc.returncode == 0, err.decode()[-2000:]
    log = first + err.decode()
    assert "cannot reach Telegram" in first and log.count("cannot reach") == 1, log
    assert "reached Telegram" in log and "again" in log       # the end of the outage is told
    assert any(line.endswith(": stopped") for line in log.splitlines())   # Ctrl+C is told, as by Discord
    assert "Traceback" not in log


async def test_a_refused_token_is_explained(api, tmp_path):
    import asyncio
    import os
    import sys

    env = dict(os.environ, TELEGRAM_BOT_TOKEN="999:not-the-token", TELEGRAM_API_BASE_URL=api.base_url,
               BOARDCHAT_DB=str(tmp_path / "cli.sqlite3"), TELEGRAM_WEBHOOK_URL="", PYTHONPATH=REPO)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "telegram", cwd=tmp_path, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 2
    assert "refused TELEGRAM_BOT_TOKEN" in err.decode()


async def test_two_webhook_workers_behind_one_endpoint_share_the_games(api, tmp_path):
    """Several processes in webhook mode: a reverse proxy hands each update to any of them
    (here alternately). Each worker tells Telegram the same webhook (harmless: identical
    settings), any worker handles any update because the games are in the shared database,
    and stopping one worker leaves the webhook to the others."""
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", started=True)
    api.add_group(-100778, "Two workers", owner=ann)
    db = str(tmp_path / "shared.sqlite3")
    workers = []
    for name in ("tg-a", "tg-b"):
        port = free_port()
        config = TelegramSettings(api.token, webhook_url="https://bot.example.org/paris/hook", webhook_port=port,
                                  webhook_listen="127.0.0.1")
        service = await GameService.open(db, owner=name)
        app = build_application(api.token, service=service, base_url=api.base_url, register_menu=False)
        await start_application(app, webhook=webhook_options(config))
        workers.append((app, service, f"http://127.0.0.1:{port}/paris/hook", config.secret_token))
    try:
        hooks = api.calls_of("setWebhook")
        assert len(hooks) == 2 and hooks[0].params == hooks[1].params       # the same webhook, twice
        assert api.webhook["url"] == "https://bot.example.org/paris/hook"
        async with aiohttp.ClientSession() as http:
            async def post(worker, update) -> None:
                _, _, url, secret = worker
                async with http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}) as r:
                    assert r.status == 200
            await post(workers[0], api.message_update(-100778, ann, "/newgame"))
            await api.wait_for(lambda: next((m for m in api.bot_messages(-100778) if m.buttons()), None),
                               what="the lobby")
            await post(workers[1], api.message_update(-100778, bob, "/join"))     # the other worker
            await api.wait_for(lambda: any("Bob" in m.body for m in api.bot_messages(-100778)), what="Bob seated")
        for _, service, _, _ in workers:          # both workers see the game as it is stored
            info = await service.game_info(Chat("telegram", "-100778"))
            assert [seat.name for seat in info.seats] == ["Ann", "Bob"]
        await stop_application(workers[0][0])
        assert api.calls_of("deleteWebhook") == [] and api.webhook is not None    # the other one still gets updates
    finally:
        for app, service, _, _ in workers:
            await stop_application(app)
            await service.close()

