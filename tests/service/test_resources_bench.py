"""The resources bench plays its games through the service and weighs their database (a run
that the bench's own transport or play could break without a test: it is run by hand)."""

from __future__ import annotations

import pytest

from bot.resources_bench import _database_bytes, _play, main


async def test_the_bench_plays_and_delivers_and_weighs_a_game(tmp_path):
    path = str(tmp_path / "bench.sqlite3")
    assert await _play(path, "paris-paris", 1, 12, deliver=True) == [12]
    assert await _play(path, "paris-paris", 1, None, first=1, deliver=True)
    weight = _database_bytes(path)
    assert weight["games"] == 1 and weight["outbox_rows"] > 0 and weight["total"] > weight["outbox"] > 0


def test_the_bench_refuses_no_games(capsys):
    with pytest.raises(SystemExit):
        main(["--games", "0"])
    assert "at least 1 game, not 0" in capsys.readouterr().err
