"""Ratings per game, across chats: openskill's Plackett-Luce model over each finished game's places.

Pure computation, no I/O: the service rates a game as it ends (``rate_game``), the storage's
migration rates the games stored before ratings existed with the same function, and
``recompute`` replays a whole history from the results (docs/ratings.md has the rules).

A rating belongs to an entry: a person on a platform (their user id), or an AI level
("ai:normal"), rated on its own and never listed among the people. It is kept per game kind:
points of different games are never compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.games import ai_level, kind

from ..game.model import GameMeta, RatingRow, ResultRow

MODEL = PlackettLuce()      # mu 25, sigma 25/3, and a little added uncertainty (tau) for each game
# The number players read: BGA-like, four digits, conservative (a new entry shows 1,200 and rises
# as its uncertainty shrinks). round(SCALE * (mu - 3 * sigma) + OFFSET).
SCALE, OFFSET = 20.0, 1200.0
PROVISIONAL_GAMES = 5       # fewer rated games than this: the rating is shown as provisional
AI_PREFIX = "ai:"
# Seats the AI took over for a person who left (or whom the host handed over): the game is not rated.
LEAVER_REASONS = ("left", "handed")


@dataclass(frozen=True, slots=True)
class Skill:
    """An entry's rating now: openskill's (mu, sigma), and how many rated games it comes from."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Skill()


def shown(mu: float, sigma: float) -> int:
    """The displayed rating of (mu, sigma)."""
    return round(SCALE * (mu - 3 * sigma) + OFFSET)


def is_ai_entry(player: str) -> bool:
    return player.startswith(AI_PREFIX)


def ai_entry(level: str) -> str:
    return AI_PREFIX + level


def level_of(player: str) -> str:
    return player.removeprefix(AI_PREFIX)


def places(results: Sequence[ResultRow]) -> list[int]:
    """Each seat's place as the final standings give it: the winners (after the game's own
    tie-breaks) share first place; every other seat comes after the winners and after every
    seat with more points, so equal points share a place ("=2.")."""
    key = [(not r.won, -r.points) for r in results]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def not_rated(meta: GameMeta, ai_played: Iterable[int]) -> bool:
    """A game is rated only when it finished with every person in their seat: a seat the AI
    took over because its person left, or on which the AI made any move for a person (they left
    and came back), makes it unrated. Moves made at a deadline are not leaving. A game with no
    person (AI seats only) is not rated either. (An aborted game never gets here: only
    finished games are rated.)"""
    played = set(ai_played)
    if any(s.user_id is not None and (s.is_ai and s.ai_reason in LEAVER_REASONS or i in played)
           for i, s in enumerate(meta.seats)):
        return True
    return not any(s.user_id is not None and not s.is_ai for s in meta.seats)


def entry_of(meta: GameMeta, seat: int) -> str:
    info = meta.seats[seat]
    if info.user_id is not None and not info.is_ai:
        return info.user_id
    return ai_entry(ai_level(kind(meta.kind), info.level))


def rate_game(meta: GameMeta, results: Sequence[ResultRow], ai_played: Iterable[int],
              current: dict[str, Skill]) -> list[RatingRow]:
    """The rating rows of a finished game (one per person and per AI level in it), given each
    entry's rating before it (``current``; a missing entry is new). Empty for a game that is
    not rated. An AI level that held several seats is rated on each of them against everyone,
    and keeps the mean of those seats' new ratings."""
    if not_rated(meta, ai_played):
        return []
    results = sorted(results, key=lambda r: r.seat)
    entries = [entry_of(meta, r.seat) for r in results]
    if len(set(entries)) < 2:
        return []
    before = {e: current.get(e, NEW) for e in entries}
    teams = [[MODEL.create_rating([before[e].mu, before[e].sigma])] for e in entries]
    ranks = places(results)
    rated = MODEL.rate(teams, ranks=list[float](ranks))     # the places, as openskill declares them
    seats_of: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        seats_of.setdefault(e, []).append(i)
    ended = results[0].ended
    rows = []
    for e, seats in seats_of.items():
        mu = sum(rated[i][0].mu for i in seats) / len(seats)
        sigma = sum(rated[i][0].sigma for i in seats) / len(seats)
        first = results[seats[0]]
        best = min(ranks[i] for i in seats)
        rows.append(RatingRow(
            game_id=meta.id, platform=meta.platform, kind=meta.kind, player=e,
            name=level_of(e) if is_ai_entry(e) else first.name, chat_id=meta.chat_id, place=best,
            mu_before=before[e].mu, sigma_before=before[e].sigma, mu_after=mu, sigma_after=sigma,
            games=before[e].games + 1, ended=ended))
    return rows


def after(row: RatingRow) -> Skill:
    return Skill(row.mu_after, row.sigma_after, row.games)


def recompute(games: Iterable[tuple[GameMeta, Sequence[ResultRow], Iterable[int]]]) -> list[RatingRow]:
    """Every rating row of a history, from the finished games' results alone: the games in the
    order they ended, each rated on the ratings the games before it left."""
    ordered = sorted(games, key=lambda g: (min((r.ended for r in g[1]), default=0.0), g[0].id))
    now: dict[tuple[str, str], dict[str, Skill]] = {}       # (platform, game) -> entry -> rating
    out: list[RatingRow] = []
    for meta, results, ai_played in ordered:
        current = now.setdefault((meta.platform, meta.kind), {})
        for row in rate_game(meta, results, ai_played, current):
            current[row.player] = after(row)
            out.append(row)
    return out
