"""DiscordTransport against simcord's offline Discord: posting, editing, DMs, errors."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from bot.contract import (
    DEFAULT_IMAGE_NAME,
    Button,
    Chat,
    Outgoing,
    RetryLater,
    Slot,
    SlotKind,
    Undeliverable,
    User,
)
from bot.discord.transport import DiscordTransport, mention_text

PROMPT = Slot("prompt", SlotKind.TURN)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


@pytest.fixture
def simcord_bot():
    return commands.Bot(command_prefix="!", intents=discord.Intents.none())


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("paris")
    alice = guild.add_member(simcord_env.create_user("alice"))
    return simcord_env, simcord_env.bot, channel, alice


def chat(channel) -> Chat:
    return Chat("discord", str(channel.id), "paris")


def duser(member) -> User:
    return User("discord", str(member.id), member.name)


async def test_posts_text_image_buttons_and_pings_only_the_named_player(world):
    env, client, channel, alice = world
    transport = DiscordTransport(client)
    tile = Button("1 · Louvre", "t_1_2_3_sig", colour="blue")
    mine = Button("My marker", "m_1_sig", kind="secret")
    message_id = await transport.deliver(Outgoing(
        id=1, text="alice, your turn. @everyone look!", chat=chat(channel), image=PNG,
        buttons=((tile,), (mine,)), mentions=(duser(alice),),
    ))
    posted = channel.last_message
    assert str(posted.id) == message_id
    assert posted.content.startswith(f"<@{alice.id}>, your turn")
    assert [a.filename for a in posted.attachments] == [DEFAULT_IMAGE_NAME]
    buttons = [child for row in posted.components for child in row.children]
    assert [b.custom_id for b in buttons] == ["pp:t_1_2_3_sig", "pp:m_1_sig"]
    # The label as the game worded it: a game's colours are in its own labels, not added here.
    assert buttons[0].emoji is None and buttons[0].label == "1 · Louvre"
    assert buttons[0].style is discord.ButtonStyle.primary and str(buttons[1].emoji) == "\N{LOCK WITH INK PEN}"
    sent = [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/messages")][-1]
    assert sent.json["allowed_mentions"] == {"users": [alice.id], "parse": []}   # no @everyone, no roles


async def test_each_new_message_carries_a_nonce_from_its_outbox_id(world):
    """Discord turns a repeat of an enforced nonce into the first message: a send repeated
    after a crash is not posted twice (simcord does not model the deduplication itself)."""
    env, client, channel, alice = world
    transport = DiscordTransport(client)
    await transport.deliver(Outgoing(id=9_223_372_036_854_775_807, text="first", chat=chat(channel)))
    await transport.deliver(Outgoing(id=8, text="map", chat=chat(channel), image=PNG))
    sent = [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/messages")]
    nonces = [(r.json or {}).get("nonce") for r in sent]
    assert nonces == ["out-9223372036854775807", "out-8"] and all(len(n) <= 25 for n in nonces)
    assert all((r.json or {}).get("enforce_nonce") is True for r in sent)


async def test_edits_in_place_and_reposts_when_the_message_was_deleted(world):
    env, client, channel, alice = world
    transport = DiscordTransport(client)
    first = await transport.deliver(Outgoing(
        id=1, text="turn 1", chat=chat(channel), buttons=((Button("A", "t_a"),),), slot=PROMPT,
    ))
    edited = await transport.deliver(Outgoing(
        id=2, text="turn 2", chat=chat(channel), slot=PROMPT, edit_message_id=first,
    ))
    assert edited == first
    message = channel.last_message
    assert message.content == "turn 2" and message.components == []   # no buttons any more

    await (await client.get_partial_messageable(channel.id).fetch_message(int(first))).delete()
    again = await transport.deliver(Outgoing(
        id=3, text="turn 3", chat=chat(channel), slot=PROMPT, edit_message_id=first,
    ))
    assert again != first
    assert channel.last_message.content == "turn 3" and str(channel.last_message.id) == again


async def test_dm_is_delivered_and_closed_dms_are_undeliverable(world):
    env, client, channel, alice = world
    transport = DiscordTransport(client)
    await transport.deliver(Outgoing(id=1, text="Your marker: red", private_to=duser(alice)))
    dm = alice.user.dm_channel
    assert dm.last_message.content == "Your marker: red"

    env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    with pytest.raises(Undeliverable) as caught:
        await transport.deliver(Outgoing(id=2, text="Your marker: red", private_to=duser(alice)))
    assert caught.value.reason == "private_closed"


@pytest.mark.parametrize(("status", "code", "expected"), [
    (429, 0, RetryLater),
    (500, 0, RetryLater),
    (403, 50013, RetryLater),       # lost Send Messages: an admin can fix it, keep the game
    (404, 10003, Undeliverable),    # the channel was deleted
])
async def test_channel_errors_map_to_the_contract(world, status, code, expected):
    env, client, channel, alice = world
    transport = DiscordTransport(client)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=status, code=code, message="x")
    with pytest.raises(expected) as caught:
        await transport.deliver(Outgoing(id=1, text="hello", chat=chat(channel)))
    if expected is Undeliverable:
        assert caught.value.reason == "gone"
    else:
        assert caught.value.seconds > 0


def test_mention_text_replaces_whole_names_or_leads():
    ann = User("discord", "11", "Ann")
    assert mention_text("Ann, your turn", (ann,)) == "<@11>, your turn"
    assert mention_text("Annabel is next", (ann,)) == "<@11>\nAnnabel is next"
    assert mention_text("hi", (User("telegram", "5", "Tg"),)) == "hi"


def test_service_command_names_become_paris_subcommands():
    from bot.discord.texts import discord_text

    assert discord_text("Start one with /new.") == "Start one with /boardchat new."
    assert discord_text("/addai: add an AI · /join") == "/boardchat addbot: add an AI · /boardchat join"
    assert discord_text("see https://x.org/new and /boardchat new") == "see https://x.org/new and /boardchat new"


def test_button_rows_fit_discords_five_by_five():
    from bot.discord.views import layout

    tiles = [(Button(f"{i} · Louvre", f"t_{i}", colour="blue"),) for i in range(1, 6)]
    four_players = [*tiles, (Button("My marker", "m", kind="secret"),),
                    (Button("Open a private chat", "p", kind="open_private"),)]
    rows = layout(four_players)
    assert [[b.payload for b in row] for row in rows] == [["t_1", "t_2", "t_3", "t_4", "t_5"], ["m", "p"]]
    lobby = [(Button("Join", "j", kind="join"), Button("Leave", "l")), (Button("Add AI", "a"), Button("Start", "g"))]
    assert layout(lobby) == [list(lobby[0]), list(lobby[1])]          # fits: kept as the service laid it out
    many = [tuple(Button(str(i * 10 + j), f"x{i}{j}") for j in range(5)) for i in range(7)]
    assert sum(len(row) for row in layout(many)) == 25 and len(layout(many)) == 5


async def test_an_edit_that_pings_someone_new_is_posted_anew(world):
    env, client, channel, alice = world
    bob = env.guild.add_member(env.create_user("bob"))
    transport = DiscordTransport(client)
    first = await transport.deliver(Outgoing(
        id=1, text="alice, your turn", chat=chat(channel), mentions=(duser(alice),), slot=PROMPT))
    same = await transport.deliver(Outgoing(
        id=2, text="alice: whose shop goes?", chat=chat(channel), mentions=(duser(alice),),
        slot=PROMPT, edit_message_id=first))
    assert same == first and len(channel.history()) == 1          # same player: edited in place
    moved = await transport.deliver(Outgoing(
        id=3, text="bob, your turn", chat=chat(channel), mentions=(duser(bob),),
        slot=PROMPT, edit_message_id=first))
    assert moved != first
    history = channel.history()
    assert [str(m.id) for m in history] == [moved]                 # the old copy is gone
    assert history[0].content == f"<@{bob.id}>, your turn"         # a fresh message pings bob
    closing = await transport.deliver(Outgoing(
        id=4, text="Round 1: done", chat=chat(channel), slot=PROMPT, edit_message_id=moved))
    assert closing == moved and channel.last_message.content == "Round 1: done"
