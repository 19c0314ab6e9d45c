"""The games the bot can host: the one place in bot/ that reaches game packages (through the
engine's and the renderers' registries). Everything else in bot/ asks this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.interface import GameDefinition
from engine.registry import DEFAULT_GAME, GAMES
from renderers.presenter import Presenter
from renderers.registry import PRESENTERS


@dataclass(frozen=True, slots=True)
class GameKind:
    """A game's rules (``definition``) and its words and pictures (``presenter``)."""

    definition: GameDefinition
    presenter: Presenter

    @property
    def id(self) -> str:
        return self.definition.id


# A registered game without a presenter yet (its pictures and words come later) is not offered.
KINDS: dict[str, GameKind] = {gid: GameKind(definition, PRESENTERS[gid]) for gid, definition in GAMES.items()
                              if gid in PRESENTERS}
DEFAULT = DEFAULT_GAME
# Every AI level some game offers, weakest first (a chat's stand-in level is one of them).
AI_LEVELS: tuple[str, ...] = tuple(sorted({lv for g in KINDS.values() for lv in g.definition.ai_levels},
                                          key=("easy", "normal", "strong").index))


def kind(kind_id: str | None) -> GameKind:
    """The game kind ``kind_id`` (the default game for None); ``KeyError`` for an unknown id."""
    return KINDS[kind_id or DEFAULT]


def ai_level(game_kind: GameKind, wanted: str | None) -> str:
    """The level that plays for ``wanted`` in ``game_kind``: itself where that game has it, else the
    game's "normal" (or its first) level, so a chat's stand-in level suits every game."""
    levels = game_kind.definition.ai_levels
    if wanted in levels:
        return wanted
    return "normal" if "normal" in levels else levels[0]


def level_at(game_kind: GameKind, index: int) -> str | None:
    """The game's AI level number ``index`` (as a lobby button names it); None if it has no such level."""
    levels = game_kind.definition.ai_levels
    return levels[index] if 0 <= index < len(levels) else None


def find(name: str | None) -> GameKind | None:
    """The game a player named: its id, its name, or an unambiguous start of either ("connection")."""
    if not name:
        return KINDS[DEFAULT]
    wanted = "".join(ch for ch in str(name).casefold() if ch.isalnum())
    if not wanted:
        return None
    hits = []
    for game_kind in KINDS.values():
        names = {"".join(ch for ch in n.casefold() if ch.isalnum()) for n in (game_kind.id, game_kind.definition.name)}
        if wanted in names:
            return game_kind
        if any(wanted in n for n in names):
            hits.append(game_kind)
    return hits[0] if len(hits) == 1 else None
