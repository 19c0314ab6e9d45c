"""Statistics are per game: points of different games are never averaged together."""

from __future__ import annotations

from service_helpers import PLATFORM, chat, user

from bot.games import kind
from bot.service.game.model import Changes, ResultRow
from i18n import decimal, t

ANN, BOB = user("Ann"), user("Bob")


def results(gid: int, game: str, points: tuple[int, int], chat_id: str = "chat1") -> list[ResultRow]:
    """Ann and Bob's results of one finished game (Ann wins)."""
    return [ResultRow(gid, seat, PLATFORM, chat_id, who.id, who.name, False, pts, seat == 0, 100.0, game)
            for seat, (who, pts) in enumerate(zip((ANN, BOB), points, strict=True))]


async def test_stats_give_one_leaderboard_per_game_and_never_average_across_games(service):
    await service.storage.commit(Changes(results=[*results(1, "paris-paris", (33, 20)),
                                                  *results(2, "paris-connection", (160, 120))]), 100.0)
    reply = await service.stats(chat(), ANN)
    assert reply.ok
    titles = [t("en", "bot.stats.title_game", game=kind(g).presenter.title("en"))
              for g in ("paris-paris", "paris-connection")]
    assert all(title in reply.text for title in titles)
    paris, connection = reply.text.split(titles[1])
    average = t("en", "bot.stats.average", average=decimal("en", 33))
    assert average in paris and t("en", "bot.stats.average", average=decimal("en", 160)) in connection
    assert t("en", "bot.stats.average", average=decimal("en", 96.5)) not in reply.text   # (33 + 160) / 2
    assert set(reply.extra.by_game) == {"paris-paris", "paris-connection"}
    assert reply.extra.by_game["paris-connection"].leaderboard[0].points == 160
    # Asking for one game gives that game only.
    only = await service.stats(chat(), ANN, "paris-connection")
    assert titles[1] in only.text and titles[0] not in only.text and only.extra.game == "paris-connection"


async def test_stats_of_another_chat_show_only_the_users_own_games(service):
    await service.storage.commit(Changes(results=results(1, "paris-paris", (33, 20), chat_id="elsewhere")), 100.0)
    reply = await service.stats(chat(), ANN)
    assert t("en", "bot.stats.empty") in reply.text            # nothing finished in this chat...
    assert reply.extra.games == 1 and reply.extra.game == "paris-paris"   # ...Ann played one elsewhere
    everywhere = await service.stats(chat(), ANN, all_chats=True)
    assert t("en", "bot.stats.empty") not in everywhere.text and everywhere.extra.leaderboard
