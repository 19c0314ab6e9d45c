"""bot/limits.py: each platform's way of counting, and cutting a text to fit it."""

from __future__ import annotations

import pytest

from bot.limits import CODE_POINTS, ELLIPSIS, UTF8, UTF16

FAMILY = "👩\u200d👩\u200d👧"          # one emoji of three people joined by ZWJs
WARNING = "⚠️"                         # U+26A0 with its emoji presentation selector


def test_each_unit_counts_as_its_platform_does():
    assert [unit.length("🟢 Bob") for unit in (UTF16, CODE_POINTS, UTF8)] == [6, 5, 8]
    assert [unit.length(WARNING) for unit in (UTF16, CODE_POINTS, UTF8)] == [2, 2, 6]
    assert UTF16.length("\ud83d") == 1      # a lone surrogate is measured, not an error


@pytest.mark.parametrize("unit", [UTF16, CODE_POINTS, UTF8], ids=lambda u: u.name)
@pytest.mark.parametrize("text", ["🌸" * 300, "Bob " + WARNING * 120, ("é" + FAMILY) * 60, "x" * 500])
def test_clip_fits_and_keeps_a_prefix_without_broken_emoji(unit, text):
    for limit in (1, 2, 7, 50, 200):
        cut = unit.clip(text, limit)
        assert unit.length(cut) <= limit
        kept = cut.removesuffix(ELLIPSIS)
        assert text.startswith(kept) and cut.endswith(ELLIPSIS) == (unit.length(ELLIPSIS) <= limit)
        if kept and limit >= 10:
            # never a bare base before its selector or joiner, nor a dangling joiner
            assert not kept.endswith("\u200d") and text[len(kept)] not in "\ufe0f\u200d"
    assert unit.clip("short", 200) == "short"


def test_prefix_cuts_inside_an_emoji_only_when_one_emoji_is_longer_than_the_limit():
    alone = UTF16.prefix(FAMILY, 3)          # something rather than nothing
    assert alone and FAMILY.startswith(alone) and UTF16.length(alone) <= 3
    assert UTF16.prefix("ab" + FAMILY, 5) == "ab"
