"""The rating history: one row per rated game and entry (a person, or an AI level), from which
every rating is recomputed (``bot/service/players/ratings.py``)."""

from __future__ import annotations

from typing import Any

from ..game.model import GameMeta, RatingRow, ResultRow
from .games import SELECT_GAME, meta_from_row
from .results import RESULT_COLS, result_from_row
from .sql import Connection, Database, marks

RATING_COLS = ("game_id, platform, game, player, name, chat_id, place, mu_before, sigma_before, mu_after, "
               "sigma_after, games, ended")
TABLES = {"ratings": (tuple(RATING_COLS.split(", ")), ("game_id", "player"))}
INSERT_RATING = f"INSERT INTO ratings ({RATING_COLS}) VALUES ({marks(13)})"
# What rating a game needs: the finished games, their results, and the seats of persons the AI
# made a move for (they left: the game is not rated).
FINISHED_GAMES = f"{SELECT_GAME} WHERE status = 'finished'"
FINISHED_RESULTS = (f"SELECT {RESULT_COLS} FROM results WHERE game_id IN "
                    "(SELECT id FROM games WHERE status = 'finished')")
AI_MOVED = "SELECT DISTINCT game_id, seat FROM moves WHERE actor = 'ai'"
AI_MOVED_IN = "SELECT DISTINCT seat FROM moves WHERE game_id = ? AND actor = 'ai'"
# Each entry's latest row (its rating now), of one game kind on one platform: the highest count
# of rated games per entry (an index-only pass over ratings_entry), joined back to its row.
_R_COLS = ", ".join(f"r.{c}" for c in RATING_COLS.split(", "))
_LATEST_OF = ("SELECT {cols} FROM ratings r JOIN (SELECT player, MAX(games) AS n FROM ratings "
              "WHERE platform = ? AND game = ?{only} GROUP BY player) m ON r.player = m.player AND r.games = m.n "
              "WHERE r.platform = ? AND r.game = ?")
# Entries that played a rated game in one chat.
_IN_CHAT = " AND player IN (SELECT player FROM ratings WHERE platform = ? AND game = ? AND chat_id = ?)"
# ... of one entry, in every game kind.
LATEST_OF_PLAYER = (f"SELECT {RATING_COLS} FROM ratings WHERE platform = ? AND player = ? AND games = "
                    "(SELECT MAX(q.games) FROM ratings q WHERE q.platform = ratings.platform "
                    "AND q.game = ratings.game AND q.player = ratings.player)")
RATING_HISTORY = f"SELECT {RATING_COLS} FROM ratings ORDER BY ended, game_id, player"


async def store_ratings(conn: Connection, ratings: list[RatingRow]) -> None:
    await conn.executemany(INSERT_RATING, [rating_values(r) for r in ratings])


async def rate_stored_games(conn: Connection) -> None:
    """Rate the finished games already stored, in the order they ended, as if ratings had
    existed all along (the data step of the schema step that adds ``ratings``)."""
    from ..players.ratings import recompute

    rows = recompute(await _rating_inputs(conn))
    await conn.executemany(INSERT_RATING, [rating_values(r) for r in rows])


class StoredRatings:
    """Rating rows, and what rating a game needs."""

    database: Database

    async def ai_moved(self, game_id: int) -> set[int]:
        """The seats the AI made a stored move for (not at a deadline: those are 'deadline')."""
        return {r[0] for r in await self.database.all(AI_MOVED_IN, (game_id,))}

    async def latest_ratings(self, platform: str, kind: str, *, chat_id: str | None = None,
                             players: list[str] | None = None) -> list[RatingRow]:
        """Each entry's latest rating row in the game kind ``kind``: only of entries rated in ``chat_id``, or
        only of ``players``, if given."""
        only, params = "", tuple[str, ...]()
        if chat_id is not None:
            only, params = _IN_CHAT, (platform, kind, chat_id)
        elif players is not None:
            only, params = f" AND player IN ({marks(len(players))})", tuple(players)
        rows = await self.database.all(_LATEST_OF.format(cols=_R_COLS, only=only),
                                       (platform, kind, *params, platform, kind))
        return [rating_from_row(r) for r in rows]

    async def player_ratings(self, platform: str, player: str) -> list[RatingRow]:
        """One entry's latest rating row in each game kind it was rated in."""
        return [rating_from_row(r) for r in await self.database.all(LATEST_OF_PLAYER, (platform, player))]

    async def rating_history(self) -> list[RatingRow]:
        """Every rating row, in the order the games ended."""
        return [rating_from_row(r) for r in await self.database.all(RATING_HISTORY)]

    async def rating_inputs(self) -> list[tuple[GameMeta, list[ResultRow], set[int]]]:
        """Each finished game with its results and the seats the AI moved for (``ratings.recompute``'s input)."""
        return await self.database.read(_rating_inputs)


async def _rating_inputs(conn: Connection) -> list[tuple[GameMeta, list[ResultRow], set[int]]]:
    by_game: dict[int, list[ResultRow]] = {}
    for row in await conn.all(FINISHED_RESULTS):
        r = result_from_row(row)
        by_game.setdefault(r.game_id, []).append(r)
    moved: dict[int, set[int]] = {}
    for gid, seat in await conn.all(AI_MOVED):
        moved.setdefault(gid, set()).add(seat)
    metas = [meta_from_row(row) for row in await conn.all(FINISHED_GAMES)]
    return [(m, by_game[m.id], moved.get(m.id, set())) for m in metas if m.id in by_game]


def rating_values(r: RatingRow) -> tuple[Any, ...]:
    return (r.game_id, r.platform, r.kind, r.player, r.name, r.chat_id, r.place, r.mu_before, r.sigma_before,
            r.mu_after, r.sigma_after, r.games, r.ended)


def rating_from_row(r: Any) -> RatingRow:
    return RatingRow(*tuple(r))
