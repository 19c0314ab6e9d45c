"""The terminal adapter's Transport: the service's outbox, printed.

Group messages are printed as they are; the human's private messages are printed under
a clear "only you see this" header; private messages to anyone else (an AI seat) are
secrets and are never shown. Images are written to the maps folder and their path is
printed: one file for each kind of picture (the board, the player's own board), overwritten
as the game goes on so that a viewer left open on it follows, and every picture under its own
name too when the history is asked for (``keep_pictures``); the whole game's animation, at its
end, beside them. Buttons are not printed here: the
input loop asks the service for the current choices (they survive a restart, a printed
message does not).
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

from bot import platforms
from bot.contract import DEFAULT_IMAGE_NAME, Outgoing, RetryLater, SlotKind, Transport, User
from i18n import t

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


class TerminalTransport(Transport):
    """``Transport`` for platform "terminal": one human at one terminal."""

    platform = "terminal"
    capabilities = platforms.TERMINAL

    def __init__(self, console: Console, human: User, *, maps_dir: Path | None, language: str = "en",
                 keep_pictures: bool = False, pause: Callable[[], Awaitable[None]] | None = None) -> None:
        self.console = console
        # Awaited after each picture of the whole board (a cycle's end): a game watched is told
        # a round at a time, not all at once.
        self.pause = pause
        self.human = human
        self.maps_dir = maps_dir
        # Without a maps folder (--no-maps) no picture is drawn, not even the whole game's animation.
        self.text_only = maps_dir is None
        self.keep_pictures = keep_pictures
        self.language = language
        self.maps_written: list[Path] = []
        self.delivered = 0
        self.output_error: OSError | None = None
        self.chat_id: str | None = None     # the game being played; others' leftovers get a header
        # Lines already printed of each editable message (a turn's prompt): a chat edits that
        # message in place, a terminal can only print on, so an edit prints just its new lines.
        self.slot_lines: dict[str, Counter[str]] = {}

    async def deliver(self, message: Outgoing) -> str:
        message_id = f"terminal-{message.id}"
        if message.private_to is not None and message.private_to.id != self.human.id:
            # Someone else's secret (an AI seat's): nobody at this terminal may see it.
            return message_id
        if is_lobby_board(message):
            # The lobby's join/add-AI/start board is for chat groups; the terminal seats the
            # table itself, so the board would only be noise.
            return message_id
        if self.maps_dir is None and is_animation(message):
            # Without maps no animation is written: its caption would announce a file that never comes.
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
        if message.animation is not None:
            self._save_animation(message)
        if self.pause is not None and is_board_picture(message):
            await self.pause()
        return message_id

    def write_board(self, name: str, image: bytes) -> None:
        """The board as it is now, into the file of the game's latest board picture (``name``), so
        that the picture is as current as the prompt; its path is told the first time only."""
        if self.maps_dir is None:
            return
        path = self.maps_dir / safe_file_name(name)
        if self._write(path, image) and path not in self.maps_written:
            self.console.print(self.console.style(t(self.language, "terminal.map_saved", path=str(path)), "dim"))
            self.maps_written.append(path)

    # ---- printing --------------------------------------------------------------------------

    def _print(self, message: Outgoing) -> None:
        text = message.text.strip("\n")
        if message.private_to is not None:
            if message.edit_message_id is not None and not message.buttons:
                # The player's turn message closes (an edit that takes its buttons away): the
                # terminal asks the next question at once, or the game is over; "nothing more to
                # choose" is only noise. (A private note, a new message of its own slot, is news.)
                return
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
        """The lines of an edit that its message's last version did not have (the moves before
        a press are not told twice); all of a new message. A line an edit took away and a later
        one brings back (a placement after Undo, the "1 placed" header) is news again."""
        lines = [line for line in text.splitlines() if line.strip()]
        slot = message.slot.name if message.slot is not None else ""
        seen = self.slot_lines.get(slot) if message.edit_message_id is not None else None
        self.slot_lines[slot] = Counter(lines)
        if seen is None:
            return text
        fresh = []
        for line in lines:      # counted: the same placement made again after Undo is told again
            if seen[line]:
                seen[line] -= 1
            else:
                fresh.append(line)
        return "\n".join(fresh)

    def _save_image(self, message: Outgoing) -> None:
        if self.maps_dir is None:
            return
        latest = safe_file_name(message.latest_image_name) if message.latest_image_name else None
        names = [latest] if latest else []
        if self.keep_pictures or not latest:
            names.append(image_file_name(message))
        for name in names:
            path = self.maps_dir / name
            if not self._write(path, message.image or b""):
                continue
            # A player's own board changes at every step: its path is told once. A picture of
            # the whole board comes once a phase or a round, and each is worth a line.
            if path not in self.maps_written or message.private_to is None:
                self.console.print(self.console.style(t(self.language, "terminal.map_saved", path=str(path)), "dim"))
            if path not in self.maps_written:
                self.maps_written.append(path)


    def _write(self, path: Path, data: bytes) -> bool:
        """Write a picture file beside the maps; a failure is told, not raised (the game goes on)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, data)
        except OSError as exc:
            self.console.print(t(self.language, "terminal.map_failed", path=str(path), error=str(exc)))
            return False
        return True

    def _save_animation(self, message: Outgoing) -> None:
        """The whole game as an animation, under its own name beside the maps."""
        if self.maps_dir is None:
            return
        path = self.maps_dir / image_file_name(message)
        if not self._write(path, message.animation or b""):
            return
        self.console.print(self.console.style(t(self.language, "terminal.animation_saved", path=str(path)), "dim"))
        self.maps_written.append(path)


def is_animation(message: Outgoing) -> bool:
    """The whole game as an animation (drawn or not: only an animation carries the line that
    stands in for one too large to send)."""
    return message.animation is not None or bool(message.animation_too_large)


def is_board_picture(message: Outgoing) -> bool:
    """A picture of the whole board for everyone (the start, a cycle's end): it names the file of
    the latest board."""
    return message.private_to is None and bool(message.latest_image_name)


def is_lobby_board(message: Outgoing) -> bool:
    """The lobby message with its buttons (slot ``g<id>:lobby``); its closing text, without
    buttons ("the game begins"), is not."""
    return bool(message.buttons) and message.slot is not None and message.slot.kind == SlotKind.LOBBY


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def write_atomically(path: Path, data: bytes) -> None:
    """Write a temporary file beside ``path``, then put it in its place: a viewer that reloads
    the file never reads half a picture."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def safe_file_name(name: str) -> str:
    """``name`` as a file name in the maps folder: no folders, no unusual characters."""
    return _UNSAFE.sub("-", Path(name or "").name).strip(".-") or DEFAULT_IMAGE_NAME


def image_file_name(message: Outgoing) -> str:
    """The service's file name (``paris-3-round7.png``, unique per game and round, so a
    message delivered again after a crash rewrites the same file), made safe; the generic
    default name gets the message id so that maps never overwrite each other."""
    name = safe_file_name(message.image_name)
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, "png"
    if name == DEFAULT_IMAGE_NAME:
        stem = f"{stem}-{message.id:04d}"
    return f"{stem}.{ext}"
