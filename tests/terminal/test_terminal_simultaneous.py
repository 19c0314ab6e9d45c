"""The terminal with a game whose phases let several seats act at once (Tiny Hands, tests/tinygame):
the AI seats make their choices at once and the player is asked whenever their seat is among
those to act; no GameStalled, and the game is played to its end (issue 17)."""

from __future__ import annotations

import io

from bot.service import GameService
from bot.terminal.play import EXIT_OK, PlayOptions, run_play


async def test_a_simultaneous_game_is_played_to_the_end_at_the_terminal(tmp_path, tiny_game):
    db = tmp_path / "games.sqlite3"
    options = PlayOptions(kind="tiny-hands", players=3, name="Ann", seed=5, db=db, maps=None)
    out = io.StringIO()
    code = await run_play(options, stdin=io.StringIO("1\n" * 400), stdout=out, colour=False)
    text = out.getvalue()
    assert code == EXIT_OK, text[-2000:]
    assert "GameStalled" not in text and "Traceback" not in text
    service = await GameService.open(str(db))
    try:
        (info,) = await service.platform_games("terminal")
        assert info.status == "finished" and info.winners, info
        record = await service.record(info.game_id)
        movers = {m["player"] for m in record["moves"]}
        assert "Ann" in movers and len(movers) == 3          # the player and both AI seats chose
    finally:
        await service.close()
