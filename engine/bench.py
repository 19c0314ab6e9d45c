"""``python -m engine.bench``: how fast each game's engine plays and replays, on one core.

For each game it prints complete random games per second (setup from a seed, legal moves,
random choices from a ``random.Random``, every step and the final scoring, every event
through ``apply``) and game records replayed per second (``from_record``: validation,
setup, every move and all scoring). Each game's own engine state is measured, the fast
object behind its ``Match``. Paris Paris's replay is quiet and builds no events (the log is
rebuilt only if someone reads it). Paris Connection is also measured on its light playout
state (``Playout``: the same games, move for move, without events, checks or a record), the
state the strong AI searches on. A benchmark, not a test: it only measures and prints.
Each figure is measured in several short runs; the best run is the least disturbed by
other work on the machine, the median is printed next to it.

``--compare REV`` first runs the bench of git revision ``REV`` (its ``engine`` package, taken
with ``git archive`` into a temporary directory) in a subprocess, so that the figures before
and after a change are printed by one command on the machine in the same state; ``REV`` may
also be the path of another checkout, whose bench then runs as it is there. ``--game`` limits
the figures to some games (an older bench measures them all; only their lines are printed).
``--parts`` prints where Papà Paolo's replay and random games spend their time instead.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from .papa_paolo import record as papa_record
from .papa_paolo.game import Game as PapaGame
from .papa_paolo.stepper import apply_step, legal_steps
from .paris_connection import record as connection_record
from .paris_connection.game import Game as ConnectionGame
from .paris_connection.playout import Playout
from .paris_paris.game import Game
from .paris_paris.record import from_record, to_record

PLAYERS = ("ann", "bob", "cat", "dan")
# Each game's id, as the start of its lines (what ``--compare`` keeps of an older bench's output).
LABELS = {"paris-paris": "Paris Paris,", "paris-connection": "Paris Connection,", "papa-paolo": "Papà Paolo,"}


def play_random(seed: int, players=PLAYERS) -> Game:
    """One complete game of Paris Paris with uniformly random legal moves."""
    rng = random.Random(seed)
    game = Game.new(players, seed=seed)
    while not game.finished:
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    return game


def play_random_connection(seed: int, players=PLAYERS) -> ConnectionGame:
    """One complete game of Paris Connection with uniformly random legal steps."""
    rng = random.Random(seed)
    game = ConnectionGame.new(players, seed=seed)
    while not game.finished:
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    return game


def play_random_papa(seed: int, players=PLAYERS) -> PapaGame:
    """One complete game of Papà Paolo with uniformly random legal steps (every seat in a
    simultaneous phase in turn)."""
    rng = random.Random(seed)
    game = PapaGame.new(players, seed=seed)
    while not game.finished:
        seat = game.to_act()[0]
        steps = legal_steps(game, seat)
        apply_step(game, seat, steps[int(rng.random() * len(steps))])
    return game


def play_random_playout(seed: int, players=PLAYERS) -> Playout:
    """The game ``play_random_connection`` plays (the same choices), on the playout state."""
    rng = random.Random(seed)
    game = Playout.of(ConnectionGame.new(players, seed=seed))
    while not game.finished:
        actions = game.legal_actions()
        game.advance(actions[int(rng.random() * len(actions))])
    return game


def _compare(rev: str, seconds: float, runs: int, games: list[str]) -> None:
    """Run the bench of git revision (or checkout path) ``rev`` in a subprocess and print its
    lines for ``games``."""
    command = [sys.executable, "-m", "engine.bench", "--seconds", str(seconds), "--runs", str(runs)]
    if os.path.isdir(rev):
        out = subprocess.run(command, cwd=rev, check=True, capture_output=True, text=True).stdout
    else:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", rev, "engine"], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            out = subprocess.run(command, cwd=tmp, check=True, capture_output=True, text=True).stdout
    print(f"--- {rev} (before) ---")
    print("".join(line for line in out.splitlines(keepends=True) if line.startswith(tuple(LABELS[g] for g in games))),
          end="")
    print("--- this tree (after) ---")


def _rates(work, batch: int, seconds: float, runs: int) -> list[float]:
    """Items per second in ``runs`` runs of about ``seconds`` each."""
    rates = []
    for _ in range(runs):
        done = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            work()
            done += batch
        rates.append(done / elapsed)
    return rates


def _print(label: str, rates: list[float], args) -> None:
    print(f"{label + ':':45} {max(rates):8,.1f}/s best, {statistics.median(rates):8,.1f}/s median "
          f"({args.runs} runs of {args.seconds:g} s, one core)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.bench")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure")
    parser.add_argument("--compare", metavar="REV",
                        help="first run the bench of this git revision, or of the checkout at this path")
    parser.add_argument("--game", action="append", choices=list(LABELS),
                        help="measure only this game (repeatable; default: every game)")
    parser.add_argument("--parts", action="store_true",
                        help="where Papà Paolo's replay and random games spend their time")
    args = parser.parse_args(argv)
    if args.parts:
        _papa_parts(args)
        return
    games = args.game or list(LABELS)
    if args.compare:
        _compare(args.compare, args.seconds, args.runs, games)
    seeds = iter(range(10**9))
    if "paris-paris" in games:
        _bench_paris(seeds, args)
    if "paris-connection" in games:
        _bench_connection(seeds, args)
    if "papa-paolo" in games:
        _bench_papa(seeds, args)


def _bench_paris(seeds, args) -> None:
    games = _rates(lambda: [play_random(next(seeds)) for _ in range(20)], 20, args.seconds, args.runs)
    records = [to_record(play_random(10**9 + i)) for i in range(200)]
    replays = _rates(lambda: [from_record(r) for r in records], len(records), args.seconds, args.runs)
    _print("Paris Paris, random 4-player games", games, args)
    _print("Paris Paris, 4-player records replayed", replays, args)


def _bench_connection(seeds, args) -> None:
    # Paris Connection games are about 50 times longer (every placement is a step).
    games = _rates(lambda: [play_random_connection(next(seeds))], 1, args.seconds, args.runs)
    records = [connection_record.to_record(play_random_connection(10**9 + i)) for i in range(20)]
    replays = _rates(lambda: [connection_record.from_record(r) for r in records], len(records),
                     args.seconds, args.runs)
    playouts = _rates(lambda: [play_random_playout(next(seeds))], 1, args.seconds, args.runs)
    _print("Paris Connection, random 4-player games", games, args)
    _print("Paris Connection, the same on the playout state", playouts, args)
    _print("Paris Connection, 4-player records replayed", replays, args)


def _bench_papa(seeds, args) -> None:
    games = _rates(lambda: [play_random_papa(next(seeds))], 1, args.seconds, args.runs)
    records = [papa_record.to_record(play_random_papa(10**9 + i)) for i in range(20)]
    replays = _rates(lambda: [papa_record.from_record(r) for r in records], len(records), args.seconds, args.runs)
    _print("Papà Paolo, random 4-player games", games, args)
    _print("Papà Paolo, 4-player records replayed", replays, args)



def _papa_parts(args) -> None:
    """Where a Papà Paolo replay and a random game spend their time: the parts a replay cannot do
    without (its set-up, reading each move's JSON into a move, writing the moves' texts) against
    the whole; the steps listed against the steps applied (checked) in random games. Best runs."""
    records = [papa_record.to_record(play_random_papa(10**9 + i)) for i in range(20)]
    moves = [phased for r in records for phased in _moves_by_phase(r)]

    def best(work) -> float:
        return min(_timed(work) for _ in range(args.runs * 3)) / len(records) * 1000

    whole = best(lambda: [papa_record.from_record(r) for r in records])
    setup = best(lambda: [papa_record.game_from_setup(r) for r in records])
    reading = best(lambda: [papa_record.parse_move(phase, data) for phase, data in moves])
    texts = best(lambda: [papa_record.write_moves(r["moves"]) for r in records])
    print(f"Papà Paolo, a 4-player record replayed: {whole:.2f} ms ({len(moves) / len(records):.0f} moves): "
          f"set-up {setup:.3f}, reading the moves {reading:.3f}, writing their texts {texts:.3f}, "
          f"checking and applying them with their events {whole - setup - reading - texts:.3f}")
    spent = [0.0, 0.0]
    games = 20 * args.runs
    for seed in range(games):
        _play_random_papa_timed(seed, spent)
    print(f"Papà Paolo, a random 4-player game: listing the steps {spent[0] / games * 1000:.2f} ms, "
          f"applying the chosen ones (checked) {spent[1] / games * 1000:.2f} ms (the clock read around each)")


def _moves_by_phase(record) -> list[tuple]:
    """Each move of ``record`` as ``parse_move`` reads it: the phase it is made in, its JSON object."""
    game = papa_record.game_from_setup(record)
    seats = {name: seat for seat, name in enumerate(game.players)}
    out = []
    for move in record["moves"]:
        data = {k: v for k, v in move.items() if k != "player"}
        out.append((game.phase, data))
        papa_record.play_move(game, seats[move["player"]], data)
    return out


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _play_random_papa_timed(seed: int, spent: list[float]) -> None:
    """``play_random_papa(seed)``, adding the seconds spent listing and applying steps to ``spent``."""
    rng = random.Random(seed)
    game = PapaGame.new(PLAYERS, seed=seed)
    clock = time.perf_counter
    while not game.finished:
        seat = game.to_act()[0]
        start = clock()
        steps = legal_steps(game, seat)
        listed = clock()
        apply_step(game, seat, steps[int(rng.random() * len(steps))])
        spent[0] += listed - start
        spent[1] += clock() - listed


if __name__ == "__main__":
    main()
