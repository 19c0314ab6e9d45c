"""AI levels in chat: a button per level in the lobby, the chat's AI level for AI players added
without one, for seats handed to the AI and for turns played at a deadline."""

from __future__ import annotations

import asyncio
import threading

import pytest
from service_helpers import FakeTransport, chat, user

from bot.service import GameService
from i18n import t


@pytest.fixture
async def recorded(db_path, clock):
    """A service whose AI notes the level of every choice it makes (and plays the first legal one)."""
    levels: list[tuple[int, str]] = []

    def ai(match, seat, *, seed, level, **_):
        levels.append((seat, level))
        return match.legal_choices(seat)[0]

    service = await GameService.open(db_path, clock=clock, ai=ai)
    yield service, levels
    await service.close()


async def lobby_buttons(service, c) -> dict[str, str]:
    transport = FakeTransport()
    await service.deliver_pending(transport)
    lobby = next(m for m in reversed(transport.sent) if m.buttons)
    return {b.label: b.payload for row in lobby.buttons for b in row}


async def test_the_lobby_offers_one_add_button_per_level(service):
    host, c = user("Host"), chat()
    assert (await service.new_game(c, host)).ok
    buttons = await lobby_buttons(service, c)
    adds = {level: buttons[t("en", "bot.btn.add_ai_level", level=t("en", "bot.level." + level))]
            for level in ("easy", "normal", "strong")}
    assert t("en", "bot.btn.add_ai") not in buttons
    assert (await service.press(c, host, adds["strong"])).ok
    assert (await service.press(c, host, adds["easy"])).ok
    info = await service.game_info(c)
    assert [(s.name, s.level) for s in info.seats if s.is_ai] == [
        (info.seats[1].name, "strong"), (info.seats[2].name, "easy")]
    text = (await service.board(c, host)).text
    assert t("en", "bot.lobby.ai_seat", name=info.seats[1].name, level="strong") in text


async def test_a_game_offers_only_its_own_levels(service, monkeypatch):
    # Every game has all three levels now: Paris Connection is made to lack the strong one here.
    from engine.paris_connection.definition import ConnectionDefinition
    monkeypatch.setattr(ConnectionDefinition, "ai_levels", ("easy", "normal"))
    host, c = user("Host"), chat()
    assert (await service.new_game(c, host, options={"game": "paris-connection"})).ok
    buttons = await lobby_buttons(service, c)
    add = {level: t("en", "bot.btn.add_ai_level", level=t("en", "bot.level." + level))
           for level in ("easy", "normal", "strong")}
    assert add["easy"] in buttons and add["normal"] in buttons and add["strong"] not in buttons
    # The chat's AI level may be one this game lacks: its own normal level plays instead.
    assert (await service.settings(c, host, {"ai_level": "strong"})).ok
    assert (await service.add_ai(c, host)).ok
    assert (await service.game_info(c)).seats[1].level == "normal"
    refused = await service.add_ai(c, host, "strong")
    assert not refused.ok and "easy, normal" in refused.text


async def test_the_chats_ai_level_plays_added_handed_and_deadline_seats(recorded, clock):
    service, levels = recorded
    ann, bob, c = user("Ann"), user("Bob"), chat()
    await service.settings(c, ann, {"ai_level": "strong", "reminder_minutes": 0, "deadline_minutes": 60})
    assert (await service.new_game(c, ann, options={"seed": 4})).ok
    assert (await service.join(c, bob)).ok
    assert (await service.add_ai(c, ann)).ok                       # no level named: the chat's
    assert (await service.add_ai(c, ann, "easy")).ok
    assert (await service.start(c, ann)).ok
    seats = (await service.game_info(c)).seats
    assert [s.level for s in seats[2:]] == ["strong", "easy"]
    # A turn past its deadline is played at the chat's level.
    levels.clear()
    info = await service.game_info(c)
    assert not info.seats[info.to_move].is_ai               # the AI seats have moved
    clock.advance(minutes=61)
    assert await service.fire_due_timers() >= 1
    assert levels and levels[0] == (info.to_move, "strong")
    # A seat handed to the AI plays at the chat's level; changing it later changes the next hand-over.
    assert (await service.settings(c, ann, {"ai_level": "easy"})).ok
    assert (await service.leave(c, bob)).ok
    assert (await service.game_info(c)).seats[1].level == "easy"


async def test_the_ai_level_setting_has_buttons_and_refuses_unknown_levels(service):
    host, c = user("Host"), chat()
    reply = await service.settings(c, host)
    labels = [b.label for row in reply.buttons for b in row]
    level = lambda lv: t("en", "bot.btn.ai_level", level=t("en", "bot.level." + lv))  # noqa: E731
    assert level("easy") in labels and level("strong") in labels and level("normal") not in labels
    assert t("en", "bot.options.ai_level", level="normal") in reply.text
    press = next(b.payload for row in reply.buttons for b in row if b.label == level("strong"))
    reply = await service.press(c, host, press)
    assert reply.ok and t("en", "bot.options.ai_level", level="strong") in reply.text
    refused = await service.settings(c, host, {"ai_level": "brilliant"})
    assert not refused.ok and "brilliant" in refused.text
    assert t("en", "bot.options.ai_level", level="strong") in (await service.settings(c, host)).text


async def test_a_level_may_be_named_in_the_chats_language(service):
    host, c = user("Host"), chat()
    assert (await service.new_game(c, host, options={"language": "de"})).ok
    assert (await service.add_ai(c, host, "Stark")).ok
    assert (await service.game_info(c)).seats[1].level == "strong"
    refused = await service.add_ai(c, host, "brillant")
    assert not refused.ok and "brillant" in refused.text and "leicht, mittel, stark" in refused.text
    assert len((await service.game_info(c)).seats) == 2


async def test_other_chats_are_answered_while_an_ai_thinks(db_path, clock):
    """The AI thinks in a worker thread: while one game's AI is thinking, the event loop serves
    other chats (the wait below only bounds a broken run)."""
    thinking, release = threading.Event(), threading.Event()

    def slow_ai(match, seat, *, seed, level, **_):
        thinking.set()
        release.wait(timeout=30)
        return match.legal_choices(seat)[0]

    service = await GameService.open(db_path, clock=clock, ai=slow_ai)
    try:
        host, other = user("Host"), user("Other")
        await service.new_game(chat(1), host, options={"join": False})
        await service.add_ai(chat(1), host)
        await service.add_ai(chat(1), host)
        start = asyncio.create_task(service.start(chat(1), host))
        assert await asyncio.to_thread(thinking.wait, 30)
        reply = await asyncio.wait_for(service.new_game(chat(2), other), timeout=30)
        assert reply.ok and not start.done()              # answered while the AI still thinks
        release.set()
        assert (await start).ok
    finally:
        release.set()
        await service.close()
