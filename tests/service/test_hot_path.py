"""A move's round trips to the database (issue 44): a press reads its chat's game (id and version
in one statement) and commits; nothing else. Who is away is read once per copy of a game, and
read again when someone says /away, in this process or in another one on the same database."""

from __future__ import annotations

import pytest
from service_helpers import chat, start_game, user

from bot.service import GameService, ManualClock


async def _press_statements(service: GameService, c, people: dict) -> list[str]:
    """The SQL statements of one press of the player to move (found before they are counted)."""
    info = await service.game_info(c)
    mover = people[info.seats[info.to_move].user_id]
    board = await service.board(c, mover)
    payload = next(row[0].payload for row in board.buttons if row[0].payload.startswith("c_"))
    statements: list[str] = []
    db = service.storage.db
    await db.set_trace_callback(statements.append)
    try:
        reply = await service.press(c, mover, payload)
    finally:
        await db.set_trace_callback(None)
    assert reply.ok, reply
    return statements


@pytest.mark.parametrize("away", [False, True], ids=["nobody-away", "someone-away"])
async def test_a_press_reads_its_game_once_then_commits(service, away):
    people = {u.id: u for u in (user("Ann"), user("Bob"), user("Cat"))}
    c = chat()
    await start_game(service, c, list(people.values()), options={"seed": 3})
    if away:
        assert (await service.away(people["cat"], "2d")).ok
    await _press_statements(service, c, people)          # the game in memory, its people's absence known
    statements = await _press_statements(service, c, people)
    before_commit = statements[:statements.index("BEGIN IMMEDIATE")]
    assert len(before_commit) == 1 and before_commit[0].startswith("SELECT id, version FROM games"), statements
    assert not [s for s in statements if "FROM away" in s or "FROM chat_settings" in s]


async def test_away_said_to_another_process_reaches_a_game_this_one_holds(db_path):
    """Process A holds the game in memory (and who was away then); B stores Bob's /away and
    commits it into the game, so A reads the game again before its next move and arms the
    timer that lets the AI play Bob's turn."""
    clock = ManualClock()
    a = await GameService.open(db_path, clock=clock, owner="bot-a")
    b = await GameService.open(db_path, clock=clock, owner="bot-b")
    try:
        people = {u.id: u for u in (user("Ann"), user("Bob"))}
        c = chat()
        gid = await start_game(a, c, list(people.values()), options={"seed": 6})
        await _press_statements(a, c, people)
        info = await a.game_info(c)
        waiting = info.seats[1 - info.to_move].user_id     # the one not to move now
        assert (await b.away(people[waiting], "3d")).ok
        while (await a.game_info(c)).seats[(await a.game_info(c)).to_move].user_id != waiting:
            await _press_statements(a, c, people)
        kinds = {t.kind for t in await a.storage.timers_of(gid)}
        assert any(k.startswith("away:") for k in kinds), kinds
    finally:
        await a.close()
        await b.close()


async def test_a_service_sets_the_collector_for_games_in_memory(db_path):
    """Issue 44: a process that opens the service collects its young objects every
    ``collector.THRESHOLDS[0]`` (a burst of presses keeps thousands alive until their commits),
    not at Python's 700."""
    import gc

    from bot.service.storage import collector

    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        service = await GameService.open(db_path)
        await service.close()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert collector.THRESHOLDS[0] >= 5_000
    finally:
        gc.set_threshold(*before)


async def test_a_service_works_out_its_snapshot_stamps_when_it_opens(db_path):
    """Issue 44: a snapshot's stamp hashes its game's sources (about 4 ms a game kind, once a
    process); it is worked out when the service opens, not by the first game a player reads back."""
    from bot.games import KINDS
    from bot.service.game.snapshots import stamp

    stamp.cache_clear()
    service = await GameService.open(db_path)
    try:
        assert stamp.cache_info().currsize == len(KINDS)
    finally:
        await service.close()
