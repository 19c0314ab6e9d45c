"""A chat's settings: the bot's own (the clock: reminder and deadline or a time bank; what a person
away gets; language; AI level) and every game's declared options.

Validation, the settings buttons and the words for each option all come from the
declarations (engine/interface.py ``OptionSpec``), so a game that declares an option gets
a button row, a lobby line and a command choice for it without the bot naming it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from typing import Any

from bot.contract import Button, Chat, Refusal, Reply, User
from bot.games import AI_LEVELS, KINDS, GameKind, ai_level
from engine.errors import InvalidOption
from engine.interface import OptionSpec
from i18n import LANGUAGES, t

from ..clock import Clock
from ..game.model import DEFAULT_OPTIONS, LOBBY, PLAYING, Changes
from ..posts import messages as M
from ..refusal import Refused
from ..storage import Storage
from ..storage.store import GameStore
from ..tokens.payloads import Payload, PayloadCodec
from .play import Play

REMINDER_CHOICES = (0, 60, 240, 720)
DEADLINE_CHOICES = (0, 720, 1440, 2880)
CLOCKS = ("deadline", "bank")              # reminder and deadline, or a time bank per seat (bank.py)
AWAY_MODES = ("ai", "pause")               # a person away: the AI plays for them, or their clock stops
# The time bank's buttons (minutes); any value up to MAX_MINUTES may be set by command or default.
BANK_CHOICES = {
    "bank_initial_minutes": (1440, 3 * 1440, 7 * 1440),
    "bank_bonus_minutes": (720, 1440, 2 * 1440),
    "bank_cap_minutes": (3 * 1440, 7 * 1440, 14 * 1440),
    "bank_warning_minutes": (0, 720, 1440),
}
MINUTES = ("reminder_minutes", "deadline_minutes", *BANK_CHOICES)
MAX_MINUTES = 60 * 24 * 14
BOT_SETTINGS = ("reminder_minutes", "deadline_minutes", "language", "ai_level", "clock", *BANK_CHOICES, "away_mode")


def _game_specs() -> dict[str, OptionSpec]:
    """Every game's declared options, by name (the first declaration of a name wins)."""
    specs: dict[str, OptionSpec] = {}
    for kind in KINDS.values():
        for spec in kind.definition.options:
            specs.setdefault(spec.name, spec)
    return specs


# How settings buttons posted before they carried keys numbered the settings (an index into
# this tuple, then an index into the setting's values): a record of payloads already out in
# chats, kept so those buttons still mean what they said. Never reorder or extend it.
LEGACY_NUMBERING = ("reminder_minutes", "deadline_minutes", "language", "final_tours", "ai_level")


def settable() -> tuple[str, ...]:
    """Every setting's name: the bot's own and every game's declared options."""
    return BOT_SETTINGS[:3] + tuple(sorted(_game_specs())) + BOT_SETTINGS[3:]


def _key(text: str, length: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def setting_key(name: str) -> str:
    """A settings button's name for a setting: from its name alone, so it keeps its meaning
    when games add, remove or reorder options."""
    return _key(name, 6)


def value_key(name: str, value: Any) -> str:
    """A settings button's name for one value of a setting, likewise stable."""
    return _key(f"{name}={value!r}", 4)


def setting_payload(codec: PayloadCodec, name: str, value: Any, bind: str) -> str:
    return codec.encode("s", setting_key(name), value_key(name, value), bind=bind)


def _legacy_change(setting: str, value: str) -> dict[str, Any] | None:
    """The change of a button posted with indices (``LEGACY_NUMBERING``)."""
    try:
        name = LEGACY_NUMBERING[int(setting, 36)]
        return {name: values_of(name)[int(value, 36)]}
    except (IndexError, KeyError, ValueError):
        return None


def values_of(name: str) -> tuple[Any, ...]:
    if name == "reminder_minutes":
        return REMINDER_CHOICES
    if name == "deadline_minutes":
        return DEADLINE_CHOICES
    if name == "language":
        return LANGUAGES
    if name == "ai_level":
        return AI_LEVELS
    if name == "clock":
        return CLOCKS
    if name == "away_mode":
        return AWAY_MODES
    if name in BANK_CHOICES:
        return BANK_CHOICES[name]
    return _game_specs()[name].values


def validate(changes: dict[str, Any] | None) -> dict[str, Any]:
    """Checked settings; ``Refused`` (naming the setting and value) for anything else."""
    clean: dict[str, Any] = {}
    specs = _game_specs()
    for key, value in (changes or {}).items():
        shown = str(value)[:40] if isinstance(value, str | int | float | bool) or value is None \
            else type(value).__name__
        if not isinstance(key, str):
            raise Refused(Refusal.BAD_SETTING, key=type(key).__name__, value=shown)
        if key in MINUTES:
            clean[key] = _minutes(key, value, shown)
        elif key in ("language", "ai_level", "clock", "away_mode") and isinstance(value, str) \
                and value in values_of(key):
            clean[key] = value
        elif key in specs:
            try:
                clean[key] = specs[key].parse(value)
            except InvalidOption:
                raise Refused(Refusal.BAD_SETTING, key=key, value=shown) from None
        else:
            raise Refused(Refusal.BAD_SETTING, key=key[:40], value=shown)
    return clean


def _minutes(key: str, value: Any, shown: str) -> int:
    if isinstance(value, bool):
        raise Refused(Refusal.BAD_SETTING, key=key, value=shown)
    if isinstance(value, float) and not math.isfinite(value):
        raise Refused(Refusal.BAD_SETTING, key=key, value=shown)
    try:
        minutes = int(value)
    except (TypeError, ValueError, OverflowError):
        raise Refused(Refusal.BAD_SETTING, key=key, value=shown) from None
    if not 0 <= minutes <= MAX_MINUTES:
        raise Refused(Refusal.BAD_SETTING, key=key, value=shown)
    return minutes


class ChatSettings:
    """A chat's settings, and the options of the game it has under way: shown, and changed."""

    def __init__(self, store: GameStore, codec: PayloadCodec, clock: Clock, play: Play,
                 defaults: dict[str, Any] | None = None) -> None:
        self.store = store
        self.storage: Storage = store.storage
        self.codec = codec
        self.clock = clock
        self.play = play
        self.defaults = dict(DEFAULT_OPTIONS, **checked_defaults(defaults or {}))

    async def show_or_change(self, chat: Chat, user: User, changes: dict[str, Any] | None, lang: str) -> Reply:
        """The chat's settings (its game's options while one is open), after ``changes`` if given:
        stored for the chat, and applied to an open game. A game's own option is locked once it
        has started; the bot's own (the clock, the language) change a running game too."""
        if changes is not None and not isinstance(changes, dict):
            raise Refused(Refusal.BAD_SETTING, key="settings", value=type(changes).__name__)
        loaded = await self.store.chat_game(chat)
        kind = loaded.kind if loaded is not None else None
        stored = await self.storage.chat_settings(chat.platform, chat.id)
        if changes:
            clean = validate(changes)
            if loaded is not None and not loaded.meta.may_manage(user):
                raise Refused(Refusal.NOT_HOST, host=loaded.meta.host_name)
            locked = [] if loaded is None else [
                spec.name for spec in loaded.kind.definition.options
                if spec.name in clean and clean[spec.name] != loaded.meta.options.get(spec.name)]
            if loaded is not None and loaded.meta.status == PLAYING and locked:
                raise Refused(Refusal.OPTION_LOCKED,
                              option=loaded.kind.presenter.option_name_text(locked[0], lang))
            stored = dict(stored, **clean)
            change = Changes(chat_settings=(chat.platform, chat.id, stored))
            if loaded is not None:
                meta = loaded.meta
                declared = {spec.name for spec in loaded.kind.definition.options}
                meta.options.update({k: v for k, v in clean.items() if k in declared or k in BOT_SETTINGS})
                meta.updated = self.clock.now()
                change.meta = meta
                if meta.status == LOBBY:
                    change.outbox.append(M.lobby_message(meta, loaded.kind, self.codec, meta.host_name, mode="edit"))
                elif loaded.match is not None and not loaded.match.is_terminal():
                    armed = await self.play.timers(loaded, meta.turn)
                    change.turn, change.timers = armed.turn, armed.timers
            await self.store.commit(change, forget=loaded.meta.id if loaded else None)
            lang = clean.get("language") or lang
        options = loaded.meta.options if loaded is not None else dict(self.defaults, **stored)
        text = t(lang, "bot.reply.settings", options=self.text(kind, options, lang))
        if changes:
            text = t(lang, "bot.reply.settings_saved") + "\n" + text
        return Reply(text, buttons=self.buttons(chat, kind, options, lang))

    async def chat_options(self, chat: Chat) -> dict[str, Any]:
        return dict(self.defaults, **(await self.storage.chat_settings(chat.platform, chat.id)))

    @staticmethod
    def game_options(kind: GameKind, chat_options: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
        """A new game's options: the chat's, only the game's own declared ones, then ``extra``."""
        declared = {spec.name for spec in kind.definition.options}
        unknown = [k for k in extra if k not in declared and k not in BOT_SETTINGS]
        if unknown:
            raise Refused(Refusal.BAD_SETTING, key=str(unknown[0])[:40], value=str(extra[unknown[0]])[:40])
        opts = {k: v for k, v in chat_options.items() if k in BOT_SETTINGS}
        for spec in kind.definition.options:
            value = chat_options.get(spec.name, spec.default)
            opts[spec.name] = value if value in spec.values else spec.default
        opts.update(validate(extra))
        return opts

    @staticmethod
    def game_names(language: str) -> list[str]:
        return [f"{g.presenter.title(language)} ({g.id})" for g in KINDS.values()]

    def text(self, kind: GameKind | None, options: dict[str, Any], lang: str) -> str:
        if kind is not None:
            return M.options_text(kind, options, lang)
        return "\n".join(M.options_text(g, options, lang) for g in KINDS.values())

    def buttons(self, chat: Chat, kind: GameKind | None, options: dict[str, Any],
                lang: str) -> tuple[tuple[Button, ...], ...]:
        """A row per setting (the current game's options, or every game's outside a game)."""
        bind = f"{chat.platform}:{chat.id}"
        games = [kind] if kind is not None else list(KINDS.values())
        rows = []
        for g in games:
            for spec in g.definition.options:
                # Only the values it can switch to: a button for the current one would do nothing.
                current = options.get(spec.name, spec.default)
                label = g.presenter.option_name_text(spec.name, lang)
                row = [M.button(f"{label}: {g.presenter.option_value_text(spec.name, v, lang)}",
                                setting_payload(self.codec, spec.name, v, bind))
                       for v in spec.values if v != current]
                if row:
                    rows.append(row)
        levels = [lv for lv in AI_LEVELS if any(lv in g.definition.ai_levels for g in games)]
        current = ai_level(kind, options.get("ai_level")) if kind is not None else options.get("ai_level")
        row = [M.button(t(lang, "bot.btn.ai_level", level=M.level_text(level, lang)),
                        setting_payload(self.codec, "ai_level", level, bind))
               for level in levels if level != current]
        if len(levels) > 1 and row:
            rows.append(row)
        rows.append([M.button(t(lang, "bot.language." + code),
                              setting_payload(self.codec, "language", code, bind))
                     for code in LANGUAGES])
        rows += self._clock_rows(bind, options, lang)
        return M.to_buttons(rows)

    def _clock_rows(self, bind: str, options: dict[str, Any], lang: str) -> list[list[Button]]:
        """The clock's rows: which clock, then that clock's own settings (reminder and deadline,
        or the bank's), then what a person away gets."""
        def row(name: str, label: str, values: Iterable[int]) -> list[Button]:
            return [M.button(t(lang, label, value=M.duration(m, lang)), setting_payload(self.codec, name, m, bind))
                    for m in values]
        bank = options.get("clock") == "bank"
        rows = [[M.button(t(lang, "bot.btn.clock_bank" if clock == "bank" else "bot.btn.clock_deadline"),
                          setting_payload(self.codec, "clock", clock, bind))
                 for clock in CLOCKS if (clock == "bank") != bank]]
        if bank:
            labels = {"bank_initial_minutes": "bot.btn.bank_initial", "bank_bonus_minutes": "bot.btn.bank_bonus",
                      "bank_cap_minutes": "bot.btn.bank_cap", "bank_warning_minutes": "bot.btn.bank_warning"}
            # Only the values it can switch to (as the games' options): Discord shows 25 buttons at most.
            rows += [row(name, labels[name], [m for m in values if m != options.get(name)])
                     for name, values in BANK_CHOICES.items()]
        else:
            rows.append(row("reminder_minutes", "bot.btn.reminder", REMINDER_CHOICES))
            rows.append(row("deadline_minutes", "bot.btn.deadline", DEADLINE_CHOICES))
        pauses = options.get("away_mode") == "pause"
        rows.append([M.button(t(lang, "bot.btn.away_ai" if pauses else "bot.btn.away_pause"),
                              setting_payload(self.codec, "away_mode", "ai" if pauses else "pause", bind))])
        return rows

    @staticmethod
    def change_of(p: Payload) -> dict[str, Any] | None:
        """The change a settings button stands for; None for a button of no setting (one
        that a game no longer declares)."""
        setting, value = p.fields
        if len(setting) == 1:           # posted before buttons carried keys
            return _legacy_change(setting, value)
        for name in settable():
            if setting_key(name) == setting:
                return next(({name: v} for v in values_of(name) if value_key(name, v) == value), None)
        return None


def checked_defaults(defaults: dict[str, Any]) -> dict[str, Any]:
    """Operator defaults checked like a chat's settings; a bad value stops start-up with a clear error."""
    given = {k: v for k, v in defaults.items() if v not in (None, "")}
    try:
        return validate(given)
    except Refused as exc:
        raise ValueError(f"bad default for {exc.params.get('key')}: {exc.params.get('value')!r}") from None
