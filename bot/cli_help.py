"""The words of ``boardchat --help`` that depend on the games: each game's name, its player
counts, its own options and an example, all read from the registry (bot/games.py), so a game
added there shows up in the help without a change here."""

from __future__ import annotations

import argparse

from i18n import t

from .games import DEFAULT, KINDS, GameKind
from .product import COMMAND

DEFAULT_PLAYERS = 3          # a table of three when the game allows it (see ``default_players``)


def default_players(kind: GameKind) -> int:
    definition = kind.definition
    return min(max(definition.min_players, DEFAULT_PLAYERS), definition.max_players)


def game_flag(kind: GameKind) -> list[str]:
    """``--game ID`` for any game but the default one."""
    return [] if kind.id == DEFAULT else ["--game", kind.id]


def games_line(language: str) -> str:
    """"Paris Paris (2-4 players), Paris Connection (3-6 players)"."""
    return ", ".join(t(language, "terminal.cli.game_players", game=g.presenter.title(language),
                       min=g.definition.min_players, max=g.definition.max_players) for g in KINDS.values())


def players_help(language: str) -> str:
    ranges = ", ".join(t(language, "terminal.cli.players_range", game=g.presenter.title(language),
                         min=g.definition.min_players, max=g.definition.max_players) for g in KINDS.values())
    return t(language, "terminal.cli.players", ranges=ranges, default=DEFAULT_PLAYERS)


def examples(language: str) -> str:
    """The top-level epilog: a line for every game, then the other commands."""
    rows: list[tuple[str, str]] = []
    for kind in KINDS.values():
        players = default_players(kind)
        rows.append((" ".join([COMMAND, "play", *game_flag(kind)]),
                     t(language, "terminal.cli.example.game", game=kind.presenter.title(language), ai=players - 1)))
    first = KINDS[DEFAULT].definition
    rows += [
        (f"{COMMAND} play --players {first.min_players} --seed 7",
         t(language, "terminal.cli.example.seed", players=first.min_players)),
        (f"{COMMAND} play --ai {first.max_players} --players {first.max_players}",
         t(language, "terminal.cli.example.watch", players=first.max_players)),
        (f"{COMMAND} play --resume [ID]", t(language, "terminal.cli.example.resume")),
        (f"{COMMAND} games", t(language, "terminal.cli.example.games")),
        (f"{COMMAND} replay game.json", t(language, "terminal.cli.example.replay")),
    ]
    width = max(len(command) for command, _ in rows) + 2
    lines = [t(language, "terminal.cli.examples")] + [f"  {c.ljust(width)}{text}" for c, text in rows]
    return "\n".join(lines) + "\n\n" + t(language, "terminal.cli.more", command=f"{COMMAND} play --help")


def add_game_options(play: argparse.ArgumentParser, language: str) -> None:
    """Each option a game declares becomes a flag (``final_tours`` -> ``--final-tours``), listed
    under the game that has it; a name several games declare is listed once, under the first."""
    seen: set[str] = set()
    for kind in KINDS.values():
        specs = [spec for spec in kind.definition.options if spec.name not in seen]
        if not specs:
            continue
        group = play.add_argument_group(t(language, "terminal.cli.options_of", game=kind.presenter.title(language)))
        for spec in specs:
            seen.add(spec.name)
            values = ", ".join(f"{v} ({kind.presenter.option_value_text(spec.name, v, language)})"
                               for v in spec.values)
            group.add_argument("--" + spec.name.replace("_", "-"), dest=f"option_{spec.name}",
                               choices=[str(v) for v in spec.values], default=None,
                               help=t(language, "terminal.cli.option", values=values, default=spec.default,
                                      name=kind.presenter.option_name_text(spec.name, language),
                                      what=kind.presenter.option_help_text(spec.name, language)))


def again_command(prefix: str, kind: GameKind, players: int, ai: int, options: dict) -> str:
    """The command that starts the same game again (a new deal): ``prefix`` is ``boardchat play``
    with the session's database and maps flags; the game, its table and its options where they
    differ from what a bare ``play`` starts go right after ``play``."""
    head, _, session_flags = prefix.partition(" play")
    parts = [head + " play", *game_flag(kind)]
    if players != default_players(kind):
        parts += ["--players", str(players)]
    if ai >= players:
        parts += ["--ai", str(ai)]
    for spec in kind.definition.options:
        value = options.get(spec.name, spec.default)
        if value != spec.default and value in spec.values:
            parts += ["--" + spec.name.replace("_", "-"), str(value)]
    return " ".join(parts) + session_flags


def levels_help(language: str) -> str:
    """The AI levels, each game's own where the games differ."""
    levels = {g.id: g.definition.ai_levels for g in KINDS.values()}
    if len(set(levels.values())) == 1:
        text = ", ".join(next(iter(levels.values())))
    else:
        text = "; ".join(t(language, "terminal.cli.levels_of", levels=", ".join(levels[g.id]),
                           game=g.presenter.title(language)) for g in KINDS.values())
    return t(language, "terminal.cli.ai_level", levels=text)
