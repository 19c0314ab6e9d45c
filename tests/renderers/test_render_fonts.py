"""Shipped fonts, text the font cannot draw, and the players' marks."""

from __future__ import annotations

from pathlib import Path

from renderers import fonts
from renderers.players import initials


def test_fonts_ship_inside_the_package_with_their_licence():
    folder = Path(fonts.__file__).with_name("fonts")
    assert (folder / "DejaVuSansCondensed.ttf").is_file()
    assert (folder / "DejaVuSansCondensed-Bold.ttf").is_file()
    assert "Bitstream" in (folder / "LICENSE-DejaVu.txt").read_text()
    assert fonts.font(20).path.startswith(str(folder))


def test_drawable_keeps_what_the_font_has_and_drops_the_rest():
    assert fonts.drawable("Zoë Юлия Ωmega") == "Zoë Юлия Ωmega"
    assert fonts.drawable("e\u0301") == "é"            # combining accent composed first
    assert fonts.drawable("王小明") == "?"               # no CJK glyphs: degrade to "?"
    assert fonts.drawable("🎲 dice") == "dice"
    assert fonts.drawable("a\u202eb\u200dc") == "abc"   # format controls dropped
    assert fonts.drawable("  ") == "?"


def test_fit_truncates_with_an_ellipsis():
    long = "Bartholomäus von Überlänge-Hohenstein"
    short = fonts.fit(long, 120, 16)
    assert short.endswith("…") and len(short) < len(long)
    assert fonts.font(16).getlength(short) <= 120
    assert fonts.fit("Ann", 120, 16) == "Ann"


def test_wrap_breaks_lines_and_caps_them():
    lines = fonts.wrap("one two three four five six seven eight nine ten eleven twelve", 80, 14, max_lines=2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert all(fonts.font(14).getlength(line) <= 80 for line in lines)


def test_initials_are_distinct():
    assert initials(["ann", "bob", "cat"]) == ("A", "B", "C")
    assert initials(["ann", "anna", "bob"]) == ("A1", "A2", "B")
    # a shared first letter: a second letter that tells them apart, not a seat number
    assert initials(["root", "Bot Ada", "Bot Blaise"]) == ("R", "BA", "BB")
    assert initials(["Ann", "Ada", "Blaise"]) == ("An", "Ad", "B")
    assert initials(["王小明", "🎲", "Юлия", "x"]) == ("1", "2", "Ю", "X")
    for names in (["a", "A", "á", "b"], ["", " ", "?", "!"]):
        marks = initials(names)
        assert len(set(marks)) == len(marks)


def test_ai_players_get_distinct_single_initials():
    """The AI names share no prefix ("Bot ..."): against the AI, every map initial is one letter."""
    from bot.service.table.lobby import AI_NAMES

    for seats in range(1, len(AI_NAMES) + 1):
        marks = initials(["root", *AI_NAMES[:seats]])
        assert all(len(mark) == 1 for mark in marks) and len(set(marks)) == len(marks), marks
