"""What a newcomer to the terminal ran into (issue 46): a taken port, the game ``export`` picks,
abandoning a game, watching AI players, pictures as current as the prompt."""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
import sys
from pathlib import Path

import pytest
from test_terminal_play import FIRST, english_system_locale, play, terminal_games  # noqa: F401

from bot.cli import main
from bot.games import find
from bot.service import GameService
from bot.service.delivery.pictures import draw
from bot.service.game.outmessage import RenderRequest
from bot.terminal.play import TerminalSession
from i18n import t


def test_a_taken_web_port_is_one_line_that_names_it_and_what_to_do(monkeypatch, capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out = play(monkeypatch, capsys, ["play", "--web", str(port), "--players", "2",
                                               "--db", str(tmp_path / "g.sqlite3"), "--no-maps"], "quit\n")
    assert code == 1
    assert out == t("en", "terminal.error.web_port_taken", port=port, command="boardchat play --web") + "\n"
    assert f"Port {port} is already in use" in out and "--web PORT" in out


def test_export_without_an_id_gives_the_game_played_last_and_says_which(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    base = ["play", "--players", "2", "--db", str(db), "--no-maps", "--name", "Ann"]
    play(monkeypatch, capsys, [*base, "--seed", "4"], "quit\n")             # game 1
    play(monkeypatch, capsys, [*base, "--seed", "5"], "quit\n")             # game 2, started later
    # Game 1 again, one move: it is now the game played last.
    code, _ = play(monkeypatch, capsys, ["play", "--resume", "1", "--db", str(db), "--no-maps"], answers=1)
    assert code == 0
    capsys.readouterr()
    assert main(["export", "--db", str(db)]) == 0
    printed = capsys.readouterr()
    assert json.loads(printed.out)["seed"] == 4
    assert printed.err == "The game you played last: game 1, Paris Paris, unfinished.\n"
    # A game named by its id is exported as asked, without a word on stderr.
    assert main(["export", "2", "--db", str(db)]) == 0
    printed = capsys.readouterr()
    assert json.loads(printed.out)["seed"] == 5 and printed.err == ""


def test_a_game_can_be_abandoned_after_a_confirmation(monkeypatch, capsys, tmp_path):
    db = tmp_path / "g.sqlite3"
    base = ["play", "--players", "2", "--db", str(db), "--no-maps", "--name", "Ann"]
    for seed in (4, 5, 6):
        play(monkeypatch, capsys, [*base, "--seed", str(seed)], "quit\n")
    code, out = play(monkeypatch, capsys, [*base, "--seed", "7"], "quit\n")
    assert "Your 3 unfinished games stay saved" in out
    assert f"abandoned: boardchat abandon ID --db {db} (it asks first)" in out
    # From the command line: anything but yes keeps the game.
    code, out = play(monkeypatch, capsys, ["abandon", "1", "--db", str(db)], "no\n")
    assert code == 1
    assert out == ("Abandon game 1 (Paris Paris: Ann, Ada) for good? It can no longer be continued. "
                   "Type yes to confirm: Nothing was abandoned.\n")
    code, out = play(monkeypatch, capsys, ["abandon", "1", "--db", str(db)], "yes\n")
    assert code == 0 and out.endswith("Game 1 is abandoned: it is no longer offered to continue.\n")
    assert "Something went wrong" not in out
    # Without an id: the game played last (4); in the game, the command asks too.
    code, out = play(monkeypatch, capsys, ["abandon", "--yes", "--db", str(db)])
    assert code == 0 and "Game 4 is abandoned" in out
    code, out = play(monkeypatch, capsys, ["play", "--resume", "2", "--db", str(db), "--no-maps"],
                     "abandon\nno\nabandon\nyes\n")
    assert code == 0
    assert "Nothing was abandoned." in out and out.endswith("Game 2 is abandoned: it is no longer offered to continue.\n")
    assert [g.status for g in terminal_games(db)] == ["aborted", "playing", "aborted", "aborted"]
    code, out = play(monkeypatch, capsys, [*base, "--seed", "8"], "quit\n")
    assert out.startswith("Your unfinished game 3 stays saved") and "abandon" not in out.split("\n")[1]
    code, out = play(monkeypatch, capsys, ["abandon", "9", "--db", str(db)], "yes\n")
    assert code == 1 and "There is no unfinished terminal game 9 to abandon." in out


def test_a_watched_game_is_told_a_round_at_a_time_and_no_animation_without_maps(monkeypatch, capsys, tmp_path):
    told: list[str] = []

    async def pause(self: TerminalSession) -> None:     # what was printed when the game paused
        told.append(self.console.out.getvalue())

    monkeypatch.setattr(TerminalSession, "watch_pause", pause)
    code, out = play(monkeypatch, capsys, ["play", "--players", "3", "--ai", "3", "--seed", "5", "--pace", "3",
                                           "--db", str(tmp_path / "g.sqlite3"), "--no-maps"])
    assert code == 0 and "Round 15/15 is over." in out
    # A pause after the start's picture, then after each round's.
    assert len(told) == 16
    for number, screen in enumerate(told[1:], start=1):
        assert f"Round {number}/15 is over." in screen and f"Round {number + 1}/15 is over." not in screen
    # Without maps no animation is written, and none is announced.
    assert "animation" not in out and "🎞" not in out


@pytest.mark.parametrize(("tty", "pace", "pause"), [(True, None, 2.0), (False, None, 0.0), (True, "0", 0.0)])
def test_a_watched_game_pauses_on_a_terminal_only(monkeypatch, tmp_path, tty, pace, pause):
    """On a terminal a watched game waits after each round; into a file or a pipe it is written at once."""
    import bot.terminal.play

    asked: list[float] = []

    async def run_play(options) -> int:
        asked.append(options.watch_pause)
        return 0

    monkeypatch.setattr(bot.terminal.play, "run_play", run_play)
    monkeypatch.setattr(sys, "stdout", type("Tty", (io.StringIO,), {"isatty": lambda self: tty})())
    extra = [] if pace is None else ["--pace", pace]
    assert main(["play", "--ai", "3", "--db", str(tmp_path / "g.sqlite3"), *extra]) == 0
    assert asked == [pause]


class Snapshots(io.TextIOBase):
    """A player who, at each prompt, keeps the bytes of the board's picture file, then takes the
    first choice (``rounds`` times, then closes the input)."""

    def __init__(self, screen, maps: Path, rounds: int) -> None:
        from test_terminal_play import FirstChoice

        self.first = FirstChoice(screen, "", rounds)
        self.maps = maps
        self.pictures: list[bytes] = []

    def readline(self, size: int = -1) -> str:
        line = self.first.readline()
        if line:
            board = sorted(self.maps.glob("*-board.png"))
            assert len(board) == 1, board
            self.pictures.append(board[0].read_bytes())
        return line


def test_the_board_picture_is_as_current_as_each_prompt(monkeypatch, capsys, tmp_path):
    from test_terminal_play import Screen

    db, maps = tmp_path / "g.sqlite3", tmp_path / "maps"
    screen, before = Screen(), sys.stdout
    player = Snapshots(screen, maps, rounds=4)
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", player)
    try:
        code = main(["play", "--players", "3", "--seed", "11", "--name", "Ann", "--db", str(db), "--maps", str(maps)])
    finally:
        screen.finish()
        monkeypatch.setattr(sys, "stdout", before)
    assert code == 0 and len(player.pictures) == 4
    out = screen.getvalue()
    assert "boardchat play --web" in out.split("Round 1/15")[0]      # said at the start: the live board

    async def stored() -> tuple:
        service = await GameService.open(str(db))
        try:
            return await service.storage.load_game(1)
        finally:
            await service.close()

    meta, moves = asyncio.run(stored())
    human = next(i for i, seat in enumerate(meta.seats) if not seat.is_ai)
    # At the k-th prompt the game stood just before Ann's k-th move; the file showed that board.
    at_prompts = [n for n, (seat, _) in enumerate(moves) if seat == human][:4]
    definition = find(meta.kind).definition
    behind = 0
    for n, picture in zip(at_prompts, player.pictures, strict=True):
        cycle = definition.resume(meta.setup, moves[:n]).rhythm.cycle
        current = draw(meta.kind, meta.setup, moves, RenderRequest("map", 1, n, cycle),
                       "en", "terminal", False).image
        assert picture == current, f"the picture at move {n} is not the board of that moment"
        # a move of this round before the prompt: a picture drawn at the round's start misses it
        behind += n > 0 and definition.resume(meta.setup, moves[:n - 1]).rhythm.cycle == cycle
    assert behind, "no prompt came after other moves of its round: the test proves nothing"


@pytest.mark.parametrize("argv", [["play", "--help"], ["abandon", "--help"]])
def test_the_new_options_are_in_the_help(capsys, argv):
    with pytest.raises(SystemExit):
        main(argv)
    text = capsys.readouterr().out
    assert ("--pace" in text) if argv[0] == "play" else ("--yes" in text)


def test_the_terminal_page_names_the_picture_files_as_they_are():
    from bot.games import KINDS

    text = (Path(__file__).resolve().parents[2] / "docs" / "terminal.md").read_text(encoding="utf-8")
    for kind in KINDS.values():
        assert f"`{kind.presenter.image_prefix}-" in text, kind.id
    assert "`pc-" not in text
    # the deal's code is four letters and digits of base 36 (``messages.game_code``), as in the names shown
    codes = set(re.findall(r"`[a-z]+-\d+-(\w{4})-", text))
    assert codes == {"k2x9"}
