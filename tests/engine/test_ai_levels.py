"""AI levels through the game interface: easy, normal and strong (the search).

Playing strength against each other is measured by ``python -m engine.arena`` (docs/ai.md);
here: legal moves, determinism, blindness to what the seat cannot see, and the easy level's
place between random and normal on fixed deals.
"""

import random

import pytest

from engine.paris_paris import Game
from engine.paris_paris.ai import move_values, unseen_tiles_in
from engine.paris_paris.ai_search import EXPAND_AFTER, Knowledge, _iterate, _Node, search
from engine.paris_paris.board import COLOUR_INDEX, COLOURS
from engine.paris_paris.definition import GAME, ParisParisMatch
from engine.paris_paris.record import to_record

NAMES = ["ann", "bob", "cat", "dan"]


def _match_after(players: int, seed: int, moves: int) -> ParisParisMatch:
    """A match after ``moves`` normal-AI moves (evictions and a bag happen on the way)."""
    match = GAME.new_match(NAMES[:players], seed=seed)
    for i in range(moves):
        (seat,) = match.to_act()
        match.apply(GAME.choose(match, seat, seed=i), by=seat)
    return match


def test_the_levels():
    assert GAME.ai_levels == ("easy", "normal", "strong")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_every_level_gives_a_legal_move(level):
    match = _match_after(3, seed=4, moves=10)
    (seat,) = match.to_act()
    choice = GAME.choose(match, seat, seed=1, level=level, budget=12 if level == "strong" else None)
    assert choice in match.legal_choices(seat)


def test_unknown_level_and_wrong_seat_are_refused():
    match = _match_after(2, seed=1, moves=0)
    (seat,) = match.to_act()
    with pytest.raises(ValueError, match="unknown AI level 'grandmaster'"):
        GAME.choose(match, seat, seed=1, level="grandmaster")
    with pytest.raises(ValueError, match="is not to move"):
        GAME.choose(match, 1 - seat, seed=1, level="strong", budget=5)


@pytest.mark.parametrize("budget", [0, -1.0, "1", True])
def test_a_budget_is_seconds_or_iterations(budget):
    match = _match_after(2, seed=2, moves=3)
    (seat,) = match.to_act()
    with pytest.raises(ValueError, match="a budget is a number of seconds"):
        GAME.choose(match, seat, seed=1, level="strong", budget=budget)


def test_a_time_budget_gives_a_legal_move():
    match = _match_after(2, seed=3, moves=5)
    (seat,) = match.to_act()
    assert GAME.choose(match, seat, seed=1, level="strong", budget=0.05) in match.legal_choices(seat)


def test_strong_is_deterministic_for_a_seed_and_iteration_budget():
    match = _match_after(2, seed=6, moves=12)
    (seat,) = match.to_act()
    knowledge = Knowledge.of(match.view(seat), match.log_for(seat))
    first = search(knowledge, seed=9, budget=40)
    again = search(knowledge, seed=9, budget=40)
    assert first == again
    assert first.playouts >= 40


def _disguised(match: ParisParisMatch, seat: int, rng: random.Random) -> ParisParisMatch:
    """The same game with everything ``seat`` cannot see changed, consistently with what it saw:
    the other players' markers (from the colours it cannot see), and the face-down stacks (the
    tiles not yet revealed dealt again, in a new order and a new split into stacks). The bag
    follows from the moves, whose evictions are public, so it stays as it is."""
    game = match.state
    record = to_record(game)
    names = record["players"]
    own = record["markers"][names[seat]]
    free = [c for c in COLOURS if c != own and c != record["open_marker"]]
    real = [record["markers"][name] for i, name in enumerate(names) if i != seat]
    others = real
    while others == real:
        others = rng.sample(free, len(names) - 1)
    record["markers"] = {name: own if i == seat else others.pop() for i, name in enumerate(names)}
    face_down = [tile for stack in record["stacks"][game.round:] for tile in stack]
    rng.shuffle(face_down)
    size = len(names) + 1
    record["stacks"][game.round:] = [face_down[i:i + size] for i in range(0, len(face_down), size)]
    return GAME.from_record(record)


@pytest.mark.parametrize(("players", "moves"), [(2, 9), (3, 20), (4, 25)])
def test_strong_sees_only_its_seats_view(players, moves):
    match = _match_after(players, seed=players, moves=moves)
    (seat,) = match.to_act()
    rng = random.Random(players)
    other = _disguised(match, seat, rng)
    game, hidden = match.state, other.state
    # The disguise changed what the seat cannot see ...
    assert hidden.stacks[game.round:] != game.stacks[game.round:]
    assert [m for s, m in enumerate(hidden.markers) if s != seat] != \
        [m for s, m in enumerate(game.markers) if s != seat]
    assert hidden.markers[seat] == game.markers[seat]
    if players > 2:
        assert sum(game.bag) > 0 and hidden.bag == game.bag
    # ... and nothing it can see; so the search knows the same, and plays the same.
    assert other.view(seat) == match.view(seat)
    assert Knowledge.of(other.view(seat), other.log_for(seat)) == \
        Knowledge.of(match.view(seat), match.log_for(seat))
    assert GAME.choose(other, seat, seed=5, level="strong", budget=30) == \
        GAME.choose(match, seat, seed=5, level="strong", budget=30)


def test_a_determinization_agrees_with_the_seats_view():
    match = _match_after(3, seed=8, moves=17)
    (seat,) = match.to_act()
    knowledge = Knowledge.of(match.view(seat), match.log_for(seat))
    for i in range(5):
        game = knowledge.determinize(random.Random(i))
        assert game.view(seat) == match.view(seat)
        assert game.markers[seat] == match.state.markers[seat]
        assert len(set(game.markers)) == 3 and COLOUR_INDEX[match.view(seat).marker] == game.markers[seat]
        assert sorted(c for s in game.stacks[game.round:] for c in s) == \
            sorted(c for s in match.state.stacks[match.state.round:] for c in s)
        assert game.bag == match.state.bag
        assert game.legal_actions() == match.state.legal_actions()


def test_below_the_root_the_other_seats_play_the_normal_ai_s_move():
    """The tree searches the seat's own moves only: on one determinization, the opponent's reply
    to a root move is always the normal AI's move, however often the node is visited."""
    match = _match_after(2, seed=6, moves=12)
    (seat,) = match.to_act()
    assert match.state.picks == 0          # the seat picks first: the opponent answers in the round
    sample = Knowledge.of(match.view(seat), match.log_for(seat)).determinize(random.Random(3))
    root_move = sample.legal_actions()[0]
    after = sample.copy()
    after.advance(root_move)
    values = move_values(after, unseen=unseen_tiles_in(after.stacks[after.round:]))
    best = max(value for _, value in values)
    replies = [action for action, value in values if value == best]
    assert len(replies) == 1 and len(values) > 1
    top = _Node()
    for i in range(5 * EXPAND_AFTER):
        _iterate(top, after.copy(), random.Random(i), seat)
    assert top.visits == 5 * EXPAND_AFTER
    assert list(top.children) == replies


def _duel(players: int, a: str, b: str, deals: int) -> float:
    """A's share of wins against B, one A seat, seats rotated over each deal."""
    wins = 0.0
    for deal in range(deals):
        for a_seat in range(players):
            match = GAME.new_match(NAMES[:players], seed=1000 + deal)
            rng = random.Random(deal)
            while not match.is_terminal():
                (seat,) = match.to_act()
                level = a if seat == a_seat else b
                if level == "random":
                    choice = rng.choice(match.legal_choices(seat))
                else:
                    choice = GAME.choose(match, seat, seed=deal * 1000 + match.move_count, level=level)
                match.apply(choice, by=seat)
            if a_seat in match.winners:
                wins += 1 / len(match.winners)
    return wins / (deals * players)


def test_easy_beats_random_and_loses_to_normal():
    assert _duel(2, "easy", "random", deals=15) >= 0.8
    assert _duel(2, "normal", "easy", deals=30) >= 0.55


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_sampled_with_the_real_secrets_plays_on_as_the_real_game(players):
    match = _match_after(players, seed=10 + players, moves=7 * players)
    game = match.state
    seat = game.current_player
    knowledge = Knowledge.of(match.view(seat), match.log_for(seat))
    sampled = Game.sampled(match.view(seat), stacks=list(game.stacks), markers=game.markers, bag=knowledge.bag)
    rng = random.Random(players)
    while not game.is_terminal():
        actions = game.legal_actions()
        assert sampled.legal_actions() == actions
        action = rng.choice(actions)
        game.apply(action)
        sampled.advance(action)
    assert sampled.is_terminal() and sampled.scores == game.scores and sampled.winners == game.winners


@pytest.mark.parametrize("game, players", [("paris-paris", 2), ("paris-connection", 3), ("papa-paolo", 2)])
def test_the_arenas_speed_line_runs_for_every_searching_game(game, players):
    """The arena's first line measures the strong search on positions of its own: it must play
    them with the AIs' choices (Papà Paolo's crashed once on a person's shortcut)."""
    from engine.arena import speeds

    line = speeds(game, players, 0.1)
    assert "strong search:" in line and "playouts/s" in line
