"""``paris-paris play``: one human against AI seats, in the terminal, stored in SQLite.

The terminal is a third adapter: it calls the same ``GameService`` as Telegram and
Discord, with ``platform="terminal"``, one chat (this terminal) and one user (the
person typing). Everything the service wants said arrives through the outbox and
``TerminalTransport``; the buttons of the latest prompt become numbered choices.
Every accepted move is committed by the service before anything is printed, so
closing the terminal, end of input or Ctrl-C loses nothing: ``--resume`` continues.
"""

from __future__ import annotations

import asyncio
import getpass
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.contract import Button, Chat, Reply, User
from renderers.i18n import t

from .choices import Choice, Command, Invalid, interpret
from .reader import LineReader
from .transport import Console, TerminalTransport

TERMINAL_CHAT = Chat(platform="terminal", id="local", title="Terminal")
HUMAN_ID = "local"

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INTERRUPTED = 130


@dataclass(frozen=True, slots=True)
class PlayOptions:
    players: int = 3
    ai: int | None = None                 # None: everyone but the human
    name: str | None = None
    seed: int | None = None
    language: str = "en"
    final_tours: str = "markers"
    db: Path | None = None
    maps: Path | None = Path("paris-paris-maps")   # None: do not write maps
    resume: bool = False
    resume_command: str = "paris-paris play --resume"

    @property
    def ai_seats(self) -> int:
        return self.players - 1 if self.ai is None else self.ai

    @property
    def watching(self) -> bool:
        return self.ai_seats >= self.players


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:   # no user name on this system (e.g. a container without passwd entry)
        name = ""
    return (name or "Player").strip()[:32] or "Player"


class GameStalled(RuntimeError):
    """Nothing to choose and nothing happening: a bug, reported instead of hanging."""


class TerminalSession:
    """The input loop: show the pending choices, read a line, act, print what follows."""

    def __init__(self, service, options: PlayOptions, *, stdin: TextIO, stdout: TextIO,
                 colour: bool | None = None) -> None:
        self.service = service
        self.options = options
        self.language = options.language
        self.console = Console(stdout, colour=colour)
        self.human = User(platform="terminal", id=HUMAN_ID, name=options.name or default_name(),
                          language=options.language)
        self.chat = TERMINAL_CHAT
        self.transport = TerminalTransport(self.console, self.human, maps_dir=options.maps,
                                           language=options.language)
        self.reader = LineReader(stdin)
        self.reply_buttons: tuple[Button, ...] = ()   # a follow-up choice from a Reply (eviction)

    def say(self, key: str, /, **params: object) -> None:
        self.console.print(t(self.language, key, **params))

    # ---- the whole session -------------------------------------------------------------

    async def run(self) -> int:
        try:
            ready = await self.open_game()
            if ready is not True:
                return ready
            return await self.play()
        except asyncio.CancelledError:
            # Ctrl-C: asyncio cancels the main task; the last move is already committed.
            self.console.print()
            self.say("terminal.saved_interrupt", command=self.options.resume_command)
            return EXIT_INTERRUPTED

    async def open_game(self) -> bool | int:
        """Resume the unfinished terminal game or start a new one. True when a game is running."""
        existing = await self.unfinished_game()
        if existing is not None:
            if not self.options.resume:
                self.say("terminal.resume_offer", summary=existing)
                choice = await self.ask_menu([t(self.language, "terminal.resume_continue"),
                                              t(self.language, "terminal.resume_new")])
                if choice is None:
                    return self.saved_on_eof()
                if choice == 1:
                    await self.abandon()
                    return await self.start_new()
            self.say("terminal.resuming")
            await self.replay_state()
            return True
        if self.options.resume:
            self.say("terminal.nothing_to_resume")
        return await self.start_new()

    async def ask_menu(self, labels: list[str]) -> int | None:
        """A numbered menu outside the game; the 0-based choice, None at end of input."""
        while True:
            for i, label in enumerate(labels, 1):
                self.console.print(f"  {self.console.style(str(i), 'bold')}. {label}")
            self.console.out.write(t(self.language, "terminal.ask", n=len(labels)) + " ")
            self.console.out.flush()
            line = await self.reader.readline()
            if line is None:
                self.console.print()
                return None
            answer = interpret(line, labels, self.language)
            if isinstance(answer, Choice):
                return answer.index
            if isinstance(answer, Command) and answer.name == "quit":
                return None
            self.explain_invalid(answer, len(labels))

    # ---- the game loop -----------------------------------------------------------------

    async def play(self) -> int:
        idle_rounds = 0
        while True:
            progressed = await self.pump()
            if await self.is_finished():
                self.console.print()
                self.say("terminal.game_over", command="paris-paris play")
                return EXIT_OK
            buttons = self.pending_buttons()
            if not buttons:
                if self.options.watching or not progressed:
                    idle_rounds = idle_rounds + 1 if not progressed else 0
                    if idle_rounds > 3:
                        raise GameStalled("no prompt for the human and no progress")
                    await self.advance_without_human()
                    continue
                raise GameStalled("no prompt for the human")
            idle_rounds = 0
            self.show_choices(buttons)
            line = await self.reader.readline()
            if line is None:
                self.console.print()
                return self.saved_on_eof()
            answer = interpret(line, [b.label for b in buttons], self.language)
            if isinstance(answer, Invalid):
                self.explain_invalid(answer, len(buttons))
                continue
            if isinstance(answer, Command):
                code = await self.command(answer.name)
                if code is not None:
                    return code
                continue
            await self.press(buttons[answer.index])

    def pending_buttons(self) -> tuple[Button, ...]:
        return self.reply_buttons or self.transport.prompt_buttons()

    async def press(self, button: Button) -> None:
        self.reply_buttons = ()
        reply = await self.service.press(self.chat, self.human, button.payload)
        if reply.ok:
            # The prompt it answered is used up; the service posts the next one.
            self.transport.clear_prompt()
        self.show_reply(reply)
        if reply.buttons:
            self.reply_buttons = tuple(b for row in reply.buttons for b in row)

    async def pump(self) -> bool:
        """Deliver every pending message and run due timers until all is quiet."""
        progressed = False
        for _ in range(10_000):
            sent = await self.service.deliver_pending(self.transport)
            fired = await self.service.fire_due_timers()
            if not sent and not fired:
                break
            progressed = True
        return progressed

    def show_choices(self, buttons: tuple[Button, ...]) -> None:
        self.console.print()
        for i, button in enumerate(buttons, 1):
            number = self.console.style(f"{i:>2}", "bold", button.colour)
            self.console.print(f"{number}. {button.label}")
        self.console.out.write(t(self.language, "terminal.ask_move", n=len(buttons)) + " ")
        self.console.out.flush()

    def show_reply(self, reply: Reply) -> None:
        if not reply.text:
            return
        if reply.ok:
            self.console.print(reply.text)
        else:
            self.console.print(self.console.style(t(self.language, "terminal.refused", text=reply.text), "bold"))

    def explain_invalid(self, answer: Invalid, n: int) -> None:
        key = {
            "empty": "terminal.invalid.empty",
            "out_of_range": "terminal.invalid.out_of_range",
            "ambiguous": "terminal.invalid.ambiguous",
            "no_choices": "terminal.invalid.no_choices",
        }.get(answer.reason, "terminal.invalid.unknown")
        self.say(key, value=answer.value, n=n)

    async def command(self, name: str) -> int | None:
        """Run a typed command; an exit code ends the session."""
        if name == "quit":
            self.say("terminal.saved_quit", command=self.options.resume_command)
            return EXIT_OK
        if name == "help":
            self.say("terminal.help")
            reply = await self.service.help(self.chat, self.human)
            self.show_reply(reply)
        elif name == "rules":
            self.show_reply(await self.service.rules(self.chat, self.human))
        elif name == "board":
            self.show_reply(await self.service.board(self.chat, self.human))
        elif name == "map":
            reply = await self.service.board(self.chat, self.human)
            if reply.image is not None:
                self.write_reply_image(reply.image)
            else:
                self.say("terminal.no_map")
        elif name == "marker":
            reply = await self.service.marker(self.human, self.chat)
            self.console.print()
            self.console.print(self.console.style(
                t(self.language, "terminal.private_header", name=self.human.name), "bold"))
            for line in reply.text.splitlines():
                self.console.print(f"  {line}")
        return None

    def write_reply_image(self, image: bytes) -> None:
        folder = self.options.maps
        if folder is None:
            self.say("terminal.maps_off")
            return
        path = folder / "paris-now.png"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(image)
        except OSError as exc:
            self.say("terminal.map_failed", path=str(path), error=str(exc))
            return
        self.say("terminal.map_saved", path=str(path))

    def saved_on_eof(self) -> int:
        self.say("terminal.saved_eof", command=self.options.resume_command)
        return EXIT_OK

    # ---- service-specific steps (filled in against bot.service) --------------------------

    async def unfinished_game(self) -> str | None:
        """A one-line summary of the unfinished terminal game, None when there is none."""
        raise NotImplementedError

    async def abandon(self) -> None:
        raise NotImplementedError

    async def start_new(self) -> bool | int:
        raise NotImplementedError

    async def replay_state(self) -> None:
        """After resuming: show the board and re-offer the pending choice."""
        raise NotImplementedError

    async def is_finished(self) -> bool:
        raise NotImplementedError

    async def advance_without_human(self) -> None:
        raise NotImplementedError


async def run_play(options: PlayOptions, *, stdin: TextIO | None = None, stdout: TextIO | None = None,
                   colour: bool | None = None) -> int:
    """Open the service on ``options.db`` and run one terminal session."""
    from bot.service import GameService

    out = stdout or sys.stdout
    db = options.db
    assert db is not None
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        service = await GameService.open(str(db))
    except Exception as exc:    # any failure to open storage is the player's to see, plainly
        out.write(t(options.language, "terminal.error.db", path=str(db), error=str(exc)) + "\n")
        return EXIT_ERROR
    try:
        session = TerminalSession(service, options, stdin=stdin or sys.stdin, stdout=out, colour=colour)
        return await session.run()
    finally:
        await service.close()
