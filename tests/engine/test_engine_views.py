"""Per-player views and redacted logs (RULES.md, "Hidden information")."""

from engine_testkit import deal, of_type, play_round, random_game, tile

from engine.paris_paris import COLOURS
from engine.paris_paris.events import MarkerDealt, MarkersRevealed, ShopEvicted

THREE = ["ann", "bob", "cat"]


def test_public_view_shows_the_public_state_only():
    game = deal(THREE, [(["madeleine/red", "tour-eiffel/blue", "arc-de-triomphe/red"], "belleville/yellow"),
                        (["madeleine/red", "invalides/blue", "bastille/blue"], "place-d-italie/green")],
                markers=["green", "red", "blue"])
    play_round(game, ["madeleine/red", "tour-eiffel/blue", "arc-de-triomphe/red"])
    game.apply(game.legal_actions()[0], by=1)          # bob evicts ann at Madeleine: into the bag
    view = game.view()
    assert view.viewer is None and view.marker is None and view.markers is None and view.bag is None
    assert view.players == tuple(THREE) and view.num_players == 3
    assert view.round == 2 and view.rounds == 3 and view.stacks_left == 1
    assert view.bus == 1 and view.to_move == 2
    assert view.board == {"madeleine": (1,), "tour-eiffel": (1,), "arc-de-triomphe": (2,)}
    assert view.offer == (tile("invalides/blue"), tile("bastille/blue"), tile("place-d-italie/green"))
    assert view.discard == {"green": None, "red": None, "blue": None, "purple": None,
                            "yellow": tile("belleville/yellow")}
    assert view.scores == (0, 0, 0) and view.score_history == ((0, 0, 0),)
    assert not view.finished and view.winners == ()
    # The eviction itself is public (everyone saw the shop go into the bag); the bag is not shown.
    assert of_type(game.log_for(None), ShopEvicted) == [ShopEvicted("madeleine", 0, 1, "bag")]


def test_each_seat_sees_its_own_marker_only():
    game = random_game(THREE, seed=8, upto=10)
    for seat in range(3):
        view = game.view(seat)
        assert view.viewer == seat
        assert view.marker == COLOURS[game.markers[seat]]
        dealt = of_type(game.log_for(seat), MarkerDealt)
        assert dealt == [MarkerDealt(seat, view.marker)]
        assert all(e.private_to in (None, seat) for e in game.log_for(seat))
    assert not of_type(game.log_for(None), MarkerDealt)
    assert len(game.log_for(None)) == len(game.log) - 3


def test_everything_is_revealed_at_the_end():
    game = random_game(THREE, seed=9)
    public = game.view()
    assert public.finished and public.to_move is None
    assert public.markers == tuple(COLOURS[c] for c in game.markers)
    assert public.bag == tuple(game.bag)
    assert public.winners == game.winners
    (revealed,) = of_type(game.log_for(None), MarkersRevealed)
    assert revealed.markers == public.markers and revealed.private_to is None


def test_apply_returns_exactly_the_new_log_entries():
    game = random_game(["ann", "bob"], seed=4, upto=0)
    while not game.is_terminal():
        before = len(game.log)
        events = game.apply(game.legal_actions()[-1])
        assert game.log[before:] == events
