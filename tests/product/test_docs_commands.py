"""Every ``boardchat ...`` command the docs show is one the program has, with options it has.

The commands are read from docs/*.md (code blocks and inline code); each one's subcommand is asked
for its ``--help`` through the real argument parser, in-process, and every option the docs give it
must be in that help.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from bot.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
INLINE = re.compile(r"`(boardchat(?: [^`]*)?)`")
FENCE = re.compile(r"^```.*?$(.*?)^```", re.M | re.S)


def commands(text: str) -> list[str]:
    """The ``boardchat`` commands of one page: whole lines of its code blocks, and inline code."""
    found = [m.group(1) for m in INLINE.finditer(text)]
    for block in FENCE.finditer(text):
        for line in block.group(1).splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("boardchat ") or line == "boardchat":
                found.append(line)
    return found


def words(command: str) -> list[str]:
    """The command's words before a comment, a redirection or a pipe."""
    command = re.split(r"\s#|\s[|>]\s?", command)[0]
    return shlex.split(command.replace("…", "..."))


def help_text(subcommand: str | None) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        build_parser("en").parse_args([subcommand, "--help"] if subcommand else ["--help"])
    assert done.value.code == 0
    return out.getvalue()


DOC_COMMANDS = sorted({(path.name, command) for path in DOCS for command in commands(path.read_text("utf-8"))})
SUBCOMMANDS = set(build_parser("en")._subparsers._group_actions[0].choices)      # noqa: SLF001


def test_the_docs_show_commands():
    assert len(DOC_COMMANDS) > 20
    assert {"play", "games", "export", "abandon"} <= {words(c)[1] for _, c in DOC_COMMANDS if len(words(c)) > 1}


@pytest.mark.parametrize(("page", "command"), DOC_COMMANDS)
def test_a_command_in_the_docs_is_one_the_program_has(page, command):
    tokens = words(command)[1:]
    first = tokens[0] if tokens else ""
    if first in ("...", "") or first.startswith("-"):        # the command as a whole
        text = help_text(None)
    else:
        assert first in SUBCOMMANDS, f"{page}: `{command}`: there is no `boardchat {first}`"
        text = help_text(first)
    for token in tokens[1:]:
        if token.startswith("--"):
            option = token.split("=")[0]
            assert re.search(rf"{re.escape(option)}\b", text), f"{page}: `{command}`: {option} is not an option"


def test_a_command_that_is_not_there_is_found():
    assert words("boardchat exprot 3 > game.json   # typo") == ["boardchat", "exprot", "3"]
    assert "exprot" not in SUBCOMMANDS
    assert not re.search(r"--animations\b", help_text("export"))
