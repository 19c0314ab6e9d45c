"""Storage figures: copying a big SQLite database, and commit throughput on each backend.

    python -m bot.service.storage.bench [--games 10000] [--commits 2000] [--postgres URL]

Makes a SQLite database of ``--games`` finished and running games (about 40 moves, 10
messages and 2 results each), times ``copy_database`` from it into SQLite and into
PostgreSQL, then times commits of moves (game row + move + message + timers) one after
another and from 50 tasks at once. PostgreSQL runs in a fresh schema, dropped afterwards;
without ``--postgres`` (or ``$BOARDCHAT_DATABASE_URL``) only SQLite is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg

from bot.config import Settings
from bot.product import env_name

from ..game.model import Changes, GameMeta, MoveRow, OutRow, Seat, TimerRow
from ..game.outmessage import MessageBody
from .base import Storage
from .copy import copy_database
from .factory import open_storage

MOVES, MESSAGES = 40, 10


def _game_rows(first: int, count: int, rng: random.Random) -> dict[str, list[tuple[Any, ...]]]:
    """Raw rows (``tables.TABLES`` order) of ``count`` games from id ``first``: 1 in 10 running."""
    rows: dict[str, list[tuple[Any, ...]]] = {t: [] for t in ("games", "moves", "outbox", "slots", "timers", "results")}
    seats = json.dumps([Seat(n, "bench", n.lower()).to_dict() for n in ("Ann", "Bob")])
    for gid in range(first, first + count):
        running = gid % 10 == 0
        moves = rng.randrange(1, MOVES) if running else MOVES
        setup = json.dumps({"players": ["Ann", "Bob"], "seed": gid})
        rows["games"].append((gid, "bench", f"chat{gid}", f"Chat {gid}", "playing" if running else "finished",
                              "ann", json.dumps({"language": "en"}), gid, seats, setup, moves, 1.0 * gid,
                              2.0 * gid, "{}", "paris-paris", moves + 2))
        rows["moves"] += [(gid, n, f"t{n % 9}{n % 7}", n % 2, "human", 1.0 * n) for n in range(1, moves + 1)]
        for k in range(MESSAGES):
            oid = (gid - 1) * MESSAGES + k + 1
            rows["outbox"].append((oid, gid, "bench", f"c:chat{gid}", "sent", json.dumps({"text": "x" * 200}),
                                   f"g{gid}:turn" if k == 0 else None, "new", 1, 1.0, str(oid), 1.0, 2.0, None,
                                   None, None, 1))
        rows["slots"].append(("bench", f"g{gid}:turn", str((gid - 1) * MESSAGES + 1)))
        if running:
            rows["timers"].append((gid, "reminder", 1e9, moves, None, None))
        else:
            rows["results"] += [(gid, s, "bench", f"chat{gid}", u, u.title(), 0, 30 + s, s, 3.0, "paris-paris")
                                for s, u in enumerate(("ann", "bob"))]
    return rows


async def make_sqlite(path: str, games: int) -> None:
    storage = await open_storage(path)
    rng = random.Random(1)
    try:
        for first in range(1, games + 1, 1000):
            for table, rows in _game_rows(first, min(1000, games + 1 - first), rng).items():
                await storage.insert_rows(table, rows)
    finally:
        await storage.close()


def _meta(gid: int) -> GameMeta:
    return GameMeta(id=gid, platform="bench", chat_id=f"c{gid}", chat_title="", status="playing", host_id="ann",
                    options={}, seed=gid, seats=[Seat("Ann", "bench", "ann"), Seat("Bob", "bench", "bob")],
                    setup={"players": ["Ann", "Bob"]})


async def _play(storage: Storage, meta: GameMeta, moves: int) -> None:
    for _ in range(moves):
        meta.moves += 1
        await storage.commit(Changes(
            meta=meta, moves=[MoveRow(meta.id, meta.moves, "t11", meta.moves % 2, "human", 0.0)],
            outbox=[OutRow(meta.id, "bench", f"c:{meta.chat_id}", MessageBody("move"), slot=f"g{meta.id}:turn",
                           mode="edit")],
            timers=[TimerRow(meta.id, "reminder", 1e9, meta.moves)]), 0.0)


async def commit_rates(storage: Storage, commits: int, tasks: int = 50) -> tuple[float, float]:
    """Commits per second: one after another, then ``tasks`` games at once."""
    metas = [_meta(await storage.new_game_id()) for _ in range(tasks + 1)]
    for meta in metas:
        await storage.commit(Changes(meta=meta), 0.0)
    started = time.perf_counter()
    await _play(storage, metas[0], commits)
    serial = commits / (time.perf_counter() - started)
    started = time.perf_counter()
    await asyncio.gather(*(_play(storage, meta, commits // tasks) for meta in metas[1:]))
    parallel = (commits // tasks) * tasks / (time.perf_counter() - started)
    return serial, parallel


async def _schema(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def main(games: int, commits: int, postgres: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src_path = str(Path(tmp) / "big.sqlite3")
        started = time.perf_counter()
        await make_sqlite(src_path, games)
        size = os.path.getsize(src_path) / 1e6
        print(f"made {games} games in {time.perf_counter() - started:.1f} s ({size:.0f} MB SQLite)")

        schema = f"bench_{uuid.uuid4().hex[:12]}"
        targets = {"sqlite": str(Path(tmp) / "copy.sqlite3")}
        if postgres:
            await _schema(postgres, f"CREATE SCHEMA {schema}")
            sep = "&" if "?" in postgres else "?"
            targets["postgres"] = f"{postgres}{sep}search_path={schema}"
        try:
            src = await open_storage(src_path)
            try:
                for name, target in targets.items():
                    dst = await open_storage(target)
                    try:
                        started = time.perf_counter()
                        counts = await copy_database(src, dst)
                        took = time.perf_counter() - started
                        total = sum(counts.values())
                        print(f"copy sqlite -> {name}: {total} rows in {took:.1f} s ({total / took:,.0f} rows/s; "
                              + ", ".join(f"{t} {n}" for t, n in counts.items()) + ")")
                    finally:
                        await dst.close()
            finally:
                await src.close()
            for name, target in targets.items():
                storage = await open_storage(target)
                try:
                    serial, parallel = await commit_rates(storage, commits)
                    print(f"commits on {name}: {serial:,.0f}/s one after another, {parallel:,.0f}/s from 50 tasks")
                finally:
                    await storage.close()
        finally:
            if postgres:
                await _schema(postgres, f"DROP SCHEMA {schema} CASCADE")


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--postgres", default=Settings(os.environ, {}).get(env_name("DATABASE_URL")),
                        help="a postgresql:// URL (a schema is made and dropped in it)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.commits, args.postgres))


if __name__ == "__main__":
    run()
