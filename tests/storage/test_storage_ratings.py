"""Rating rows on both backends: stored with the game that ends, read back as each entry's latest,
and two games that both built on the same rating of one entry cannot both be stored."""

from __future__ import annotations

import pytest
from storage_kit import PLATFORM, playing

from bot.service.game.model import Changes, RatingRow
from bot.service.storage import Conflict


def row(gid: int, player: str, games: int, *, chat_id: str = "chat1", mu: float = 26.0) -> RatingRow:
    return RatingRow(gid, PLATFORM, "paris-paris", player, player.title(), chat_id, 1, 25.0, 8.3, mu, 8.0,
                     games, 100.0 + gid)


async def test_latest_rows_per_entry_everywhere_in_a_chat_and_of_some(storage):
    await storage.commit(Changes(meta=playing(1), ratings=[row(1, "ann", 1), row(1, "bob", 1)]), 1.0)
    await storage.commit(Changes(meta=playing(2, "chat2"),
                                 ratings=[row(2, "ann", 2, chat_id="chat2", mu=30.0), row(2, "cid", 1, chat_id="chat2")]),
                         2.0)
    everyone = {r.player: (r.games, r.mu_after) for r in await storage.latest_ratings(PLATFORM, "paris-paris")}
    assert everyone == {"ann": (2, 30.0), "bob": (1, 26.0), "cid": (1, 26.0)}
    here = await storage.latest_ratings(PLATFORM, "paris-paris", chat_id="chat1")
    assert {r.player: r.games for r in here} == {"ann": 2, "bob": 1}      # Ann's rating now, not as of chat1
    some = await storage.latest_ratings(PLATFORM, "paris-paris", players=["bob", "dan"])
    assert [r.player for r in some] == ["bob"]
    assert [r.games for r in await storage.player_ratings(PLATFORM, "ann")] == [2]
    assert [(r.game_id, r.player) for r in await storage.rating_history()] == [
        (1, "ann"), (1, "bob"), (2, "ann"), (2, "cid")]


async def test_two_games_built_on_the_same_rating_conflict(storage):
    await storage.commit(Changes(meta=playing(1), ratings=[row(1, "ann", 1)]), 1.0)
    with pytest.raises(Conflict):           # game 2 read Ann's rating before game 1 stored its row
        await storage.commit(Changes(meta=playing(2, "chat2"), ratings=[row(2, "ann", 1, chat_id="chat2")]), 2.0)
    assert await storage.load_games([2]) == {}                          # nothing of game 2 was stored
