"""When the outbox is behind with its sends, a round's new prompt goes before the round's
picture (and the closing edit of the prompt before), so the players it names wait for one
call of their chat instead of three; otherwise the picture comes first, the buttons last."""

from __future__ import annotations

import asyncio

import pytest
from service_helpers import FakeTransport, chat, play_turn, start_game, user

from bot.contract import Budget, PaceLimits, SlotKind
from bot.service.delivery.outbox import SEND_AT_ONCE
from bot.service.game.model import Changes, GameMeta, OutRow
from bot.service.game.outmessage import MessageBody
from bot.service.game.turnstate import TurnState
from bot.service.posts import messages as M


class Recording(FakeTransport):
    """Remembers the message id each delivered message went to."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[int, str] = {}

    async def deliver(self, message):
        self.ids[id(message)] = await super().deliver(message)
        return self.ids[id(message)]


def message_id(transport: Recording, message) -> str:
    return transport.ids[id(message)]


def is_prompt(message) -> bool:
    return bool(message.slot and message.slot.kind == SlotKind.TURN and message.buttons and message.mentions)


async def play_until_a_round_ends(service, transport, c, users) -> list:
    """Turns until one brings the round's picture; the group messages that turn delivered."""
    for _ in range(12):
        before = len(transport.group())
        await play_turn(service, c, users)
        await service.deliver_pending(transport)
        news = transport.group()[before:]
        if any(m.image is not None for m in news):
            return news
    raise AssertionError("no round ended in 12 turns")


@pytest.mark.parametrize("behind", [False, True])
async def test_a_round_end_posts_the_prompt_first_only_when_the_bot_is_behind(service, behind):
    transport = Recording()
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    users = {"ann": ann, "bob": bob}
    await start_game(service, c, [ann, bob], options={"seed": 5})
    await service.deliver_pending(transport)
    service.play.behind = lambda platform: behind
    news = await play_until_a_round_ends(service, transport, c, users)
    old = [m for m in transport.group() if is_prompt(m) and m.edit_message_id is None and m not in news][-1]
    closing = [m for m in news if m.edit_message_id == message_id(transport, old)]
    [picture] = [m for m in news if m.image is not None]
    [prompt] = [m for m in news if is_prompt(m) and m.edit_message_id is None]
    assert len(closing) == 1 and not closing[0].buttons          # the old prompt closed, in place
    order = [news.index(m) for m in (prompt, closing[0], picture)]
    if behind:
        assert order == sorted(order)                             # prompt, closing edit, picture
    else:
        assert order[1] < order[2] < order[0]                     # closing edit, picture, prompt
    # The closing edit found the old prompt, not the new one (a slot of its own), which still
    # shows its buttons; the next turn edits the new prompt.
    assert transport.messages[message_id(transport, prompt)] is prompt
    assert prompt.slot != old.slot
    before = len(transport.group())
    await play_turn(service, c, users)
    await service.deliver_pending(transport)
    edits = [m for m in transport.group()[before:] if is_prompt(m)]
    assert edits and edits[-1].edit_message_id == message_id(transport, prompt)


def test_a_game_from_before_keeps_its_one_turn_slot_until_its_next_new_prompt():
    meta = GameMeta(7, "fake", "c", "C", "playing", "h", {}, 1)
    assert M.turn_slot(meta) == "g7:turn"
    meta.turn = TurnState(turn_slot="g7:m12:turn")
    assert M.turn_slot(meta) == "g7:m12:turn"


class GatedTransport(FakeTransport):
    """Every send waits until ``gate`` opens; paced at ``per_second`` overall."""

    def __init__(self, per_second: float) -> None:
        super().__init__()
        self.pace = PaceLimits(total=Budget(1000, per_second), chat=Budget(3, 100.0))
        self.gate = asyncio.Event()
        self.waiting = 0

    async def deliver(self, message):
        self.waiting += 1
        await self.gate.wait()
        return await super().deliver(message)


@pytest.mark.parametrize(("chats", "per_second", "behind"), [
    (5, 1000.0, False),                  # a few sends under way: it keeps up
    (SEND_AT_ONCE + 6, 1000.0, True),    # as many under way as it sends at once: more wait
    (5, 4.0, True),                      # five sends take more than a second of a slow budget
    (6, 28.0, False),                    # Telegram's pace: under a quarter of a second's budget
    (7, 28.0, True),                     # ... a quarter of a second (``BEHIND_SECONDS``) or more
])
async def test_the_delivery_says_when_it_is_behind(service, chats, per_second, behind):
    transport = GatedTransport(per_second)
    rows = [OutRow(None, transport.platform, f"c:chat{i}", MessageBody(f"m{i}")) for i in range(chats)]
    await service.storage.commit(Changes(outbox=rows), 0.0)
    assert not service.delivery.behind(transport.platform)
    task = asyncio.ensure_future(service.delivery.deliver_pending(transport))
    expected = min(chats, SEND_AT_ONCE)
    for _ in range(1000):
        if transport.waiting >= expected:
            break
        await asyncio.sleep(0.01)
    assert transport.waiting == expected
    assert service.delivery.behind(transport.platform) is behind
    transport.gate.set()
    assert await task == chats
    assert not service.delivery.behind(transport.platform)
