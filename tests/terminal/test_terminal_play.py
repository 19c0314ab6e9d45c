"""``boardchat play`` through its real entry, with scripted input, against the real service.

Most tests call ``bot.cli.main(argv)`` with standard input and output replaced (fast); a
few run ``python -m bot.cli`` as a subprocess (the real console, EOF and Ctrl-C).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import av
import pytest
from PIL import Image

from bot.cli import _run_adapter, main
from bot.contract import GameInfo, User
from bot.games import KINDS
from bot.replyextra import Stats
from bot.service import GameService
from bot.service.table.lobby import AI_NAMES
from bot.terminal.play import HUMAN_ID, TERMINAL_CHAT
from engine.paris_paris import Game
from engine.paris_paris.record import to_record
from i18n import t

ROOT = Path(__file__).resolve().parents[2]
# For a subprocess that is given all its input at once: every number in turn, so that each
# prompt soon gets one of its choices (a tile keeps its offer number through a round, so "1"
# is not always on offer). In-process tests answer from the printed choices (``FirstChoice``).
ANY_CHOICE = "1\n2\n3\n4\n5\n" * 200


class Screen(io.StringIO):
    """Standard output that tells a waiting ``FirstChoice`` when a question was asked (a write
    that does not end a line: the terminal's prompts)."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = threading.Condition()
        self.prompts = 0
        self.done = False

    def write(self, text: str) -> int:
        with self.changed:
            n = super().write(text)
            if text and not text.endswith("\n"):
                self.prompts += 1
            self.changed.notify_all()
        return n

    def finish(self) -> None:
        with self.changed:
            self.done = True
            self.changed.notify_all()


class FirstChoice(io.TextIOBase):
    """A player who types ``typed`` first, then answers every prompt with the first number
    printed above it, ``answers`` times (then closes the input)."""

    def __init__(self, screen: Screen, typed: str = "", answers: int = 10_000) -> None:
        self.screen = screen
        self.typed = typed.splitlines(keepends=True)
        self.answers = answers
        self.lines = 0      # every line answers one prompt: line k is read at prompt k

    def readline(self, size: int = -1) -> str:
        self.lines += 1
        if self.typed:
            return self.typed.pop(0)
        screen = self.screen
        if self.answers <= 0:
            return ""
        with screen.changed:
            # (a safety net against a hang, not a timing: a prompt comes within milliseconds)
            screen.changed.wait_for(lambda: screen.prompts >= self.lines or screen.done, timeout=60)
            if screen.prompts < self.lines:
                return ""
            text = screen.getvalue()
        self.answers -= 1
        block = text[text.rfind("\n\n"):]
        return re.search(r"^\s*(\d+)\. ", block, re.M).group(1) + "\n"


@pytest.fixture(autouse=True)
def english_system_locale(monkeypatch):
    """Without --language the CLI follows the system locale; tests must not depend on it."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.delenv("BOARDCHAT_DB", raising=False)
    monkeypatch.delenv("PARIS_PARIS_DB", raising=False)


def play(monkeypatch, capsys, argv: list[str], stdin: str = "", *, answers: int = 0) -> tuple[int, str]:
    """Run ``boardchat`` in-process with ``stdin`` as the player's typing, then (``answers``
    times) the first choice printed at each prompt."""
    screen, before = Screen(), sys.stdout
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", FirstChoice(screen, stdin, answers))
    try:
        code = main(argv)
    finally:
        screen.finish()
        monkeypatch.setattr(sys, "stdout", before)
    capsys.readouterr()
    return code, screen.getvalue()


FIRST = 10_000      # ``answers``: the first choice, as long as the game asks


def run_cli(args: list[str], stdin: str = "", env: dict | None = None, timeout: float = 60) \
        -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", LC_ALL="C.UTF-8", **(env or {}))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", env=full_env, timeout=timeout, cwd=ROOT)


def terminal_games(db: Path) -> list[dict]:
    """Every terminal game in ``db``, newest first, read through the service."""
    async def read():
        service = await GameService.open(str(db))
        try:
            return await service.platform_games("terminal")
        finally:
            await service.close()
    return asyncio.run(read())


def game_state(db: Path) -> GameInfo | None:
    """The latest unfinished terminal game."""
    return next((g for g in terminal_games(db) if g.active), None)


def terminal_stats(db: Path) -> Stats:
    async def read():
        service = await GameService.open(str(db))
        try:
            reply = await service.stats(TERMINAL_CHAT, User("terminal", HUMAN_ID, "Ann"), all_chats=True)
            assert isinstance(reply.extra, Stats)
            return reply.extra
        finally:
            await service.close()
    return asyncio.run(read())


def final_scores(out: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith("Final scores:")]
    assert lines, out[-2000:]
    return lines[-1]


def test_two_player_game_against_one_ai_to_the_end(tmp_path):
    db = tmp_path / "games.sqlite3"
    result = run_cli(["play", "--players", "2", "--ai", "1", "--seed", "3", "--name", "Ann",
                      "--db", str(db), "--no-maps"], ANY_CHOICE)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Paris Paris in the terminal: 2 seats, 1 played by the AI." in out
    # 20 rounds, one tile for Ann each round (and eviction choices on top)
    assert out.count("Your choice (1-") >= 20
    assert "Round 20/20 is over." in out
    # The end is told once: the winner, the scores ranked (ties share a place), how to play again.
    assert out.count("The game is over") == 1 and "wins with" not in out
    assert out.endswith(f"Play again with: boardchat play --players 2 --db {db} --no-maps\n")
    ranked = re.search(r"^Final scores: 1\. (.+) (\d+), (\d)\. (.+) (\d+)$", out, re.M)
    assert ranked and {ranked[1], ranked[4]} == {"Ann", "Ada"}
    assert int(ranked[2]) >= int(ranked[5]) and ranked[3] == ("1" if ranked[2] == ranked[5] else "2")
    # The secret marker was shown to Ann, privately marked; the AI's was not shown before the end.
    assert "Private, only Ann sees this:" in out
    before_end = out.split("The special routes are revealed")[0]
    assert before_end.count("Your secret special-route marker: ") == 1      # no "in Terminal" place
    # Stored through the service: the finished game counts in Ann's history; none is unfinished.
    assert game_state(db) is None
    assert terminal_stats(db).games == 1


def test_watching_an_ai_only_game(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--ai", "3", "--seed", "5",
                                           "--db", str(tmp_path / "g.sqlite3"), "--no-maps"])
    assert code == 0
    assert "Every seat is played by the AI" in out
    assert "Round 15/15 is over." in out
    assert "🏆" in out and "The game is over!" in out
    assert "Your choice" not in out          # nobody was asked anything
    assert "Private, only" not in out        # no seat is the watcher's: no secret is shown
    # Plain words at the start: nothing about reminders or time limits nobody uses here.
    start = out.split("Round 1/15")[0]
    assert "reminder" not in start and "time limit" not in start and " off" not in start
    # Each round's moves come before the line that says the round is over.
    lines = out.splitlines()
    for r in (1, 2, 15):
        over = next(i for i, line in enumerate(lines) if f"Round {r}/15 is over." in line)
        assert " opens a shop at " in lines[over - 1] and lines[over - 1].split()[0] in AI_NAMES, lines[over - 3:over + 2]
        assert " opens a shop at " not in lines[over + 1]
    assert out.count("The game is over") == 1


def test_bad_input_gets_a_clear_message_and_the_same_choices(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    typed = "x\n0\n42\n\n-3\nhelp\nboard\nmarker\nstats\nrating\n1\n"
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--seed", "8", "--name", "Ann",
                                           "--db", str(db), "--no-maps"], typed)
    assert code == 0
    assert "'x' is not a choice or a command: type a number (1" in out
    assert "0 is not one of the choices; the choices are 1" in out
    assert "42 is not one of the choices" in out
    assert "Type the number of your choice" in out         # the empty line
    assert "'-3' is not a choice or a command" in out
    assert "Commands:" in out and "quit" in out            # help
    assert out.count("Paris Paris · round 1 of 20") >= 2   # the board, shown again on request
    assert out.count("Private, only Ann sees this:") >= 2  # the marker, privately
    assert "🔒 Your marker is " in out and "Terminal:" not in out   # no platform in front of it
    assert t("en", "bot.stats.title") in out                # the service's leaderboard
    # The terminal's leaderboard covers every terminal game: it says so, not "in this chat".
    assert t("en", "bot.stats.empty_anywhere") in out and t("en", "bot.stats.empty") not in out
    # "rating": Ann's ratings (none yet: nothing finished) through the same service call as /rating.
    assert t("en", "bot.rating.title", name="Ann") in out and t("en", "bot.rating.none") in out
    # Every mistake showed the same choices again, and nothing was lost: the "1" was played.
    first_choices = out.split("Your choice")[0].rsplit("\n\n", 1)[-1]
    assert out.count(first_choices) >= 10
    state = game_state(db)
    assert state is not None and state.moves >= 2
    assert "Input closed. The game is saved; continue it with: boardchat play --resume 1 --db" in out


def test_eof_mid_game_then_resume_plays_to_the_same_end(monkeypatch, capsys, tmp_path):
    args = ["play", "--players", "3", "--seed", "11", "--name", "Ann", "--no-maps"]
    code, whole = play(monkeypatch, capsys, [*args, "--db", str(tmp_path / "a.sqlite3")], answers=FIRST)
    assert code == 0 and "The game is over!" in whole

    db = tmp_path / "b.sqlite3"
    code, first = play(monkeypatch, capsys, [*args, "--db", str(db)], answers=4)
    assert code == 0
    assert "Input closed. The game is saved; continue it with: boardchat play --resume" in first
    assert "The game is over" not in first
    stopped_at = game_state(db)
    assert stopped_at.status == "playing" and stopped_at.moves >= 4

    code, rest = play(monkeypatch, capsys, ["play", "--resume", "--db", str(db), "--no-maps"], answers=FIRST)
    assert code == 0
    assert f"Continuing game {stopped_at.game_id}: round " in rest
    assert "Round 1/15 is over" not in rest     # earlier rounds are not played again
    assert "The game is over!" in rest
    # Same deal, same answers, same AI seeds: the interrupted game ends exactly like the whole one.
    assert final_scores(rest) == final_scores(whole)
    assert game_state(db) is None


def test_several_games_live_in_one_database(monkeypatch, capsys, tmp_path):
    """A new game never asks to abandon an unfinished one; --resume takes the latest or an id;
    ``boardchat games`` lists them all."""
    db = tmp_path / "g.sqlite3"
    base = ["play", "--players", "2", "--db", str(db), "--no-maps"]
    code, out = play(monkeypatch, capsys, [*base, "--seed", "4", "--name", "Ann"], "quit\n")
    assert code == 0 and "continue it with: boardchat play --resume 1 --db" in out
    # Watching an AI game meanwhile: it just starts, saying once how to continue the other one.
    code, out = play(monkeypatch, capsys, ["play", "--players", "4", "--ai", "4", "--seed", "5",
                                           "--db", str(db), "--no-maps"])
    assert code == 0
    assert out.startswith("Your unfinished game 1 stays saved: continue it with boardchat play --resume 1 "
                          f"--db {db} --no-maps (list: boardchat games --db {db}).\n")
    assert out.count("unfinished game") == 1 and "Abandon" not in out
    assert "Round 12/12 is over." in out
    code, out = play(monkeypatch, capsys, [*base, "--seed", "9", "--name", "Bea"], "quit\n")
    assert "Your unfinished game 1 stays saved" in out
    # The list: newest first, with game, players, round, start and state; the games waiting for
    # you (here: both that were quit at the player's turn) are marked.
    code, out = play(monkeypatch, capsys, ["games", "--db", str(db)])
    assert code == 0
    rows = [line for line in out.splitlines() if " · " in line]
    assert [row.split()[0] for row in rows] == ["3", "2", "1"]
    assert re.match(r"^ +3  Paris Paris · Bea, Ada · round 1 of 20 · started \d{4}-\d\d-\d\d \d\d:\d\d "
                    r"· unfinished, your turn ◀$", rows[0]), rows[0]
    assert "Ada, Blaise, Camille, Denis · round 12 of 12" in rows[1] and rows[1].endswith("finished")
    assert "Ann, Ada" in rows[2] and rows[2].endswith(t("en", "terminal.games.your_turn"))
    assert "boardchat play --resume ID" in out
    assert play(monkeypatch, capsys, [*base, "--list"])[1] == out
    # --resume alone: the latest unfinished game (3); --resume 1: that one, to its end.
    code, out = play(monkeypatch, capsys, ["play", "--resume", "--db", str(db), "--no-maps"], "quit\n")
    assert "Continuing game 3: round 1 of 20" in out and "Bea" in out
    code, out = play(monkeypatch, capsys, ["play", "--resume", "1", "--db", str(db), "--no-maps"], answers=FIRST)
    assert code == 0
    assert "Continuing game 1: round 1 of 20; scores: Ann 0, Ada 0." in out
    assert "Round 20/20 is over." in out
    assert [g.status for g in terminal_games(db)] == ["playing", "finished", "finished"]
    # A finished or unknown game cannot be resumed; each says what to do instead.
    code, out = play(monkeypatch, capsys, ["play", "--resume", "2", "--db", str(db), "--no-maps"])
    assert code == 1 and "Game 2 is over: there is nothing to continue. Its record: boardchat export 2" in out
    code, out = play(monkeypatch, capsys, ["play", "--resume", "7", "--db", str(db), "--no-maps"])
    assert code == 1 and f"There is no terminal game 7 in this database. Your games: boardchat games --db {db}" in out
    # The terminal's stats count every terminal game, not only the one being played.
    assert terminal_stats(db).games == 1


def test_no_games_yet(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["games", "--db", str(tmp_path / "none.sqlite3")])
    assert code == 0 and "No terminal games in" in out and not (tmp_path / "none.sqlite3").exists()


def test_resume_without_an_unfinished_game_starts_one(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--resume", "--players", "2", "--ai", "2", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")])
    assert code == 0
    assert "There is no unfinished game to continue; starting a new one." in out
    assert "The game is over!" in out


@pytest.mark.real_animation
def test_one_map_file_follows_the_game_and_the_final_standings_have_their_own(monkeypatch, capsys, tmp_path):
    maps = tmp_path / "maps"
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--ai", "1", "--seed", "2",
                                           "--db", str(tmp_path / "g.sqlite3"), "--maps", str(maps)],
                     answers=FIRST)
    assert code == 0
    # issue 32: the board after each round overwrites one file (a viewer left open on it follows)
    files = sorted(p.name for p in maps.iterdir())
    code = files[0].split("-")[2]
    # ... and the whole game, at its end, as an animation beside the final standings
    assert files == [f"paris-1-{code}-board.png", f"paris-1-{code}-final.png", f"paris-1-{code}-replay.mp4"]
    assert out.count(f"Map saved: {maps / files[0]}") > 5        # told after every round
    assert f"The whole game as an animation: {maps / files[2]}" in out
    with av.open(str(maps / files[2])) as video:
        stream = video.streams.video[0]
        assert stream.codec_context.name == "h264" and not video.streams.audio
        assert sum(1 for _ in video.decode(stream)) > 12     # a frame per round and the standings, repeated
    assert "Play again with: boardchat play" in out and "--keep-pictures" not in out


def test_maps_are_written_after_each_round(monkeypatch, capsys, tmp_path):
    maps = tmp_path / "maps"
    code, out = play(monkeypatch, capsys, ["play", "--players", "4", "--ai", "3", "--seed", "2",
                                           "--db", str(tmp_path / "g.sqlite3"), "--maps", str(maps),
                                           "--keep-pictures"],
                     answers=FIRST)
    assert code == 0
    files = sorted(maps.glob("*.png"))
    # A 4-player game has 12 rounds: the start, a map after each round, then the final standings;
    # the names carry the game's id and deal code, so another database's game 1 never overwrites them.
    # The latest board is kept under a name of its own too.
    code = files[0].name.split("-")[2]
    assert len(code) == 4
    assert sorted(p.name for p in files) == sorted([f"paris-1-{code}-round{r}.png" for r in range(1, 13)]
                                                   + [f"paris-1-{code}-start.png", f"paris-1-{code}-final.png",
                                                      f"paris-1-{code}-board.png"])
    assert "--keep-pictures" in out.splitlines()[-1]
    for path in files:
        assert f"Map saved: {path}" in out
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 400
    assert f"Maps are written to {maps}" in out


def test_no_maps_writes_no_files(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--ai", "2", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")])
    assert code == 0
    assert "Map saved" not in out
    assert not (tmp_path / "boardchat-maps").exists()


def test_system_locale_picks_the_language(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--ai", "2", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")])
    assert code == 0
    assert "Paris Paris nel terminale: 2 posti, 2 giocati dall'IA." in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Gioca a giochi da tavolo nel terminale" in capsys.readouterr().out


def test_german(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--language", "de", "--seed", "1",
                                           "--db", str(tmp_path / "g.sqlite3"), "--no-maps"],
                     "hilfe\nx\n", answers=FIRST)
    assert code == 0
    assert "Paris Paris im Terminal: 2 Plätze, 1 davon spielt die KI." in out
    assert "Deine Wahl (1-" in out
    assert "Befehle:" in out                                   # "hilfe" is German for help
    assert "„x“ ist weder eine Option noch ein Befehl" in out
    assert "Punkte, " in out and "auf dem Plan" in out        # the board, in German
    assert "Das Spiel ist aus!" in out
    assert "Your choice" not in out and "Play again with" not in out   # no English from the terminal


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG data folder: Linux convention")
def test_default_database_goes_to_the_user_data_folder(tmp_path):
    result = run_cli(["play", "--players", "2", "--ai", "2", "--no-maps"],
                     env={"XDG_DATA_HOME": str(tmp_path / "data"), "BOARDCHAT_DB": ""})
    assert result.returncode == 0, result.stderr
    db = tmp_path / "data" / "boardchat" / "games.sqlite3"
    assert db.is_file()
    assert f"Games are saved in {db}" in result.stdout
    assert terminal_stats(db).leaderboard


def test_unusable_database_path_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run_cli(["play", "--db", str(blocker / "g.sqlite3"), "--no-maps"])
    assert result.returncode == 1
    assert f"Cannot open the game file {blocker / 'g.sqlite3'}" in result.stdout
    assert "--db PATH" in result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX signals")
def test_ctrl_c_saves_and_says_how_to_resume(tmp_path):
    db = tmp_path / "g.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", LC_ALL="C.UTF-8")
    # The game runs as in a terminal, where Ctrl-C reaches it. A test run started in the
    # background (``pytest &``) ignores SIGINT, and an ignored signal stays ignored across
    # exec: the game would never see the Ctrl-C and end at the end of input instead (exit 0).
    # A handled signal is reset to its default by exec, so handle it while starting the game.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "--players", "2", "--seed", "6",
                                 "--db", str(db), "--no-maps"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, cwd=ROOT)
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        seen = b""
        deadline = time.monotonic() + 30
        while seen.count(b"Your choice") < 2 and time.monotonic() < deadline:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
        assert seen.count(b"Your choice") >= 2, seen.decode(errors="replace")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = (seen + out).decode()
    assert proc.returncode == 130, err.decode()
    assert "Stopped. The game is saved; continue it with: boardchat play --resume 1 --db" in text
    assert b"Traceback" not in err
    state = game_state(db)
    assert state.status == "playing" and state.moves >= 2
    resumed = run_cli(["play", "--resume", "--db", str(db), "--no-maps"], ANY_CHOICE)
    assert resumed.returncode == 0 and "The game is over!" in resumed.stdout


def test_quit_command_saves(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--db", str(db), "--no-maps"], "quit\n")
    assert code == 0
    assert "The game is saved; continue it with: boardchat play --resume" in out
    assert game_state(db).status == "playing"


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--players", "5"], "Paris Paris is for 2 to 4 players, not 5"),
    (["play", "--players", "3", "--ai", "0"], "--ai must be 2 (you against the AI) or 3 (watch an AI-only game)"),
    (["play", "--players", "4", "--ai", "2"], "--ai must be 3 (you against the AI) or 4"),
    (["play", "--players", "2", "--ai", "3"], "with 2 players, not 3"),
    (["play", "--language", "xx"], "invalid choice: 'xx'"),
    (["play", "--players", "two"], "invalid int value: 'two'"),
])
def test_bad_options_are_explained(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_help(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for word in ("play", "telegram", "discord", "replay", "boardchat play --resume"):
        assert word in text
    # an example for every game, by its name, and each game's player counts
    for game in KINDS.values():
        name, players = game.definition.name, f"{game.definition.min_players}-{game.definition.max_players}"
        assert re.search(rf"^  boardchat play( --game {game.id})? +{name}: you against", text, re.M), name
        assert f"{name} ({players} players)" in " ".join(text.split())
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--players", "--ai", "--name", "--seed", "--language", "--final-tours", "--db", "--maps",
                   "--no-maps", "--resume"):
        assert option in text
    assert "2 to 4 for Paris Paris, 3 to 6 for Paris Connection" in text
    # a game's own option is listed under that game, in the game's words
    assert "options of Paris Paris: --final-tours {markers,all_lines} Final tours: markers" in text


def test_play_again_names_the_game_that_was_played(tmp_path):
    db = tmp_path / "games.sqlite3"
    result = run_cli(["play", "--game", "connection", "--players", "4", "--ai", "4", "--seed", "1",
                      "--db", str(db), "--no-maps"])
    assert result.returncode == 0, result.stderr
    again = result.stdout.rstrip().splitlines()[-1]
    assert again == f"Play again with: boardchat play --game paris-connection --players 4 --ai 4 --db {db} --no-maps"
    # ... and that command starts that game
    replayed = run_cli(again.removeprefix("Play again with: boardchat ").split())
    assert replayed.returncode == 0 and "Paris Connection in the terminal: 4 seats, 4 played by the AI." \
        in replayed.stdout


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    assert "play" in capsys.readouterr().out


def test_replay_delegates_to_the_engine(capsys, tmp_path):
    game = Game.new(["ann", "bob", "cat"], seed=4)
    for _ in range(7):
        game.apply(game.legal_actions()[0])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(game)))
    assert main(["replay", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["scores"] == dict(zip(game.players, game.scores, strict=True))
    assert result["to_move"] == game.players[game.current_player]
    path.write_text("{not json")
    assert main(["replay", str(path)]) != 0
    assert len(capsys.readouterr().err.strip().splitlines()) == 1     # one line naming the problem


def test_missing_chat_adapter_is_reported(capsys):
    assert _run_adapter("nowhere", "bot.no_such_adapter", "run_nowhere", "en") == 1
    assert "The nowhere bot is not available: No module named 'bot.no_such_adapter'" in capsys.readouterr().err


class Player:
    """Plays ``python -m bot.cli play`` like a person: reads each prompt, then answers it."""

    PROMPT = re.compile(r"Your choice \([-\d, ]+, or help\): $")

    def __init__(self, args: list[str]) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", LC_ALL="C.UTF-8")
        self.proc = subprocess.Popen([sys.executable, "-m", "bot.cli", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        self.transcript = ""

    def next_prompt(self, timeout: float = 30) -> dict[int, str] | None:
        """The numbered choices of the next prompt; None when the program ended instead."""
        import select

        start = len(self.transcript)
        deadline = time.monotonic() + timeout
        while not self.PROMPT.search(self.transcript[start:]):
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no prompt within {timeout}s:\n{self.transcript[-1500:]}"
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.transcript += chunk.decode("utf-8", errors="replace")
        block = self.transcript[start:].rsplit("\n\n", 1)[-1]
        return {int(m.group(1)): m.group(2) for m in re.finditer(r"^ *(\d+)\. (.*)$", block, re.M)}

    def answer(self, text: str) -> None:
        self.proc.stdin.write(f"{text}\n".encode())
        self.proc.stdin.flush()

    def finish(self) -> int:
        self.proc.stdin.close()
        self.transcript += self.proc.stdout.read().decode("utf-8", errors="replace")
        return self.proc.wait(timeout=30)


@pytest.mark.skipif(sys.platform.startswith("win"), reason="select() on pipes")
def test_answering_from_the_printed_choices_including_an_eviction(tmp_path):
    """Always take the last tile on offer; at a full crossing first go back once, then evict
    the other player's shop when that is a choice."""
    evictions = backs = moves = 0
    # Seed 4 has an eviction today (seeds 1-3 have none); the others stand by should the AI's play change.
    for seed in (4, 1, 2, 3, 5, 6, 7):
        player = Player(["play", "--players", "2", "--seed", str(seed), "--name", "Ann",
                         "--db", str(tmp_path / f"g{seed}.sqlite3"), "--no-maps"])
        try:
            while (choices := player.next_prompt()) is not None:
                evict = {n: label for n, label in choices.items() if "Evict" in label}
                if evict:
                    back = [n for n, label in choices.items() if "Back" in label]
                    assert back, choices
                    if backs == evictions:          # once per eviction: change our mind first
                        player.answer(str(back[0]))
                        backs += 1
                        told = len(player.transcript)
                        again = player.next_prompt()
                        # Back changes nobody's move: no move is told again, as if made twice.
                        assert " opens a shop at " not in player.transcript[told:], player.transcript[told:]
                        assert again and not any("Evict" in label for label in again.values())
                        assert any("My marker" in label for label in again.values())
                        player.answer(str(min(again)))  # the same first tile: the eviction again
                        continue
                    others = [n for n, label in evict.items() if "Ann" not in label]
                    player.answer(str(others[0] if others else min(evict)))
                    evictions += 1
                    continue
                tiles = [n for n, label in choices.items() if "My marker" not in label]
                player.answer(str(max(tiles)))
                moves += 1
            assert player.finish() == 0
        finally:
            if player.proc.poll() is None:
                player.proc.kill()
        assert "The game is over!" in player.transcript
        assert "Traceback" not in player.transcript
        if evictions:
            assert "evicts Ada's shop" in player.transcript or "evicts Ann's shop" in player.transcript
            break
    assert evictions >= 1 and backs >= 1, "no eviction came up in seven games"
    assert moves >= 15


def test_messages_left_unprinted_by_a_stopped_session_come_first(monkeypatch, capsys, tmp_path):
    """A session stopped while printing leaves messages in the outbox; the next one prints them."""
    db = tmp_path / "g.sqlite3"

    async def ai_game_without_printing():
        service = await GameService.open(str(db))
        try:
            host = User("terminal", HUMAN_ID, "Ann")
            await service.new_game(TERMINAL_CHAT, host, options={"join": False, "seed": 12})
            await service.add_ai(TERMINAL_CHAT, host)
            await service.add_ai(TERMINAL_CHAT, host)
            assert (await service.start(TERMINAL_CHAT, host)).ok
        finally:
            await service.close()

    asyncio.run(ai_game_without_printing())
    code, out = play(monkeypatch, capsys, ["play", "--players", "2", "--ai", "2", "--seed", "13",
                                           "--db", str(db), "--no-maps"])
    assert code == 0
    assert out.count("Round 20/20 is over.") == 2       # the old game's story, then the new game's
    assert out.index("Round 20/20 is over.") < out.index("Paris Paris in the terminal:")


class ClosingOutput(io.StringIO):
    """An output that breaks after ``lines`` lines, like a pipe whose reader went away."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines

    def write(self, text: str) -> int:
        if self.getvalue().count("\n") >= self.lines:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_closed_output_stops_quietly_and_loses_nothing(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    args = ["play", "--players", "2", "--ai", "2", "--seed", "21", "--db", str(db), "--no-maps"]
    captured = sys.stdout
    broken = ClosingOutput(lines=30)
    monkeypatch.setattr(sys, "stdout", broken)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(args) == 1
    monkeypatch.setattr(sys, "stdout", captured)
    first = broken.getvalue()
    assert "Round 1/20 is over." in first and "Round 20/20 is over." not in first
    # The next session prints the rest of that game's story before anything else.
    args[args.index("--seed") + 1] = "22"
    code, out = play(monkeypatch, capsys, args)
    assert code == 0
    assert "Round 20/20 is over." in out.split("Paris Paris in the terminal:")[0]


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_chat_bot_commands_reach_their_adapter(tmp_path, platform):
    """Without a token the adapter explains what is missing (no network is touched)."""
    env = {k: v for k, v in os.environ.items() if "TOKEN" not in k}
    env.update(PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8")
    result = subprocess.run([sys.executable, "-m", "bot.cli", platform], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert f"{platform.upper()}_BOT_TOKEN" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_every_number_shown_is_accepted_for_two_tiles_of_the_same_station(monkeypatch, capsys, tmp_path):
    """Seed 11 offers 1 · Invalides and 2 · Invalides (the same tile twice): 2 means that tile."""
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--seed", "11", "--name", "Ann", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")], "2\nquit\n")
    assert code == 0
    assert "🔵 1 · Invalides; 🔵 2 · Invalides" in out
    assert "not one of the choices" not in out
    assert "Ann opens a shop at 🔵 Invalides (blue)." in out


def test_a_word_of_a_name_is_accepted(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--seed", "11", "--name", "Ann", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")], "ville\nquit\n")
    assert code == 0 and "Ann opens a shop at 🟢 Hôtel de Ville (green)." in out


@pytest.mark.parametrize(("game", "board", "secret"), [
    ("paris-paris", "tiles on offer", "special-route marker"),
    ("connection", "the companies' values", "the locomotives you hold"),
])
def test_help_says_what_board_and_marker_show_in_this_game(monkeypatch, capsys, tmp_path, game, board, secret):
    code, out = play(monkeypatch, capsys, ["play", "--game", game, "--players", "3", "--seed", "2", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")], "help\nquit\n")
    assert code == 0
    help_text = out.split("Commands:")[1]
    assert board in help_text and secret in help_text
    other = {"tiles on offer", "special-route marker", "locomotives"} - {board, secret, "locomotives"}
    assert not any(words in help_text for words in other if words not in board + secret)


def test_undo_done_and_trade_keep_their_letters_in_the_terminal(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--game", "connection", "--players", "3", "--seed", "5",
                                           "--name", "Ann", "--no-maps", "--db", str(tmp_path / "g.sqlite3")],
                     "1\n1\nu\n1\n1\nd\nquit\n")
    assert code == 0
    assert " t. 🔁 Trade" in out and " u. ↩️ Cancel the build" in out and " u. ↩️ Undo" in out and " d. ✅ Done" in out
    assert "Your choice (1-5, u, d, or help)" in out
    assert "Ann takes red back from L5." in out and "Ann built red on L5, K4 Amiens" in out


def test_on_your_turn_the_board_shows_what_is_on_offer_now(monkeypatch, capsys, tmp_path):
    """Seed 11, round 2: the AI players took two tiles before Ann's turn; the board printed at her
    prompt offers only the two left, under their map numbers."""
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--seed", "11", "--name", "Ann", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")], "1\nquit\n")
    assert code == 0
    round2 = out.split("Round 2/15 · 13 stacks left", 1)[1]
    before_prompt = round2.split("Your choice", 1)[0]
    assert "Ada opens a shop at" in before_prompt and "Blaise opens a shop at" in before_prompt
    assert "On offer: 🟡 1 · République; 🟢 3 · Grands Boulevards" in before_prompt


def test_a_twin_offer_shows_every_number_that_works_on_its_choice(monkeypatch, capsys, tmp_path):
    """Seed 11 offers Invalides as 1 and 2: the choice lists both numbers the map shows."""
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--seed", "11", "--name", "Ann", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")], "quit\n")
    assert code == 0
    assert " 1. 🔵 1/2 · Invalides" in out


def test_a_colour_word_names_the_one_tile_of_that_colour(monkeypatch, capsys, tmp_path):
    """Seed 11, round 1: Hôtel de Ville is the only green tile on offer; "green" is not in its label."""
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--seed", "11", "--name", "Ann", "--no-maps",
                                           "--db", str(tmp_path / "g.sqlite3")], "green\nquit\n")
    assert code == 0 and "Ann opens a shop at 🟢 Hôtel de Ville (green)." in out


def test_a_hex_typed_in_a_page_of_hexes_places_there(monkeypatch, capsys, tmp_path):
    """Hex pages of two (so that a build's hexes need several): in the first page, a hex of
    another page typed by its id, then a city by its name, are placed."""
    monkeypatch.setattr("renderers.paris_connection.presenter.MAX_HEXES", 2)
    code, out = play(monkeypatch, capsys, ["play", "--game", "connection", "--players", "3", "--seed", "5",
                                           "--name", "Ann", "--no-maps", "--db", str(tmp_path / "g.sqlite3")],
                     "1\n1\nL5\n1\namiens\nquit\n")
    assert code == 0
    assert "🗺️ Around" in out
    assert "not one of the choices" not in out
    assert "Ann places red on L5" in out and "Ann places red on K4 Amiens" in out


def test_a_hex_that_is_no_choice_now_is_refused_with_the_reason_in_a_submenu(monkeypatch, capsys, tmp_path):
    code, out = play(monkeypatch, capsys, ["play", "--game", "connection", "--players", "3", "--seed", "5",
                                           "--name", "Ann", "--no-maps", "--db", str(tmp_path / "g.sqlite3")],
                     "t\nL5\nquit\n")
    assert code == 0
    assert "Which locomotive do you return?" in out
    assert "Not accepted: There is no build under way: choose a storage board first." in out
