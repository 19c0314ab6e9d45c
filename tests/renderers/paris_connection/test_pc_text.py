"""Words: every event kind, error code and private message in four languages, and no secrets in public."""

from __future__ import annotations

from pathlib import Path

import pytest
from pc_render_kit import NAMES, game_steps, played

from engine.paris_connection import errors as pc_errors
from engine.paris_connection import events as E
from engine.paris_connection.actions import DONE, UNDO, Build, Place, Trade
from i18n import LANGUAGES, catalog, t
from renderers.paris_connection import text as words
from renderers.paris_connection.presenter import PRESENTER
from renderers.paris_connection.text import narrate

LOCALES = Path(__file__).resolve().parents[3] / "i18n" / "locales"
PLAYERS = NAMES[:4]
VALUES = {"red": 3, "blue": 0, "black": 7, "brown": 1, "yellow": 2, "purple": 4}

EVERY_PUBLIC_EVENT = [
    E.GameStarted(PLAYERS, 2, {"red": "M7"}),
    E.BuildStarted(1, "red"),
    E.LocomotivePlaced(1, "red", "K4", 0),
    E.LocomotivePlaced(1, "red", "M3", 1),
    E.PlacementUndone(1, "red", "M3"),
    E.BuildCancelled(1, "red"),
    E.BuildCompleted(1, "blue", ("K4", "M3"), 1, 5),
    E.BuildCompleted(1, "blue", ("K4",), 0, 5),
    E.Traded(2, "yellow", "purple", 1),
    E.Traded(2, "yellow", "purple", 2),
    E.TurnSkipped(3),
    E.CycleEnded(4, VALUES),
    E.GameEnded("marseille", (1, 2, 3, 4), (0, 0, 20, 0), ({"red": 1},) * 4, (3,)),
    E.GameEnded("storage", (1, 2, 3, 4), (0, 0, 20, 0), ({"red": 1},) * 4, (3,)),
]
SECRETS = [E.HoldingsDealt(0, {"red": 3, "blue": 1}), E.HoldingsChanged(0, {"red": 2, "blue": 3})]


def clean(text: str) -> bool:
    return bool(text) and "{" not in text and "}" not in text and "pc." not in text


def test_catalogs_have_every_english_key_and_the_same_placeholders():
    english = {k: m for k, m in catalog("en").items() if k.startswith("pc.")}
    assert english and all(m.area == "paris_connection" for m in english.values())
    for language in LANGUAGES:
        other = catalog(language)
        for key, message in english.items():
            assert key in other, (language, key)
            wanted = {part.split("}")[0] for part in message.text.split("{")[1:]}
            assert {part.split("}")[0] for part in other[key].text.split("{")[1:]} == wanted, (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("event", EVERY_PUBLIC_EVENT, ids=lambda e: e.kind)
def test_every_public_event_kind_is_narrated(event, language):
    lines = narrate([event], PLAYERS, language)
    assert len(lines) == 1 and clean(lines[0]), lines


def test_a_finished_build_stands_for_its_steps_and_an_unfinished_one_shows_them():
    started, placed = E.BuildStarted(1, "red"), E.LocomotivePlaced(1, "red", "K4", 0)
    done = E.BuildCompleted(1, "red", ("K4",), 0, 0)
    assert narrate([started, placed, done], PLAYERS, "en") == narrate([done], PLAYERS, "en")
    assert len(narrate([started, placed], PLAYERS, "en")) == 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_private_events_are_never_narrated_but_told_to_their_seat(language):
    match, steps = played(4, 12)
    view = match.view(0)
    assert narrate(SECRETS, PLAYERS, language) == []
    for event in SECRETS:
        text = PRESENTER.private_text(event, view, language, "#rails")
        assert clean(text) and "#rails" in text and "3" in text
    assert PRESENTER.private_text(E.TurnSkipped(0), view, language, "#rails") is None
    assert clean(PRESENTER.secret_text(steps[5][1], language, "#rails"))
    assert PRESENTER.secret_text(steps[5][0], language, "#rails") is None     # the public view holds none


def every_error():
    for name in pc_errors.__all__:
        cls = getattr(pc_errors, name)
        if name in ("GameError", "IllegalMove"):
            yield cls("x")
        elif name == "InvalidRecord":
            yield cls("x", move_index=3, rule="hex_full")
        else:
            yield cls("x", colour="red", hex="K4", blocked="blue", count=2, to_move=1, seat=0)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exc", list(every_error()), ids=lambda e: type(e).__name__)
def test_every_error_code_has_words(exc, language):
    text = PRESENTER.error_text(exc, PLAYERS, language)
    assert clean(text)
    if exc.code not in ("error", "illegal"):
        assert text != t(language, "pc.err.illegal"), exc.code


@pytest.mark.parametrize("language", LANGUAGES)
def test_lines_for_a_whole_game_read_cleanly(language):
    match, steps = played(5, 21)
    end = match.view(None)
    lines = [PRESENTER.title(language), PRESENTER.help_text(language), PRESENTER.rules_text(language),
             PRESENTER.secret_button(language), PRESENTER.no_secret_text(language),
             *PRESENTER.started_lines(steps[0][0], language), *PRESENTER.final_lines(end, language),
             PRESENTER.scores_line(end, end.scores, language), PRESENTER.status_line(end, language),
             PRESENTER.cycle_done_line(end, 3, language), PRESENTER.cycle_over_line(end, 3, language),
             PRESENTER.board_text(end, language)]
    for view, _, _, events in steps[::7]:
        lines += [PRESENTER.status_line(view, language), PRESENTER.prompt_line(view, language),
                  PRESENTER.board_text(view, language), *PRESENTER.narrate(events, view.players, language)]
    for choice in (Build("red"), Place("K4"), UNDO, DONE, Trade("red", "blue", 1), Trade("red", "blue", 2)):
        lines += [PRESENTER.choice_text(choice, end, language), PRESENTER.short_choice_text(choice, language)]
    assert all(clean(line) for line in lines), [line for line in lines if not clean(line)]
    assert end.players[end.winners[0]] in PRESENTER.final_lines(end, language)[1]


def test_the_prompt_during_a_build_names_colour_and_count():
    match, steps = played(4, 12)
    for placed in (1, 2):
        view = next(v for v, _, _, _ in steps if v.draft is not None and len(v.draft.hexes) == placed)
        line = PRESENTER.prompt_line(view, "en")
        assert view.players[view.to_move] in line and view.draft.colour in line and f"{placed} placed" in line


def test_public_texts_hold_no_holdings_before_the_end():
    """The public view carries no holdings, and narration leaves out the private events it is given."""
    match, steps = played(3, 31)
    secrets = 0
    for view, seat_view, _, events in steps:
        assert view.holdings is None and view.all_holdings is None and view.scores is None
        assert seat_view.all_holdings is None
        public = [e for e in events if e.visible_to(None)]
        secrets += len(events) - len(public)
        assert narrate(events, view.players, "en") == narrate(public, view.players, "en")
    assert secrets, "no trade in this game: the test would prove nothing"


def test_tied_players_share_a_place_marked_as_a_tie(monkeypatch):
    """108 and 108: both "=3.", not 3 and 4; the others keep their own places."""
    from types import SimpleNamespace

    import renderers.paris_connection.presenter as module

    monkeypatch.setattr(module.words, "score_detail", lambda view, seat, language: "…")
    view = SimpleNamespace(players=["Ann", "Bob", "Cid", "Dan"], scores=[120, 108, 130, 108], winners=[2],
                           num_players=4)
    lines = PRESENTER.final_lines(view, "en")
    assert lines[2:] == ["1. Cid: 130 (…)", "2. Ann: 120 (…)", "=3. Bob: 108 (…)", "=3. Dan: 108 (…)"]


def _at_the_limit():
    """The seat to move in a 4-player game, as it sees the game, its holdings raised to the limit (15)."""
    from dataclasses import replace

    for _, view, choices, _ in game_steps(4, 12):
        trades = [c for c in choices if isinstance(c, Trade)]
        if trades and view.holdings is not None and view.draft is None:
            held = dict(view.holdings)
            first = next(c for c in held if held[c])
            held[first] += view.holding_limit - sum(held.values())
            return replace(view, holdings=held), choices, trades
    raise AssertionError("no trade in this game")


def test_a_trade_says_what_you_hold_and_what_the_companies_are_worth():
    view, choices, trades = _at_the_limit()
    give = PRESENTER.menu(view, choices, "en", "t")
    assert "You hold " in give.text and "Values now: " in give.text
    assert words.holdings_text(view.holdings, "en") in give.text and words.values_text(view.values, "en") in give.text


def test_going_over_the_holding_limit_is_warned_before_with_its_cost():
    view, choices, trades = _at_the_limit()
    two = next(tr for tr in trades if tr.count == 2)
    take = PRESENTER.menu(view, choices, "en", "t" + two.give)
    assert f"You hold {view.holding_limit}/{view.holding_limit}" in take.text and "20 points at the end" in take.text
    labels = {item.choice: item.label for item in take.items() if item.choice is not None}
    assert labels[two].endswith("⚠️ −20")
    assert all("⚠️" not in label for tr, label in labels.items() if tr.count == 1)


def test_what_you_hold_and_its_worth_is_in_the_secret_and_the_board():
    view, _, _ = _at_the_limit()
    over = replace_holdings(view, 2)
    secret = PRESENTER.secret_text(over, "en", "")
    assert "worth" in secret and "2 over the limit of" in secret and "−40 points at the end" in secret
    board = PRESENTER.board_text(over, "en")
    assert "Your locomotives: " in board and "worth" in board


def replace_holdings(view, extra: int):
    from dataclasses import replace

    held = dict(view.holdings)
    first = next(c for c in held if held[c])
    held[first] += extra
    return replace(view, holdings=held)


def test_french_board_text_puts_a_space_before_every_colon():
    import re

    for _, seat_view, _, _ in game_steps(3, 11)[:40:8]:
        text = PRESENTER.board_text(seat_view, "fr")
        assert not re.search(r"[^\s\d]:", text), text
