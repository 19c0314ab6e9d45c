"""An existing deployment after the rename (bot/product.py): the bot started with no database
setting finds the old default SQLite file, and the buttons it posted before still work."""

from __future__ import annotations

from test_tg_game import press, start_game, table  # noqa: F401 - the table fixture
from tgharness import Bot

from bot import product
from bot.config import Settings
from bot.telegram.settings import TelegramSettings
from i18n import t


async def test_buttons_posted_before_the_rename_are_answered_after_it(api, table, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    before = Bot(api, str(tmp_path / product.OLD_DEFAULT_DB))        # the old version's default file
    await before.start()
    await start_game(api, before, table)
    prompt = table.prompt()
    await before.stop()

    settings = TelegramSettings.from_env(Settings({"TELEGRAM_BOT_TOKEN": api.token}, {}))
    assert settings.db_path == product.OLD_DEFAULT_DB
    after = before                   # the same harness: it knows which updates were handled already
    after.db_path = settings.db_path
    await after.start()
    try:
        mover = table.to_move(prompt)
        answer = await press(api, after, mover, prompt, table.tile_buttons(prompt)[0])
        assert answer.get("show_alert") is not True and answer["text"] != t("en", "bot.err.forged"), answer
        assert "Done" in answer["text"]
    finally:
        await after.stop()
