"""One test per rule and ruling of PARIS_CONNECTION.md, on set-ups with a known deal."""

import pytest
from pc_testkit import NAMES, STARTS, TO_MARSEILLE, build, dealt, fixed_game

from engine.paris_connection import board as B
from engine.paris_connection.actions import DONE, UNDO, Build, Done, Place, Trade, Undo
from engine.paris_connection.errors import (
    BuildUnderWay,
    ColourAlreadyThere,
    ForbiddenHex,
    GameIsOver,
    HexFull,
    InvalidSetup,
    NoBuildUnderWay,
    NotAdjacent,
    NotEnoughInStorage,
    NotHeld,
    NothingPlaced,
    NotYourTurn,
    SameColour,
    StorageEmpty,
    WouldBlock,
)
from engine.paris_connection.events import (
    BuildCancelled,
    BuildCompleted,
    CycleEnded,
    GameEnded,
    HoldingsChanged,
    LocomotivePlaced,
    PlacementUndone,
    Traded,
    TurnSkipped,
)
from engine.paris_connection.game import Game


def test_setup_follows_the_rules():
    game = Game.new(NAMES[:4], seed=5)
    assert sorted(game.start_hexes.values()) == sorted(B.START_HEXES)
    assert all(sum(h.values()) == 8 for h in game.holdings)
    for colour in B.COMPANIES:          # 31 in the bag: dealt or on the storage board
        assert game.storage[colour] + sum(h[colour] for h in game.holdings) == 31
        assert game.board[game.start_hexes[colour]] == [colour]
    assert game.values == dict.fromkeys(B.COMPANIES, 0)
    again = Game.new(NAMES[:4], seed=5)
    assert (again.start_hexes, again.holdings, again.first_player) == (
        game.start_hexes, game.holdings, game.first_player)


@pytest.mark.parametrize(("players", "hand"), [(3, 10), (4, 8), (5, 6), (6, 5)])
def test_deal_size_by_player_count(players, hand):
    game = Game.new(NAMES[:players], seed=players)
    assert [sum(h.values()) for h in game.holdings] == [hand] * players
    assert game.holding_limit == {3: 20, 4: 15, 5: 12, 6: 10}[players]


@pytest.mark.parametrize("players", [["ann", "bob"], NAMES + ("gus",), ["ann", "ann", "bob"]])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(InvalidSetup):
        Game.new(players, seed=1)


def test_a_placement_must_touch_its_colour():
    game = fixed_game()
    game.apply(Build("red"))                       # red stands on M7, far from Chartres (J8)
    with pytest.raises(NotAdjacent, match="J8 is not next to a red locomotive"):
        game.check(Place("J8"))
    game.apply(Place("N7"))
    game.apply(Place("O7"))                        # next to the draft's own N7: counts
    assert game.draft_hexes == ["N7", "O7"]


def test_barriers_cut_adjacency():
    for pair in B.BARRIERS:
        a, b = sorted(pair)
        assert b not in B.neighbours(a) and a not in B.neighbours(b)


def test_tower_and_start_hexes_take_no_locomotive():
    game = fixed_game()
    game.apply(Build("red"))
    with pytest.raises(ForbiddenHex, match="Eiffel Tower"):
        game.check(Place(B.TOWER))
    with pytest.raises(ForbiddenHex, match="start hex"):
        game.check(Place(STARTS["blue"]))


def test_a_city_holds_one_locomotive():
    game = fixed_game()
    build(game, "yellow", "J8")                    # Chartres, next to yellow's K8 and brown's K7
    game.apply(Build("brown"))
    with pytest.raises(HexFull, match="a city holds 1"):
        game.check(Place("J8"))


def test_a_rural_hex_holds_two_of_different_colours():
    game = fixed_game()
    build(game, "black", "J6", "J7")
    game.apply(Build("black"))
    with pytest.raises(ColourAlreadyThere):
        game.check(Place("J7"))
    game.apply(UNDO)
    build(game, "brown", "J7")                     # second colour: allowed
    game.apply(Build("yellow"))
    game.apply(Place("J8"))
    with pytest.raises(HexFull, match="a rural hex holds 2"):
        game.check(Place("J7"))


def test_blocking_rule_protects_a_company_without_a_city():
    # Brown (K7) can leave only by J6, J7 and Chartres (J8).
    game = fixed_game()
    build(game, "yellow", "J8")                    # Chartres taken
    build(game, "black", "J6", "J7")
    build(game, "yellow", "J7")                    # J7 full; brown keeps J6
    game.apply(Build("blue"))
    game.apply(Place("L5"))
    game.apply(Place("K5"))
    with pytest.raises(WouldBlock, match="cut brown off"):
        game.check(Place("J6"))
    assert "J6" not in game.legal_hexes("blue")


def test_value_rises_when_the_build_is_committed():
    game = fixed_game()
    game.apply(Build("yellow"))
    placed = game.apply(Place("J8"))
    assert placed == [LocomotivePlaced(0, "yellow", "J8", 1)]
    assert game.values["yellow"] == 0              # tentative until the build ends
    events = game.apply(DONE)
    assert events[0] == BuildCompleted(0, "yellow", ("J8",), 1, 1)
    assert game.values["yellow"] == 1


def test_undo_takes_back_the_last_placement_then_cancels_the_build():
    game = fixed_game()
    game.apply(Build("red"))
    game.apply(Place("N7"))
    storage = game.storage["red"]
    assert game.apply(Undo()) == [PlacementUndone(0, "red", "N7")]
    assert "N7" not in game.board and game.storage["red"] == storage + 1
    assert game.apply(Undo()) == [BuildCancelled(0, "red")]
    assert not game.building and game.to_move == 0
    assert any(isinstance(c, Trade) for c in game.legal_actions())


def test_done_needs_a_placement_and_a_build():
    game = fixed_game()
    with pytest.raises(NoBuildUnderWay):
        game.check(Done())
    with pytest.raises(NoBuildUnderWay):
        game.check(Place("N7"))
    game.apply(Build("red"))
    with pytest.raises(NothingPlaced):
        game.check(Done())
    with pytest.raises(BuildUnderWay):
        game.check(Trade("blue", "red", 1))
    with pytest.raises(BuildUnderWay):
        game.check(Build("blue"))


def test_a_build_ends_by_itself_at_five_locomotives():
    game = fixed_game()
    game.apply(Build("purple"))
    for hex_id in TO_MARSEILLE[:5]:
        events = game.apply(Place(hex_id))
    assert isinstance(events[-1], BuildCompleted) and len(events[-1].hexes) == 5
    assert not game.building and game.to_move == 1


def test_a_build_ends_by_itself_when_its_storage_board_is_empty():
    game = fixed_game(deal=dealt(3, red=9, blue=1))        # 27 red dealt: 4 left
    assert game.storage["red"] == 4
    game.apply(Build("red"))
    for hex_id in ("N7", "O7", "P7", "Q7"):
        events = game.apply(Place(hex_id))
    assert isinstance(events[-1], BuildCompleted) and game.storage["red"] == 0
    with pytest.raises(StorageEmpty):
        game.check(Build("red"))


def _fill(game, *hexes):
    """Hand-set full rural hexes (two colours that have no line there): a shortcut to
    positions that would take many builds to reach."""
    for hex_id in hexes:
        game.board[hex_id] = ["black", "brown"]
    game._legal_cache.clear()


def test_a_build_ends_by_itself_when_nothing_more_can_be_placed():
    game = fixed_game()
    _fill(game, "N7", "M6", "N8", "M9", "N9")       # red (M7) can go to M8 and no further
    game.apply(Build("red"))
    assert game.legal_hexes("red") == ("M8",)
    events = game.apply(Place("M8"))
    assert events[-1] == BuildCompleted(0, "red", ("M8",), 0, 0)
    assert not game.building and game.to_move == 1


def test_trade_rules():
    game = fixed_game(deal=dealt(3, red=9, blue=1))        # 4 red left on the storage board
    with pytest.raises(NotHeld):
        game.check(Trade("purple", "red", 1))
    with pytest.raises(SameColour):
        game.check(Trade("red", "red", 1))
    events = game.apply(Trade("red", "blue", 2))
    assert events == [Traded(0, "red", "blue", 2),
                      HoldingsChanged(0, {**dict.fromkeys(B.COMPANIES, 0), "red": 8, "blue": 3})]
    assert events[0].visible_to(None) and events[0].visible_to(2)
    assert not events[1].visible_to(None) and not events[1].visible_to(1) and events[1].visible_to(0)
    assert game.storage["red"] == 5 and game.storage["blue"] == 26


def test_a_trade_takes_two_only_from_a_board_holding_two():
    deal = [{"red": 7, "blue": 1}, {"red": 8}, {"red": 8}, {"red": 7, "blue": 1}]   # 30 red: 1 left
    game = fixed_game(players=4, deal=deal)
    with pytest.raises(NotEnoughInStorage, match="holds 1, not 2"):
        game.check(Trade("blue", "red", 2))
    game.apply(Trade("blue", "red", 1))
    assert game.storage["red"] == 0 and game.holdings[0]["red"] == 8


def test_only_the_player_to_move_acts_and_nothing_changes_on_refusal():
    game = fixed_game()
    before = (dict(game.storage), [dict(h) for h in game.holdings], len(game.log), list(game.moves))
    with pytest.raises(NotYourTurn):
        game.apply(Trade("blue", "red", 1), by=1)
    with pytest.raises(NotHeld):
        game.apply(Trade("purple", "red", 1))
    assert (dict(game.storage), [dict(h) for h in game.holdings], len(game.log), list(game.moves)) == before
    game.apply(Build("red"))
    with pytest.raises(NotAdjacent):
        game.apply(Place("J8"))
    assert game.draft_hexes == [] and "J8" not in game.board


def test_holding_penalty():
    game = fixed_game(players=6, deal=dealt(6, black=1))    # 5 each, limit 10
    gives = ("blue", "red", "yellow", "purple", "red", "yellow")
    takes = ("red", "yellow", "purple", "red", "yellow", "purple")
    for give, take in zip(gives, takes, strict=True):
        for _seat in range(6):
            game.apply(Trade(give, take, 2))
    assert sum(game.holdings[0].values()) == 11
    assert game.penalties() == (20,) * 6
    assert game.scores() == (-20,) * 6


def test_cycles_end_after_every_player_has_had_a_turn():
    game = fixed_game()
    events = []
    for _ in range(3):
        events += game.apply(Trade("blue", "red", 1))
    assert game.cycle == 2
    assert events[-1] == CycleEnded(1, dict.fromkeys(B.COMPANIES, 0))
    assert game.view().value_history == (dict.fromkeys(B.COMPANIES, 0),)


def _to_marseille(game, colour="purple"):
    """Purple builds along the rural way to Marseille, five at a time, whoever is to move."""
    for start in range(0, 10, 5):
        build(game, colour, *TO_MARSEILLE[start:start + 5])


def test_marseille_ends_the_game_mid_build():
    game = fixed_game(deal=dealt(3, red=2))
    _to_marseille(game)
    game.apply(Build("purple"))
    for hex_id in TO_MARSEILLE[10:13]:
        game.apply(Place(hex_id))
    events = game.apply(Place(TO_MARSEILLE[13]))           # the 4th locomotive of this build
    done = next(e for e in events if isinstance(e, BuildCompleted))
    assert done.hexes == TO_MARSEILLE[10:] and done.gain == 4
    assert game.finished and game.end_reason == "marseille" and game.values["purple"] == 4
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "marseille"
    with pytest.raises(GameIsOver):
        game.check(Trade("blue", "red", 1))


def test_shared_victory():
    game = fixed_game(deal=dealt(3, red=2))                # nobody holds purple: all score 0
    _to_marseille(game)
    build(game, "purple", *TO_MARSEILLE[10:])
    assert game.scores() == (0, 0, 0) and game.winners == (0, 1, 2)


def test_a_single_winner():
    deal = dealt(3, red=2)
    deal[1] = {"blue": 9, "purple": 1}
    game = fixed_game(deal=deal)
    _to_marseille(game)
    build(game, "purple", *TO_MARSEILLE[10:])
    assert game.scores() == (0, 4, 0) and game.winners == (1,)


def test_storage_end_comes_at_the_end_of_an_action():
    from pc_testkit import random_game

    game = next(g for g in (random_game(3, seed) for seed in range(50)) if g.end_reason == "storage")
    assert sum(1 for c in B.COMPANIES if game.storage[c]) <= 1
    *before, last = game.log
    assert isinstance(last, GameEnded) and last.reason == "storage"
    # Right after a whole action: a committed build, or a trade (and its private holdings).
    assert isinstance(before[-1], BuildCompleted) or isinstance(before[-2], Traded)


def test_skip_when_a_player_can_neither_build_nor_trade():
    # A legal deal cannot lead here (a trade never shrinks a screen), so the state is set by hand:
    # bob holds nothing, and only red and blue have locomotives left, both hemmed in.
    game = fixed_game()
    game.holdings[1] = dict.fromkeys(B.COMPANIES, 0)
    for colour in B.COMPANIES:
        game.storage[colour] = 0
    game.storage["red"], game.storage["blue"] = 5, 5
    _fill(game, "N7", "M6", "M8", "M5", "L5")               # around red (M7) and blue (L6)
    events = game.apply(Trade("blue", "red", 1))
    assert TurnSkipped(1) in events and game.to_move == 2
    assert game.view().screens[1] == 0
