"""Many busy channels under Discord's rate limits, in simcord with those limits put in front of
its requests (``dc_loadbench.RateModel``: simcord models none): the paced outbox is never refused,
and loses, doubles or reorders nothing. The same, large, is ``dc_loadbench.py``'s."""

from __future__ import annotations

from dc_loadbench import DiscordLimits, RateModel, run_load

from bot.contract import Budget


def test_the_model_refuses_past_each_window_per_route_and_says_how_long_to_wait():
    model = RateModel(DiscordLimits(bot=(50, 1.0), route=(5, 5.0)))
    post = ("POST", "/channels/{channel_id}/messages", 1)
    edit = ("PATCH", "/channels/{channel_id}/messages/{message_id}", 1)
    assert all(model.admit(post, 0.1 * i) is None for i in range(5))
    assert model.admit(post, 0.5) == 4.5                     # the route's 5 in 5 s, for this channel
    assert model.admit(edit, 0.5) is None                    # editing is another bucket
    assert model.admit(("POST", "/channels/{channel_id}/messages", 2), 0.5) is None    # another channel
    burst = [model.admit(("POST", "/channels/{channel_id}/messages", 100 + i), 10.0) for i in range(51)]
    assert burst[:50] == [None] * 50 and burst[50] == 1.0    # 50 a second for the bot
    assert len(model.refused) == 2 and len(model.calls) == 57


async def test_busy_channels_are_paced_without_a_429():
    """Eight channels end a round at once against a bot allowed 10 requests a second (the
    outbox paced to 6 messages a second: a message may take more than one request), so the
    load lasts a few seconds; a table of four presses meanwhile."""
    result = await run_load(8, limits=DiscordLimits(bot=(10, 1.0)), pace_total=Budget(1, 6.0), min_presses=3,
                            think=0.5, timeout=60)
    assert result["refused"] == 0
    assert (result["lost"], result["doubled"], result["reordered"]) == (0, 0, 0)
    assert result["presses"] >= 3 and result["calls"] >= 8 * 2
