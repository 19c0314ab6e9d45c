"""``python -m engine.arena``: two AI configurations play many games; a benchmark, not a test.

    python -m engine.arena --game paris-paris --a strong --b normal --players 2 --games 400 --jobs 2
    python -m engine.arena --game paris-connection --table --players 4 --games 40 --iterations 60

A configuration is one of the game's AI levels or ``random`` (uniformly random legal moves).
One seat plays A and the others B. Deals are paired: each deal (a seed) is played once with A
in every seat, so both sides meet the same tiles from every seat and luck of the deal cancels
out. ``--games`` is rounded up to whole deals.

Printed: A's win rate (a shared victory counts half) with its 95% Wilson interval, beside the
even mark (1/players); A's mean score minus the mean score of the B seats; think time per move
p50/p99 for each side; and, before the games, how many playouts a second the strong search
makes beside how many random games a second the engine plays, on this machine now. With
``--progress K`` a line with the running figures follows every K games. ``--table`` plays each of
the game's levels against the next weaker one (the weakest against random) and ends with a
markdown table of the results.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .registry import GAMES

RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Side:
    level: str                          # an AI level of the game, or "random"
    budget: float | int | None = None   # for searching levels


@dataclass(frozen=True, slots=True)
class Task:
    game: str
    players: int
    deal: int          # the deal's seed
    a_seat: int
    a: Side
    b: Side


@dataclass(frozen=True, slots=True)
class Outcome:
    a_seat: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    a_times: tuple[float, ...]          # seconds per move
    b_times: tuple[float, ...]

    @property
    def a_share(self) -> float:
        return 1 / len(self.winners) if self.a_seat in self.winners else 0.0

    @property
    def margin(self) -> float:
        others = [s for seat, s in enumerate(self.scores) if seat != self.a_seat]
        return self.scores[self.a_seat] - sum(others) / len(others)


def play(task: Task) -> Outcome:
    """One game of the task's deal with A in ``a_seat``."""
    definition = GAMES[task.game]
    names = [f"p{i}" for i in range(task.players)]
    match = definition.new_match(names, seed=task.deal)
    rng = random.Random(task.deal * 7 + task.a_seat)
    times: dict[bool, list[float]] = {True: [], False: []}
    while not match.is_terminal():
        seat = match.to_act()[0]      # a simultaneous phase: its seats one after another
        side = task.a if seat == task.a_seat else task.b
        start = time.perf_counter()
        if side.level == RANDOM:
            choices = match.legal_choices(seat)
            choice = choices[int(rng.random() * len(choices))]
        else:
            seed = (task.deal * 4 + task.a_seat) * 1000 + match.move_count
            choice = definition.choose(match, seat, seed=seed, level=side.level, budget=side.budget)
        times[seat == task.a_seat].append(time.perf_counter() - start)
        match.apply(choice, by=seat)
    return Outcome(task.a_seat, match.returns(), match.winners, tuple(times[True]), tuple(times[False]))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(outcomes: list[Outcome], players: int, a: str, b: str) -> str:
    n = len(outcomes)
    wins = sum(o.a_share for o in outcomes)
    low, high = wilson(wins, n)
    margin = statistics.fmean(o.margin for o in outcomes) if outcomes else 0.0
    a_times = [t for o in outcomes for t in o.a_times]
    b_times = [t for o in outcomes for t in o.b_times]
    return (f"{n} games: A ({a}) wins {wins / max(n, 1):.1%} [95% CI {low:.1%}-{high:.1%}] "
            f"(even: {1 / players:.0%}); mean score A - B {margin:+.2f}; think time per move "
            f"A p50 {percentile(a_times, 0.5) * 1000:.1f} ms p99 {percentile(a_times, 0.99) * 1000:.1f} ms, "
            f"B ({b}) p50 {percentile(b_times, 0.5) * 1000:.1f} ms p99 {percentile(b_times, 0.99) * 1000:.1f} ms")


def speeds(game: str, players: int, seconds: float = 1.0) -> str:
    """The strong search's playouts a second beside the engine's random games a second."""
    if game == "paris-connection":
        return _connection_speeds(players, seconds)
    if game == "papa-paolo":
        return _papa_speeds(players, seconds)
    if game != "paris-paris":
        return ""
    from .bench import play_random
    from .paris_paris.ai_search import Knowledge, search
    from .paris_paris.game import Game

    names = [f"p{i}" for i in range(players)]
    games = _random_games_per_second(play_random, names, seconds)
    playouts = []
    for seed in range(3):     # the searches of a move early, midway and late in a game
        position = Game.new(names, seed=seed)
        for _ in range(len(position.stacks) * players * seed // 3):
            position.apply(position.legal_actions()[0])
        seat = position.current_player
        start = time.perf_counter()
        found = search(Knowledge.of(position.view(seat), position.log_for(seat)), seed=seed,
                       budget=seconds / 3)
        playouts.append(found.playouts / (time.perf_counter() - start))
    return (f"engine: {games:,.0f} random {players}-player games/s; strong search: "
            f"{statistics.fmean(playouts):,.0f} playouts/s (early/mid/late "
            f"{'/'.join(f'{p:,.0f}' for p in playouts)}), one core")


def _random_games_per_second(play, names: list[str], seconds: float) -> float:
    """How many random games ``play(seed, names)`` plays a second, over about ``seconds``."""
    start, done = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        play(done, names)
        done += 1
    return done / (time.perf_counter() - start)


def _connection_speeds(players: int, seconds: float) -> str:
    from .bench import play_random_playout
    from .paris_connection.ai_search import Knowledge, search
    from .paris_connection.definition import own

    names = [f"p{i}" for i in range(players)]
    games = _random_games_per_second(play_random_playout, names, seconds)
    definition = GAMES["paris-connection"]
    playouts = []
    for moves in (0, 60, 120):    # the searches of a turn early, midway and late in a game
        match = own(definition.new_match(names, seed=moves))
        while match.move_count < moves or match.state.building:
            (seat,) = match.to_act()
            match.apply(definition.choose(match, seat, seed=match.move_count), by=seat)
        (seat,) = match.to_act()
        start = time.perf_counter()
        found = search(Knowledge.of(match.view(seat), match.log_for(seat)), match.state.legal_actions(),
                       seed=moves, budget=seconds / 3)
        playouts.append(found.playouts / (time.perf_counter() - start))
    return (f"engine: {games:,.0f} random {players}-player games/s (playout state); strong search: "
            f"{statistics.fmean(playouts):,.0f} playouts/s (early/mid/late "
            f"{'/'.join(f'{p:,.0f}' for p in playouts)}), one core")


def _papa_speeds(players: int, seconds: float) -> str:
    """Papà Paolo's strong search rolls out with the normal AI to the round's end: its playouts a
    second at the first decision of rounds 1, 3 and 5 (a phase-1 space: the longest rollouts)."""
    from .papa_paolo.ai_search import Knowledge, search
    from .papa_paolo.definition import own
    from .papa_paolo.stepper import without_shortcuts

    definition = GAMES["papa-paolo"]
    names = [f"p{i}" for i in range(players)]
    playouts = []
    for round_ in (1, 3, 5):
        match = own(definition.new_match(names, seed=round_))
        while match.view(None).round < round_:
            seat = match.to_act()[0]
            match.apply(definition.choose(match, seat, seed=match.move_count), by=seat)
        seat = match.to_act()[0]
        # The search weighs the choices the AIs see: none of a person's shortcuts.
        choices = without_shortcuts(match.state, seat, match.legal_choices(seat))
        start = time.perf_counter()
        found = search(Knowledge.of(match.view(seat), match.log_for(seat)), choices,
                       seed=round_, budget=seconds / 3)
        playouts.append(found.playouts / (time.perf_counter() - start))
    return (f"strong search: {statistics.fmean(playouts):,.1f} playouts/s to the round's end at a round's "
            f"first decision (rounds 1/3/5: {'/'.join(f'{p:,.1f}' for p in playouts)}), one core")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena")
    parser.add_argument("--game", default="paris-paris", choices=sorted(GAMES))
    parser.add_argument("--a", help="A's level, or random")
    parser.add_argument("--b", help="B's level, or random")
    parser.add_argument("--table", action="store_true",
                        help="instead of --a/--b: each level against the next weaker one (and random), "
                             "as a markdown table")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--budget", type=float, help="seconds a move for searching levels")
    parser.add_argument("--iterations", type=int, help="iterations a move for searching levels (not with --budget)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--progress", type=int, default=0, help="print running figures every K games")
    args = parser.parse_args(argv)
    definition = GAMES[args.game]
    if args.table:
        levels = (*definition.ai_levels[::-1], RANDOM)         # ai_levels run from the weakest
        pairs = list(zip(levels, levels[1:], strict=False))
    elif args.a and args.b:
        pairs = [(args.a, args.b)]
    else:
        parser.error("give --a and --b, or --table")
    for level in {level for pair in pairs for level in pair}:
        if level != RANDOM and level not in definition.ai_levels:
            parser.error(f"{level!r} is not a level of {definition.name}: "
                         f"{', '.join(definition.ai_levels)} or {RANDOM}")
    if not definition.min_players <= args.players <= definition.max_players:
        parser.error(f"{definition.name} is played by {definition.min_players} to {definition.max_players}")
    if args.budget is not None and args.iterations is not None:
        parser.error("give --budget or --iterations, not both")
    budget = args.budget if args.budget is not None else args.iterations
    rows = [(a, b, duel(args, definition, Side(a, budget), Side(b, budget))) for a, b in pairs]
    if args.table:
        print(f"\n| A vs B ({definition.name}, {args.players} players, budget "
              f"{'default' if budget is None else budget}) | games | A wins [95% CI] | even | mean score A - B |")
        print("|---|---|---|---|---|")
        for a, b, outcomes in rows:
            n = len(outcomes)
            wins = sum(o.a_share for o in outcomes)
            low, high = wilson(wins, n)
            margin = statistics.fmean(o.margin for o in outcomes)
            print(f"| {a} vs {b} | {n} | {wins / n:.1%} [{low:.1%}-{high:.1%}] | {1 / args.players:.0%} "
                  f"| {margin:+.2f} |")
    return 0


def duel(args, definition, a: Side, b: Side) -> list[Outcome]:
    """Play A against B over ``args.games`` games (whole deals) and print the summary."""
    deals = math.ceil(args.games / args.players)
    tasks = [Task(args.game, args.players, args.seed + d, seat, a, b)
             for d in range(deals) for seat in range(args.players)]
    print(f"{definition.name}, {args.players} players: A = {a.level}, B = {b.level} "
          f"({'one A against ' + str(args.players - 1) + ' B' if args.players > 2 else 'seats rotated'}), "
          f"{len(tasks)} games from {deals} deals (seeds {args.seed}-{args.seed + deals - 1}), "
          f"budget {'default' if a.budget is None else a.budget}, {args.jobs} job(s)", flush=True)
    if "strong" in (a.level, b.level):
        line = speeds(args.game, args.players)
        if line:
            print(line, flush=True)
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for outcome in pool.map(play, tasks, chunksize=1):
            outcomes.append(outcome)
            if args.progress and len(outcomes) % args.progress == 0 and len(outcomes) < len(tasks):
                print("  so far: " + summary(outcomes, args.players, a.level, b.level), flush=True)
    print(summary(outcomes, args.players, a.level, b.level), flush=True)
    return outcomes


if __name__ == "__main__":
    sys.exit(main())
