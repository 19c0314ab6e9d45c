"""Games and their moves: a game's row (its metadata, at a version) and its record's moves.

A game is stored as its record (RULES.md: setup + moves) and rebuilt by replaying it (or, while
it runs, read back from its snapshot: ``snapshots.py``). A game row is only overwritten by a
writer that read its current ``version`` (otherwise ``Conflict``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..game.model import GameMeta, MoveRow, Seat
from ..game.turnstate import TurnState
from .sql import Conflict, Connection, Database, marks

GAME_COLS = ("id", "platform", "chat_id", "chat_title", "status", "host_id", "options", "seed", "seats",
             "setup", "moves", "created", "updated", "extra", "game", "version")
MOVE_COLS = ("game_id", "n", "pick", "seat", "actor", "at")
TABLES = {"games": (GAME_COLS, ("id",)), "moves": (MOVE_COLS, ("game_id", "n"))}

SELECT_GAME = f"SELECT {', '.join(GAME_COLS)} FROM games"
UNFINISHED = "status IN ('lobby', 'playing')"
# A game at version 0 was never stored by this code: it is inserted, or it replaces a row
# that is at version 0 too (written before versions existed, or by hand); a row at any
# later version means another writer got there first.
INSERT_GAME = (f"INSERT INTO games ({', '.join(GAME_COLS)}) VALUES ({marks(len(GAME_COLS))}) "
               f"ON CONFLICT (id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in GAME_COLS[1:])} "
               f"WHERE games.version = 0")
# Only the writer that read the current version may overwrite the row.
UPDATE_GAME = (f"UPDATE games SET {', '.join(f'{c} = ?' for c in GAME_COLS[1:])} "
               f"WHERE id = ? AND version = ?")
INSERT_MOVE = f"INSERT INTO moves ({', '.join(MOVE_COLS)}) VALUES ({marks(len(MOVE_COLS))})"
PLATFORM_GAMES = f"{SELECT_GAME} WHERE platform = ? ORDER BY id DESC LIMIT ?"
# The unfinished games (lobby or running) of a platform whose seats name a user, in any chat:
# the text match on the seats (``seated_pattern``) narrows the rows to a few, ``seated`` keeps
# those where the user holds a seat of their own (not one the AI plays for them).
SEATED_GAMES = f"{SELECT_GAME} WHERE platform = ? AND {UNFINISHED} AND seats LIKE ? ESCAPE '!' ORDER BY id"
# Games (and their moves) are loaded this many at a time.
LOAD_CHUNK = 500


async def store_game(conn: Connection, meta: GameMeta) -> None:
    """Write ``meta`` as its next version (``Changes.meta``); ``Conflict`` if its row moved on."""
    if meta.version == 0:
        stored = await conn.execute(INSERT_GAME, game_values(meta))
    else:
        stored = await conn.execute(UPDATE_GAME, update_params(meta))
    if stored != 1:
        raise Conflict(f"game {meta.id} is no longer at version {meta.version}")


async def store_moves(conn: Connection, moves: list[MoveRow]) -> None:
    await conn.executemany(INSERT_MOVE, [(m.game_id, m.n, m.pick, m.seat, m.actor, m.at) for m in moves])


class StoredGames:
    """Games and moves."""

    database: Database

    async def active_game_id(self, platform: str, chat_id: str) -> int | None:
        found = await self.active_game(platform, chat_id)
        return None if found is None else found[0]

    async def active_game(self, platform: str, chat_id: str) -> tuple[int, int] | None:
        """The chat's lobby or running game: its id and its stored version, in one statement (a
        chat's game is looked up with every action: ``GameStore.chat_game``)."""
        row = await self.database.one(f"SELECT id, version FROM games WHERE platform = ? AND chat_id = ? "
                                      f"AND {UNFINISHED}", (platform, chat_id))
        return None if row is None else (int(row[0]), int(row[1]))

    async def latest_started_game(self) -> int | None:
        """The id of the newest game that was started (for exporting "the latest" record)."""
        game_id: int | None = await self.database.value("SELECT MAX(id) FROM games WHERE setup IS NOT NULL")
        return game_id

    async def platform_games(self, platform: str, limit: int = 50) -> list[GameMeta]:
        """The newest ``limit`` games of a platform, newest first, any status (without moves):
        the terminal lists its games with this."""
        return [meta_from_row(r) for r in await self.database.all(PLATFORM_GAMES, (platform, limit))]

    async def game_version(self, game_id: int) -> int | None:
        """The stored version of a game (None: no such game): another process moved the game
        when it differs from the one in memory."""
        version: int | None = await self.database.value("SELECT version FROM games WHERE id = ?", (game_id,))
        return version

    async def load_game(self, game_id: int) -> tuple[GameMeta, list[tuple[int, str]]] | None:
        """The metadata and the stored moves, in order: (the seat that made it, its text)."""
        return (await self.load_games([game_id])).get(game_id)

    async def load_games(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, list[tuple[int, str]]]]:
        """Many games in few queries (for eager restore); missing ids are left out."""
        async def load(conn: Connection) -> dict[int, tuple[GameMeta, list[tuple[int, str]]]]:
            out: dict[int, tuple[GameMeta, list[tuple[int, str]]]] = {}
            for start in range(0, len(game_ids), LOAD_CHUNK):
                chunk = tuple(game_ids[start:start + LOAD_CHUNK])
                among = f"IN ({marks(len(chunk))})"
                for row in await conn.all(f"{SELECT_GAME} WHERE id {among}", chunk):
                    out[row[0]] = (meta_from_row(row), [])
                for gid, seat, pick in await conn.all(
                        f"SELECT game_id, seat, pick FROM moves WHERE game_id {among} ORDER BY game_id, n", chunk):
                    out[gid][1].append((seat, pick))
            return out
        return await self.database.read(load)

    async def active_games(self) -> list[tuple[int, str, str]]:
        """(id, platform, chat id) of every lobby and running game."""
        return [tuple(r) for r in await self.database.all(f"SELECT id, platform, chat_id FROM games WHERE {UNFINISHED}")]

    async def running_games(self) -> int:
        """How many games are under way (started, not finished nor aborted)."""
        return int(await self.database.value("SELECT COUNT(*) FROM games WHERE status = 'playing'"))

    async def user_games(self, platform: str, user_id: str) -> list[int]:
        """Ids of the running games where the user holds a seat."""
        rows = await self.database.all("SELECT id, seats FROM games WHERE platform = ? AND status = 'playing'",
                                       (platform,))
        return [gid for gid, seats in rows
                if any(s.get("user_id") == user_id and not s.get("is_ai") for s in json.loads(seats))]

    async def seated_games(self, platform: str, user_id: str) -> list[GameMeta]:
        """The unfinished games (lobby or running) where the user holds a seat of their own,
        in every chat of the platform, oldest first (without moves)."""
        games = [meta_from_row(r) for r in await self.database.all(SEATED_GAMES, (platform, seated_pattern(user_id)))]
        return [g for g in games if g.seat_of(user_id) is not None]


def seated_pattern(user_id: str) -> str:
    """The LIKE pattern of a seats JSON text that names ``user_id`` (as ``game_values`` writes it)."""
    named = json.dumps({"user_id": user_id})[1:-1]
    return "%" + named.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%"


# ---- rows <-> values --------------------------------------------------------------------

def game_values(meta: GameMeta) -> tuple[Any, ...]:
    """The row of ``meta`` in GAME_COLS order, as its next version."""
    return (meta.id, meta.platform, meta.chat_id, meta.chat_title, meta.status, meta.host_id,
            json.dumps(meta.options), meta.seed, json.dumps([s.to_dict() for s in meta.seats]),
            _setup_text(meta),
            meta.moves, meta.created, meta.updated, json.dumps(meta.turn.to_json()), meta.kind,
            meta.version + 1)


def _setup_text(meta: GameMeta) -> str | None:
    """``meta.setup`` as stored: written out once per game (the text is kept with it)."""
    if meta.setup is None:
        return None
    if meta.setup_text is None or meta.setup_text[0] is not meta.setup:
        meta.setup_text = (meta.setup, json.dumps(meta.setup))
    return meta.setup_text[1]


def update_params(meta: GameMeta) -> tuple[Any, ...]:
    values = game_values(meta)
    return (*values[1:], meta.id, meta.version)


def meta_from_row(row: Any) -> GameMeta:
    (gid, platform, chat_id, title, status, host, options, seed, seats, setup, moves, created,
     updated, extra, kind, version) = row
    return GameMeta(
        id=gid, platform=platform, chat_id=chat_id, chat_title=title, status=status, host_id=host,
        options=json.loads(options), seed=seed, seats=[Seat(**s) for s in json.loads(seats)],
        setup=_interned(json.loads(setup)) if setup else None, moves=moves, created=created, updated=updated,
        turn=TurnState.from_json(json.loads(extra)), kind=kind, version=version)


def _interned(value: Any) -> Any:
    """``value`` (decoded JSON) with one copy of each text (``sys.intern``): a setup names the same
    tiles in every game, and the bot keeps the setups of all its games in memory."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(v) for v in value]
    if isinstance(value, dict):
        return {sys.intern(k): _interned(v) for k, v in value.items()}
    return value
