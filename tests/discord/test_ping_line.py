"""Where a ping lands in the channel (issue 32): on the line that asks the player to act, not on
the first line that names them (the log of what they did earlier in the phase). Papà Paolo in
simcord: ann and bob play by the first button of their DM turn message, two AI seats."""

from __future__ import annotations

from discord_kit import buttons

CHOICE = ("pp:c_", "pp:o_")


def private_turn(member):
    channel = member.user.dm_channel
    for message in reversed(channel.history() if channel is not None else []):
        if any(b.custom_id.startswith(CHOICE) for b in buttons(message)):
            return message
    return None


def pinged_again(table, member) -> list[str]:
    """Channel messages that ping ``member`` and also name them elsewhere (a line of the log)."""
    tag = f"<@{member.id}>"
    return [m.content for m in table.channel.history()
            if tag in m.content and member.name in m.content.replace(tag, "")]


async def test_the_ping_is_on_the_waiting_line_not_on_the_log_line(table, service, monkeypatch):
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: 35)
    ann, bob = table.ann, table.bob
    await ann.slash(table.channel, "boardchat new", game="papa-paolo")
    await bob.slash(table.channel, "boardchat join")
    for _ in range(2):
        await ann.slash(table.channel, "boardchat addbot")
    await ann.slash(table.channel, "boardchat start")
    members = {str(m.id): m for m in (ann, bob)}
    found: list[str] = []
    for _ in range(60):
        found = pinged_again(table, bob)
        if found:
            break
        info = await service.game_info(game_id=1)
        acting = [members[info["seats"][s]["user_id"]] for s in info["to_act"]
                  if info["seats"][s]["user_id"] in members]
        for member in acting:
            turn = private_turn(member)
            first = next(b for b in buttons(turn) if b.custom_id.startswith(CHOICE))
            await member.user.click(turn, custom_id=first.custom_id)
    assert found, "bob was never named in the log of a message that pings him"
    for content in found:
        log, _, call = content.rpartition("\n\n")
        assert f"<@{bob.id}>" in call and f"<@{bob.id}>" not in log, content
        assert bob.name in log
