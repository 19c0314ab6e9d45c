"""One database shared by a Telegram and a Discord process; operator defaults for new chats."""

from __future__ import annotations

import pytest
from service_helpers import PLATFORM, chat, start_game, user

from bot.config import ConfigError, Settings, ai_seconds, game_defaults, live_matches_setting, senders_setting
from bot.contract import User
from bot.service import GameService

OPTS = {"seed": 4, "reminder_minutes": 60, "deadline_minutes": 0}


async def test_each_process_fires_only_its_own_platforms_timers(db_path, clock):
    everything = await GameService.open(db_path, clock=clock)
    await start_game(everything, chat(), [user("Ann"), user("Bob")], options=OPTS)
    await everything.close()

    other = await GameService.open(db_path, clock=clock, platforms=("discord",))
    own = await GameService.open(db_path, clock=clock, platforms=(PLATFORM,))
    try:
        clock.advance(minutes=61)
        assert await other.storage.next_timer(other.platforms) is None
        assert await other.fire_due_timers() == 0          # not its game: the reminder waits
        assert await own.storage.next_timer(own.platforms) is not None
        assert await own.fire_due_timers() == 1            # the owning process reminds
    finally:
        await other.close()
        await own.close()


async def test_every_option_a_game_declares_has_an_environment_default(db_path, clock):
    env = {"BOARDCHAT_HIDDEN_MONEY": "true", "BOARDCHAT_FINAL_TOURS": "all_lines", "BOARDCHAT_AI_LEVEL": "easy"}
    defaults = game_defaults(Settings(env, {}))
    assert defaults == {"hidden_money": "true", "final_tours": "all_lines", "ai_level": "easy"}
    service = await GameService.open(db_path, clock=clock, defaults=defaults)
    try:
        await service.new_game(chat(), user("Ann"), options={"game": "papa-paolo"})
        assert (await service.game_info(chat())).options["hidden_money"] is True
    finally:
        await service.close()


async def test_operator_defaults_apply_to_new_chats_only(db_path, clock):
    defaults = game_defaults(Settings({"BOARDCHAT_LANGUAGE": "de", "BOARDCHAT_DEADLINE_MINUTES": "30"}, {}))
    service = await GameService.open(db_path, clock=clock, defaults=defaults)
    try:
        ann = user("Ann", language="en")
        await service.new_game(chat(), ann)
        info = await service.game_info(chat())
        assert info.options["language"] == "de"
        assert info.options["deadline_minutes"] == 30
        await service.new_game(chat(2), ann, options={"language": "fr"})   # a chat's choice wins
        assert (await service.game_info(chat(2))).options["language"] == "fr"
    finally:
        await service.close()


async def test_bad_operator_default_is_a_clear_error(db_path):
    with pytest.raises(ValueError, match="reminder_minutes"):
        await GameService.open(db_path, defaults={"reminder_minutes": "soon"})


@pytest.mark.parametrize(("platform", "portrait"), [("telegram", True), ("discord", False), ("terminal", False)])
async def test_round_maps_are_portrait_where_players_are_on_phones(db_path, clock, platform, portrait):
    import io

    from PIL import Image

    from bot.contract import Chat
    from bot.service.delivery.pictures import Pictures

    service = await GameService.open(db_path, clock=clock)
    try:
        host = User(platform, "host", "Host")
        room = Chat(platform, "room")
        await service.new_game(room, host, options={"join": False, "seed": 1})
        for _ in range(3):
            await service.add_ai(room, host)
        await service.start(room, host)
        rows = [r for r in await service.storage.outbox_rows() if r.body.render is not None and r.body.render.kind == "map"]
        drawn = await Pictures(service.storage).render(rows[1].body.render, "en", platform)
        width, height = Image.open(io.BytesIO(drawn.image)).size
        assert (height > width) is portrait
    finally:
        await service.close()


def test_operator_think_budget_for_searching_ai_levels():
    assert ai_seconds(Settings({}, {})) is None                                  # each game's default
    assert ai_seconds(Settings({"BOARDCHAT_AI_SECONDS": "4"}, {})) == 4.0
    assert ai_seconds(Settings({}, {"BOARDCHAT_AI_SECONDS": "0.25"})) == 0.25    # from .env
    assert ai_seconds(Settings({"PARIS_PARIS_AI_SECONDS": "2"}, {})) == 2.0      # the old prefix still read
    for bad in ("soon", "0", "-1", "nan", "9999"):
        with pytest.raises(ConfigError, match="BOARDCHAT_AI_SECONDS"):
            ai_seconds(Settings({"BOARDCHAT_AI_SECONDS": bad}, {}))


async def test_the_think_budget_reaches_the_ai(db_path):
    service = await GameService.open(db_path, ai_seconds=ai_seconds(Settings({"BOARDCHAT_AI_SECONDS": "4"}, {})))
    try:
        assert service.play.ai_budget == 4.0
    finally:
        await service.close()


def test_the_senders_setting_is_a_count_of_one_or_more():
    assert senders_setting(Settings({}, {})) == 1
    assert senders_setting(Settings({"BOARDCHAT_SENDERS": "3"}, {})) == 3
    with pytest.raises(ConfigError, match="BOARDCHAT_SENDERS must be 1 or more, not 0"):
        senders_setting(Settings({"BOARDCHAT_SENDERS": "0"}, {}))


def test_the_live_matches_setting_is_a_count_of_one_or_more():
    assert live_matches_setting(Settings({}, {})) == 1024
    assert live_matches_setting(Settings({"BOARDCHAT_LIVE_MATCHES": "40"}, {})) == 40
    with pytest.raises(ConfigError, match="BOARDCHAT_LIVE_MATCHES must be 1 or more, not 0"):
        live_matches_setting(Settings({"BOARDCHAT_LIVE_MATCHES": "0"}, {}))
