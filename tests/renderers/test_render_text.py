"""The text renderer in all four languages (the catalogs themselves: test_catalogs.py)."""

from __future__ import annotations

import re

import pytest

from engine.paris_paris import Game, Pick, Tile
from engine.paris_paris import errors as errs
from engine.paris_paris import events as E
from i18n import LANGUAGES, t
from renderers.paris_paris import scenes, text


def _full_game_log(n: int, seed: int = 9):
    game = Game.new(list(scenes.players(n)), seed=seed)
    import random
    rng = random.Random(seed)
    while not game.finished:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("n", (2, 3, 4))
def test_narrate_every_event_kind(lang, n):
    game = _full_game_log(n)
    lines = text.narrate(game.log, players=game.players, language=lang, viewer=None)
    kinds = {e.kind for e in game.log if e.visible_to(None)}
    assert {"game_started", "round_started", "shop_opened", "small_tour", "tile_discarded",
            "markers_revealed", "big_tour", "game_ended"} <= kinds
    assert len(lines) == sum(1 for e in game.log if e.visible_to(None))
    for line in lines:
        assert "{" not in line and "}" not in line, line
        assert not re.search(r"\b(ev|err|bt|map)_\w+", line), line   # no raw catalog key
    joined = "\n".join(lines)
    for name in game.players:
        assert name in joined
    assert t(lang, "colour_green") in joined or t(lang, "colour_red") in joined


def test_narrate_redacts_secret_markers():
    game = Game.new(["ann", "bob", "cat"], seed=4)
    secrets = [e for e in game.log if isinstance(e, E.MarkerDealt)]
    public = text.narrate(game.log, players=game.players, viewer=None)
    ann = text.narrate(game.log, players=game.players, viewer=0)
    assert len(ann) == len(public) + 1
    mine = next(e for e in secrets if e.seat == 0)
    assert any(text.COLOUR_EMOJI[mine.colour] in line and "secret" in line for line in ann)
    assert not any("secret" in line for line in public)


def test_narrate_examples_in_english():
    players = ("ann", "bob", "cat")
    pompidou = Tile("pompidou", "green")
    lines = text.narrate([
        E.ShopOpened(1, pompidou),
        E.ShopEvicted("pompidou", 0, 1, "bag"),
        E.SmallTour(Tile("opera", "red"), 2, (("concorde", 0), ("louvre", 2)), (1, 0, 1)),
        E.SmallTour(Tile("bastille", "blue"), None, (), (0, 0, 0)),
        E.BigTour("green", "marker", 2, (), (3, 0, 5)),
        E.BagScored((2, 1, 0), 0, 2),
        E.GameEnded((20, 18, 20), (5, 6, 7), (0,)),
    ], players=players)
    assert lines[0] == "bob opens a shop at 🟢 Centre Pompidou (green)."
    assert lines[1] == "bob evicts ann's shop at Centre Pompidou: it goes into the bag."
    assert lines[2] == ("Small tour to 🔴 Opéra (red): no shop there, the nearest shops score "
                        "(Concorde and Louvre, distance 2): ann +1, cat +1.")
    assert "nobody scores" in lines[3]
    assert lines[4] == "cat's special route, the 🟢 green line: ann +3, cat +5."
    assert lines[5] == "The bag holds ann 2, bob 1, cat 0. ann has the most and scores 2 points."
    assert lines[6] == "Game over! ann wins with 20 points."
    one = text.narrate([E.BagScored((1, 0, 0), 0, 1)], players=players)
    assert one == ["The bag holds ann 1, bob 0, cat 0. ann has the most and scores 1 point."]


def test_tile_label_and_colour_emoji():
    assert text.COLOUR_EMOJI == {"green": "🟢", "red": "🔴", "blue": "🔵", "purple": "🟣", "yellow": "🟡"}
    assert text.tile_label(Tile("pompidou", "green"), 3) == "🟢 3 · Centre Pompidou"
    assert text.tile_label(Tile("saint-germain", "purple"), 1, language="de") == "🟣 1 · Saint-Germain-des-Prés"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_text(lang):
    scene = scenes.mid_round(3)
    view = scene.game.view(None)
    board = text.board_text(view, language=lang)
    for slot, tile in view.offer_numbered():
        assert text.tile_label(tile, slot, language=lang) in board
    for seat, name in enumerate(view.players):
        line = next(line for line in board.splitlines() if name in line and str(view.scores[seat]) in line)
        assert str(view.supply[seat]) in line
    assert "▶" in next(line for line in board.splitlines() if view.players[view.to_move] in line)
    assert "{" not in board
    # The public board never names a secret marker; a seat's board names its own.
    secret = scene.game.view(0).marker
    own = text.board_text(scene.game.view(0), language=lang)
    own_line = t(lang, "your_marker", colour=f"{text.COLOUR_EMOJI[secret]} {t(lang, 'colour_' + secret)}")
    assert own_line in own.splitlines()
    assert t(lang, f"colour_{secret}") not in board


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_text_final(lang):
    game = _full_game_log(3)
    board = text.board_text(game.view(None), language=lang)
    assert "🏆" in board
    for seat in game.winners:
        assert game.players[seat] in board.splitlines()[-1]


def _errors(game):
    current = game.current_player
    other = (current + 1) % game.num_players
    tile = game.offered_tiles()[0]
    yield errs.MalformedInput("bad", value="louvre/pink")
    yield errs.NotYourTurn("x", seat=other, current=current)
    yield errs.TileNotOnOffer("x", tile="bastille/blue")
    yield errs.EvictionChoiceRequired("x", station="opera", owners=(0, 1))
    yield errs.InvalidEviction("x", station="opera", evict=2, owners=(0, 1))
    yield errs.GameIsOver("over")
    yield errs.InvalidRecord("bad tile", move_index=3, rule="offer")
    yield errs.InvalidSetup("Paris Paris is played by 2 to 4 players")
    yield errs.IllegalMove("x")
    yield errs.GameError("x")
    assert tile


@pytest.mark.parametrize("lang", LANGUAGES)
def test_error_text(lang):
    game = Game.new(["ann", "bob", "cat"], seed=2)
    seen = set()
    for exc in _errors(game):
        message = text.error_text(exc, players=game.players, language=lang)
        assert message and "{" not in message and not message.startswith("err_"), (exc.code, message)
        seen.add(message)
    assert len(seen) == 10
    not_yours = text.error_text(errs.NotYourTurn("x", seat=0, current=1), players=game.players, language=lang)
    assert "bob" in not_yours
    choose = text.error_text(errs.EvictionChoiceRequired("x", station="opera", owners=(0, 2)),
                             players=game.players, language=lang)
    assert "Opéra" in choose and "ann" in choose and "cat" in choose


def test_error_text_from_real_engine_errors():
    game = Game.new(["ann", "bob", "cat"], seed=2)
    wrong = (game.current_player + 1) % 3
    with pytest.raises(errs.NotYourTurn) as caught:
        game.apply(game.legal_actions()[0], by=wrong)
    assert game.players[game.current_player] in text.error_text(caught.value, players=game.players, language="de")
    missing = next(Tile(s, c) for s in ("bastille", "belleville") for c in ("blue", "yellow")
                   if (s, c) in (("bastille", "blue"), ("belleville", "yellow"))
                   and Tile(s, c) not in game.offered_tiles())
    with pytest.raises(errs.TileNotOnOffer) as caught:
        game.apply(Pick(missing))
    assert "nicht" in text.error_text(caught.value, players=game.players, language="de")


def test_every_event_kind_has_words():
    kinds = {cls.kind for cls in E.Event.__subclasses__()}
    narrated = set()
    for n in (2, 3, 4):
        game = _full_game_log(n)
        for seat in (None, 0):
            for event in game.log:
                if event.visible_to(seat) and text.narrate_event(event, players=game.players, language="it"):
                    narrated.add(event.kind)
    # A pick with no shop left happens only in rare 2-player games: told from a made-up event.
    rare = E.TileTaken(seat=0, tile=Tile("louvre", "blue"))
    for language in ("en", "de", "it", "fr"):
        line = text.narrate_event(rare, players=("ann", "bob"), language=language)
        assert line and "ann" in line and "{" not in line
    narrated.add(rare.kind)
    assert kinds == narrated, kinds ^ narrated


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_eviction_says_who_evicted_whom(lang):
    """"Ada evicts root's shop", never a line that reads as if root had done it."""
    players = ("Ada", "root", "Bea")
    line = text.narrate_event(E.ShopEvicted(station="quartier-latin", owner=1, by=0, destination="bag"),
                              players=players, language=lang)
    assert line.startswith("Ada ") and "root" in line and "Quartier Latin" in line
    panel = t(lang, "map_evicted", by="Ada", owner="root", station="Quartier Latin")
    assert panel.startswith("Ada ") and "root" in panel
    # Making room at a station held only by oneself: one name, told as one's own shop.
    own = text.narrate_event(E.ShopEvicted(station="odeon", owner=2, by=2, destination="supply"),
                             players=players, language=lang)
    assert own.startswith("Bea ") and own.count("Bea") == 1
    assert "Bea" in t(lang, "map_evicted_own", by="Bea", station="Odéon")


@pytest.mark.parametrize(("lang", "bag"), [("en", "bag"), ("de", "Beutel"), ("it", "sacchetto"), ("fr", "sac")])
def test_the_rules_tell_the_bag_scoring(lang, bag):
    from renderers.paris_paris.presenter import PRESENTER

    rules = PRESENTER.rules_text(lang)
    assert bag in rules and "3" in rules and "4" in rules and "1" in rules
    assert rules.index(bag) < len(rules) - 30       # told before who wins, not tacked on


def test_final_scores_are_ranked_with_shared_places():
    from renderers.paris_paris.presenter import PRESENTER, ranking

    assert ranking(["Ann", "Bea", "Cid", "Dan"], [5, 7, 7, 1]) == "=1. Bea 7, =1. Cid 7, 3. Ann 5, 4. Dan 1"
    assert ranking(["Ann", "Bea", "Cid", "Dan"], [9, 7, 7, 7]) == "1. Ann 9, =2. Bea 7, =2. Cid 7, =2. Dan 7"
    game = Game.new(["Ann", "Bea", "Cid"], seed=3)
    while not game.finished:
        game.apply(game.legal_actions()[-1])
    view = game.view(None)
    lines = PRESENTER.final_lines(view, "en")
    scores = [int(n) for n in re.findall(r"\d+\. \S+ (\d+)", lines[-1])]
    assert lines[-1].startswith(("Final scores: 1. ", "Final scores: =1. ")) and scores == sorted(view.scores, reverse=True)
    assert sum("over" in line for line in lines) == 1


def test_narration_kept_per_event_names_and_language():
    """Lines are kept (``text._narrated``) by event, names and language: told again, with other names
    or in another language, every line is what the event itself says there."""
    game = _full_game_log(3)
    public = [e for e in game.log if e.visible_to(None)]
    renamed = ["Xavier", "Yolanda", "Zeno"]
    for players, lang in ((game.players, "en"), (renamed, "en"), (game.players, "de"), (game.players, "en")):
        told = text.narrate(public, players=players, language=lang)
        fresh = [line for e in public if (line := text.narrate_event(e, players=players, language=lang))]
        assert told == fresh
    assert any("Xavier" in line for line in text.narrate(public, players=renamed, language="en"))
