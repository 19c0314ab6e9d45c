"""The group stream gives no secret away (issue 17): two games that differ only in one seat's
secret, played with the same presses, give the group and that seat's opponents exactly the
same texts, captions, button labels and picture inputs until the game reveals the secret.

Paris Paris: one seat's marker; Paris Connection: a locomotive of one colour swapped for another
between two screens (the storage boards stay the same); Tiny Hands: cards of one hand.
"""

from __future__ import annotations

import random

import pytest
from service_helpers import chat, user
from twin_streams import NAMES, record_pictures, seen, start_twins

CASES = [("paris-paris", 0, 11), ("paris-paris", 2, 12), ("paris-connection", 0, 21),
         ("paris-connection", 1, 22), ("tiny-hands", 1, 31), ("tiny-hands", 2, 32)]


@pytest.mark.parametrize(("game_id", "seat", "seed"), CASES, ids=[f"{g}-seat{s}" for g, s, _ in CASES])
async def test_twin_deals_give_the_group_and_the_opponents_the_same_stream(
        tmp_path, clock, monkeypatch, tiny_game, game_id, seat, seed):
    sides, changed = await start_twins(tmp_path, clock, monkeypatch, game_id, seat, seed)
    current = record_pictures(monkeypatch, game_id, sides)
    users = {u.id: u for u in map(user, NAMES)}
    seated = (await sides[0].service.game_info(chat(1)))["seats"]
    watchers = {s["user_id"] for i, s in enumerate(seated) if i not in changed}
    rng, compared, moves = random.Random(seed), 0, 0
    try:
        for _ in range(150):        # presses (Paris Connection reveals nothing before its end)
            if await sides[0].position() != await sides[1].position():
                break                                   # the game revealed the secret: streams may part
            got = []
            for side in sides:
                current[0] = side
                await side.service.deliver_pending(side.transport)
                new = side.transport.sent[side.delivered:]
                side.delivered = len(side.transport.sent)
                got.append([(m.private_to.id if m.private_to else "group", seen(m)) for m in new
                            if m.private_to is None or m.private_to.id in watchers])
            assert got[0] == got[1], f"after {compared} presses the group or an opponent got different messages"
            assert sides[0].pictures == sides[1].pictures, f"after {compared} presses a picture's inputs differ"
            compared += 1
            info = await sides[0].service.game_info(game_id=1)
            moves = info["moves"]
            if not info["to_act"]:
                break
            presser = users[info["seats"][rng.choice(info["to_act"])]["user_id"]]
            value = rng.random()
            replies = [await side.press(chat(1), presser, value) for side in sides]
            if presser.id in watchers:
                assert [seen(r) for r in replies if r] == [seen(r) for r in replies[:1] if r] * 2, (
                    "an opponent's own press was answered differently")
    finally:
        for side in sides:
            await side.service.close()
    assert compared >= 5 and moves >= 3, f"the test compared hardly anything ({compared} presses, {moves} moves)"
