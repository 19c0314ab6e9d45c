"""TelegramTransport through the real python-telegram-bot Bot against the fake Bot API."""

from __future__ import annotations

import datetime as dtm
import io
import warnings

import pytest
from PIL import Image
from telegram import Bot
from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

from bot.contract import Button, Chat, Outgoing, RetryLater, Undeliverable, User
from bot.telegram.keyboards import SECRET_PREFIX
from bot.telegram.transport import TelegramTransport, retry_seconds

GROUP = -100500


def png(colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 6), colour).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def transport(api):
    api.add_group(GROUP, "Paris club")
    async with Bot(api.token, base_url=api.base_url, base_file_url=api.base_file_url) as bot:
        yield TelegramTransport(bot, "ParisTestBot")


def group_out(id: int = 1, **kw) -> Outgoing:
    return Outgoing(id=id, chat=Chat("telegram", str(GROUP), "Paris club"), **kw)


async def test_text_with_every_button_kind(api, transport):
    buttons = ((Button("Louvre", "t_1_2_3_abcdef0123456789", colour="blue"),
                Button("Join", "j_1_0123456789abcdef", kind="join")),
               (Button("My marker", "m_1_0123456789abcdef", kind="secret"),
                Button("Open chat", "p_0123456789abcdef", kind="open_private")))
    mid = await transport.deliver(group_out(text="Your turn", buttons=buttons))
    msg = api.messages[(GROUP, int(mid))]
    assert msg.text == "Your turn"
    b = msg.buttons()
    # The label as the game worded it: a game's colours are in its own labels, not added here.
    assert b[0] == {"text": "Louvre", "callback_data": "t_1_2_3_abcdef0123456789"}
    assert b[1] == {"text": "Join", "url": "https://t.me/ParisTestBot?start=j_1_0123456789abcdef"}
    assert b[2] == {"text": "My marker", "callback_data": SECRET_PREFIX + "m_1_0123456789abcdef"}
    assert b[3]["url"] == "https://t.me/ParisTestBot?start=p_0123456789abcdef"


async def test_photo_is_uploaded_and_long_caption_continues_as_text(api, transport):
    image = png()
    paragraphs = [f"Paragraph {i}: " + "word " * 60 for i in range(8)]     # ~2500 characters
    text = "\n\n".join(paragraphs)
    mid = await transport.deliver(group_out(text=text, image=image))
    photo_msg = api.messages[(GROUP, int(mid))]
    assert photo_msg.photo == image                           # the multipart upload arrived intact
    assert len(photo_msg.caption) <= 1024
    assert photo_msg.caption.startswith("Paragraph 0")
    rest = [m for m in api.bot_messages(GROUP) if m.message_id != int(mid)]
    assert len(rest) == 1 and rest[0].text is not None
    # nothing lost: every paragraph is in the caption or in the follow-up text
    for p in paragraphs:
        assert p.strip() in photo_msg.caption + "\n\n" + rest[0].text
    assert text.startswith(photo_msg.caption) and text[len(photo_msg.caption):].lstrip(" ").startswith("\n\n")  # cut at a paragraph


async def test_very_long_text_is_split_and_keyboard_sits_on_the_last_part(api, transport):
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(100))        # ~10000 characters
    mid = await transport.deliver(group_out(text=text, buttons=((Button("OK", "b_1_2_0123456789abcdef"),),)))
    msgs = api.bot_messages(GROUP)
    assert len(msgs) == 3 and all(len(m.text) <= 4096 for m in msgs)
    assert msgs[-1].message_id == int(mid) and msgs[-1].buttons()
    assert not msgs[0].buttons()
    assert "\n".join(m.text for m in msgs) == text


async def test_edit_in_place_and_unchanged_edit_counts_as_delivered(api, transport):
    mid = await transport.deliver(group_out(text="Ann to move"))
    again = await transport.deliver(group_out(id=2, text="Bob to move", edit_message_id=mid))
    assert again == mid
    assert api.messages[(GROUP, int(mid))].text == "Bob to move"
    same = await transport.deliver(group_out(id=3, text="Bob to move", edit_message_id=mid))
    assert same == mid
    assert api.calls_of("editMessageText")[-1].error.startswith("Bad Request: message is not modified")
    assert len(api.bot_messages(GROUP)) == 1


async def test_edit_of_a_photo_replaces_the_picture(api, transport):
    mid = await transport.deliver(group_out(text="Round 1", image=png("red")))
    new = png("blue")
    assert await transport.deliver(group_out(id=2, text="Round 2", image=new, edit_message_id=mid)) == mid
    msg = api.messages[(GROUP, int(mid))]
    assert msg.photo == new and msg.caption == "Round 2"
    # a text edit aimed at a photo becomes a caption edit, in one call: the transport knows the
    # message is a picture (a refused text edit would count against the chat's budget too)
    assert await transport.deliver(group_out(id=3, text="Round 2, final", edit_message_id=mid)) == mid
    assert api.messages[(GROUP, int(mid))].caption == "Round 2, final"
    assert api.calls_of("editMessageText") == []


async def test_a_text_edit_of_a_picture_posted_before_a_restart_learns_it_is_a_picture(api, transport):
    mid = await transport.deliver(group_out(text="Round 1", image=png("red")))
    restarted = TelegramTransport(transport.bot, "ParisTestBot")
    for k, text in enumerate(("Done", "Done, really")):
        assert await restarted.deliver(group_out(id=2 + k, text=text, edit_message_id=mid)) == mid
        assert api.messages[(GROUP, int(mid))].caption == text
    assert len(api.calls_of("editMessageText")) == 1 and len(api.calls_of("editMessageCaption")) == 2


async def test_edit_of_a_vanished_message_posts_anew(api, transport):
    mid = await transport.deliver(group_out(text="Prompt", edit_message_id="4242"))
    assert mid != "4242"
    assert api.messages[(GROUP, int(mid))].text == "Prompt"


async def test_private_message_to_a_user_who_never_started_the_bot(api, transport):
    ann = api.add_user(11, "Ann")
    out = Outgoing(id=1, text="Your marker: green", private_to=User("telegram", "11", "Ann"))
    with pytest.raises(Undeliverable) as caught:
        await transport.deliver(out)
    assert caught.value.reason == "private_closed"
    assert api.bot_messages(ann) == []
    api.start_bot(ann)
    mid = await transport.deliver(out)
    assert api.messages[(11, int(mid))].text == "Your marker: green"


async def test_flood_control_becomes_retry_later(api, transport):
    api.fail_next("sendMessage", retry_after=7)
    with warnings.catch_warnings(record=True) as seen, pytest.raises(RetryLater) as caught:
        warnings.simplefilter("always")
        await transport.deliver(group_out(text="hello"))
    assert caught.value.seconds == 7
    assert not [w for w in seen if issubclass(w.category, PTBDeprecationWarning)]
    assert api.bot_messages(GROUP) == []
    assert await transport.deliver(group_out(text="hello"))


async def test_server_error_is_retried_and_lost_group_is_gone(api, transport):
    api.fail_next("sendMessage", code=502, description="Bad Gateway")
    with pytest.raises(RetryLater):
        await transport.deliver(group_out(text="hello"))
    with pytest.raises(Undeliverable) as caught:
        await transport.deliver(Outgoing(id=5, text="x", chat=Chat("telegram", "-999", "gone")))
    assert caught.value.reason == "gone"


async def test_mentions_are_text_mentions_at_utf16_offsets(api, transport):
    ann = User("telegram", "11", "Ann")
    zoe = User("telegram", "12", "Zoé")
    ai = User("telegram", "ai:Robo", "Robo")
    text = "🚌 Round 3 · Zoé and Ann: your turn, Robo waits"
    mid = await transport.deliver(group_out(text=text, mentions=(ann, zoe, ai)))
    entities = api.messages[(GROUP, int(mid))].entities
    assert [(e["type"], e["user"]["id"]) for e in entities] == [("text_mention", 12), ("text_mention", 11)]
    encoded = text.encode("utf-16-le")
    for e, name in zip(entities, ["Zoé", "Ann"], strict=True):
        assert encoded[2 * e["offset"]: 2 * (e["offset"] + e["length"])].decode("utf-16-le") == name


def test_retry_after_in_seconds_or_as_a_timedelta(monkeypatch):
    assert retry_seconds(RetryAfter(dtm.timedelta(seconds=2.5))) == 2.5
    monkeypatch.setenv("PTB_TIMEDELTA", "false")           # an operator who kept the old form
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        assert retry_seconds(RetryAfter(7)) == 7.0
