"""The terminal adapter's Transport: the service's outbox, printed.

Group messages are printed as they are; the human's private messages are printed under
a clear "only you see this" header; private messages to anyone else (an AI seat) are
secrets and are never shown. Images are written to the maps folder and their path is
printed. Buttons are not printed here: the input loop asks the service for the current
choices (they survive a restart, a printed message does not).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TextIO

from bot.contract import DEFAULT_IMAGE_NAME, Outgoing, RetryLater, User
from renderers.i18n import t

ANSI = {"green": "32", "red": "31", "blue": "34", "purple": "35", "yellow": "33", "bold": "1", "dim": "2"}


def use_colour(stream: TextIO) -> bool:
    """ANSI colours only on a real terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    if tty and sys.platform.startswith("win"):
        # Only Windows Terminal and ANSI-aware consoles understand the escape codes.
        return bool(os.environ.get("WT_SESSION") or os.environ.get("ANSICON") or os.environ.get("TERM"))
    return tty


class Console:
    """Printing with optional colour; everything the terminal shows goes through here."""

    def __init__(self, out: TextIO, *, colour: bool | None = None) -> None:
        self.out = out
        self.colour = use_colour(out) if colour is None else colour

    def style(self, text: str, *styles: str | None) -> str:
        codes = [ANSI[s] for s in styles if s in ANSI]
        if not self.colour or not codes:
            return text
        return f"\033[{';'.join(codes)}m{text}\033[0m"

    def print(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()


class TerminalTransport:
    """``Transport`` for platform "terminal": one human at one terminal."""

    platform = "terminal"

    def __init__(self, console: Console, human: User, *, maps_dir: Path | None, language: str = "en") -> None:
        self.console = console
        self.human = human
        self.maps_dir = maps_dir
        self.language = language
        self.maps_written: list[Path] = []
        self.delivered = 0
        self.output_error: OSError | None = None
        self.chat_id: str | None = None     # the game being played; others' leftovers get a header
        # Lines already printed of each editable message (a turn's prompt): a chat edits that
        # message in place, a terminal can only print on, so an edit prints just its new lines.
        self.slot_lines: dict[str, set[str]] = {}

    async def deliver(self, message: Outgoing) -> str:
        message_id = f"terminal-{message.id}"
        if message.private_to is not None and message.private_to.id != self.human.id:
            # Someone else's secret (an AI seat's): nobody at this terminal may see it.
            return message_id
        if is_lobby_board(message):
            # The lobby's join/add-AI/start board is for chat groups; the terminal seats the
            # table itself, so the board would only be noise.
            return message_id
        try:
            self._print(message)
        except OSError as exc:
            # Our output is gone (a closed pipe, a closed terminal). The message stays in the
            # outbox, due at once, and is printed by the next session; this one must stop.
            self.output_error = exc
            raise RetryLater(0.0, f"terminal output closed: {exc}") from exc
        self.delivered += 1
        if message.image is not None:
            self._save_image(message)
        return message_id

    # ---- printing --------------------------------------------------------------------------

    def _print(self, message: Outgoing) -> None:
        text = message.text.strip("\n")
        if message.private_to is not None:
            if message.slot is not None:
                # The player's own turn message, edited as they step: only what is new.
                text = self._new_lines(message, text)
                if not text:
                    return
            header = t(self.language, "terminal.private_header", name=self.human.name)
            self.console.print()
            self.console.print(self.console.style(header, "bold"))
            for line in text.splitlines() or [""]:
                self.console.print(f"  {line}")
            return
        if message.slot is not None:
            text = self._new_lines(message, text)
        if text:
            self.console.print()
            if self.chat_id is not None and message.chat is not None and message.chat.id != self.chat_id:
                # Left unprinted by a session of another game that was stopped while printing.
                self.console.print(self.console.style(t(self.language, "terminal.other_game"), "dim"))
            self.console.print(text)

    def _new_lines(self, message: Outgoing, text: str) -> str:
        """The lines of an edit not printed for its message yet (the moves before a press, the
        prompt after Back at an eviction are not told twice); all of a new message."""
        lines = [line for line in text.splitlines() if line.strip()]
        seen = self.slot_lines.get(message.slot) if message.edit_message_id is not None else None
        if seen is None:
            self.slot_lines[message.slot] = set(lines)
            return text
        fresh = [line for line in lines if line not in seen]
        seen.update(fresh)
        return "\n".join(fresh)

    def _save_image(self, message: Outgoing) -> None:
        if self.maps_dir is None:
            return
        path = self.maps_dir / image_file_name(message)
        try:
            self.maps_dir.mkdir(parents=True, exist_ok=True)
            path.write_bytes(message.image or b"")
        except OSError as exc:
            self.console.print(t(self.language, "terminal.map_failed", path=str(path), error=str(exc)))
            return
        self.maps_written.append(path)
        self.console.print(self.console.style(t(self.language, "terminal.map_saved", path=str(path)), "dim"))


def is_lobby_board(message: Outgoing) -> bool:
    """The lobby message with its buttons (slot ``g<id>:lobby``); its closing text, without
    buttons ("the game begins"), is not."""
    return bool(message.buttons) and (message.slot or "").endswith(":lobby")


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def image_file_name(message: Outgoing) -> str:
    """The service's file name (``paris-3-round7.png``, unique per game and round, so a
    message delivered again after a crash rewrites the same file), made safe; the generic
    default name gets the message id so that maps never overwrite each other."""
    name = _UNSAFE.sub("-", Path(message.image_name or "").name).strip(".-") or DEFAULT_IMAGE_NAME
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, "png"
    if name == DEFAULT_IMAGE_NAME:
        stem = f"{stem}-{message.id:04d}"
    return f"{stem}.{ext}"
