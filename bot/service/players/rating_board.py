"""Ratings as players see them: the change each person's rating takes at the end of a game,
their rating in each game (/rating), and each game's leaderboards, everywhere and in the chat.

The numbers come from ``ratings`` (openskill); this module reads and writes them through the
storage and words them through the catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.contract import Chat, Reply, User
from bot.games import KINDS, GameKind
from bot.replyextra import MyRating, Ranking, RatingBoards, Ratings
from i18n import decimal, t

from ..game.model import GameMeta, MoveRow, RatingRow, ResultRow
from ..posts.messages import level_text
from ..storage import Storage
from . import ratings as R

BOARD_SIZE = 10         # entries listed on a leaderboard


def number(lang: str, value: int) -> str:
    """A rating as the language writes a number: "1,512", "1.512", "1 512"."""
    return decimal(lang, value, 0)


class RatingBoard:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ---- rating a game as it ends ------------------------------------------------------------

    async def rate(self, meta: GameMeta, results: Sequence[ResultRow], moves: Sequence[MoveRow]) -> list[RatingRow]:
        """The rating rows of a game that ends now: its stored moves and ``moves`` (not stored
        yet) tell whether the AI played for someone who left."""
        ai_played = {m.seat for m in moves if m.actor == "ai"}
        if R.not_rated(meta, ai_played):     # seen without asking the database
            return []
        ai_played |= await self.storage.ai_moved(meta.id)
        players = sorted({R.entry_of(meta, r.seat) for r in results})
        current = {row.player: R.after(row)
                   for row in await self.storage.latest_ratings(meta.platform, meta.kind, players=players)}
        return R.rate_game(meta, results, ai_played, current)

    @staticmethod
    def change_lines(rows: Sequence[RatingRow], lang: str) -> list[str]:
        """The final message's lines: each person's rating before → after."""
        people = sorted((r for r in rows if not R.is_ai_entry(r.player)), key=lambda r: (r.place, r.name))
        if not people:
            return []
        changes = [t(lang, "bot.rating.change_provisional" if r.games < R.PROVISIONAL_GAMES else "bot.rating.change",
                     name=r.name, before=number(lang, R.shown(r.mu_before, r.sigma_before)),
                     after=number(lang, R.shown(r.mu_after, r.sigma_after)))
                   for r in people]
        return [t(lang, "bot.rating.changes"), *changes]

    # ---- /rating -----------------------------------------------------------------------------

    async def reply(self, chat: Chat | None, user: User, lang: str, kind: GameKind | None) -> Reply:
        """The user's rating in each game, and each game's leaderboards: everyone who played
        anywhere on the platform, and (``chat`` given) those who played a rated game in it."""
        mine = {r.kind: r for r in await self.storage.player_ratings(user.platform, user.id)}
        kinds = [kind] if kind is not None else list(KINDS.values())
        lines = [t(lang, "bot.rating.title", name=user.name)]
        mine_figures: dict[str, MyRating] = {}
        boards_of: dict[str, RatingBoards] = {}
        for g in kinds:
            title = g.presenter.title(lang)
            if g.id in mine:
                skill = R.after(mine[g.id])
                lines.append(t(lang, "bot.rating.mine_provisional" if skill.provisional else "bot.rating.mine",
                               game=title, rating=number(lang, skill.shown), games=skill.games))
                mine_figures[g.id] = MyRating(rating=skill.shown, games=skill.games, provisional=skill.provisional)
            elif kind is not None:
                lines.append(t(lang, "bot.rating.mine_none", game=title))
        if not mine_figures and kind is None:
            lines.append(t(lang, "bot.rating.none"))
        for g in kinds:
            section, boards = await self._boards(g, chat, user, lang)
            if section and boards is not None:
                lines += ["", *section]
                boards_of[g.id] = boards
        return Reply("\n".join(lines), extra=Ratings(mine=mine_figures, boards=boards_of))

    async def _boards(self, kind: GameKind, chat: Chat | None, user: User, lang: str
                      ) -> tuple[list[str], RatingBoards | None]:
        everyone = await self.storage.latest_ratings(user.platform, kind.id)
        if not everyone:
            return [], None
        title = kind.presenter.title(lang)
        lines = [t(lang, "bot.rating.board", game=title)]
        rows, ranking = self._ranked(everyone, lang)
        lines += rows
        ai_ranking: Ranking | None = None
        ai = sorted((r for r in everyone if R.is_ai_entry(r.player)), key=lambda r: R.level_of(r.player))
        if ai:    # the AI levels beside the people, for comparison, never ranked among them
            lines.append(t(lang, "bot.rating.ai", levels=", ".join(
                t(lang, "bot.rating.ai_entry", level=level_text(R.level_of(r.player), lang),
                  rating=number(lang, R.after(r).shown)) for r in ai)))
            ai_ranking = tuple((R.level_of(r.player), R.after(r).shown) for r in ai)
        here_ranking: Ranking | None = None
        if chat is not None:
            here = await self.storage.latest_ratings(chat.platform, kind.id, chat_id=chat.id)
            if any(not R.is_ai_entry(r.player) for r in here):
                chat_rows, here_ranking = self._ranked(here, lang)
                lines += [t(lang, "bot.rating.board_here", game=title), *chat_rows]
        return lines, RatingBoards(everyone=ranking, ai=ai_ranking, here=here_ranking)

    @staticmethod
    def _ranked(rows: Sequence[RatingRow], lang: str) -> tuple[list[str], Ranking]:
        """The people among ``rows``, best first (the top ``BOARD_SIZE``)."""
        people = sorted(((R.after(r), r.name) for r in rows if not R.is_ai_entry(r.player)),
                        key=lambda p: (-p[0].shown, p[1]))[:BOARD_SIZE]
        lines = [t(lang, "bot.rating.row_provisional" if skill.provisional else "bot.rating.row",
                   rank=rank, name=name, rating=number(lang, skill.shown))
                 for rank, (skill, name) in enumerate(people, 1)]
        return lines, tuple((name, skill.shown) for skill, name in people)
