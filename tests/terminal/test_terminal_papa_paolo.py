"""Papà Paolo at the terminal (issue 19): ``--game papa-paolo`` with a scripted human who types
numbers (the ones the game shows: a square's number on its picture, the other choices after
them) against an AI seat, to the end of the game; the record names both players' moves."""

from __future__ import annotations

import io
import itertools

from bot.service import GameService
from bot.terminal.play import EXIT_OK, PlayOptions, run_play
from engine.papa_paolo.definition import GAME


async def test_a_game_of_papa_paolo_is_played_to_the_end_at_the_terminal(tmp_path):
    db = tmp_path / "games.sqlite3"
    options = PlayOptions(kind="papa-paolo", players=2, name="Ann", seed=4, db=db, maps=None)
    typed = "".join(f"{n}\n" for n in itertools.islice(itertools.cycle((1, 2, 1, 3)), 3000))
    out = io.StringIO()
    code = await run_play(options, stdin=io.StringIO(typed), stdout=out, colour=False)
    text = out.getvalue()
    assert code == EXIT_OK, text[-2000:]
    assert "Traceback" not in text and "GameStalled" not in text
    assert "Papà Paolo is over" in text
    service = await GameService.open(str(db))
    try:
        (info,) = await service.platform_games("terminal")
        assert info.status == "finished" and info.winners, info
        record = await service.record(info.game_id)
        assert {m["player"] for m in record["moves"]} == set(record["players"])
        assert GAME.from_record(record).is_terminal()
    finally:
        await service.close()
