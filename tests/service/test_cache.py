"""The game cache under pressure: more games in use at once than it holds. A game evicted by
one task while another awaits the database is kept again or read again; no caller fails."""

from __future__ import annotations

import asyncio

from service_helpers import chat, start_game, user

from bot.service import GameService

GAMES = 30
CACHE = 4


async def test_more_games_pressed_at_once_than_the_cache_holds_never_fail_a_caller(db_path, clock):
    service = await GameService.open(db_path, clock=clock, cache_size=CACHE)
    try:
        users = {u.id: u for u in (user("Ann"), user("Bob"))}
        chats = [chat(n) for n in range(GAMES)]
        presses = []
        for c in chats:
            await start_game(service, c, list(users.values()), options={"seed": 1})
            info = await service.game_info(c)
            mover = users[info.seats[info.to_move].user_id]
            board = await service.board(c, mover)
            presses.append((c, mover, board.buttons[0][0].payload))
        calls = []
        for c, mover, payload in presses:
            calls += [service.game_info(c), service.board(c, mover), service.press(c, mover, payload),
                      service.game_info(c), service.board(c, mover)]
        results = await asyncio.gather(*calls, return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert errors == []
        pressed = results[2::5]
        assert all(reply.ok for reply in pressed), [r.text for r in pressed if not r.ok]
        for c, _, _ in presses:             # every press was committed once
            assert (await service.game_info(c)).moves >= 1
        assert len(service.store._games) <= CACHE
    finally:
        await service.close()
