"""``boardchat play``: one human against AI seats, in the terminal, stored in SQLite.

The terminal is a third adapter: it calls the same ``GameService`` as Telegram and
Discord, with ``platform="terminal"``, one chat (this terminal) and one user (the
person typing). Everything the service wants said arrives through the outbox and
``TerminalTransport``; the buttons the service offers the human become numbered choices.
Every accepted move is committed by the service before anything is printed, so
closing the terminal, end of input or Ctrl-C loses nothing: ``--resume`` continues.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import getpass
import secrets
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.cli_help import again_command
from bot.contract import Button, Chat, GameInfo, Refusal, Reply, User
from bot.games import DEFAULT, find, kind
from bot.product import COMMAND, MAPS_FOLDER
from bot.replyextra import MyGameList
from i18n import normalize_language, number_list, t

if TYPE_CHECKING:      # the web board is imported only with --web
    from bot.web.server import WebBoard

from .choices import Command, Invalid, fold, interpret, numbering
from .reader import LineReader
from .transport import Console, TerminalTransport

PLATFORM = "terminal"
# Games saved before several terminal games could share a database were all in this chat.
TERMINAL_CHAT = Chat(platform=PLATFORM, id="local", title="Terminal")
HUMAN_ID = "local"


def new_chat() -> Chat:
    """Each terminal game is a chat of its own, so several can be unfinished at once (the
    service keeps one running game per chat)."""
    # No title: the game is the terminal's whole conversation, private texts name no place.
    return Chat(platform=PLATFORM, id=f"local-{secrets.token_hex(4)}", title="")

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INTERRUPTED = 130


@dataclass(frozen=True, slots=True)
class PlayOptions:
    kind: str = DEFAULT                   # the game kind (a registry id of bot/games.py)
    players: int = 3
    ai: int | None = None                 # None: everyone but the human
    name: str | None = None
    seed: int | None = None
    language: str = "en"
    game_options: dict = field(default_factory=dict)   # options the game declares, checked
    db: Path | None = None
    maps: Path | None = Path(MAPS_FOLDER)   # None: do not write maps
    keep_pictures: bool = False           # every picture under its own name, besides the latest of each kind
    web_port: int | None = None           # serve the live board on 127.0.0.1 at this port (0: any free one)
    resume: bool = False
    resume_id: int | None = None          # with ``resume``: this game, else the latest unfinished one
    ai_level: str | None = None           # None: the game's default level
    resume_command: str = f"{COMMAND} play --resume"
    again_command: str = f"{COMMAND} play"     # ``play`` with this session's --db and --maps flags
    watch_pause: float = 0.0              # watching an AI-only game: seconds to wait after each cycle's picture

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


class Moved:
    """What ``next_line`` gives when the game moved on the web board before a line came."""


MOVED = Moved()
WEB_LINK_SECONDS = 30 * 24 * 3600     # the terminal's board link: one game's secret, for a month
BOARD_MOVE_SECONDS = 60                # the longest a move from the board may take to be played


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
        self.chat = new_chat()                        # the game's chat, once it is known
        self.game_id: int | None = None
        self.game_kind: str | None = None             # its kind, said in the board's link (the map preloaded)
        pause = self.watch_pause if options.watching and options.watch_pause > 0 else None
        self.transport = TerminalTransport(self.console, self.human, maps_dir=options.maps,
                                           language=options.language, keep_pictures=options.keep_pictures,
                                           pause=pause)
        self.reader = LineReader(stdin)
        self.reply_buttons: tuple[Button, ...] = ()   # a follow-up choice from a Reply (eviction)
        self.board_round: int | None = None           # the round whose board was last shown
        self.web: WebBoard | None = None              # the live board (``--web``), once it serves
        self.moved = asyncio.Event()                  # set when the game moves (the web board's taps)
        self.moved_elsewhere = False                  # the game moved on the web board meanwhile
        self.own_board = ""                           # the player's own board as last printed
        self.picture_moves: int | None = None         # the moves the board's picture file shows

    def say(self, key: str, /, **params: object) -> None:
        self.console.print(t(self.language, key, **params))

    # ---- the whole session -------------------------------------------------------------

    async def run(self) -> int:
        try:
            stopped = await self.open_game()
            if stopped is not None:
                return stopped
            return await self.play()
        except asyncio.CancelledError:
            # Ctrl-C: asyncio cancels the main task; every accepted move is already committed.
            self.console.print()
            if await self.unfinished():
                self.say("terminal.saved_interrupt", command=self.resume_command)
            else:
                self.say("terminal.stopped")
            return EXIT_INTERRUPTED
        except GameStalled as exc:
            self.console.print()
            self.say("terminal.error.stalled", error=str(exc))
            return EXIT_ERROR

    async def unfinished(self) -> bool:
        """Is there a game to resume? (When unsure, say so: the hint is harmless.)"""
        try:
            return await self.service.game_info(self.chat) is not None
        except Exception:   # the database is gone or locked: the resume hint is still the best advice
            return True

    @property
    def resume_command(self) -> str:
        """The command that continues this very game (several may be unfinished)."""
        return resume_command_for(self.options, self.game_id)

    async def open_game(self) -> int | None:
        """Resume a terminal game or start a new one: None when a game is running, else the
        exit status. Starting a new game leaves unfinished ones as they are."""
        games = await self.service.platform_games(PLATFORM, limit=1000)
        unfinished = last_played_first([g for g in games if g.active])
        if self.options.resume:
            if self.options.resume_id is None:
                target = unfinished[0] if unfinished else None
            else:
                target = next((g for g in games if g.game_id == self.options.resume_id), None)
                if target is None:
                    self.say("terminal.resume_unknown", id=self.options.resume_id, command=list_command(self.options))
                    return EXIT_ERROR
                if not target.active:
                    if self.web is not None and target.status == "finished":
                        return await self.review(target, target.chat)
                    self.say("terminal.resume_over", id=target.game_id,
                             command=f"{COMMAND} export {target.game_id}")
                    return EXIT_ERROR
            if target is not None:
                return await self.resume(target)
            self.say("terminal.nothing_to_resume")
        elif unfinished:
            # Said once, plainly; the other games wait as they are.
            latest = unfinished[0].game_id
            self.say("terminal.others_unfinished", count=len(unfinished), id=latest,
                     command=resume_command_for(self.options, latest), list=list_command(self.options))
            if len(unfinished) > 1:
                self.say("terminal.abandon_hint", command=abandon_command(self.options))
        # Messages a previous session committed but could not print (it was stopped while
        # printing them) come first, in order: nothing is lost, not even the end of a story.
        await self.pump()
        return await self.start_new()

    async def resume(self, info: GameInfo) -> int | None:
        assert info.chat is not None, "a game listed for the terminal (platform_games) names its chat"
        self.chat = info.chat
        self.game_id, self.game_kind = info.game_id, info.game
        self.transport.chat_id = self.chat.id
        self.language = normalize_language(info.options.get("language") or self.language)
        self.transport.language = self.language
        seat = next((s for s in info.seats if s.user_id == HUMAN_ID and not s.is_ai), None)
        if seat is not None and self.options.name is None:
            # the name the game knows the player by, whatever the login name is now
            self.human = replace(self.human, name=seat.name)
            self.transport.human = self.human
        await self.pump()
        self.say("terminal.resuming", id=info.game_id, summary=self.summary(info))
        if info.status == "lobby":
            return await self.start_lobby()
        return None

    def summary(self, info: GameInfo) -> str:
        """"round 4 of 15: Ann 3, Bot Ada 5, Bot Bea 2" for the resume question."""
        names = [seat.name for seat in info.seats]
        if info.status != "playing":
            return t(self.language, "terminal.summary_lobby", players=", ".join(names))
        if info.scores is None or info.rounds is None:       # scores secret, or no fixed length
            return t(self.language, "terminal.summary_open", round=info.round, players=", ".join(names))
        scores = ", ".join(f"{n} {p}" for n, p in zip(names, info.scores, strict=True))
        return t(self.language, "terminal.summary", round=info.round, rounds=info.rounds, scores=scores)

    async def start_new(self) -> int | None:
        opts = self.options
        self.say("terminal.welcome", game=kind(opts.kind).definition.name,
                 seats=t(self.language, "terminal.seats", players=opts.players), ai=opts.ai_seats)
        if opts.watching:
            self.say("terminal.watching")
        self.say("terminal.storage", path=str(opts.db))
        if opts.maps is not None:
            self.say("terminal.maps_folder", path=str(opts.maps))
        if self.web is None:
            self.say("terminal.web_hint", command=f"{COMMAND} play --web")
        game_options: dict = {
            **opts.game_options, "game": opts.kind, "language": opts.language,
            # Nobody else waits on a terminal game: no reminders, and no deadline that would
            # let the AI play the human's turn while the terminal is closed.
            "reminder_minutes": 0, "deadline_minutes": 0,
            "join": not opts.watching,
        }
        if opts.seed is not None:
            game_options["seed"] = opts.seed
        if opts.ai_level is not None:
            # The game's level too, not only its AI seats': the options line names it.
            game_options["ai_level"] = opts.ai_level
        self.transport.chat_id = self.chat.id
        reply = await self.service.new_game(self.chat, self.human, options=game_options)
        if not reply.ok:
            self.show_reply(reply)
            return EXIT_ERROR
        return await self.start_lobby()

    async def start_lobby(self) -> int | None:
        """Fill the table with AI seats and start (also finishes a lobby left by a crash)."""
        info = await self.service.game_info(self.chat)
        if info is not None:
            self.game_id, self.game_kind = info.game_id, info.game
        wanted = self.options.players
        missing = max(0, wanted - len(info.seats)) if info else wanted
        for _ in range(missing):
            reply = await self.service.add_ai(self.chat, self.human, self.options.ai_level)
            if not reply.ok:
                self.show_reply(reply)
                return EXIT_ERROR
        reply = await self.service.start(self.chat, self.human)
        if not reply.ok:
            self.show_reply(reply)
            return EXIT_ERROR
        return None

    # ---- the game loop -----------------------------------------------------------------

    async def serve_board(self, board: WebBoard) -> None:
        """Serve the live board too (``--web``): moves made on the page interrupt the wait for a
        line, so the terminal shows what follows them."""
        self.web = board

        def changed(game_id: int) -> None:
            if game_id == self.game_id:
                self.moved_elsewhere = True
                self.moved.set()

        self.service.watch.add(changed)

    def show_board_link(self) -> None:
        if self.web is not None and self.game_id is not None:
            url = self.web.link(self.game_id, PLATFORM, self.human.id, self.human.name, self.language,
                                seconds=WEB_LINK_SECONDS, kind=self.game_kind)
            self.say("web.terminal_link", url=short_link(self.web, url))

    async def page_moves(self, seen: GameInfo) -> bool:
        """Whether the game moves on from ``seen`` within ``BOARD_MOVE_SECONDS``: a move made on the
        web board is still being played (the AI seats answering it) when the terminal looked. The
        game is read again at every change it is told of, so a move that landed just before the
        wait began is not missed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BOARD_MOVE_SECONDS
        while loop.time() < deadline:
            self.moved.clear()
            info = await self.service.game_info(self.chat)
            if info is None or info.moved_since(seen):
                return True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.moved.wait(), min(1.0, max(0.0, deadline - loop.time())))
        return False

    async def next_line(self) -> str | None | Moved:
        """The player's next line, or ``MOVED`` when the game moved on the web board first."""
        if self.web is None:
            return await self.reader.readline()
        if self.moved_elsewhere:
            return MOVED
        self.moved.clear()
        read = asyncio.ensure_future(self.reader.readline())
        moved = asyncio.ensure_future(self.moved.wait())
        done, _ = await asyncio.wait({read, moved}, return_when=asyncio.FIRST_COMPLETED)
        if read in done:
            moved.cancel()
            return read.result()
        read.cancel()          # the line, when it comes, waits in the reader's queue
        return MOVED

    async def play(self) -> int:
        last: GameInfo | None = None
        self.show_board_link()
        while True:
            self.moved_elsewhere = False
            await self.pump()
            info = await self.service.game_info(self.chat)
            if info is None:
                # Finished (or aborted) games are no longer the chat's current game.
                return await self.game_over(last)
            state = last = info
            # Several seats may act at once (the AI seats have made their choices by now): the
            # player is asked whenever their seat is among them.
            if not state.to_act_for(self.human.id):
                if self.web is not None and state.playing and await self.page_moves(state):
                    continue
                raise GameStalled(f"status {state.status}, to act {list(state.to_act)}, "
                                  f"your seat {state.seat_of(self.human.id)}")
            board = await self.service.board(self.chat, self.human, private=True)
            buttons = self.reply_buttons or tuple(b for row in board.buttons for b in row)
            if not buttons:
                # The web board moved between the two looks (a tap there, its AI answers under
                # way): never the end of the game here; look again once it has moved on.
                if self.web is not None and await self.page_moves(state):
                    continue
                raise GameStalled("your turn, but no choices")
            await self.refresh_picture(state)
            if state.round != self.board_round:
                self.board_round = state.round
                self.show_board(board.text)
            if board.own_board and board.own_board != self.own_board:
                # the player's own board (the picture's squares and numbers) whenever it changed
                self.own_board = board.own_board
                self.show_board(board.own_board)
            code = await self.choose(buttons)
            if code is not None:
                return code

    async def refresh_picture(self, state: GameInfo) -> None:
        """Rewrite the board's picture file to the board as it is at this prompt (the outbox writes
        one at each cycle's end; the moves since would be missing from it): drawn only when the
        game moved since the file was last written."""
        if self.options.maps is None or state.moves == self.picture_moves:
            return
        self.picture_moves = state.moves
        drawn = await self.service.board_picture(state.game_id, PLATFORM)
        if drawn is not None:
            self.transport.write_board(*drawn)

    async def watch_pause(self) -> None:
        """A watched game is told a cycle at a time (``PlayOptions.watch_pause``)."""
        await asyncio.sleep(self.options.watch_pause)

    async def choose(self, buttons: tuple[Button, ...]) -> int | None:
        """Offer ``buttons`` until the player picks one or a command ends the session."""
        labels = [b.label for b in buttons]
        # an action with a fixed letter (Undo u, Done d) keeps it and takes no number: numbers
        # never move under it, and they are the ones the game counts (``find_item``)
        plain = iter(numbering([b.key for b in buttons if not b.letter]))
        keys: list[int | str] = [b.letter or next(plain) for b in buttons]
        while True:
            self.show_choices(buttons, keys)
            line = await self.next_line()
            if isinstance(line, Moved):
                return None
            if line is None:
                self.console.print()
                return self.saved_on_eof()
            answer = interpret(line, labels, self.language, keys)
            # Words that name no choice on screen: the game may know what they mean (a tile
            # written as station/colour, one that is not on offer now, a hex on another page of
            # a submenu) and says so, at every level of the menu. A number is only the top
            # level's: in a submenu it counts the submenu's own buttons.
            if isinstance(answer, Invalid) and (answer.reason == "unknown" or (
                    answer.reason == "out_of_range" and not self.reply_buttons)):
                if await self.typed(line.strip(), answer, keys):
                    return None
                continue
            if isinstance(answer, Invalid):
                self.explain_invalid(answer, keys, labels)
                continue
            if isinstance(answer, Command):
                code = await self.command(answer.name)
                if code is not None:
                    return code
                continue
            await self.press(buttons[answer.index])
            return None

    async def press(self, button: Button) -> None:
        reply = await self.service.press(self.chat, self.human, button.payload)
        if button.kind == "secret" and reply.ok:
            self.show_private(reply.text)       # a look at the secret: the open submenu stays
            return
        self.reply_buttons = ()
        if reply.buttons:
            # A follow-up choice (whose shop to evict); its text also reaches the group.
            self.reply_buttons = tuple(b for row in reply.buttons for b in row)
            return
        if not reply.ok:
            self.show_reply(reply)
        # An accepted move: the outbox tells the story, so the short confirmation is not repeated.

    async def typed(self, text: str, answer: Invalid, numbers: list[int | str]) -> bool:
        """A move typed in words, through the game; True when it was made."""
        reply = await self.service.move(self.chat, self.human, text)
        if reply.buttons:
            self.reply_buttons = tuple(b for row in reply.buttons for b in row)
            return True
        if reply.ok:
            self.reply_buttons = ()     # a move made from a submenu: the turn's menu is new
        if reply.refused in (Refusal.BAD_MOVE, Refusal.BAD_CHOICE):
            self.explain_invalid(answer, numbers)     # the game knows no more than we do: our words
        elif reply.refused == Refusal.AMBIGUOUS:
            self.console.print(reply.text)      # worded as when the terminal finds it so itself
        elif not reply.ok:
            self.show_reply(reply)
        return reply.ok

    async def pump(self) -> int:
        """Deliver every pending message and run due timers until all is quiet."""
        total = 0
        for _ in range(10_000):
            sent = await self.service.deliver_pending(self.transport)
            if self.transport.output_error is not None:
                raise self.transport.output_error
            fired = await self.service.fire_due_timers()
            total += sent
            if not sent and not fired:
                break
        return total

    async def game_over(self, last: GameInfo | None) -> int:
        """The end: the command that starts the same game again (``last``: the game as last seen).
        With ``--web`` the board keeps serving the finished game (its standings and step-through)
        until the player closes it here."""
        self.console.print()
        opts = self.options
        game_kind = kind(last.game if last else opts.kind)
        players = len(last.seats) if last else opts.players
        ai = last.ai_seats if last else opts.ai_seats
        options = dict(last.options) if last else opts.game_options
        self.say("terminal.game_over", command=again_command(opts.again_command, game_kind, players, ai, options))
        if self.web is not None and self.game_id is not None:
            await self.keep_board_open()
        return EXIT_OK

    async def review(self, state: GameInfo, chat: Chat) -> int:
        """A finished game opened with ``--web``: its board, for review, until the player closes it."""
        self.chat, self.game_id, self.game_kind = chat, state.game_id, state.game
        self.language = normalize_language(state.options.get("language") or self.language)
        self.say("terminal.review", id=state.game_id, game=kind(state.game).presenter.title(self.language))
        self.show_board_link()
        await self.keep_board_open()
        return EXIT_OK

    async def keep_board_open(self) -> None:
        """Serve the board until a line (Enter) or the end of input: a page left open shows the game
        over, not a lost connection."""
        self.say("terminal.board_stays")
        await self.reader.readline()

    def show_board(self, text: str) -> None:
        self.console.print()
        for line in text.splitlines():
            self.console.print(self.console.style(line, "dim") if not line.strip() else line)

    def show_choices(self, buttons: tuple[Button, ...], numbers: list) -> None:
        self.console.print()
        # in the order of their numbers (a game may put a choice first that takes a later number),
        # the fixed letters last
        shown = sorted(zip(numbers, buttons, strict=True),
                       key=lambda pair: (isinstance(pair[0], str), pair[0] if isinstance(pair[0], int) else 0))
        for number, button in shown:
            # The label as the game worded it (a number it shows is the one typed: the key).
            self.console.print(f"{self.console.style(f'{number:>2}', 'bold', button.colour)}. {button.label}")
        self.console.out.write(t(self.language, "terminal.ask_move", numbers=key_list(numbers)) + " ")
        self.console.out.flush()

    def show_reply(self, reply: Reply) -> None:
        if not reply.text:
            return
        if reply.ok:
            self.console.print(reply.text)
        else:
            self.console.print(self.console.style(t(self.language, "terminal.refused", text=reply.text), "bold"))

    def show_private(self, text: str) -> None:
        self.console.print()
        self.console.print(self.console.style(
            t(self.language, "terminal.private_header", name=self.human.name), "bold"))
        for line in text.splitlines():
            self.console.print(f"  {line}")

    def explain_invalid(self, answer: Invalid, numbers: list[int | str], labels: list[str] | None = None) -> None:
        if answer.reason == "ambiguous" and labels is not None:
            # The service's words for a word that fits several choices, with the same list.
            self.say("bot.err.ambiguous", text=answer.value, choices=", ".join(labels[i] for i in answer.matches))
            return
        key = {
            "empty": "terminal.invalid.empty",
            "out_of_range": "terminal.invalid.out_of_range",
            "no_choices": "terminal.invalid.no_choices",
        }.get(answer.reason, "terminal.invalid.unknown")
        self.say(key, value=answer.value, numbers=key_list(numbers))

    async def command(self, name: str) -> int | None:
        """Run a typed command; an exit code ends the session."""
        if name == "quit":
            self.say("terminal.saved_quit", command=self.resume_command)
            return EXIT_OK
        if name == "abandon":
            return await self.abandon()
        if name == "help":
            presenter = kind(self.options.kind).presenter      # what board and the secret show in this game
            self.say("terminal.help", command=self.resume_command, board=presenter.board_help(self.language),
                     secret=presenter.secret_help(self.language))
        elif name == "stats":
            self.show_reply(await self.service.stats(self.chat, self.human, all_chats=True))
        elif name == "rating":        # each terminal game is a chat of its own: no chat's board
            self.show_reply(await self.service.rating(None, self.human))
        elif name == "rules":
            self.show_reply(await self.service.rules(self.chat, self.human))
        elif name == "board":
            self.show_board((await self.service.board(self.chat, self.human)).text)
        elif name == "secret":
            reply = await self.service.secret(self.human, self.chat)
            if reply.ok:
                self.show_private(reply.text)
            else:
                self.show_reply(reply)
        return None

    async def abandon(self) -> int | None:
        """Give the game up for good, once the player confirms: it is no longer offered to continue."""
        info = await self.service.game_info(self.chat)
        if info is None:
            return None
        self.console.print()
        self.console.out.write(abandon_question(info, self.language) + " ")
        self.console.out.flush()
        line = await self.reader.readline()
        if line is None or not confirmed(line, self.language):
            self.say("terminal.abandon_kept")
            return None
        reply = await self.service.abort(self.chat, self.human)
        if not reply.ok:
            self.show_reply(reply)
            return None
        await self.pump()
        self.say("terminal.abandoned", id=self.game_id)
        return EXIT_OK

    def saved_on_eof(self) -> int:
        self.say("terminal.saved_eof", command=self.resume_command)
        return EXIT_OK


def confirmed(line: str, language: str) -> bool:
    """A "yes" typed, in English or the game's language."""
    words = {"yes", "y", *(fold(w) for w in t(language, "terminal.yes_words").split(",") if w.strip())}
    return fold(line) in words


def abandon_question(state: GameInfo, language: str) -> str:
    """"Abandon game 3 (Paris Paris: Ann, Ada) for good? ... Type yes to confirm:"."""
    return t(language, "terminal.abandon_confirm", id=state.game_id, game=kind(state.game).presenter.title(language),
             players=", ".join(seat.name for seat in state.seats))


def short_link(board: WebBoard, url: str) -> str:
    """The board's link as a short one that leads to it (a long link wraps over several lines)."""
    from bot.web.shortlinks import shorten

    return shorten(board.app, url)


def abandon_command(options: PlayOptions) -> str:
    """``boardchat abandon ID`` with the same database as the resume command names."""
    return list_command(options).replace(f"{COMMAND} games", f"{COMMAND} abandon ID", 1)


def last_played_first(games: list[GameInfo]) -> list[GameInfo]:
    """The games played (moved in) most recently first: the one ``--resume`` continues is the
    one the player left last, not the one started last."""
    return sorted(games, key=lambda g: (g.updated, g.game_id), reverse=True)


def key_list(keys) -> str:
    """"1-6, u, d": the numbers as a short list, then the fixed letters."""
    numbers = [k for k in keys if isinstance(k, int)]
    return ", ".join(part for part in (number_list(numbers), *[k for k in keys if isinstance(k, str)]) if part)


def resume_command_for(options: PlayOptions, game_id: int | None) -> str:
    """``boardchat play --resume ID`` with this session's database and maps folder."""
    if game_id is None:
        return options.resume_command
    return options.resume_command.replace("play --resume", f"play --resume {game_id}", 1)


def list_command(options: PlayOptions) -> str:
    """``boardchat games`` with the same database as the resume command names."""
    command = options.resume_command.replace("play --resume", "games", 1)
    return command.replace(" --no-maps", "").replace(" --keep-pictures", "").split(" --maps")[0]


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
    board = None
    try:
        session = TerminalSession(service, options, stdin=stdin or sys.stdin, stdout=out, colour=colour)
        if options.web_port is not None:
            from bot.web.server import WebBoard, WebSettings

            try:
                board = await WebBoard.start(service, WebSettings(host="127.0.0.1", port=options.web_port))
            except OSError as exc:      # the port is taken, or not ours to open: one line, no traceback
                out.write(port_refused(options, exc) + "\n")
                return EXIT_ERROR
            await session.serve_board(board)
        return await session.run()
    finally:
        if board is not None:
            await board.stop()
        await service.close()


def port_refused(options: PlayOptions, exc: OSError) -> str:
    """Why the board could not listen, and what to do: another port, or any free one."""
    key = "terminal.error.web_port_taken" if exc.errno == errno.EADDRINUSE else "terminal.error.web_port"
    return t(options.language, key, port=options.web_port, error=exc.strerror or str(exc),
             command=f"{COMMAND} play --web")


async def _open_saved(db: Path, language: str, out: TextIO):
    """The service over the terminal games saved in ``db``; or, when there is none to open, the
    exit code, having said why on ``out``."""
    from bot.service import GameService

    if not db.exists():
        out.write(t(language, "terminal.games.none", path=str(db), command=f"{COMMAND} play") + "\n")
        return EXIT_OK
    try:
        return await GameService.open(str(db))
    except Exception as exc:    # the player's to see, plainly
        out.write(t(language, "terminal.error.db", path=str(db), error=str(exc)) + "\n")
        return EXIT_ERROR


async def list_games(db: Path, language: str, out: TextIO | None = None, limit: int = 50) -> int:
    """``boardchat games``: the terminal games saved in ``db``, newest first."""
    import time

    out = out or sys.stdout
    service = await _open_saved(db, language, out)
    if isinstance(service, int):
        return service
    try:
        games = await service.platform_games(PLATFORM, limit=limit)
        mine = await service.my_games(User(PLATFORM, HUMAN_ID, default_name(), language=language))
    finally:
        await service.close()
    yours = {g.game_id for g in mine.extra.games if g.yours} if isinstance(mine.extra, MyGameList) else set()
    if not games:
        out.write(t(language, "terminal.games.none", path=str(db), command=f"{COMMAND} play") + "\n")
        return EXIT_OK
    out.write(t(language, "terminal.games.title", path=str(db)) + "\n")
    for g in games:
        if g.round is None:
            progress = t(language, "terminal.games.not_started")
        elif g.rounds:
            progress = t(language, "terminal.games.round", round=g.round, rounds=g.rounds)
        else:
            progress = t(language, "terminal.games.cycle", round=g.round)
        state = t(language, "terminal.games.your_turn" if g.game_id in yours else
                  "terminal.games.unfinished" if g.active else
                  "terminal.games.aborted" if g.status == "aborted" else "terminal.games.finished")
        known = find(g.game)
        out.write(t(language, "terminal.games.row", id=f"{g.game_id:>4}",
                    game=known.presenter.title(language) if known else g.game,
                    players=", ".join(s.name for s in g.seats), progress=progress,
                    started=time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created)), state=state) + "\n")
    if any(g.active for g in games):
        out.write(t(language, "terminal.games.hint", command=f"{COMMAND} play --resume ID") + "\n")
    return EXIT_OK


async def show_ratings(db: Path, language: str, game: str | None = None, name: str | None = None,
                       out: TextIO | None = None) -> int:
    """``boardchat rating``: the terminal player's rating in each game and the leaderboards of
    the terminal games saved in ``db`` (each terminal game is a chat of its own: no chat's board)."""
    out = out or sys.stdout
    service = await _open_saved(db, language, out)
    if isinstance(service, int):
        return service
    try:
        human = User(platform=PLATFORM, id=HUMAN_ID, name=name or default_name(), language=language)
        reply = await service.rating(None, human, game)
    finally:
        await service.close()
    out.write(reply.text + "\n")
    return EXIT_OK if reply.ok else EXIT_ERROR


async def abandon_game(db: Path, language: str, game_id: int | None = None, *, yes: bool = False,
                       stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """``boardchat abandon [ID]``: give up an unfinished terminal game for good (the one played
    last, as ``--resume`` would continue it, or game ``game_id``), once the player confirms."""
    out = out or sys.stdout
    stdin = stdin or sys.stdin
    service = await _open_saved(db, language, out)
    if isinstance(service, int):
        return service
    try:
        games = last_played_first([g for g in await service.platform_games(PLATFORM, limit=1000)
                                   if g.active])
        target = next((g for g in games if game_id is None or g.game_id == game_id), None)
        if target is None:
            out.write(t(language, "terminal.abandon_none", id="" if game_id is None else game_id,
                        command=f"{COMMAND} games").replace("  ", " ") + "\n")
            return EXIT_ERROR
        state = target
        assert target.chat is not None, "a game listed for the terminal (platform_games) names its chat"
        language = normalize_language(state.options.get("language") or language)
        if not yes:
            out.write(abandon_question(state, language) + " ")
            out.flush()
            if not confirmed(stdin.readline(), language):
                out.write(t(language, "terminal.abandon_kept") + "\n")
                return EXIT_ERROR
        seat = state.seat_of(HUMAN_ID)
        human = User(platform=PLATFORM, id=HUMAN_ID, language=language,
                     name=state.seats[seat].name if seat is not None else default_name())
        reply = await service.abort(target.chat, human)
        if not reply.ok:
            out.write(reply.text + "\n")
            return EXIT_ERROR
        # the game's last words ("abandoned by ..."), here rather than at the start of the next game
        transport = TerminalTransport(Console(out, colour=False), human, maps_dir=None, language=language)
        transport.chat_id = target.chat.id
        while await service.deliver_pending(transport):
            pass
        out.write(t(language, "terminal.abandoned", id=state.game_id) + "\n")
        return EXIT_OK
    finally:
        await service.close()
