"""The pieces of the outbox's messages (buttons, a group or private message, slots, picture
names), the options in words, the lobby, the start and the animation of a game.

Pure functions of the game's metadata; every word comes from the catalogs or from the game's
presenter (renderers/presenter.py), in the game's language. The messages of the turns, built
from the turn state, are turnmessages.py's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.contract import Button, Slot, SlotKind, User
from bot.games import GameKind, ai_level
from bot.platforms import capabilities
from engine.interface import Match
from i18n import decimal, t
from renderers.animation import suffix

from ..game.model import GameMeta, OutRow
from ..game.outmessage import Group, MessageBody, Recipient, RenderRequest
from ..game.turnstate import TurnState
from ..tokens.payloads import PayloadCodec, b36
from .animation import ANIMATION, spec
from .links import BOARD


def duration(minutes: int, language: str) -> str:
    if not minutes:
        return t(language, "bot.duration.off")
    if minutes % 1440 == 0:
        return t(language, "bot.duration.days", n=minutes // 1440)
    if minutes % 60 == 0:
        return t(language, "bot.duration.hours", n=minutes // 60)
    return t(language, "bot.duration.minutes", n=minutes)


def stats_record(language: str, games: int, wins: int, points: int) -> dict[str, str]:
    """The ``wins``, ``games`` and ``average`` parts of a leaderboard line (each with its own plural)."""
    return {"wins": t(language, "bot.stats.wins", wins=wins), "games": t(language, "bot.stats.games", games=games),
            "average": t(language, "bot.stats.average", average=decimal(language, points / games))}


def button(label: str, payload: str, kind: str = "action", colour: str | None = None,
           key: int | None = None, letter: str | None = None) -> Button:
    return Button(label, payload, kind, colour, key, letter or None)


def to_buttons(rows: Iterable[Iterable[Button]]) -> tuple[tuple[Button, ...], ...]:
    return tuple(tuple(row) for row in rows)


def group(meta: GameMeta, text: str, *, buttons: Iterable[Iterable[Button]] = (), mentions: Iterable[User] = (),
          slot: str | None = None, mode: str = "new", render: RenderRequest | None = None,
          image_name: str = "board.png", awaited: bool = False, description: str = "",
          latest_image_name: str = "", too_large: str = "") -> OutRow:
    """A message to the group; ``description``: its picture (``render``) in words, for screen readers,
    where the drawing does not say them (an animation: ``pictures.Drawn``);
    ``awaited``: a turn prompt the table waits for (sent first, see ``OutRow.priority``)."""
    body = MessageBody(text, chat=Group.of(meta.chat), buttons=to_buttons(buttons),
                       mentions=tuple(map(Recipient.of, mentions)), language=meta.language, render=render,
                       image_name=image_name, latest_image_name=latest_image_name,
                       description=description if render is not None else "", too_large=too_large)
    return OutRow(meta.id, meta.platform, f"c:{meta.chat_id}", body, slot, mode, awaited)


def private(meta: GameMeta | None, platform: str, user: User, text: str, language: str, *,
            buttons: Iterable[Iterable[Button]] = (), slot: str | None = None, mode: str = "new",
            render: RenderRequest | None = None, image_name: str = "board.png", description: str = "",
            latest_image_name: str = "") -> OutRow:
    body = MessageBody(text, private_to=Recipient.of(user), buttons=to_buttons(buttons), language=language,
                       render=render, image_name=image_name, latest_image_name=latest_image_name,
                       description=description if render is not None else "")
    return OutRow(meta.id if meta else None, platform, f"u:{user.id}", body, slot, mode)


# Slots are stored by name (``OutRow.slot``, the ``slots`` table) and handed to adapters as a
# ``contract.Slot``: the names are made here, and only here read back (``slot_of``).
def slot_of(name: str) -> Slot:
    """The slot named ``name`` (one of the names made below)."""
    last = name.rsplit(":", 1)[-1]
    if last in (SlotKind.LOBBY, SlotKind.TURN):
        return Slot(name, SlotKind(last))
    return Slot(name, SlotKind.SEAT if last.startswith("s") else SlotKind.NOTES)


def turn_slot(meta: GameMeta, turn: TurnState | None = None) -> str:
    """The slot of the group's live turn message (its prompt) in ``meta``'s turn state (or in
    ``turn``). Each new prompt takes a slot of its own (``TurnMessages.after_moves``), so the
    closing edit of the one before can follow it in the outbox. (A game started before that kept
    one slot, ``g<id>:turn``, until its next new prompt.)"""
    turn = meta.turn if turn is None else turn
    return turn.turn_slot or f"g{meta.id}:{SlotKind.TURN}"


def surface(meta: GameMeta) -> str:
    """Where the game's players read its texts (``Capabilities.surface``): a chat where they tap
    their choices, or a surface where they type them."""
    return capabilities(meta.platform).surface


def prompt_slot(meta: GameMeta, moves: int) -> str:
    """The slot of a new turn prompt posted after ``moves`` moves (``turn_slot``)."""
    return f"g{meta.id}:m{moves}:{SlotKind.TURN}"


def seat_slot(meta: GameMeta, seat: int) -> str:
    """The seat's own turn message in its private chat, edited in place as it steps through a decision."""
    return f"g{meta.id}:s{seat}"


def notes_slot(meta: GameMeta, seat: int) -> str:
    """The slot of the seat's private notes (the texts of its game's private events): each is a
    new message, and once one went out the outbox keeps no earlier one (a busy game sent hundreds)."""
    return f"g{meta.id}:n{seat}"


def lobby_slot(meta: GameMeta) -> str:
    return f"g{meta.id}:{SlotKind.LOBBY}"


def chat_name(meta: GameMeta) -> str:
    return meta.chat_title or meta.chat_id


def chat_label(meta: GameMeta) -> str:
    """Where the game is played, for a player's private messages; "" for a chat without a
    title (a terminal game, its own conversation): the texts then name no place."""
    return meta.chat_title


# ---- options and the lobby ----------------------------------------------------------------

def options_text(kind: GameKind, options: dict[str, Any], language: str, *, timers_off: bool = True) -> str:
    """The game's declared options and the bot's timers, in words ("Final tours: ... · ...").
    ``timers_off=False``: a timer that is off goes unsaid (the start of a game played alone at
    a terminal has no reminder to speak of)."""
    parts = [t(language, "bot.options.option", name=kind.presenter.option_name_text(spec.name, language),
               value=kind.presenter.option_value_text(spec.name, options.get(spec.name, spec.default), language))
             for spec in kind.definition.options]
    reminder = int(options.get("reminder_minutes") or 0)
    deadline = int(options.get("deadline_minutes") or 0)
    if options.get("clock") == "bank":
        parts += bank_options(options, language)
        reminder = deadline = 0
        timers_off = False
    if reminder:
        parts.append(t(language, "bot.options.reminder", value=duration(reminder, language)))
    elif timers_off:
        parts.append(t(language, "bot.options.no_reminder"))
    if deadline:
        parts.append(t(language, "bot.options.deadline", value=duration(deadline, language)))
    elif timers_off:
        parts.append(t(language, "bot.options.no_deadline"))
    if options.get("away_mode") == "pause":
        parts.append(t(language, "bot.options.away_pause"))
    if len(kind.definition.ai_levels) > 1:
        parts.append(t(language, "bot.options.ai_level",
                       level=level_text(ai_level(kind, options.get("ai_level")), language)))
    parts.append(t(language, "bot.language." + (options.get("language") or "en")))
    return " · ".join(parts)


def bank_options(options: dict[str, Any], language: str) -> list[str]:
    """The time bank in words: "a time bank of 3 days, +1 day a turn, up to 7 days", and its warning."""
    def minutes(name: str) -> str:
        return duration(int(options.get(name) or 0), language)
    parts = [t(language, "bot.options.bank", initial=minutes("bank_initial_minutes"),
               bonus=minutes("bank_bonus_minutes"), cap=minutes("bank_cap_minutes"))]
    if int(options.get("bank_warning_minutes") or 0):
        parts.append(t(language, "bot.options.bank_warning", value=minutes("bank_warning_minutes")))
    return parts


def level_text(level: str, language: str) -> str:
    return t(language, "bot.level." + level)


def lobby_text(meta: GameMeta, kind: GameKind, host_name: str) -> str:
    lang = meta.language
    levels = len(kind.definition.ai_levels) > 1
    seats = [t(lang, "bot.lobby.ai_seat", name=s.name, level=level_text(ai_level(kind, s.level), lang))
             if s.is_ai and levels else s.name + (" 🤖" if s.is_ai else "") for s in meta.seats]
    d = kind.definition
    lines = [t(lang, "bot.lobby.title_game", game=kind.presenter.title(lang), host=host_name),
             t(lang, "bot.lobby.players", count=len(seats), players=", ".join(seats) or "—"),
             t(lang, "bot.lobby.seats", min=d.min_players, max=d.max_players),
             options_text(kind, meta.options, lang),
             t(lang, "bot.lobby.hint")]
    return "\n".join(lines)


def lobby_buttons(meta: GameMeta, kind: GameKind, codec: PayloadCodec) -> list[list[Button]]:
    """Join and leave; add an AI (one button per level where the game has several); start."""
    lang = meta.language
    levels = kind.definition.ai_levels
    start = button(t(lang, "bot.btn.start"), codec.encode("g", meta.id))
    if len(levels) == 1:
        add_rows = [[button(t(lang, "bot.btn.add_ai"), codec.encode("a", meta.id)), start]]
    else:
        add_rows = [[button(t(lang, "bot.btn.add_ai_level", level=level_text(level, lang)),
                            codec.encode("v", meta.id, i)) for i, level in enumerate(levels)], [start]]
    return [[button(t(lang, "bot.btn.join"), codec.encode("j", meta.id), "join"),
             button(t(lang, "bot.btn.leave"), codec.encode("l", meta.id))], *add_rows]


def lobby_message(meta: GameMeta, kind: GameKind, codec: PayloadCodec, host_name: str, *, mode: str) -> OutRow:
    return group(meta, lobby_text(meta, kind, host_name), buttons=lobby_buttons(meta, kind, codec),
                 slot=lobby_slot(meta), mode=mode)


def lobby_closed(meta: GameMeta, text: str) -> OutRow:
    return group(meta, text, slot=lobby_slot(meta), mode="edit")


def board_button(label: str, codec: PayloadCodec, meta: GameMeta, kind: str = BOARD) -> Button:
    """A button that opens the game's web board: a link made for where the message goes when it
    is delivered (``links.BoardLinks``; none without the board's public address)."""
    return button(label, codec.encode("w", meta.id), kind)


def game_code(meta: GameMeta) -> str:
    """A short code of the game's deal: with the id it names the game across databases too."""
    return b36(meta.seed % 36 ** 4).rjust(4, "0")


BOARD_PICTURE = "board"      # the latest picture of the board, whichever cycle it shows


def picture_name(meta: GameMeta, kind: GameKind, what: str, suffix: str = ".png") -> str:
    """``paris-3-k2x9-round7.png``: unique per game (id and deal code) and picture."""
    return f"{kind.presenter.image_prefix}-{meta.id}-{game_code(meta)}-{what}{suffix}"


def animation_message(meta: GameMeta, kind: GameKind, moves: int) -> OutRow:
    """The whole game as an animation (``animation.py``), drawn when it is sent, in the format the
    game's platform plays: after the final standings, and on request (``/replay``)."""
    lang = meta.language
    title = kind.presenter.title(lang)
    return group(meta, t(lang, "bot.animation.caption", game=title, id=meta.id),
                 render=RenderRequest(ANIMATION, meta.id, moves),
                 image_name=picture_name(meta, kind, "replay", suffix(spec(meta.platform).format)),
                 description=t(lang, "bot.animation.description", game=title),
                 too_large=t(lang, "bot.animation.too_large"))


def started_text(meta: GameMeta, kind: GameKind, match: Match) -> str:
    lang = meta.language
    lines = kind.presenter.started_lines(match.view(None), lang)
    lines.append(options_text(kind, meta.options, lang, timers_off=False))
    return "\n".join(lines)
