"""``boardchat`` as an operator or a new player met it (issue 32): the AI level it names, which
game ``--resume`` opens, ``export`` into a closed pipe, option help, one wording for a word that
fits several choices, and ``health`` without a database named."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_terminal_play import ROOT, play

from bot.cli import main
from bot.games import KINDS


@pytest.fixture(autouse=True)
def english_and_no_database_settings(monkeypatch, tmp_path):
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    for var in ("BOARDCHAT_DB", "PARIS_PARIS_DB", "BOARDCHAT_DATABASE_URL", "PARIS_PARIS_DATABASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_the_ai_level_asked_for_is_the_one_named(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--ai-level", "strong", "--players", "2", "--seed", "11",
                                           "--name", "Ann", "--db", str(tmp_path / "g.sqlite3"), "--no-maps"],
                     "quit\n")
    assert code == 0
    assert "AI level: strong" in out and "AI level: normal" not in out


def test_resume_opens_the_game_played_last_not_the_newest(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    base = ["play", "--players", "2", "--name", "Ann", "--db", str(db), "--no-maps"]
    for seed in ("4", "9"):                                # games 1 and 2, both left at once
        assert play(monkeypatch, capsys, [*base, "--seed", seed], "quit\n")[0] == 0
    # Game 1 is played a move further, then left (end of input, as after Ctrl-C).
    code, out = play(monkeypatch, capsys, ["play", "--resume", "1", "--db", str(db), "--no-maps"], answers=1)
    assert code == 0 and "Continuing game 1" in out
    code, out = play(monkeypatch, capsys, ["play", "--resume", "--db", str(db), "--no-maps"], "quit\n")
    assert "Continuing game 1:" in out, out[:300]
    # A new game names the same one as the game to continue.
    code, out = play(monkeypatch, capsys, [*base, "--seed", "5"], "quit\n")
    assert "continue the one you played last, game 1, with boardchat play --resume 1 " in out


def test_export_into_a_pipe_closed_early_ends_quietly(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    assert play(monkeypatch, capsys, ["play", "--players", "2", "--seed", "3", "--name", "Ann", "--db", str(db),
                                      "--no-maps"], "quit\n")[0] == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # ``boardchat export | head -c 0``: the reader is gone before the record is written.
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "export", "--db", str(db)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()
    assert proc.returncode == 1


def test_every_game_option_says_what_it_does(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("--hidden-money {False,True} Hidden money: False (off), True (on) (default False). "
            "Only you see your own Lire") in text
    for language in ("en", "de", "it", "fr"):
        for game in KINDS.values():
            for spec in game.definition.options:
                what = game.presenter.option_help_text(spec.name, language)
                assert what.endswith(".") and len(what.split()) >= 6, (game.id, spec.name, language, what)


def test_a_word_that_fits_several_choices_is_refused_in_one_wording(monkeypatch, capsys, tmp_path):
    """Seed 12 offers Louvre (blue), Luxembourg (purple) and Concorde (blue): the terminal finds
    "l" ambiguous itself, the game finds "blue" so; both are said the same way."""
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--seed", "12", "--name", "Ann",
                                           "--db", str(tmp_path / "g.sqlite3"), "--no-maps"], "l\nblue\nquit\n")
    assert code == 0
    assert '"l" fits more than one choice: 🔵 1 · Louvre, 🟣 2 · Luxembourg.' in out
    assert '"blue" fits more than one choice: 🔵 1 · Louvre, 🔵 3 · Concorde.' in out
    assert "Not accepted" not in out and "type its number" not in out


def test_health_without_a_database_names_where_each_kind_of_game_lives(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert main(["health", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert str(tmp_path / "boardchat.sqlite3") in report["error"]          # where the bots' default is
    assert str(tmp_path / "data" / "boardchat" / "games.sqlite3") in report["error"]     # the terminal's
