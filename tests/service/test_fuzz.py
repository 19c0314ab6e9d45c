"""The service API fed malformed input: never an unhandled exception, and a refusal changes nothing.

Hypothesis draws sequences of calls on a game in progress with hostile arguments: forged and
mangled payloads (non-ASCII signatures included), typed moves such as "²", "1!²" or "9" * 5000,
settings and options of the wrong types or infinite, and users and chats whose names, ids or
titles hold lone surrogates.
"""

from __future__ import annotations

import asyncio
import math
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_helpers import chat, snapshot, start_game, user

from bot.contract import Chat, Reply, User
from bot.service import GameService, ManualClock

TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["²", "1!²", "9" * 5000, "louvre/blue!Ann", "mont", "0", "-1", "１", "\ud800", "c_0_0_0_x",
                     "s_0_0_" + "é" * 16, "c_1_0_0_" + "\u00e9" * 16, "j_1_" + "0" * 15 + "\ud800", ""]),
)
VALUE = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
                  st.floats(allow_nan=True, allow_infinity=True), TEXT, st.lists(st.integers(), max_size=3),
                  st.just(math.inf))
KEY = st.one_of(st.sampled_from(["final_tours", "reminder_minutes", "deadline_minutes", "language", "seed", "join",
                                 "game", "colour"]), st.text(max_size=8))
SETTINGS = st.one_of(st.none(), st.dictionaries(KEY, VALUE, max_size=3), st.lists(st.integers(), max_size=2))
WEIRD_USER = st.builds(User, st.just("fake"), st.one_of(st.sampled_from(["ann", "bob", "zed"]), TEXT),
                       st.one_of(st.sampled_from(["Ann", "Bob"]), TEXT), st.booleans(),
                       st.one_of(st.none(), TEXT))
WEIRD_CHAT = st.builds(Chat, st.just("fake"), st.one_of(st.just("chat1"), TEXT), TEXT)


def _mangled(payload: str, data) -> str:
    how = data.draw(st.sampled_from(["flip", "cut", "grow", "unicode", "kind"]))
    if how == "flip" and payload:
        i = data.draw(st.integers(0, len(payload) - 1))
        return payload[:i] + ("x" if payload[i] != "x" else "y") + payload[i + 1:]
    if how == "cut":
        return payload[:data.draw(st.integers(0, len(payload)))]
    if how == "grow":
        return payload + data.draw(TEXT)
    if how == "unicode":
        return payload[:-1] + data.draw(st.sampled_from(["é", "\ud800", "²", "Ⅻ"]))
    return data.draw(st.sampled_from("cobmjaglspte")) + payload[1:]


async def _episode(data) -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(f"{folder}/fuzz.sqlite3", clock=ManualClock())
        try:
            ann, bob = user("Ann"), user("Bob")
            c = chat()
            await start_game(service, c, [ann, bob], ais=1, options={"seed": data.draw(st.integers(0, 50))})
            board = await service.board(c, ann)
            payloads = [b.payload for row in board.buttons for b in row] or ["c_1_0_0_0"]
            for _ in range(data.draw(st.integers(1, 8))):
                who = data.draw(st.one_of(st.sampled_from([ann, bob]), WEIRD_USER))
                where = data.draw(st.one_of(st.just(c), WEIRD_CHAT, st.none()))
                op = data.draw(st.sampled_from(["press", "move", "settings", "new_game", "join", "add_ai",
                                                "private_started", "hand_to_ai", "stats", "rules", "help",
                                                "board", "secret"]))
                before = await snapshot(service)
                target = where or c
                if op == "press":
                    reply = await service.press(where, who, _mangled(data.draw(st.sampled_from(payloads)), data))
                elif op == "move":
                    reply = await service.move(target, who, data.draw(TEXT))
                elif op == "settings":
                    reply = await service.settings(target, who, data.draw(SETTINGS))
                elif op == "new_game":
                    reply = await service.new_game(target, who, options=data.draw(SETTINGS))
                elif op == "join":
                    reply = await service.join(target, who)
                elif op == "add_ai":
                    reply = await service.add_ai(target, who, data.draw(st.one_of(st.none(), TEXT)))
                elif op == "private_started":
                    reply = await service.private_started(who, data.draw(st.one_of(st.none(), TEXT)))
                elif op == "hand_to_ai":
                    reply = await service.hand_to_ai(target, who, data.draw(st.one_of(st.none(), TEXT)))
                elif op == "stats":
                    reply = await service.stats(target, who, data.draw(st.one_of(st.none(), TEXT)))
                elif op == "rules":
                    reply = await service.rules(where, who, data.draw(st.one_of(st.none(), TEXT)))
                elif op == "help":
                    reply = await service.help(where, who, data.draw(st.one_of(st.none(), TEXT)))
                elif op == "board":
                    reply = await service.board(target, who)
                else:
                    reply = await service.secret(who, where)
                assert isinstance(reply, Reply) and isinstance(reply.text, str) and reply.text
                reply.text.encode("utf-8")                    # every answer can be sent
                if not reply.ok:
                    assert await snapshot(service) == before, (op, reply.text)
        finally:
            await service.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_malformed_input_is_refused_cleanly(data):
    asyncio.run(_episode(data))
