"""Where a ping lands in the channel (issue 32): on the line that asks the player to act, not on
the first line that names them (the log of what they did earlier in the round). Paris Paris in
simcord: ann and bob play by the first tile button of the channel's turn message. (Where seats
choose in private, as in Papà Paolo, the channel pings nobody: their DM turn message tells them.)"""

from __future__ import annotations

from discord_kit import buttons

CHOICE = "pp:c_"


def turn_message(table):
    for message in reversed(table.channel.history()):
        if any(b.custom_id.startswith(CHOICE) for b in buttons(message)):
            return message
    return None


def pinged_again(table, member) -> list[str]:
    """Channel messages that ping ``member`` and also name them elsewhere (a line of the log)."""
    tag = f"<@{member.id}>"
    return [m.content for m in table.channel.history()
            if tag in m.content and member.name in m.content.replace(tag, "")]


async def test_the_ping_is_on_the_waiting_line_not_on_the_log_line(table, service):
    ann, bob = table.ann, table.bob
    await ann.slash(table.channel, "boardchat new")
    await bob.slash(table.channel, "boardchat join")
    await ann.slash(table.channel, "boardchat start")
    members = {str(m.id): m for m in (ann, bob)}
    found: list[str] = []
    for _ in range(60):
        found = pinged_again(table, bob)
        if found:
            break
        info = await service.game_info(game_id=1)
        member = members[info["seats"][info["to_move"]]["user_id"]]
        turn = turn_message(table)
        first = next(b for b in buttons(turn) if b.custom_id.startswith(CHOICE))
        await member.click(turn, custom_id=first.custom_id)
    assert found, "bob was never named in the log of a message that pings him"
    for content in found:
        log, _, call = content.rpartition("\n\n")
        assert f"<@{bob.id}>" in call and f"<@{bob.id}>" not in log, content
        assert bob.name in log
