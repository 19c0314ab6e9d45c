"""Papà Paolo's presenter (renderers/papa_paolo): menus reach every legal step with at most 20
buttons, numbers typed mean what the menu and the picture show, texts exist and format in every
language, hidden money never reaches a public text, pictures are PNGs within the size target."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameError
from engine.papa_paolo import errors as papa_errors
from engine.papa_paolo.definition import GAME
from i18n import LANGUAGES, t
from renderers.papa_paolo.presenter import HIDDEN_BESIDE, PRESENTER, numbering, score_parts, square_keys

PNG = b"\x89PNG\r\n\x1a\n"


def random_game(players: int, seed: int, options=None, *, until=None):
    """A game of random legal steps (and the AI's, half the time); ``until(match)`` stops it early.
    Yields (match, seat) before each step."""
    match = GAME.new_match(["Ann", "Bob", "Cy", "Di"][:players], seed=seed, options=options)
    rng = random.Random(seed)
    while not match.is_terminal():
        seat = rng.choice(match.to_act())
        yield match, seat
        choices = match.legal_choices(seat)
        step = rng.choice(choices) if rng.random() < 0.5 else GAME.choose(match, seat, seed=seed)
        match.apply(step, by=seat)
    yield match, None


def reachable(view, choices, language="en") -> tuple[set[str], int]:
    menu = PRESENTER.menu(view, choices, language)
    found, largest = set(), len(menu.items())
    for item in menu.items():
        if item.choice is not None:
            found.add(str(item.choice))
        else:
            sub = PRESENTER.menu(view, choices, language, item.group)
            largest = max(largest, len(sub.items()))
            found |= {str(i.choice) for i in sub.items() if i.choice is not None}
    return found, largest


ALL_OPTIONS = {name: True for name in ("hidden_money", "reverse_bid_order", "money_bonus",  # not with first_player_coin
                                        "two_player_preview", "express_ignores_roads")}


@pytest.mark.parametrize(("players", "seed", "options"), [(2, 1, None), (3, 2, None), (4, 3, None),
                                                          (2, 4, ALL_OPTIONS), (4, 5, {**ALL_OPTIONS, "two_player_preview": False}),
                                                          (3, 6, {"first_player_coin": True})])
def test_every_legal_step_is_one_button_away_in_menus_of_at_most_25(players, seed, options):
    """Every legal step has its button (but "take" where the tile's squares are offered beside
    it: a square takes the tile; "buy", "build" or the tile's "action" where the amounts are: a
    button buys 3 or builds P4-1); a menu fits one Discord message (25 buttons)."""
    largest = 0
    for match, seat in random_game(players, seed, options):
        if seat is None:
            break
        choices = match.legal_choices(seat)
        found, size = reachable(match.view(seat), choices)
        wanted = {str(c) for c in choices}
        verbs = {c.verb for c in choices}
        wanted -= {v for v, shortcuts in HIDDEN_BESIDE.items() if shortcuts & verbs}
        assert found == wanted
        labels = [item.label for item in PRESENTER.menu(match.view(seat), choices, "en").items()]
        assert len(set(labels)) == len(labels), labels            # no two buttons read the same
        largest = max(largest, size)
    assert 5 < largest <= 25


def test_a_typed_number_is_the_number_shown_on_the_picture():
    for match, seat in random_game(3, 7):
        view = match.view(seat)
        keys = square_keys(view.legal)
        if len(keys) >= 2 and any(c.verb != "best-plan" for c in match.legal_choices(seat)):
            break
    choices = match.legal_choices(seat)
    for square, key in keys.items():
        item = PRESENTER.find_item(view, choices, str(key), "en")
        assert item.choice.square == square and item.label.split(" ")[0] == str(key)
    items = PRESENTER.menu(view, choices, "en").items()
    numbers = numbering([i.key for i in items])
    assert sorted(numbers) == list(range(1, len(items) + 1))


def test_numbering_puts_unkeyed_items_after_the_keys():
    assert numbering([None, 1, 2, None]) == [3, 1, 2, 4]
    assert numbering([None, None]) == [1, 2]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_whole_game_in_words_in_every_language(language):
    for match, seat in random_game(3, 11, {"hidden_money": True}):
        if seat is not None:
            view = match.view(seat)
            for text in (PRESENTER.status_line(view, language), PRESENTER.prompt_line(view, language)):
                assert text and "{" not in text and "papa." not in text
            for item in PRESENTER.menu(view, match.legal_choices(seat), language).items():
                assert item.label and "papa." not in item.label
    lines = PRESENTER.narrate(match.log, match.players, language)
    lines += PRESENTER.final_lines(match.view(None), language)
    lines += PRESENTER.board_text(match.view(None), language).splitlines()
    assert len(lines) > 20
    assert not [line for line in lines if "{" in line or "papa." in line]


def test_hidden_money_never_appears_in_public_texts():
    for match, seat in random_game(3, 5, {"hidden_money": True}, ):
        if seat is not None and match.rhythm.round_number() == 3:
            break
    public = match.view(None)
    assert public.lire == (None, None, None)
    board = PRESENTER.board_text(public, "en")
    assert board.count(t("en", "papa.money_hidden")) == 3
    texts = [board, *PRESENTER.narrate(match.log_for(None), match.players, "en"),
             *PRESENTER.started_lines(public, "en")]
    for s, person in enumerate(match.state.people):
        assert not [x for x in texts if f"{match.players[s]}: {person.lire} L" in x]
    mine = match.view(0)
    assert PRESENTER.secret_text(mine, "en", "") == t("en", "papa.secret_here", lire=match.state.people[0].lire)
    assert PRESENTER.secret_text(public, "en", "") is None


def test_final_score_parts_add_up_to_the_scores():
    *_, (match, _) = random_game(4, 9, {"money_bonus": True})
    view = match.view(None)
    for seat in range(4):
        parts = score_parts(view, seat)
        assert parts["delivered"] + parts["experience"] + parts["maxed"] - parts["left"] + parts["bonus"] \
            == view.scores[seat]
        assert parts["bonus"] in (0, 1, 2)
        history = view.track_history[seat]             # the final picture's tracks by round
        assert len(history) == 6 and history[-1] == view.tracks[seat] and set(history[0].values()) == {0}
    lines = PRESENTER.final_lines(view, "en")
    assert all(f"{view.players[s]}: {view.scores[s]} = " in "\n".join(lines) for s in range(4))


def test_every_refusal_reads_as_a_sentence():
    codes = {cls.code for cls in vars(papa_errors).values()
             if isinstance(cls, type) and issubclass(cls, GameError)}
    for code in codes:
        exc = type("E", (GameError,), {"code": code})("x")
        for language in LANGUAGES:
            text = PRESENTER.error_text(exc, ["Ann"], language)
            assert text and not text.startswith("papa.")
    space = papa_errors.SpaceTaken("taken")
    assert PRESENTER.error_text(space, [], "en") == t("en", "papa.err.space_taken")


def test_pictures_are_pngs_within_the_size_target():
    stops = {"map": None, "own": None}
    for match, seat in random_game(4, 13):
        if seat is not None and match.rhythm.round_number() == 2 and stops["own"] is None and square_keys(match.view(seat).legal):
            stops["own"] = PRESENTER.render_private(match.view(seat), [], "en", layout="portrait")
        if seat is not None and match.rhythm.round_number() == 3 and stops["map"] is None:
            stops["map"] = PRESENTER.render("map", match.view(None), match.log_for(None), "en", layout="portrait")
    stops["final"] = PRESENTER.render("final", match.view(None), [], "de")
    for name, png in stops.items():
        assert png is not None and png.startswith(PNG), name
        assert len(png) <= 300 * 1024, (name, len(png))


def test_the_private_picture_numbers_the_squares_as_the_buttons(monkeypatch):
    from renderers.papa_paolo import pieces

    drawn = []
    real = pieces.draw_hood
    monkeypatch.setattr(pieces, "draw_hood", lambda *a, **kw: (drawn.append(kw.get("labels")), real(*a, **kw)))
    checked = 0
    for match, seat in random_game(3, 17):
        if seat is None or checked >= 12:
            break
        view = match.view(seat)
        items = PRESENTER.menu(view, match.legal_choices(seat), "en").items()
        numbered = {i.choice.square: i.label.split(" ")[0] for i in items if i.key is not None}
        if not numbered:
            continue
        drawn.clear()
        PRESENTER.render_private(view, [], "en")
        assert {square: str(key) for square, key in drawn[0].items()} == numbered
        checked += 1
    assert checked == 12


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_stretchs_narration_fits_a_discord_message(language):
    *_, (match, _) = random_game(4, 21)
    players = ("Annemarie", "Bartholomäus", "Christiane", "Dominique")
    longest = max(len("\n".join(PRESENTER.narrate(
        [e for e in match.log[match.rhythm.cycle_start(r):match.rhythm.cycle_start(r + 1)] if e.visible_to(None)],
        players, language))) for r in range(1, match.rhythm.cycle))
    assert 400 < longest <= 1800
