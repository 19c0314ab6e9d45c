"""Ratings through the service, on SQLite and PostgreSQL (issue 35): a finished game rates its
people and AI levels, the final message shows each person's change, /rating shows the ratings and
the leaderboards, a leaver makes a game unrated, and the stored history recomputes to the same numbers.

Games are Tiny Hands (tests/tinygame) played to their end by deadlines: the AI makes every
absent seat's choices then, which is not leaving.
"""

from __future__ import annotations

import pytest
from service_helpers import FakeTransport, chat, start_game, user
from storage.storage_kit import POSTGRES, admin

from bot.service import GameService, ManualClock
from bot.service.players import ratings as R
from i18n import t

DEADLINE = 10       # minutes


@pytest.fixture
async def rated(database, tiny_game):
    clock = ManualClock()
    svc = await GameService.open(database, clock=clock)
    svc.test_clock = clock
    yield svc
    await svc.close()


async def play_out(service, game_id: int) -> None:
    """Let deadlines play every seat's turns until the game ends."""
    clock = service.test_clock
    for _ in range(100):
        if (await service.game_info(game_id=game_id)).status != "playing":
            return
        clock.advance(minutes=DEADLINE + 1)
        await service.fire_due_timers()
    raise AssertionError("the game never ended")


async def a_game(service, c, humans, *, ais=0, seed=1):
    options = {"game": "tiny-hands", "seed": seed, "deadline_minutes": DEADLINE, "reminder_minutes": 0}
    game_id = await start_game(service, c, humans, ais=ais, options=options)
    await play_out(service, game_id)
    return game_id


async def test_a_finished_game_rates_everyone_and_the_final_message_shows_the_changes(rated):
    ann, bob = user("Ann"), user("Bob")
    game_id = await a_game(rated, chat(1), [ann, bob], ais=1)
    rows = {r.player: r for r in await rated.storage.rating_history()}
    assert set(rows) == {"ann", "bob", "ai:normal"}
    assert all(r.game_id == game_id and r.games == 1 and r.mu_before == R.MODEL.mu for r in rows.values())
    info = await rated.game_info(game_id=game_id)
    winners = {info.seats[s].user_id or "ai:normal" for s in info.winners}
    assert {p for p, r in rows.items() if r.place == 1} == winners
    assert all(r.mu_after > r.mu_before for p, r in rows.items() if p in winners and len(winners) < 3)

    transport = FakeTransport()
    await rated.deliver_pending(transport)
    final = next(m.text for m in transport.group() if t("en", "bot.rating.changes") in m.text)
    for p in ("ann", "bob"):
        r = rows[p]
        line = t("en", "bot.rating.change_provisional", name=r.name, before="1,200",
                 after=f"{R.shown(r.mu_after, r.sigma_after):,}")
        assert line in final
    assert "AI" not in final.split(t("en", "bot.rating.changes"))[1]     # only people's changes


async def test_rating_shows_each_game_and_boards_everywhere_and_here_without_the_ai(rated):
    ann, bob, cid = user("Ann"), user("Bob"), user("Cid")
    await a_game(rated, chat(1), [ann, bob], ais=1, seed=2)
    await a_game(rated, chat(2), [ann, cid], seed=3)
    reply = await rated.rating(chat(2), ann)
    assert reply.ok
    mine = reply.extra.mine["tiny-hands"]
    assert mine.games == 2 and mine.provisional
    board = reply.extra.boards["tiny-hands"]
    assert sorted(name for name, _ in board.everyone) == ["Ann", "Bob", "Cid"]     # people only
    assert [level for level, _ in board.ai] == ["normal"]                          # the AI beside them
    assert sorted(name for name, _ in board.here) == ["Ann", "Cid"]                # who played in chat 2
    ratings = [rating for _, rating in board.everyone]
    assert ratings == sorted(ratings, reverse=True)
    assert f"{mine.rating:,}" in reply.text and t("en", "bot.level.normal") + " AI" in reply.text

    german = await rated.rating(None, user("Ann", language="de"), "tiny")
    assert german.ok and german.extra.boards["tiny-hands"].here is None
    assert f"{mine.rating:,}".replace(",", ".") in german.text                     # 1.234 in German

    nobody = await rated.rating(chat(3), user("Dan"))
    assert nobody.extra.mine == {} and t("en", "bot.rating.none") in nobody.text
    assert not (await rated.rating(chat(3), user("Dan"), "no such game")).ok


async def test_a_game_with_a_leaver_is_not_rated_but_deadlines_are_not_leaving(rated):
    ann, bob = user("Ann"), user("Bob")
    c = chat(1)
    options = {"game": "tiny-hands", "seed": 4, "deadline_minutes": DEADLINE, "reminder_minutes": 0}
    game_id = await start_game(rated, c, [ann, bob], options=options)
    assert (await rated.hand_to_ai(c, bob)).ok                                      # Bob leaves
    await play_out(rated, game_id)
    assert (await rated.game_info(game_id=game_id)).status == "finished"
    assert await rated.storage.rating_history() == []
    transport = FakeTransport()
    await rated.deliver_pending(transport)
    assert not any(t("en", "bot.rating.changes") in m.text for m in transport.group())

    # Aborted: not rated either.
    await start_game(rated, c, [ann, bob], options=dict(options, seed=5))
    assert (await rated.abort(c, ann)).ok
    assert await rated.storage.rating_history() == []


async def test_the_stored_history_recomputes_to_the_same_numbers(rated):
    ann, bob, cid = user("Ann"), user("Bob"), user("Cid")
    await a_game(rated, chat(1), [ann, bob], ais=1, seed=6)
    two_ais = await a_game(rated, chat(2), [bob, cid], ais=2, seed=7)
    await a_game(rated, chat(1), [cid, ann, bob], seed=8)
    stored = await rated.storage.rating_history()
    assert len(stored) == 3 + 3 + 3 and max(r.games for r in stored) == 3
    assert [r.player for r in stored if r.game_id == two_ais and R.is_ai_entry(r.player)] == ["ai:normal"]
    recomputed = R.recompute(await rated.storage.rating_inputs())
    key = lambda r: (r.game_id, r.player)   # noqa: E731
    assert sorted(recomputed, key=key) == sorted(stored, key=key)


async def test_the_migration_rates_the_stored_games_as_they_were_rated_live(database, tiny_game):
    """Step 6 of the schema, run again on a database whose games were rated live, gives the same rows."""
    clock = ManualClock()
    service = await GameService.open(database, clock=clock)
    service.test_clock = clock
    try:
        await a_game(service, chat(1), [user("Ann"), user("Bob")], ais=1, seed=9)
        await a_game(service, chat(2), [user("Bob"), user("Cid")], seed=10)
        live = await service.storage.rating_history()
    finally:
        await service.close()
    assert len(live) == 5
    await back_to_schema_5(database)
    service = await GameService.open(database, clock=clock)
    try:
        assert await service.storage.rating_history() == live
    finally:
        await service.close()


async def back_to_schema_5(database: str) -> None:
    if "search_path=" not in database:
        import sqlite3

        with sqlite3.connect(database) as conn:
            conn.execute("DROP TABLE ratings")
            conn.execute("DROP TABLE away")          # the steps after 5 too
            conn.execute("DROP TABLE snapshots")
            conn.execute("PRAGMA user_version=5")
        return
    schema = database.split("search_path=")[1]
    await admin(POSTGRES, f"DROP TABLE {schema}.ratings")
    await admin(POSTGRES, f"DROP TABLE {schema}.away")
    await admin(POSTGRES, f"DROP TABLE {schema}.snapshots")
    await admin(POSTGRES, f"UPDATE {schema}.meta SET value = '5' WHERE key = 'schema_version'")
