"""``boardchat rating`` (issue 35): the terminal player's rating in each game and the leaderboard
of the terminal games, read from the database a finished game was rated in."""

from __future__ import annotations

import asyncio

from bot.cli import main
from bot.contract import Chat, User
from bot.service import GameService, ManualClock
from bot.terminal.play import HUMAN_ID, PLATFORM
from i18n import t


async def a_rated_terminal_game(db: str) -> None:
    clock = ManualClock()
    service = await GameService.open(db, clock=clock)
    try:
        room, me = Chat(PLATFORM, "game-1"), User(PLATFORM, HUMAN_ID, "Ann")
        assert (await service.new_game(room, me, options={"game": "tiny-hands", "deadline_minutes": 10,
                                                          "reminder_minutes": 0})).ok
        assert (await service.add_ai(room, me)).ok
        assert (await service.start(room, me)).ok
        for _ in range(50):                 # the AI plays Ann's turns at the deadlines (not leaving)
            if (await service.game_info(game_id=1)).status != "playing":
                break
            clock.advance(minutes=11)
            await service.fire_due_timers()
    finally:
        await service.close()


def test_boardchat_rating_prints_the_rating_and_the_board(tmp_path, capsys, tiny_game):
    db = tmp_path / "terminal.sqlite3"
    asyncio.run(a_rated_terminal_game(str(db)))
    assert main(["rating", "--db", str(db), "--name", "Ann", "--language", "de"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(t("de", "bot.rating.title", name="Ann"))
    assert "Tiny Hands: 1." in out                                       # 1.2xx: German digits
    assert t("de", "bot.rating.board", game="Tiny Hands") in out
    assert "KI (mittel)" in out                                           # the AI beside the people
    assert main(["rating", "nothing-like-it", "--db", str(db)]) == 1
