"""Settings buttons keep their meaning when a game adds an option: each names its setting
and value by a key of their own, not by a position in a list that grows."""

from __future__ import annotations

from service_helpers import chat, user

from bot.games import KINDS
from bot.service.table.chat_settings import LEGACY_NUMBERING, settable
from engine.interface import OptionSpec

ANN = user("Ann")


def _meanings(service, c, buttons) -> dict[str, dict]:
    bind = f"{c.platform}:{c.id}"
    return {b.payload: service.chat_settings.change_of(service.codec.decode(b.payload, bind=bind))
            for row in buttons for b in row if b.payload.startswith("s_")}


async def test_posted_settings_buttons_mean_the_same_after_a_game_adds_an_option(service, monkeypatch):
    c = chat()
    posted = (await service.settings(c, ANN)).buttons
    before = _meanings(service, c, posted)
    assert before and all(before.values())
    # A game declares a new option whose name sorts before every other one.
    definition = type(KINDS["paris-connection"].definition)
    monkeypatch.setattr(definition, "options", (*definition.options, OptionSpec("aaa_first", ("x", "y"), "x")))
    assert settable().index("aaa_first") < settable().index("final_tours")   # numbers after it shift
    assert _meanings(service, c, posted) == before
    # Pressing an old button changes exactly the setting it showed.
    payload, change = next((p, ch) for p, ch in before.items() if ch == {"language": "it"})
    assert (await service.press(c, ANN, payload)).ok
    assert (await service.chat_settings.chat_options(c))["language"] == "it"
    # The new option gets buttons of its own, meaning what they show.
    now = _meanings(service, c, (await service.settings(c, ANN)).buttons)
    assert {"aaa_first": "y"} in now.values()


async def test_settings_buttons_posted_with_indices_still_work(service):
    """Buttons already in chats carry the old form (setting and value by index)."""
    c = chat()
    bind = f"{c.platform}:{c.id}"
    old = service.codec.encode("s", LEGACY_NUMBERING.index("language"), 2, bind=bind)      # "it"
    assert (await service.press(c, ANN, old)).ok
    assert (await service.chat_settings.chat_options(c))["language"] == "it"
    old = service.codec.encode("s", LEGACY_NUMBERING.index("reminder_minutes"), 1, bind=bind)
    assert (await service.press(c, ANN, old)).ok
    assert (await service.chat_settings.chat_options(c))["reminder_minutes"] == 60
    assert not (await service.press(c, ANN, service.codec.encode("s", 30, 0, bind=bind))).ok   # no such setting


def test_every_setting_and_value_has_a_key_of_its_own():
    from bot.service.table.chat_settings import setting_key, value_key, values_of

    names = settable()
    assert len({setting_key(name) for name in names}) == len(names)
    for name in names:
        values = values_of(name)
        assert len({value_key(name, value) for value in values}) == len(values), name


async def test_settings_buttons_need_admin_rights_and_turn_buttons_do_not(service):
    """An adapter asks its platform whether the presser administers the chat only for the
    buttons whose answer can depend on it (settings, the lobby's), never for a move's."""
    c = chat()
    settings = [b.payload for row in (await service.settings(c, ANN)).buttons for b in row]
    assert settings and all(service.press_needs_admin(p) for p in settings)
    fields = {"c": (1, 0, 0, 0, 2), "o": (1, 0, 0, 0, "x"), "b": (1, 0, 0, 0), "h": (1,), "m": (1,)}
    for kind, values in fields.items():
        assert not service.press_needs_admin(service.codec.encode(kind, *values)), kind
    for kind in ("g", "l", "a"):
        assert service.press_needs_admin(service.codec.encode(kind, 1)), kind
    assert service.press_needs_admin("nonsense")
