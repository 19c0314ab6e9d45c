"""Every refusal: the right exception class, a message a player can read, nothing changed."""

import pytest
from engine_testkit import deal, play_round, random_game, tile

from engine.paris_paris import (
    EvictionChoiceRequired,
    Game,
    GameError,
    GameIsOver,
    IllegalMove,
    InvalidEviction,
    InvalidRecord,
    InvalidSetup,
    MalformedInput,
    NotYourTurn,
    Options,
    Pick,
    Tile,
    TileNotOnOffer,
)
from engine.paris_paris.record import from_record, to_record

THREE = ["ann", "bob", "cat"]


def snapshot(game: Game):
    return (to_record(game), game.view(), [game.view(s) for s in range(game.num_players)],
            list(game.log), list(game.score_history), list(game.supply), list(game.bag))


def full_louvre() -> Game:
    game = deal(THREE, [
        (["louvre/blue", "louvre/purple", "tour-eiffel/blue"], "belleville/yellow"),
        (["louvre/blue", "arc-de-triomphe/red", "madeleine/red"], "place-d-italie/green"),
    ])
    play_round(game, ["louvre/blue", "louvre/purple", "tour-eiffel/blue"])
    return game


def refused(game: Game, action, by, cls, message: str):
    before = snapshot(game)
    assert not game.is_legal(action, by=by)
    with pytest.raises(cls) as info:
        game.check(action, by=by)
    with pytest.raises(cls, match=message) as info:
        game.apply(action, by=by)
    assert snapshot(game) == before
    error = info.value
    assert isinstance(error, GameError)
    assert error.code != "error"
    assert str(error) and "\n" not in str(error)
    return error


def test_not_your_turn():
    game = full_louvre()
    error = refused(game, Pick(tile("arc-de-triomphe/red")), 0, NotYourTurn, "it is bob's turn, not ann's")
    assert isinstance(error, IllegalMove)
    assert error.code == "not_your_turn" and error.params == {"seat": 0, "current": 1}


def test_unknown_seat_is_malformed():
    game = full_louvre()
    refused(game, Pick(tile("arc-de-triomphe/red")), 5, MalformedInput, "no seat 5")
    refused(game, Pick(tile("arc-de-triomphe/red")), "bob", MalformedInput, "no seat 'bob'")


def test_tile_not_on_offer():
    game = full_louvre()
    error = refused(game, Pick(tile("pompidou/green")), 1, TileNotOnOffer, "pompidou/green is not on offer")
    assert error.code == "tile_not_on_offer"


def test_eviction_choice_missing():
    game = full_louvre()
    error = refused(game, Pick(tile("louvre/blue")), 1, EvictionChoiceRequired,
                    r"Louvre is full: choose whose shop to evict \(ann or bob\)")
    assert error.params["owners"] == (0, 1)


def test_eviction_choice_invalid():
    game = full_louvre()
    refused(game, Pick(tile("louvre/blue"), 2), 1, InvalidEviction, "seat 2 has no shop at Louvre")
    refused(game, Pick(tile("louvre/blue"), 7), 1, InvalidEviction, "seat 7 has no shop at Louvre")


def test_game_over():
    game = random_game(THREE, seed=5)
    assert game.is_terminal() and game.legal_actions() == [] and game.current_player is None
    error = refused(game, Pick(tile("louvre/blue")), None, GameIsOver, "the game is over")
    assert error.code == "game_over"


def test_not_a_move_is_malformed():
    game = full_louvre()
    refused(game, "louvre/blue", 1, MalformedInput, "not a move")
    refused(game, Pick("louvre/blue"), 1, MalformedInput, "not a move")


@pytest.mark.parametrize(("text", "message"), [
    ("louvre", "a tile is written station/colour"),
    ("louvre/pink", "unknown station or colour: 'pink'"),
    ("eiffel/blue", "unknown station or colour: 'eiffel'"),
    ("louvre/blue!x", "the eviction choice must be a seat number"),
])
def test_malformed_text(text, message):
    with pytest.raises(MalformedInput, match=message) as info:
        Pick.parse(text)
    assert isinstance(info.value, ValueError) and info.value.code == "malformed"


def test_moves_print_and_parse_back():
    for text in ("pompidou/green", "pompidou/green!2", "saint-germain/purple"):
        assert str(Pick.parse(text)) == text
    assert Pick.parse(" louvre/blue!1 ") == Pick(Tile("louvre", "blue"), 1)
    assert Tile.parse("louvre/blue") is not None and hash(Tile("louvre", "blue")) == hash(tile("louvre/blue"))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: Game.new(["solo"]), "2 to 4 players"),
    (lambda: Game.new(["a", "b", "c", "d", "e"]), "2 to 4 players"),
    (lambda: Game.new("abc"), "2 to 4 players"),
    (lambda: Game.new(["ann", "ann"]), "names must be different"),
    (lambda: Game.new(["ann", " "]), "every player needs a name"),
    (lambda: Options(final_tours="some"), "final_tours must be one of markers, all_lines"),
    (lambda: Game.from_setup(["a", "b"], stacks=[[tile("louvre/blue")]], markers=["red", "blue"],
                             open_marker="green", first_player=0), "stack 0 holds 1 tiles; with 2 players each holds 3"),
    (lambda: Game.from_setup(["a", "b"], stacks=[[tile("tour-eiffel/blue")] * 3], markers=["red", "blue"],
                             open_marker="green", first_player=0), "tour-eiffel/blue appears more often"),
    (lambda: Game.from_setup(["a", "b"], stacks=[], markers=["red", "red"], open_marker="green",
                             first_player=0), "markers must all be different"),
    (lambda: Game.from_setup(["a", "b"], stacks=[], markers=["red", "blue"], open_marker="red",
                             first_player=0), "markers must all be different"),
    (lambda: Game.from_setup(["a", "b"], stacks=[], markers=["red", "blue"], open_marker=None,
                             first_player=0), "face-up marker"),
    (lambda: Game.from_setup(["a", "b", "c"], stacks=[], markers=["red", "blue", "green"],
                             open_marker="yellow", first_player=0), "only used with 2 players"),
    (lambda: Game.from_setup(["a", "b", "c"], stacks=[], markers=["red", "blue"], open_marker=None,
                             first_player=0), "3 players need 3 markers"),
    (lambda: Game.from_setup(["a", "b", "c"], stacks=[], markers=["red", "blue", "pink"], open_marker=None,
                             first_player=0), "c's marker must be a line colour \\(green, red, blue, purple, yellow\\), not 'pink'"),
    (lambda: Game.from_setup(["a", "b", "c"], stacks=[], markers=["red", "blue", "green"], open_marker=None,
                             first_player=3), "first player must be a seat from 0 to 2"),
])
def test_invalid_setup(call, message):
    with pytest.raises(InvalidSetup, match=message) as info:
        call()
    assert info.value.code == "invalid_setup"


def test_invalid_record_names_move_and_rule():
    game = full_louvre()
    record = to_record(game)
    record["moves"].append({"player": "ann", "tile": ["arc-de-triomphe", "red"]})
    with pytest.raises(InvalidRecord) as info:
        from_record(record)
    error = info.value
    assert error.move_index == 3 and error.rule == "not_your_turn"
    assert str(error) == "move 4: it is bob's turn, not ann's"   # messages count from 1


@pytest.mark.parametrize("unnamed", [{}, {"player": None}])
def test_a_record_move_without_its_player_is_refused(unnamed):
    game = full_louvre()
    record = to_record(game)
    # a tile on offer to bob, who is to move: before, it was replayed as bob's without a turn check
    record["moves"].append({"tile": ["louvre", "blue"], **unnamed})
    with pytest.raises(InvalidRecord) as info:
        from_record(record)
    assert info.value.move_index == 3 and info.value.rule == "malformed"
    assert str(info.value) == "move 4: a move names its player"


def test_view_of_unknown_seat_is_refused():
    game = full_louvre()
    with pytest.raises(ValueError, match="no seat 3"):
        game.view(3)
