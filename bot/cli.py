"""The ``boardchat`` command (also installed as ``paris-paris``, its name before other games came).

    boardchat play                  a game in the terminal against AI opponents
    boardchat play --resume [ID]    continue the latest unfinished terminal game (or game ID)
    boardchat games                 list the terminal games (id, players, round, finished or not)
    boardchat telegram | discord    run a chat bot (token from the environment or .env)
    boardchat replay FILE           replay a game record and print the result as JSON

Help texts come from the message catalogs in the language named by ``--language`` or,
failing that, the system's (``LANG``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import os
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from i18n import LANGUAGES, normalize_language, t

from . import cli_help
from .games import DEFAULT, KINDS, find
from .games import kind as kind_of
from .product import COMMAND, env_name
from .terminal.paths import DEFAULT_MAPS_DIR, default_db_path

if TYPE_CHECKING:      # the storage is imported only by the commands that open one
    from .service.storage import Storage

PROG = COMMAND


def _language_hint(argv: Sequence[str]) -> str:
    """The help language: ``--language X`` if given, else the system locale."""
    for i, arg in enumerate(argv):
        if arg == "--language" and i + 1 < len(argv):
            return normalize_language(argv[i + 1])
        if arg.startswith("--language="):
            return normalize_language(arg.split("=", 1)[1])
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return normalize_language(value)
    return "en"


def build_parser(language: str = "en") -> argparse.ArgumentParser:
    def tr(key: str, **params: object) -> str:
        return t(language, f"terminal.cli.{key}", **params)

    def paragraph(key: str, **params: object) -> str:
        # The formatter keeps descriptions as written (for the examples); wrap prose here.
        width = min(shutil.get_terminal_size().columns, 100) - 2
        return textwrap.fill(tr(key, **params), width=max(width, 40), break_on_hyphens=False)

    games_line = cli_help.games_line(language)
    parser = argparse.ArgumentParser(
        prog=PROG, description=paragraph("description", games=games_line), epilog=cli_help.examples(language),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=tr("commands"))

    play = sub.add_parser("play", help=tr("play.help"),
                          description=paragraph("play.description", games=games_line,
                                                command=f"{PROG} play --resume"),
                          epilog=paragraph("play.epilog"), formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--game", default=None, metavar="GAME", help=tr("game", games=", ".join(KINDS),
                                                                        default=DEFAULT))
    play.add_argument("--players", type=int, default=None, metavar="N", help=cli_help.players_help(language))
    play.add_argument("--ai", type=int, default=None, metavar="N", help=tr("ai"))
    play.add_argument("--ai-level", default=None, metavar="LEVEL", help=cli_help.levels_help(language))
    play.add_argument("--name", default=None, help=tr("name"))
    play.add_argument("--seed", type=int, default=None, help=tr("seed"))
    play.add_argument("--language", choices=LANGUAGES, default=None, help=tr("language"))
    play.add_argument("--db", type=Path, default=None, metavar="PATH",
                      help=tr("db", path=str(default_db_path())))
    play.add_argument("--maps", type=Path, default=Path(DEFAULT_MAPS_DIR), metavar="DIR",
                      help=tr("maps", path=f"./{DEFAULT_MAPS_DIR}"))
    play.add_argument("--no-maps", action="store_true", help=tr("no_maps"))
    play.add_argument("--keep-pictures", action="store_true", help=tr("keep_pictures"))
    play.add_argument("--web", nargs="?", const=0, default=None, type=int, metavar="PORT", help=tr("web"))
    play.add_argument("--resume", nargs="?", const=True, default=False, type=int, metavar="ID",
                      help=tr("resume", command=f"{PROG} games"))
    play.add_argument("--list", action="store_true", help=tr("list"))
    play.add_argument("--pace", type=float, default=None, metavar="SECONDS", help=tr("pace"))
    # Each game's own options, grouped under the game (``final_tours`` -> ``--final-tours``).
    cli_help.add_game_options(play, language)

    games = sub.add_parser("games", help=tr("games.help"), description=tr("games.help"))
    games.add_argument("--db", type=Path, default=None, metavar="PATH", help=tr("db", path=str(default_db_path())))
    games.add_argument("--language", choices=LANGUAGES, default=None, help=tr("language"))

    rating = sub.add_parser("rating", help=tr("rating.help"), description=tr("rating.help"))
    rating.add_argument("game", nargs="?", default=None, metavar="GAME", help=tr("rating.game", games=", ".join(KINDS)))
    rating.add_argument("--db", type=Path, default=None, metavar="PATH", help=tr("db", path=str(default_db_path())))
    rating.add_argument("--name", default=None, help=tr("name"))
    rating.add_argument("--language", choices=LANGUAGES, default=None, help=tr("language"))

    raw = argparse.RawDescriptionHelpFormatter        # the paragraphs are wrapped already
    sub.add_parser("telegram", help=tr("telegram.help"), description=paragraph("telegram.description"),
                   formatter_class=raw)
    sub.add_parser("discord", help=tr("discord.help"), description=paragraph("discord.description"),
                   formatter_class=raw)

    formats = ", ".join(g.definition.record_format for g in KINDS.values())
    replay = sub.add_parser("replay", help=tr("replay.help"), formatter_class=raw,
                            description=paragraph("replay.description", formats=formats))
    replay.add_argument("file", metavar="FILE", help=tr("replay.file"))

    abandon = sub.add_parser("abandon", help=tr("abandon.help"), description=tr("abandon.help"))
    abandon.add_argument("game_id", nargs="?", type=int, default=None, metavar="ID", help=tr("abandon.id"))
    abandon.add_argument("--db", type=Path, default=None, metavar="PATH", help=tr("db", path=str(default_db_path())))
    abandon.add_argument("--yes", action="store_true", help=tr("abandon.yes"))
    abandon.add_argument("--language", choices=LANGUAGES, default=None, help=tr("language"))

    export = sub.add_parser("export", help=tr("export.help"), description=tr("export.help"))
    export.add_argument("game_id", nargs="?", type=int, default=None, metavar="ID", help=tr("export.id"))
    export.add_argument("--db", default=None, metavar="PATH|URL", help=tr("db", path=str(default_db_path())))
    export.add_argument("--animation", default=None, metavar="FILE", type=Path, help=tr("export.animation"))

    health_help = tr("health.help", url=env_name("WEB_URL"))
    health = sub.add_parser("health", help=health_help, description=health_help)
    health.add_argument("--db", default=None, metavar="PATH|URL",
                        help=tr("health.db", url=env_name("DATABASE_URL"), db=env_name("DB")))
    health.add_argument("--late", type=float, default=300.0, metavar="SECONDS", help=tr("health.late"))
    health.add_argument("--local", action="store_true",
                        help=tr("health.local", host=env_name("WEB_HOST"), port=env_name("WEB_PORT")))
    health.add_argument("--json", action="store_true", help=tr("health.json"))

    migrate = sub.add_parser("migrate-db", help=tr("migrate.help"), description=tr("migrate.help"))
    migrate.add_argument("source", metavar="FROM", help=tr("migrate.source"))
    migrate.add_argument("target", metavar="TO", help=tr("migrate.target"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    language = _language_hint(args_list)
    _say_renamed_settings()
    parser = build_parser(language)
    args = parser.parse_args(args_list)
    if args.command == "play" and args.list or args.command == "games":
        from .terminal.play import list_games

        db = args.db.expanduser() if args.db else default_db_path()
        return asyncio.run(list_games(db, args.language or language))
    if args.command == "rating":
        from .terminal.play import show_ratings

        db = args.db.expanduser() if args.db else default_db_path()
        return asyncio.run(show_ratings(db, args.language or language, args.game, args.name))
    if args.command == "play":
        return _play(parser, args, language)
    if args.command == "abandon":
        from .terminal.play import abandon_game

        db = args.db.expanduser() if args.db else default_db_path()
        return asyncio.run(abandon_game(db, args.language or language, args.game_id, yes=args.yes))
    if args.command == "telegram":
        return _run_adapter("telegram", "bot.telegram", "run_telegram", language)
    if args.command == "discord":
        return _run_adapter("discord", "bot.discord", "run_discord", language)
    if args.command == "replay":
        from engine.__main__ import main as engine_main

        return engine_main(["replay", args.file])
    if args.command == "export":
        try:
            return asyncio.run(_export(args.db or str(default_db_path()), args.game_id, language, args.animation))
        except BrokenPipeError:         # ``boardchat export | head``
            return _reader_gone()
    if args.command == "health":
        from .health import run_health

        return run_health(args.db, args.late, local=args.local, as_json=args.json)
    if args.command == "migrate-db":
        return asyncio.run(_migrate(args.source, args.target, language))
    parser.print_help()
    return 0


WATCH_PAUSE = 2.0      # seconds after each round of a game watched on a terminal (``--pace``)


def _declared_options() -> dict[str, tuple]:
    """Every option any game declares, with the values it allows (the first game's, by name)."""
    found: dict[str, tuple] = {}
    for kind in KINDS.values():
        for spec in kind.definition.options:
            found.setdefault(spec.name, spec.values)
    return found


def _play(parser: argparse.ArgumentParser, args: argparse.Namespace, language: str) -> int:
    from .terminal.play import PlayOptions, run_play

    kind = find(args.game)
    if kind is None:
        parser.error(t(language, "terminal.error.game", game=args.game, games=", ".join(KINDS)))
    definition = kind.definition
    players = args.players if args.players is not None else cli_help.default_players(kind)
    if not definition.min_players <= players <= definition.max_players:
        parser.error(t(language, "terminal.error.players_game", players=players, game=definition.name,
                       min=definition.min_players, max=definition.max_players))
    ai = players - 1 if args.ai is None else args.ai
    if ai not in (players - 1, players):
        parser.error(t(language, "terminal.error.ai", ai=ai, players=players, seats=players - 1))
    if args.ai_level is not None and args.ai_level not in definition.ai_levels:
        parser.error(t(language, "terminal.error.ai_level", level=args.ai_level, game=definition.name,
                       levels=", ".join(definition.ai_levels)))
    declared = {spec.name for spec in definition.options}
    game_options = {}
    for name in _declared_options():
        value = getattr(args, f"option_{name}")
        if value is None:
            continue
        if name not in declared:
            parser.error(t(language, "terminal.error.option_game", option="--" + name.replace("_", "-"),
                           game=definition.name))
        game_options[name] = definition.option(name).parse(value)
    if args.name is not None and not args.name.strip():
        parser.error(t(language, "terminal.error.name"))
    options = PlayOptions(
        kind=kind.id, players=players, ai=ai, ai_level=args.ai_level,
        name=args.name.strip() if args.name else None, seed=args.seed,
        language=args.language or language, game_options=game_options,
        db=(args.db.expanduser() if args.db else default_db_path()),
        maps=None if args.no_maps else args.maps.expanduser().absolute(),   # a path one can open
        keep_pictures=args.keep_pictures, web_port=args.web,
        # a game watched on a terminal is told a round at a time; into a file or a pipe, at once
        watch_pause=args.pace if args.pace is not None else (WATCH_PAUSE if sys.stdout.isatty() else 0.0),
        resume=args.resume is not False, resume_id=None if isinstance(args.resume, bool) else args.resume,
        resume_command=_resume_command(args),
        again_command=_resume_command(args).replace(" --resume", "", 1),
    )
    _tolerant_output()
    try:
        return asyncio.run(run_play(options))
    except BrokenPipeError:         # ``boardchat play | head``
        return _reader_gone()
    except KeyboardInterrupt:
        # Ctrl-C before the game loop runs (opening the file) or a second Ctrl-C while saving:
        # every accepted move is committed already, so there is nothing to lose.
        print("\n" + t(options.language, "terminal.saved_interrupt", command=options.resume_command))
        return 130


async def _export(target: str, game_id: int | None, language: str, animation: Path | None = None) -> int:
    """Print a game's JSON record (the latest started game when no id is given); with
    ``animation``, write the game as an animation to that file instead (its suffix says the format)."""
    import json

    from .service.storage import open_storage

    storage = await open_storage(target)
    try:
        chosen = game_id is None
        if game_id is None:
            game_id = await last_played_game(storage)
        got = None if game_id is None else await storage.load_game(game_id)
        if got is None or got[0].setup is None:
            print(t(language, "terminal.export.none", id=game_id if game_id is not None else "-"), file=sys.stderr)
            return 1
        meta, moves = got
        if chosen:      # which game "the latest" is, on stderr: the record on stdout stays JSON
            print(t(language, "terminal.export.which", id=meta.id, game=kind_of(meta.kind).presenter.title(language),
                    state=t(language, f"terminal.games.{GAME_STATES.get(meta.status, 'unfinished')}")),
                  file=sys.stderr)
        if animation is not None:
            return _export_animation(meta, moves, animation, language)
        record = kind_of(meta.kind).definition.record_of(meta.setup or {}, moves)
        json.dump(record, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        sys.stdout.flush()          # a reader that went away is found here, not at exit
        return 0
    finally:
        await storage.close()


# A stored game's status as the games list words it (``terminal.games.<word>``).
GAME_STATES = {"finished": "finished", "aborted": "aborted"}


async def last_played_game(storage: Storage) -> int | None:
    """The game ``export`` gives without an id: the terminal game played (moved in) last, finished
    or not, as ``play --resume`` picks the one to continue; in a database without terminal games
    (a chat bot's), the newest game that was started."""
    from .terminal.play import PLATFORM

    played = [meta for meta in await storage.platform_games(PLATFORM, limit=1000) if meta.setup is not None]
    if played:
        return max(played, key=lambda meta: (meta.updated, meta.id)).id
    return await storage.latest_started_game()


def _export_animation(meta, moves: list, path: Path, language: str) -> int:
    """Write the stored game ``meta`` as an animation to ``path``, in the game's language: the frames
    a chat's animation has (bot/service/posts/animation.py), in the format the file's suffix names."""
    from renderers.animation import SUFFIXES, encode

    from .service.posts.animation import frames

    fmt = next((f for f, suffix in SUFFIXES.items() if path.suffix.lower() == suffix), None)
    if fmt is None:
        print(t(language, "terminal.export.animation_format", path=str(path)), file=sys.stderr)
        return 2
    shown = frames(kind_of(meta.kind), meta.setup, moves, meta.language)
    if not shown:
        print(t(language, "terminal.export.animation_empty", id=meta.id), file=sys.stderr)
        return 1
    path.write_bytes(encode(shown, fmt))
    print(t(language, "terminal.export.animation_written", id=meta.id, path=str(path)))
    return 0


async def _migrate(source: str, target: str, language: str) -> int:
    """Copy every game, message and setting from one database to another (SQLite to PostgreSQL)."""
    import time

    from .service.storage import copy_database

    started = time.perf_counter()
    try:
        counts = await copy_database(source, target)
    except (ValueError, RuntimeError, OSError) as exc:
        print(t(language, "terminal.migrate.failed", error=str(exc)), file=sys.stderr)
        return 1
    rows = ", ".join(f"{table} {count}" for table, count in counts.items())
    print(t(language, "terminal.migrate.done", rows=rows, seconds=f"{time.perf_counter() - started:.1f}"))
    return 0


def _reader_gone() -> int:
    """The reader of our output went away (a pipe into ``head``): stop quietly, as the shell's
    own tools do. What is still buffered goes to the null device, so that Python's flush at
    exit does not fail again with a traceback."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1


def _say_renamed_settings() -> None:
    """One line on stderr when the settings use the variable names of earlier versions."""
    from .config import renamed_notice

    line = renamed_notice()
    if line:
        print(line, file=sys.stderr)


def _tolerant_output() -> None:
    """Never crash on a character the console cannot show (emoji on a legacy Windows code
    page): print a replacement instead."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def _resume_command(args: argparse.Namespace) -> str:
    """The command that continues this game: same database and maps folder."""
    parts = [PROG, "play", "--resume"]
    if args.db:
        parts += ["--db", _quote(str(args.db))]
    if args.no_maps:
        parts.append("--no-maps")
    elif args.maps != Path(DEFAULT_MAPS_DIR):
        parts += ["--maps", _quote(str(args.maps))]
    if args.keep_pictures and not args.no_maps:
        parts.append("--keep-pictures")
    return " ".join(parts)


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _run_adapter(platform: str, module: str, function: str, language: str) -> int:
    """Import a chat adapter only when asked, so ``play`` needs no chat library."""
    import importlib

    try:
        run = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError) as exc:
        print(t(language, "terminal.error.adapter", platform=platform, error=str(exc)), file=sys.stderr)
        return 1
    try:
        result = run()
        # asyncio.run takes a coroutine only (any other awaitable it refuses): ask for one.
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
    except KeyboardInterrupt:
        return 130
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
