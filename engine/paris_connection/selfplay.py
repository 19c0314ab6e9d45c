"""``python -m engine.paris_connection.selfplay``: how games between AIs go, to tune the map.

For 3, 4, 5 and 6 players it plays AI-against-AI games and prints the game length in
actions (a build or a trade; a build's steps count once) per player, how often each end
condition ended the game, and the spread of final company values. With ``--vs-random`` it
instead seats one AI among uniformly random players and prints the AI's win rate. A
measuring script, not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter

from engine.interface import Choice

from .ai import choose
from .definition import GAME, ConnectionMatch, own
from .events import BuildCompleted, Traded


def play(players: int, seed: int, *, ai_seats: set[int]) -> ConnectionMatch:
    """One game from ``seed``: the AI plays ``ai_seats``, uniformly random choices the others."""
    match = own(GAME.new_match([f"p{i}" for i in range(players)], seed=seed))
    rng = random.Random(seed)
    while not match.is_terminal():
        seat = match.to_act()[0]
        choice: Choice
        if seat in ai_seats:
            choice = choose(match, seat, seed=rng.randrange(1 << 30))
        else:
            choices = match.legal_choices(seat)
            choice = choices[int(rng.random() * len(choices))]
        match.apply(choice, by=seat)
    return match


def actions_of(match) -> int:
    return sum(isinstance(e, BuildCompleted | Traded) for e in match.log)


def self_play(players: int, games: int, first_seed: int) -> None:
    lengths, spreads, tops, builds = [], [], [], []
    ends: Counter[str | None] = Counter()
    for i in range(games):
        match = play(players, first_seed + i, ai_seats=set(range(players)))
        game = match.state
        lengths.append(actions_of(match) / players)
        builds.append(sum(isinstance(e, BuildCompleted) for e in match.log) / players)
        ends[game.end_reason] += 1
        values = sorted(game.values.values())
        spreads.append(values[-1] - values[0])
        tops.append(values[-1])
    share = ", ".join(f"{reason} {count / games:.0%}" for reason, count in sorted(ends.items()))
    print(f"{players} players, {games} AI games: {statistics.mean(lengths):.1f} actions a player "
          f"(median {statistics.median(lengths):.1f}, {min(lengths):.1f}-{max(lengths):.1f}; "
          f"{statistics.mean(builds):.1f} of them builds); ended by {share}; final values: top company "
          f"{statistics.mean(tops):.1f}, top minus bottom {statistics.mean(spreads):.1f} "
          f"({min(spreads)}-{max(spreads)})")


def versus_random(players: int, games: int, first_seed: int) -> None:
    wins = 0
    for i in range(games):
        seat = i % players
        match = play(players, first_seed + i, ai_seats={seat})
        wins += seat in match.winners
    print(f"{players} players: 1 AI among random players won {wins}/{games} games ({wins / games:.0%}; "
          f"a random seat would win about {1 / players:.0%})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.paris_connection.selfplay")
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--vs-random", action="store_true", help="one AI against random players")
    args = parser.parse_args(argv)
    for players in args.players:
        (versus_random if args.vs_random else self_play)(players, args.games, args.seed)


if __name__ == "__main__":
    main()
