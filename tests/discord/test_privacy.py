"""The secret marker reaches only its owner: DMs at the start, ephemeral answers, closed DMs."""

from __future__ import annotations

import re

from discord_kit import buttons, custom_id

from i18n import t

COLOUR = re.compile(r"\b(green|red|blue|purple|yellow)\b")


def colour_in(text: str) -> str:
    found = COLOUR.findall(text)
    assert len(set(found)) == 1, f"expected one colour in {text!r}"
    return found[0]


async def test_markers_go_by_dm_and_ephemerally_never_to_the_channel(table):
    prompt = await table.started_game()
    dealt = {}
    for player in table.players.values():
        dms = player.user.dm_channel.history()
        assert len(dms) == 1
        dealt[player.name] = colour_in(dms[0].content)
    assert len(set(dealt.values())) == 3        # three different markers

    for player in table.players.values():
        for command in ("boardchat secret", "boardchat marker"):       # "marker": the older name, still working
            by_command = await player.slash(table.channel, command)
            assert by_command.ephemeral
            assert colour_in(by_command.response.content) == dealt[player.name]
        by_button = await player.click(prompt, custom_id=custom_id(prompt, "pp:m_"))
        assert [f.ephemeral for f in by_button.followups] == [True]
        assert colour_in(by_button.followups[0].content) == dealt[player.name]

    # nothing in the channel names anyone's marker
    for message in table.messages():
        assert "marker is" not in message.content and "Your secret" not in message.content
    # a spectator has no marker
    spectator = await table.mod.slash(table.channel, "boardchat marker")
    assert spectator.ephemeral and not COLOUR.search(spectator.response.content)


async def test_closed_dms_are_announced_and_the_button_answers_privately(table, service):
    env = table.env
    closed = table.cat.user.dm_channel
    env.inject_error("POST", f"/channels/{closed.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await table.started_game()
    assert closed.history() == []
    prompt = table.prompt()
    assert t("en", "bot.msg.private_closed", player="cat") in prompt.content
    open_private = custom_id(prompt, "pp:p_")

    marker = await service.secret(_user(table.cat))
    colour = colour_in(marker.text)
    by_button = await table.cat.click(prompt, custom_id=custom_id(prompt, "pp:m_"))
    assert by_button.followups[0].ephemeral and colour_in(by_button.followups[0].content) == colour

    # the "open a private chat" button: on Discord it answers in place, with the marker
    # and how to let DMs in
    hint = await table.cat.click(prompt, custom_id=open_private)
    assert hint.followups[0].ephemeral
    assert colour_in(hint.followups[0].content) == colour
    assert "Privacy Settings" in hint.followups[0].content
    assert closed.history() == []               # still closed: nothing got through

    # cat opens DMs and presses again: the held marker message arrives
    env.backend.faults.clear()
    prompt = table.prompt()
    await table.cat.click(prompt, custom_id=custom_id(prompt, "pp:p_"))
    delivered = closed.history()
    assert len(delivered) == 1 and colour_in(delivered[0].content) == colour
    assert all(not b.custom_id.startswith("pp:p_") for b in buttons(table.prompt()))


def _user(member):
    from bot.contract import User

    return User("discord", str(member.id), member.name)
