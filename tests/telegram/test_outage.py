"""One log line when a platform cannot be reached, one every few minutes, one when it answers."""

from __future__ import annotations

import logging

from bot.outage import Outage


def test_an_outage_is_told_once_then_every_few_minutes_then_its_end(caplog):
    now = [0.0]
    outage = Outage(logging.getLogger("test.outage"), "api.telegram.org", every=300, clock=lambda: now[0])
    caplog.set_level(logging.INFO, "test.outage")
    for _ in range(20):                       # retries every 10 s for 200 s: one line
        outage.failed("connection refused")
        now[0] += 10
    assert [r.getMessage() for r in caplog.records] == [
        "cannot reach api.telegram.org (connection refused); retrying quietly, a line every 5 minutes until "
        "it answers"]
    for _ in range(20):                       # 200 s more: one reminder, at 300 s
        outage.failed("connection refused")
        now[0] += 10
    assert len(caplog.records) == 2 and "still cannot reach api.telegram.org after 5 minutes" in \
        caplog.records[1].getMessage()
    outage.reached()
    outage.reached()                          # reachable already: nothing more to say
    assert len(caplog.records) == 3 and caplog.records[2].getMessage() == "reached api.telegram.org again after 400 s"
    outage.failed("timeout")                  # a new outage is told again
    assert len(caplog.records) == 4 and caplog.records[3].getMessage().startswith("cannot reach")
