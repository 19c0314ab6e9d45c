"""Outbox rows written before the typed message bodies (``bot/service/game/outmessage.py``): the code
then stored each body as a dict it built by hand, every key written, ``null`` where nothing was
set. Such a row still decodes to the same message, and goes out as it would have then."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from storage_kit import PLATFORM, message

from bot.contract import Button, Chat, Outgoing, User
from bot.service.clock import ManualClock
from bot.service.delivery.outgoing import materialise
from bot.service.delivery.pictures import Drawn
from bot.service.game.model import Changes
from bot.service.game.outmessage import Group, MessageBody, Recipient, RenderRequest, decode_body, encode_body
from bot.service.posts.links import BoardLinks
from bot.service.storage.outbox import SET_OUT_BODY
from bot.service.tokens.passes import Passes
from bot.service.tokens.payloads import PayloadCodec

# A seat's turn message with its picture, as the dict-building code stored it (messages.private).
OLD_PRIVATE = {
    "text": "Your turn", "chat": None,
    "private_to": {"platform": PLATFORM, "id": "ann", "name": "Ann", "language": "de"},
    "buttons": [[{"label": "1 Louvre", "payload": "c_1_2_ab", "kind": "action", "colour": None, "key": 1},
                 {"label": "Back", "payload": "b_1_cd", "kind": "action", "colour": "red", "letter": "z"}]],
    "mentions": [], "language": "de", "render": {"kind": "seat", "game_id": 1, "moves": 7, "cycle": 2, "seat": 0},
    "image_name": "paris-1-0abc-seat0-7.png", "latest_image_name": "paris-1-0abc-seat0.png",
    "description": "Your board"}
# A group's animation (messages.animation_message, with the key patched in after it was built),
# and a round's picture stored before cycles had their name.
OLD_ANIMATION = {
    "text": "The whole game", "chat": {"platform": PLATFORM, "id": "chat1", "title": "Fans"}, "private_to": None,
    "buttons": [], "mentions": [{"platform": PLATFORM, "id": "bob", "name": "Bob", "language": None}],
    "language": "en", "render": {"kind": "animation", "game_id": 1, "moves": 40}, "image_name": "replay.mp4",
    "latest_image_name": "", "description": "The game, move by move", "too_large": "Too large", "head": "map"}
OLD_ROUND = {"text": "Round 3", "render": {"kind": "map", "game_id": 1, "moves": 12, "round": 3}}


def test_bodies_the_old_code_stored_decode_to_the_same_message():
    private = decode_body(json.dumps(OLD_PRIVATE))
    assert private == MessageBody(
        "Your turn", private_to=Recipient(PLATFORM, "ann", "Ann", "de"),
        buttons=((Button("1 Louvre", "c_1_2_ab", key=1), Button("Back", "b_1_cd", colour="red", letter="z")),),
        language="de", render=RenderRequest("seat", 1, 7, 2, 0), image_name="paris-1-0abc-seat0-7.png",
        latest_image_name="paris-1-0abc-seat0.png", description="Your board")
    animation = decode_body(json.dumps(OLD_ANIMATION))
    assert animation.chat == Group(PLATFORM, "chat1", "Fans") and animation.too_large == "Too large"
    assert animation.mentions == (Recipient(PLATFORM, "bob", "Bob"),) and animation.head == "map"
    assert decode_body(json.dumps(OLD_ROUND)).render.shown_cycle == 3
    # and what is stored now reads back the same, without the entries that say nothing
    assert decode_body(encode_body(private)) == private
    assert "null" not in encode_body(private) and '"kind"' not in encode_body(MessageBody(buttons=((
        Button("a", "b"),),)))


async def test_an_old_row_in_the_outbox_goes_out_as_it_did(storage):
    [out_id] = await storage.commit(Changes(outbox=[message(1, "u:ann")]), 0.0)
    await storage.database.change(SET_OUT_BODY, (json.dumps(OLD_ANIMATION, ensure_ascii=False), out_id))
    [row] = await storage.outbox_rows()
    drawn = []

    async def render(request: RenderRequest, language: str, platform: str, rank: int) -> Drawn:
        drawn.append((request, language, platform))
        return Drawn(b"mp4", "words made with the picture")    # the row's own words come first

    clock = ManualClock()
    codec = PayloadCodec(b"k" * 32)
    out = await materialise(row, render, BoardLinks(codec, Passes(codec.derived_key("web-pass")), clock))
    assert drawn == [(RenderRequest("animation", 1, 40), "en", PLATFORM)]
    assert out == Outgoing(id=out_id, text="The whole game", chat=Chat(PLATFORM, "chat1", "Fans"), image=None,
                           image_name="replay.mp4", image_description="The game, move by move", animation=b"mp4",
                           animation_too_large="Too large", mentions=(User(PLATFORM, "bob", "Bob"),), language="en")



def test_every_row_of_the_older_databases_decodes():
    """The outbox rows of the databases kept from earlier versions (tests/fixtures), as they were stored."""
    fixtures = sorted((Path(__file__).parent.parent / "fixtures").glob("*.sqlite3"))
    assert fixtures
    for path in fixtures:
        with contextlib.closing(sqlite3.connect(path)) as db:
            bodies = [body for (body,) in db.execute("SELECT body FROM outbox")]
        assert bodies, path
        decoded = [decode_body(body) for body in bodies]
        # what the dict's reader saw (outgoing.materialise read it with these defaults) the typed value holds
        for body, typed in zip(bodies, decoded, strict=True):
            old = json.loads(body)
            assert (typed.text, typed.image_name, typed.language) == (
                old.get("text", ""), old.get("image_name", "board.png"), old.get("language", "en"))
            assert [[b.payload for b in row] for row in typed.buttons] == [[b["payload"] for b in row]
                                                                          for row in old.get("buttons") or []]
            assert (typed.render is None) == (not old.get("render"))
