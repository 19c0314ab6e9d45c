"""Pacing the outbox: budgets per chat and overall, and edits that change nothing are not sent."""

from __future__ import annotations

import asyncio

import msgspec
from aiolimiter import AsyncLimiter
from service_helpers import FakeTransport, chat, user

from bot.contract import Budget, PaceLimits, Window, another_call
from bot.service.delivery.flood_pacing import Pacer, Ranked, Sent, SlidingWindow, shared
from bot.service.game.model import Changes, OutRow
from bot.service.game.outmessage import Group, MessageBody

LIMITS = PaceLimits(total=Budget(100, 1000.0), chat=Budget(2, 0.001), group=Budget(3, 0.001))


async def test_a_chat_that_used_its_budget_waits_while_others_go_on():
    pacer = Pacer(LIMITS)
    assert pacer.ready("c:a") and pacer.busy() == set()
    await pacer.take("c:a")
    await pacer.take("c:a")
    assert not pacer.ready("c:a") and pacer.busy() == {"c:a"}       # its burst of 2 is spent
    assert pacer.ready("c:b") and pacer.ready("u:ann")               # the others are not held back
    await pacer.take("c:b")
    assert pacer.busy() == {"c:a"}


async def test_a_group_has_its_own_budget_on_top_of_the_chat_budget():
    pacer = Pacer(PaceLimits(total=Budget(100, 1000.0), chat=Budget(5, 0.001), group=Budget(1, 0.001)))
    await pacer.take("c:group")
    await pacer.take("u:ann")
    assert not pacer.ready("c:group") and pacer.ready("u:ann")       # a private chat is no group


def test_each_process_takes_its_share_of_the_overall_budget():
    assert shared(Budget(1, 28.0), 0.5) == Budget(1, 14.0)
    assert shared(Budget(10, 40.0), 0.25) == Budget(2, 10.0)
    assert Pacer(LIMITS, share=0.5).total.limiter.max_rate == 50


async def test_the_overall_budget_goes_to_prompts_first_then_by_arrival():
    """Ordered by the tasks' turns, not by time: the limiter allows one call, then one a
    millisecond; five wait, the prompts (rank 0) arriving last."""
    ranked = Ranked(AsyncLimiter(1, 0.001))
    order: list[str] = []

    async def call(name: str, rank: int) -> None:
        await ranked.acquire(rank)
        order.append(name)

    await call("first", 1)                       # the burst: at once
    waiting = [asyncio.ensure_future(call(name, rank))
               for name, rank in (("edit a", 1), ("picture b", 1), ("edit c", 1), ("prompt d", 0), ("prompt e", 0))]
    await asyncio.sleep(0)                       # all of them queued before any capacity came back
    cancelled = asyncio.ensure_future(call("gone", 0))
    await asyncio.sleep(0)
    cancelled.cancel()                           # a waiter that stopped waiting is passed over
    await asyncio.gather(*waiting)
    assert order == ["first", "prompt d", "prompt e", "edit a", "picture b", "edit c"]


async def test_within_a_rank_the_overall_budget_goes_by_turn_then_by_arrival():
    """As the outbox claims (``StoredOut.turn``): a quick exchange's prompt, claimed last,
    passes prompts of chats with a backlog that wait for the budget already."""
    ranked = Ranked(AsyncLimiter(1, 0.001))
    order: list[str] = []

    async def call(name: str, rank: int, turn: float) -> None:
        await ranked.acquire(rank, turn)
        order.append(name)

    await call("first", 0, 0.0)                  # the burst: at once
    waiting = [asyncio.ensure_future(call(name, rank, turn))
               for name, rank, turn in (("backlog a", 0, 3.0), ("picture b", 1, 0.5), ("backlog c", 0, 3.0),
                                        ("quick d", 0, 2.0))]
    await asyncio.gather(*waiting)
    assert order == ["first", "quick d", "backlog a", "backlog c", "picture b"]


class PacedTransport(FakeTransport):
    pace = PaceLimits(total=Budget(100, 1000.0), chat=Budget(1, 0.001))


async def test_paced_delivery_sends_one_message_per_chat_and_keeps_the_rest_in_order(service):
    transport = PacedTransport()
    rows = [OutRow(None, transport.platform, f"c:{c}", MessageBody(f"{c}{i}", chat=Group(transport.platform, c, c)))
            for i in range(3) for c in ("x", "y")]
    await service.storage.commit(Changes(outbox=rows), service.clock.now())
    assert await service.deliver_pending(transport) == 2             # one each: their budget is spent
    assert sorted(m.text for m in transport.sent) == ["x0", "y0"]
    service.delivery.reset_pacing()
    assert await service.deliver_pending(transport) == 2
    service.delivery.reset_pacing()
    await service.deliver_pending(transport)
    assert [m.text for m in transport.sent if m.chat.id == "x"] == ["x0", "x1", "x2"]


class TwoCallTransport(PacedTransport):
    """Posts each message in two parts (a long text): the second part is a call of its own."""

    calls = 0

    async def deliver(self, message):
        self.calls += 1
        await another_call()
        self.calls += 1
        return await super().deliver(message)


async def test_a_message_that_takes_two_calls_spends_two_of_its_chats_budget(service):
    transport = TwoCallTransport()
    transport.pace = PaceLimits(total=Budget(100, 1000.0), chat=Budget(2, 0.001))
    rows = [OutRow(None, transport.platform, "c:x", MessageBody(f"x{i}", chat=Group(transport.platform, "x", "x")))
            for i in range(2)]
    await service.storage.commit(Changes(outbox=rows), service.clock.now())
    assert await service.deliver_pending(transport) == 1 and transport.calls == 2
    assert service.delivery.pacer(transport).busy() == {"c:x"}      # both calls counted: x waits
    assert await another_call() is None                               # outside a delivery: no pace to keep


async def test_an_edit_that_changes_nothing_is_not_sent(service):
    transport = FakeTransport()
    where = chat()
    await service.new_game(where, user("Ann"))
    await service.deliver_pending(transport)
    [lobby] = transport.sent
    [row] = [r for r in await service.storage.outbox_rows() if r.slot]
    same = OutRow(row.game_id, row.platform, row.dest, row.body, row.slot, "edit")
    changed = OutRow(row.game_id, row.platform, row.dest, msgspec.structs.replace(row.body, text="changed"), row.slot, "edit")
    await service.storage.commit(Changes(outbox=[same]), service.clock.now())
    await service.deliver_pending(transport)
    assert len(transport.sent) == 1                                   # nothing visible changed: no call
    assert all(r.state == "sent" for r in await service.storage.outbox_rows())
    await service.storage.commit(Changes(outbox=[changed]), service.clock.now())
    await service.deliver_pending(transport)
    assert [m.text for m in transport.sent] == [lobby.text, "changed"]


# ---- counted when the calls go out (a manual clock) -------------------------------------------

class ManualClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_calls_allowed_on_time_but_sent_late_together_are_spaced_again():
    """28 a second overall: five sends were allowed a 28th of a second apart, then all waited in a
    busy event loop and reach the call at the same moment. Counted where they go out, the first
    goes at once and the others each a 28th of a second after the one before."""
    clock = ManualClock()
    pacer = Pacer(PaceLimits(total=Budget(1, 28.0), chat=Budget(100, 100.0)), now=clock)
    waits = []
    for k in range(5):
        wait = pacer.call_wait(f"c:{k}")         # five groups: only the overall budget holds them
        waits.append(round(wait * 28, 6))
        clock.t += wait
        pacer.called(f"c:{k}")
    assert waits == [0, 1, 1, 1, 1]
    clock.t += 1.0                               # a quiet second: the next call goes at once
    assert pacer.call_wait("c:0") == 0


def test_the_call_time_check_keeps_a_chats_burst_and_pace():
    """A group's 3 at once, then one every 1/0.3 s, counted where the calls go out; a private
    chat has its own budget (1 a second after a burst of 2), not the group's 20 a minute."""
    clock = ManualClock()
    limits = PaceLimits(total=Budget(100, 1000.0), chat=Budget(3, 0.3), group=Budget(5, 14 / 60),
                        private=Budget(2, 1.0))
    pacer = Pacer(limits, now=clock)
    for _ in range(3):
        assert pacer.call_wait("c:g") == 0
        pacer.called("c:g")
    assert round(pacer.call_wait("c:g"), 3) == round(1 / 0.3, 3)
    for _ in range(2):
        assert pacer.call_wait("u:ann") == 0
        pacer.called("u:ann")
    assert round(pacer.call_wait("u:ann"), 3) == 1.0
    clock.t += 1.0
    assert pacer.call_wait("u:ann") == 0


def _most_in_any_window(times: list[float], seconds: float) -> int:
    """The most of ``times`` that fall in one window of ``seconds`` (it may start anywhere; a call
    at its very end, to a rounding error, is the next window's, as the fake Bot API counts)."""
    return max(sum(1 for t in times if start <= t < start + seconds - 1e-9) for start in times)


def _as_fast_as_allowed(keeper: Sent | SlidingWindow, calls: int) -> list[float]:
    """The times of ``calls`` calls, each made the moment ``keeper`` allows it."""
    now, times = 0.0, []
    for _ in range(calls):
        now += keeper.wait(now)
        keeper.record(now)
        times.append(now)
    return times


def test_a_leaky_bucket_of_n_lets_in_twice_n_in_one_sliding_window_where_a_window_lets_in_n() -> None:
    """A bucket of 30 refilled at 30 a second: 30 at once, then one every 30th of a second, so
    59 calls fall in one second; 30 in any one second, as a window, lets in 30 at most."""
    bucket = _as_fast_as_allowed(Sent(Budget(30, 30.0)), 120)
    window = _as_fast_as_allowed(SlidingWindow(Window(30, 1.0)), 120)
    assert _most_in_any_window(bucket, 1.0) == 59
    assert _most_in_any_window(window, 1.0) == 30
    assert window[29] == 0.0 and window[30] == 1.0      # its whole 30 at once, then it waits
    assert SlidingWindow(Window(30, 1.0)).idle(0.0)


def test_the_call_time_check_keeps_a_groups_window_and_its_chats() -> None:
    """Telegram's group pace: 5 in any 6.5 s in the chat, 19 in any 61 s in the group. Calls made
    as fast as allowed: never more in a window than it holds, the first 5 at once."""
    clock = ManualClock()
    pacer = Pacer(PaceLimits(total=Budget(1, 28.0), chat=Window(5, 6.5), group=Window(19, 61.0)), now=clock)
    times = []
    for _ in range(40):
        clock.t += pacer.call_wait("c:g")
        pacer.called("c:g")
        times.append(clock.t - 100.0)
    assert times[4] < 0.2 and times[5] >= 6.5
    assert _most_in_any_window(times, 6.5) == 5 and _most_in_any_window(times, 61.0) == 19
    assert _most_in_any_window(times, 60.0) <= 19


async def test_a_chats_window_in_front_of_the_sends_holds_the_chat_and_lets_others_go() -> None:
    clock = ManualClock()
    pacer = Pacer(PaceLimits(total=Budget(100, 1000.0), chat=Window(2, 10.0)), now=clock)
    await pacer.take("c:a")
    await pacer.take("c:a")
    assert not pacer.ready("c:a") and pacer.busy() == {"c:a"} and pacer.ready("c:b")
    clock.t += 10.0
    assert pacer.ready("c:a") and pacer.busy() == set()


async def test_a_private_chat_has_its_own_budget_not_the_groups():
    pacer = Pacer(PaceLimits(total=Budget(100, 1000.0), chat=Budget(1, 0.001), group=Budget(1, 0.001),
                             private=Budget(3, 0.001)))
    for _ in range(3):
        assert pacer.ready("u:ann")
        await pacer.take("u:ann")
    assert not pacer.ready("u:ann")
    await pacer.take("c:g")
    assert not pacer.ready("c:g")


class FoldingTransport(FakeTransport):
    """Like Telegram's: a round's picture and the prompt behind it may go out as one message."""

    pace = PaceLimits(total=Budget(1, 28.0), chat=Budget(100, 100.0))

    @staticmethod
    def folded_caption(head: str, text: str) -> str | None:
        return f"{head}\n\n{text}"


async def test_where_pictures_fold_with_prompts_a_prompt_goes_first_only_when_a_second_of_the_budget_waits(service):
    """Posting a round's prompt before its picture costs the group a call where the two would go
    as one: only a real backlog of the bot's overall budget (28 sends waiting, a second of it)
    is worth that, not a few groups ending a round together."""
    transport = FoldingTransport()
    pacer = service.delivery.pacer(transport)
    waiting = []
    for k in range(30):
        waiting.append(asyncio.ensure_future(pacer.total.acquire(1)))
        await asyncio.sleep(0)
        if k == 9:
            assert not service.delivery.behind(transport.platform)      # 9 wait (the first went)
    assert service.delivery.behind(transport.platform)                  # 29 wait
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
