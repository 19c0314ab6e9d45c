"""``python -m bot.bench``: how fast the service handles moves and restores stored games.

Prints, for games stored in SQLite (a temporary file, WAL, one connection):
  * handling one move (``GameService.press``: validate, apply, build the outbox messages
    and timers, commit; no network, no delivery): p50 / p99 / max over every move of
    1,000 concurrent three-player games, both one move at a time across all games and
    with all 1,000 games pressing at once (then a move also waits for the others' commits);
  * restoring 10,000 stored games at start: opening the service (lazy: games load on first
    use), the first use of one game, and loading all 10,000 eagerly (``restore_all``): the
    games are written without snapshots, so the first eager restore replays every record of
    ``store.SNAPSHOT_EVERY`` moves or more and stores its snapshot (as after an upgrade), the
    second reads the snapshots back; then the first use of one game read back from its snapshot.
Targets (issue 4): p99 <= 10 ms per move; restore <= 3 s (issue 44: lazy first use of one game <= 2 ms).

With ``--compare REV`` it runs the bench of git revision ``REV`` (its ``bot``, ``engine`` and
``renderers`` packages, taken with ``git archive`` into a temporary directory; or the path of
another checkout) and this tree's, each in a subprocess of this Python, in turns (``--repeat``
times each), and prints both outputs and a table of the figures side by side: the machine is in
the same state for both, which matters on a shared one (the load average is printed too).

With ``--database-url postgresql://...`` it measures several bot processes instead
(``bench_processes``): 1,000 three-player games are set up in a fresh schema (dropped
afterwards), then 1, 2 and 3 OS processes, each a ``GameService`` with its share of the
games, play a round in every game, 16 players per process pressing at once; it prints
moves/s (all processes together, wall time) and the p50/p99 of one move (the presses,
which include the version check and the commit) for each, beside the same run on SQLite
in one process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial

from bot.contract import Chat, User
from bot.games import DEFAULT, kind
from bot.service import GameService
from bot.service.storage.sqlite import SqliteStorage
from engine.interface import Match


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _line(name: str, ms: list[float]) -> str:
    return (f"{name}: n={len(ms)} p50={_pct(ms, 50):.2f} ms  p99={_pct(ms, 99):.2f} ms  "
            f"max={max(ms):.2f} ms  mean={statistics.fmean(ms):.2f} ms")


async def _setup_games(service: GameService, count: int) -> list[tuple[Chat, dict[str, User]]]:
    games = []
    for n in range(count):
        c = Chat("bench", f"chat{n}", f"Bench {n}")
        users = {u.id: u for u in (User("bench", f"a{n}", f"Ann{n}"), User("bench", f"b{n}", f"Bob{n}"),
                                   User("bench", f"c{n}", f"Cat{n}"))}
        first, *rest = users.values()
        await service.new_game(c, first, options={"seed": n})
        for u in rest:
            await service.join(c, u)
        await service.start(c, first)
        games.append((c, users))
    return games


async def next_press(service: GameService, c: Chat, users: dict[str, User]) -> tuple[User, str] | None:
    """The player to move and the payload they would press (found outside the timed part; a
    tile chosen by the move count); None: the chat has no game. ``users``: the seats' users by id."""
    info = await service.game_info(c)
    seat = None if info is None else info.to_move
    user_id = None if info is None or seat is None else info.seats[seat].user_id
    if info is None or user_id is None:
        return None
    mover = users[user_id]
    board = await service.board(c, mover)
    choices = [row[0].payload for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]
    return mover, choices[info.moves % len(choices)]


async def _pressing(service: GameService, c: Chat, users: dict[str, User]) -> tuple[User, str]:
    press = await next_press(service, c, users)
    assert press is not None, "the bench's games last longer than its rounds"
    return press


async def timed_press(service: GameService, c: Chat, mover: User, payload: str) -> float:
    """Milliseconds ``mover`` took to press ``payload`` and, if the game asks for one, the first
    eviction (the move is complete then); an answer refused raises."""
    start = time.perf_counter()
    reply = await service.press(c, mover, payload)
    elapsed = (time.perf_counter() - start) * 1000
    if reply.ok and reply.buttons and reply.buttons[0][0].payload.startswith("c_"):
        start = time.perf_counter()
        reply = await service.press(c, mover, reply.buttons[0][0].payload)
        elapsed += (time.perf_counter() - start) * 1000    # the eviction choice completes the move
    if not reply.ok:
        raise RuntimeError(reply.text)
    return elapsed


async def bench_moves(path: str, games: int, rounds: int) -> None:
    service = await GameService.open(path)
    try:
        started = time.perf_counter()
        table = await _setup_games(service, games)
        print(f"set up {games} three-player games in {time.perf_counter() - started:.1f} s")
        sequential: list[float] = []
        concurrent: list[float] = []
        for r in range(rounds * 3):
            presses = [(c, await _pressing(service, c, users)) for c, users in table]
            if r % 2 == 0:
                for c, (mover, payload) in presses:
                    sequential.append(await timed_press(service, c, mover, payload))
            else:
                concurrent += await asyncio.gather(*(timed_press(service, c, mover, payload)
                                                     for c, (mover, payload) in presses))
        print(_line("move, one at a time across 1,000 games  ", sequential))
        print(_line("move, all 1,000 games pressing at once   ", concurrent))
        async with _sqlite(service).db.execute("SELECT COUNT(*) FROM outbox") as cur:
            row = await cur.fetchone()
        assert row is not None, "COUNT(*) always returns a row"
        outbox = row[0]
        print(f"  (each move committed with its outbox messages and timers; outbox rows now: {outbox})")
    finally:
        await service.close()


def _sqlite(service: GameService) -> SqliteStorage:
    """The bench's storage: it opens a SQLite file path, and reads and writes rows there directly."""
    storage = service.storage
    assert isinstance(storage, SqliteStorage), "the bench opens a SQLite file"
    return storage


async def _store_games(path: str, count: int, rng: random.Random) -> None:
    """Write ``count`` games in progress straight into the schema (fast set-up for the restore test)."""
    service = await GameService.open(path)
    db = _sqlite(service).db
    now = time.time()
    games, moves, timers = [], [], []
    definition = kind(DEFAULT).definition
    for gid in range(1, count + 1):
        n = rng.choice((2, 3, 4))
        names = [f"P{gid}-{i}" for i in range(n)]
        seed = rng.randrange(1 << 62)
        match = definition.new_match(names, seed=seed)
        played = rng.randrange(0, match.view(None).rounds * n - 1)
        for i in range(played):
            seat = match.to_act()[0]
            choices = match.legal_choices(seat)
            choice = choices[rng.randrange(len(choices))]
            match.apply(choice, by=seat)
            moves.append((gid, i, str(choice), seat, "human", now))
        setup = match.stored_setup()
        seats = [{"name": p, "platform": "bench", "user_id": f"u{gid}-{i}", "is_ai": False,
                  "ai_reason": None, "language": None} for i, p in enumerate(names)]
        options = {**{spec.name: spec.default for spec in definition.options},
                   "reminder_minutes": 240, "deadline_minutes": 1440, "language": "en"}
        games.append((gid, "bench", f"stored{gid}", "", "playing", f"u{gid}-0", json.dumps(options), seed,
                      json.dumps(seats), json.dumps(setup), played, now, now, "{}"))
        timers.append((gid, "deadline", now + 86400, played))
    await db.execute("BEGIN")
    await db.executemany("INSERT INTO games (id, platform, chat_id, chat_title, status, host_id, options, seed, "
                         "seats, setup, moves, created, updated, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", games)
    await db.executemany("INSERT INTO moves (game_id, n, pick, seat, actor, at) VALUES (?,?,?,?,?,?)", moves)
    await db.executemany("INSERT INTO timers (game_id, kind, due, move) VALUES (?,?,?,?)", timers)
    await db.execute("COMMIT")
    await service.close()


async def bench_restore(path: str, count: int) -> None:
    rng = random.Random(1)
    started = time.perf_counter()
    await _store_games(path, count, rng)
    print(f"stored {count} games in progress ({os.path.getsize(path) / 1e6:.1f} MB) in "
          f"{time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    service = await GameService.open(path)
    due = await service.storage.next_timer()
    active = await service.storage.active_games()
    opened = time.perf_counter() - started
    print(f"restore, lazy: open + migrations check + timers + list of {len(active)} active games: "
          f"{opened * 1000:.0f} ms")
    started = time.perf_counter()
    info = await service.game_info(Chat("bench", f"stored{max(1, count // 2)}"))
    assert info is not None, "the stored games include this chat's"
    print(f"  first use of one game (load + replay its record, no snapshot yet): {(time.perf_counter() - started) * 1000:.2f} ms"
          f" (game {info.game_id}, {info.moves} moves)")
    await service.close()
    assert due is not None

    # The games were stored without snapshots (as by the code before them): the first eager
    # restore replays each long enough to need one and stores its snapshot, as after an upgrade;
    # the next reads them back (a shorter game is read with its moves, applied on first use).
    for what in ("as after an upgrade: a game of SNAPSHOT_EVERY moves or more replayed, its snapshot stored",
                 "again: each read back from its snapshot, or with its few moves"):
        service = await GameService.open(path)
        started = time.perf_counter()
        restored = await service.restore_all()
        eager = time.perf_counter() - started
        print(f"restore, eager: all {restored} games ({what}): {eager:.2f} s")
        await service.close()
    service = await GameService.open(path)
    started = time.perf_counter()
    info = await service.game_info(Chat("bench", f"stored{max(1, count // 2)}"))
    assert info is not None, "the stored games include this chat's"
    print(f"  first use of one game, read back as stored (its snapshot, or its few moves): {(time.perf_counter() - started) * 1000:.2f} ms"
          f" (game {info.game_id}, {info.moves} moves)")
    await service.close()


# ---- several processes ------------------------------------------------------------------

PLAYERS_PER_PROCESS = 8       # players pressing at the same time in one process


async def _worker(target: str, games: int, index: int, processes: int, rounds: int) -> None:
    """One bench process: plays ``rounds`` rounds in its share of the games once told "go" on
    stdin; prints the press times (ms) and its wall time as JSON."""
    import sys

    service = await GameService.open(target)
    try:
        mine = [n for n in range(games) if n % processes == index]
        await service.restore_all()
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        times: list[float] = []
        started = time.perf_counter()

        async def player(k: int) -> None:
            for _ in range(rounds * 3):
                for n in mine[k::PLAYERS_PER_PROCESS]:
                    c = Chat("bench", f"chat{n}", f"Bench {n}")
                    users = {u: User("bench", f"{u[0]}{n}", u) for u in ("a", "b", "c")}
                    users = {f"{k_}{n}": v for k_, v in users.items()}
                    mover, payload = await _pressing(service, c, users)
                    times.append(await timed_press(service, c, mover, payload))
        await asyncio.gather(*(player(k) for k in range(PLAYERS_PER_PROCESS)))
        print(json.dumps({"ms": times, "seconds": time.perf_counter() - started}), flush=True)
    finally:
        await service.close()


def _run_processes(target: str, games: int, processes: int, rounds: int) -> tuple[list[float], float]:
    import subprocess
    import sys

    procs = [subprocess.Popen([sys.executable, "-m", "bot.bench", "--worker", target, str(games), str(i),
                               str(processes), str(rounds)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True) for i in range(processes)]
    for proc in procs:
        assert proc.stdout is not None, "opened with a stdout pipe"
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError("a bench process failed to start")
    started = time.perf_counter()
    for proc in procs:
        assert proc.stdin is not None, "opened with a stdin pipe"
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = [json.loads(proc.communicate()[0].strip().splitlines()[-1]) for proc in procs]
    wall = time.perf_counter() - started
    return [ms for r in results for ms in r["ms"]], wall


async def _prepare(target: str, games: int) -> None:
    service = await GameService.open(target)
    try:
        started = time.perf_counter()
        await _setup_games(service, games)
        print(f"set up {games} three-player games in {time.perf_counter() - started:.1f} s")
    finally:
        await service.close()


def bench_processes(database_url: str, games: int, rounds: int, counts: list[int]) -> None:
    """Moves/s and move latency with 1..N processes on PostgreSQL, and one on SQLite."""
    import uuid

    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:10]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(database_url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
    asyncio.run(admin(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in database_url else "?"
    target = f"{database_url}{sep}search_path={schema}"
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = os.path.join(tmp, "moves.sqlite3")
            for name, where, ks in (("SQLite", sqlite, [1]), ("PostgreSQL", target, counts)):
                asyncio.run(_prepare(where, games))
                for k in ks:
                    ms, wall = _run_processes(where, games, k, rounds)
                    rows.append((name, k, len(ms) / wall, _pct(ms, 50), _pct(ms, 99)))
                    print(f"{name}, {k} process{'es' if k > 1 else ''}: {len(ms)} moves in {wall:.1f} s = "
                          f"{len(ms) / wall:.0f} moves/s; a move p50 {_pct(ms, 50):.1f} ms, p99 {_pct(ms, 99):.1f} ms",
                          flush=True)
    finally:
        asyncio.run(admin(f"DROP SCHEMA {schema} CASCADE"))
    print("\n| database | processes | moves/s | move p50 | move p99 |\n|---|---|---|---|---|")
    for name, k, rate, p50, p99 in rows:
        print(f"| {name} | {k} | {rate:,.0f} | {p50:.1f} ms | {p99:.1f} ms |")


# ---- what a snapshot costs, to choose store.SNAPSHOT_EVERY ----------------------------

def snapshot_costs() -> None:
    """For a game of each kind at its middle (three players, random legal moves): packing its
    match, unpacking it, and applying each of the next 32 stored moves to it (best of 30)."""
    from bot.games import KINDS
    from bot.service.game.snapshots import pack, unpack

    def best(work: Callable[[], object], runs: int = 30) -> float:
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            work()
            times.append(time.perf_counter() - started)
        return min(times) * 1000

    for kind_id, game_kind in KINDS.items():
        definition = game_kind.definition
        names = ["A", "B", "C"][:max(definition.min_players, min(3, definition.max_players))]
        match, rng, moves = definition.new_match(names, seed=1), random.Random(1), []
        while not match.is_terminal():
            seat = match.to_act()[0]
            choice = rng.choice(match.legal_choices(seat))
            moves.append((seat, str(choice)))
            match.apply(choice, by=seat)
        half = len(moves) // 2
        middle = definition.resume(definition.new_match(names, seed=1).stored_setup(), moves[:half])
        snapshot = pack(1, kind_id, middle)
        since = moves[half:half + 32]
        packing = best(partial(pack, 1, kind_id, middle))
        unpacking = best(partial(unpack, snapshot))
        applying = min(_applying(unpack(snapshot), since) for _ in range(30)) / len(since) * 1e6
        print(f"{kind_id}: {len(moves)} moves, at move {half}: packing {packing:.2f} ms, unpacking {unpacking:.2f} ms, "
              f"applying a stored move {applying:.0f} µs, {len(snapshot.data):,} bytes")


def _applying(match: Match, moves: list[tuple[int, str]]) -> float:
    """Seconds to apply ``moves`` (seat, choice text) to ``match`` as a restore does."""
    started = time.perf_counter()
    for seat, text in moves:
        match.apply(match.parse_choice(text), by=seat)
    return time.perf_counter() - started


# ---- this tree against another revision ------------------------------------------------

# The figures compared: (the table's row, the start of the line that holds it, its value).
FIGURES = (
    ("a move, one at a time, p50 (ms)", "move, one at a time", r"p50=([\d.]+) ms"),
    ("a move, one at a time, p99 (ms)", "move, one at a time", r"p99=([\d.]+) ms"),
    ("1,000 games pressing at once, p50 (ms)", "move, all 1,000", r"p50=([\d.]+) ms"),
    ("1,000 games pressing at once, p99 (ms)", "move, all 1,000", r"p99=([\d.]+) ms"),
    ("first use of one game, stored without a snapshot (ms)", "  first use of one game (", r": ([\d.]+) ms"),
    ("first use of one game, its snapshot stored (ms)", "  first use of one game, read back", r": ([\d.]+) ms"),
    ("eager restore of every stored game, last run (s)", "restore, eager", r": ([\d.]+) s$"),
)
PACKAGES = ("bot", "engine", "renderers")


def figures(output: str) -> dict[str, float]:
    """The ``FIGURES`` a bench printed (the last line of each kind: an eager restore is run twice)."""
    import re

    found: dict[str, float] = {}
    for line in output.splitlines():
        for name, start, pattern in FIGURES:
            if line.startswith(start) and (match := re.search(pattern, line)):
                found[name] = float(match.group(1))
    return found


def compare(rev: str, passed: list[str], repeat: int) -> None:
    """Run the bench of ``rev`` (a git revision or a checkout's path) and this tree's in turns,
    ``repeat`` times each, with the same arguments ``passed``; print their outputs and the table."""
    import subprocess
    import sys
    from pathlib import Path

    here = str(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp:
        if os.path.isdir(rev):
            there = rev
        else:
            archive = subprocess.run(["git", "archive", rev, *PACKAGES], cwd=here, check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            there = tmp
        runs: dict[str, list[dict[str, float]]] = {rev: [], "this tree": []}
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        for turn in range(repeat):
            for name, root in ((rev, there), ("this tree", here)):
                env = {**os.environ, "PYTHONPATH": root}
                out = subprocess.run([sys.executable, "-m", "bot.bench", *passed], cwd=root, env=env,
                                     check=True, capture_output=True, text=True).stdout
                print(f"--- {name}, run {turn + 1} of {repeat} ---\n{out}", end="", flush=True)
                runs[name].append(figures(out))
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"\n| figure (median of {repeat}) | {rev} | this tree | this tree / {rev} |\n|---|---|---|---|")
    for name, _, _ in FIGURES:
        before = [r[name] for r in runs[rev] if name in r]
        after = [r[name] for r in runs["this tree"] if name in r]
        a = statistics.median(before) if before else None
        b = statistics.median(after) if after else None
        ratio = f"{b / a:.2f}" if a and b is not None else "-"
        print(f"| {name} | {'-' if a is None else f'{a:g}'} | {'-' if b is None else f'{b:g}'} | {ratio} |")


def main(argv: list[str] | None = None) -> None:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        target, games, index, processes, rounds = argv[1:6]
        asyncio.run(_worker(target, int(games), int(index), int(processes), int(rounds)))
        return
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="concurrent games for the move timing")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds played in each of those games (default 6; 1 per process count with "
                             "--database-url)")
    parser.add_argument("--restore", type=int, default=10_000, help="stored games for the restore timing")
    parser.add_argument("--database-url", default=None, metavar="URL",
                        help="PostgreSQL: time 1, 2 and 3 processes sharing it (and SQLite in one)")
    parser.add_argument("--processes", default="1,2,3", help="process counts with --database-url")
    parser.add_argument("--compare", metavar="REV", default=None,
                        help="also run the bench of git revision REV (or a checkout's path), in turns with this "
                             "tree's, and print the figures side by side")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each with --compare (the table: medians)")
    parser.add_argument("--snapshot-costs", action="store_true",
                        help="only print what packing, unpacking and applying a stored move cost, by game")
    args = parser.parse_args(argv)
    if args.snapshot_costs:
        snapshot_costs()
        return
    if args.compare:
        passed = ["--games", str(args.games), "--restore", str(args.restore)]
        if args.rounds:
            passed += ["--rounds", str(args.rounds)]
        compare(args.compare, passed, args.repeat)
        return
    if args.database_url:
        bench_processes(args.database_url, args.games, args.rounds or 1,
                        [int(k) for k in args.processes.split(",")])
        return
    args.rounds = args.rounds or 6
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench_moves(os.path.join(tmp, "moves.sqlite3"), args.games, args.rounds))
        asyncio.run(bench_restore(os.path.join(tmp, "restore.sqlite3"), args.restore))
    print("targets: move p99 <= 10 ms; restore <= 3 s")


if __name__ == "__main__":
    main()
