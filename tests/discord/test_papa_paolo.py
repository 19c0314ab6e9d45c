"""Papà Paolo in an offline Discord (simcord): real discord.py, real ParisBot, real GameService
(issue 19). ``/boardchat new game:papa-paolo`` opens it; two people click through their DM turn
messages (both at once in the delivery phase), each with a picture of their own neighbourhood
whose numbered squares are the numbered buttons; AI seats fill the table (3 or 4 players). The
channel reads who is still to choose and each round's outcome, never a menu."""

from __future__ import annotations

import random

import pytest
import whole_games
from discord_kit import buttons

from engine.papa_paolo.definition import GAME
from i18n import t
from renderers.papa_paolo.presenter import square_keys

# A game's end draws its animation (whole_games.SETTLE_AT_THE_END).
pytestmark = pytest.mark.simcord(settle_timeout=whole_games.SETTLE_AT_THE_END)

CHOICE, BACK = ("pp:c_", "pp:o_"), "pp:b_"


def count_channel_posts(transport, monkeypatch) -> list[str]:
    """The texts of the messages the bot posts in a server channel (not DMs, not edits)."""
    posted: list[str] = []
    send = transport._send

    async def counted(channel, message, *args, **kwargs):
        if message.chat is not None:
            posted.append(message.text)
        return await send(channel, message, *args, **kwargs)
    monkeypatch.setattr(transport, "_send", counted)
    return posted


def private_turn(member):
    channel = member.user.dm_channel
    for message in reversed(channel.history() if channel is not None else []):
        if any(b.custom_id.startswith(CHOICE) for b in buttons(message)):
            return message
    return None


@pytest.mark.parametrize(("players", "rounds"), [(4, 5), (3, 2)])
async def test_papa_paolo_by_buttons(table, service, simcord_bot, monkeypatch, players, rounds):
    """A whole game at 4 players; a shorter one (two rounds) at 3."""
    monkeypatch.setattr("bot.service.table.lobby.secrets.randbits", lambda bits: 31 + players)
    posts = count_channel_posts(simcord_bot.transport, monkeypatch)
    ann, bob = table.ann, table.bob
    opened = await ann.slash(table.channel, "boardchat new", game="papa-paolo")
    assert opened.ephemeral
    await bob.slash(table.channel, "boardchat join")
    for _ in range(players - 2):
        await ann.slash(table.channel, "boardchat addbot")
    await ann.slash(table.channel, "boardchat start")
    members = {str(m.id): m for m in (ann, bob)}
    rng, clicks, at_once, checked, seen = random.Random(5), 0, 0, 0, set()
    while (info := await service.game_info(game_id=1)).status != "finished":
        assert clicks < 1500, "the game does not end"
        match = (await service.store.load(1)).match
        if match.rhythm.round_number() > rounds:
            break
        acting = [(s, members[info.seats[s].user_id]) for s in info.to_act
                  if info.seats[s].user_id in members]
        menus = [(seat, m, private_turn(m)) for seat, m in acting]
        assert all(msg is not None for _, _, msg in menus)
        picks = []
        for seat, m, msg in menus:
            assert msg.attachments                                # the seat's own neighbourhood
            offered = [b for b in buttons(msg) if b.custom_id.startswith(CHOICE)]
            assert len(offered) <= 25                      # one Discord message
            numbered = {b.label.split(" ")[0] for b in offered if b.label.split(" ")[0].isdigit()}
            keys = square_keys(match.view(seat).legal)
            assert numbered == {str(k) for k in keys.values()}
            checked += bool(keys)
            best = offered[0] if "⭐" in offered[0].label and rng.random() < 0.5 else None
            picks.append((m, msg, best or rng.choice(offered)))
        # Both read their menus first, then click: one seat's steps never make the other's stale.
        results = [await m.user.click(msg, custom_id=b.custom_id) for m, msg, b in picks]
        assert all(r.acknowledged for r in results)
        assert not any(f.content.startswith(("It is not", "That button", "These buttons")) or
                       f.content == t("en", "discord.error") for r in results for f in r.followups)
        clicks += 1
        at_once = max(at_once, len(picks))
        seen |= {m.content for m in table.channel.history()}
    assert at_once == 2 and checked > 3
    channel = "\n".join(seen | {m.content for m in table.channel.history()})
    assert "Pick a numbered square" not in channel and "Plan your deliveries" not in channel
    for message in table.channel.history():
        assert not [b for b in buttons(message) if b.label.split(" ")[0].isdigit()]    # no menu in the channel
    stretches = (await service.store.load(1)).match.view(None).stretches
    # At most 3 new channel messages a phase (its board, the next phase's prompt, a reminder):
    # the prompt is edited as people choose, never posted anew to ping the next one (their DM
    # turn message tells them), beside the lobby and the set-up's board and prompt.
    print(f"\n{len(posts)} channel posts over {len(stretches)} phases")
    assert len(posts) <= 3 * (len(stretches) + 1) + 3, posts
    if rounds < 5:
        assert len(stretches) == 4 * rounds
        assert info.round == rounds + 1 and len([m for m in table.channel.history() if m.attachments]) \
            == 1 + len(stretches)                                 # the start, then the board after each phase
        return
    assert info.winners and t("en", "papa.final_header") in channel
    final = GAME.from_record(await service.record(1))
    for seat, name in enumerate(final.players):
        assert f"{name}: {final.returns()[seat]} = " in channel
