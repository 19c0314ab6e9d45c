"""The /boardchat slash-command group (bot/product.py): each subcommand is one service call.

Command and option names stay English (Discord requires stable names); descriptions
and choice names are translated for German, Italian and French clients from
``i18n/locales/<lang>/LC_MESSAGES/discord.po`` through ``CatalogTranslator``.
The games' own options (engine/interface.py ``OptionSpec``) become parameters of
/boardchat new and /boardchat settings from the registry, worded by each game's presenter.
"""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.games import AI_LEVELS, KINDS, GameKind
from bot.product import DISCORD_GROUP, OLD_DISCORD_GROUP
from i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog

from .texts import MAX_NAME, fit

if TYPE_CHECKING:
    from .app import BoardchatBot

KEY_PREFIX = "discord."


def L(text: str, key: str) -> locale_str:  # noqa: N802 - reads like the gettext "_"
    """An English text that Discord shows translated where ``discord.<key>`` exists."""
    return locale_str(text, key=key)


def game_words(kind: GameKind, option: str, value: Any = None) -> locale_str:
    """A game option's name (or one of its values' names) in the game's own words, which
    ``CatalogTranslator`` asks the game's presenter for in other languages."""
    words = functools.partial(_option_words, kind, option, value)
    return locale_str(words(DEFAULT_LANGUAGE), words=words)


def _option_words(kind: GameKind, option: str, value: Any, language: str) -> str:
    if value is None:
        return kind.presenter.option_name_text(option, language)
    return kind.presenter.option_value_text(option, value, language)


class CatalogTranslator(app_commands.Translator):
    """Serves command descriptions and choice names from the message catalogs."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        language = locale.value.split("-")[0]
        if language == DEFAULT_LANGUAGE or language not in LANGUAGES:
            return None
        words = string.extras.get("words")
        if words is not None:
            return fit(words(language), MAX_NAME)
        key = string.extras.get("key")
        message = catalog(language).get(KEY_PREFIX + key) if key else None
        if message is None or not message.text:
            return None
        return fit(message.text, MAX_NAME)


LANGUAGE_CHOICES = [
    Choice(name="English", value="en"),
    Choice(name="Deutsch", value="de"),
    Choice(name="Italiano", value="it"),
    Choice(name="Français", value="fr"),
]
REMINDER_CHOICES = [
    Choice(name=L("Off", "choice.off"), value=0),
    Choice(name=L("15 minutes", "choice.15m"), value=15),
    Choice(name=L("1 hour", "choice.1h"), value=60),
    Choice(name=L("4 hours", "choice.4h"), value=240),
    Choice(name=L("12 hours", "choice.12h"), value=720),
    Choice(name=L("1 day", "choice.1d"), value=1440),
]
DEADLINE_CHOICES = [
    Choice(name=L("Off", "choice.off"), value=0),
    Choice(name=L("1 hour", "choice.1h"), value=60),
    Choice(name=L("12 hours", "choice.12h"), value=720),
    Choice(name=L("1 day", "choice.1d"), value=1440),
    Choice(name=L("2 days", "choice.2d"), value=2880),
    Choice(name=L("3 days", "choice.3d"), value=4320),
    Choice(name=L("1 week", "choice.7d"), value=10080),
]

# The games the bot hosts, from the registry (names are the games' own: not translated).
GAME_CHOICES = [Choice(name=kind.definition.name, value=kind.id) for kind in KINDS.values()]
# Every game's AI levels, each labelled by "discord.level.<level>" (a game lacking one plays its normal level).
LEVEL_CHOICES = [Choice(name=L(level, f"level.{level}"), value=level) for level in AI_LEVELS]

# The bot's own settings, as command parameters.
BOT_DESCRIPTIONS = {
    "language": L("Language of the game's messages and map", "opt.language"),
    "reminder": L("Remind the player to move after", "opt.reminder"),
    "deadline": L("Hand the turn to the AI after", "opt.deadline"),
}
BOT_CHOICES = {"language": LANGUAGE_CHOICES, "reminder": REMINDER_CHOICES, "deadline": DEADLINE_CHOICES}
BOT_PARAMETERS = {"language": str, "reminder": int, "deadline": int}
BOT_CHANGES = {"language": "language", "reminder": "reminder_minutes", "deadline": "deadline_minutes"}


def game_options() -> dict[str, tuple[GameKind, Any]]:
    """Every option a game declares, by name, with the first game declaring it (its words)."""
    found: dict[str, tuple[GameKind, Any]] = {}
    for kind in KINDS.values():
        for spec in kind.definition.options:
            if spec.name not in BOT_PARAMETERS and spec.name not in ("game", "thread"):
                found.setdefault(spec.name, (kind, spec))
    return found


def setting_changes(given: dict[str, Any]) -> dict:
    """The service's ``options``/``changes`` dict for the parameters a user filled in."""
    return {BOT_CHANGES.get(name, name): value for name, value in given.items() if value is not None}


def with_settings(command):
    """Give ``command`` (``async def command(self, interaction, <own parameters>, **settings)``)
    one optional parameter per bot setting and per game option, with descriptions and
    choices: the games' declarations decide which exist, so no game is named here."""
    options = game_options()
    signature = inspect.signature(command)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=value_type | None)
             for name, value_type in BOT_PARAMETERS.items()]
    added += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None)
              for name in options]
    command.__signature__ = signature.replace(parameters=[*own, *added])
    descriptions = dict(BOT_DESCRIPTIONS)
    choices = dict(BOT_CHOICES)
    for name, (kind, spec) in options.items():
        descriptions[name] = game_words(kind, name)
        choices[name] = [Choice(name=game_words(kind, name, value), value=str(value)) for value in spec.values]
    return app_commands.choices(**choices)(app_commands.describe(**descriptions)(command))


GROUP_DESCRIPTIONS = {
    DISCORD_GROUP: L("Play board games with friends and AI players", "cmd.group"),
    OLD_DISCORD_GROUP: L("The same commands under their old name", "cmd.old_group"),
}


class BoardchatGroup(app_commands.Group):
    """/boardchat ...: thin wrappers that hand each command to ``BoardchatBot.answer``. The same
    group under its old name (/paris) answers deployments that had it (``BoardchatBot.sync_commands``)."""

    def __init__(self, bot: BoardchatBot, name: str = DISCORD_GROUP) -> None:
        super().__init__(name=name, description=GROUP_DESCRIPTIONS[name])
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    # ---------------------------------------------------------------- lobby

    @app_commands.command(name="new", description=L("Open a new game in this channel", "cmd.new"))
    @app_commands.describe(game=L("Which game to play", "opt.game"), thread=L("Open a thread for the game", "opt.thread"))
    @app_commands.choices(game=GAME_CHOICES)
    @with_settings
    async def new(self, interaction: discord.Interaction, game: str | None = None, thread: bool = False,
                  **settings: Any) -> None:
        options = setting_changes(settings)
        if game is not None:
            options["game"] = game
        await self.bot.new_game(interaction, thread=thread, options=options or None)

    @app_commands.command(name="join", description=L("Take a seat in this channel's game", "cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.join(chat, user))

    @app_commands.command(name="leave", description=L("Leave the lobby (in a running game: the AI takes your seat)", "cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.leave(chat, user))

    @app_commands.command(name="addbot", description=L("Add an AI player to the lobby", "cmd.addbot"))
    @app_commands.describe(level=L("How well it plays (empty: the channel's AI level)", "opt.level"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.add_ai(chat, user, level))

    @app_commands.command(name="start", description=L("Start the game (host)", "cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.start(chat, user))

    @app_commands.command(name="abort", description=L("End this channel's game (host or Manage Channels)", "cmd.abort"))
    async def abort(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.abort(chat, user))

    @app_commands.command(
        name="handover",
        description=L("Give a seat to the AI: yours, or another player's (host or Manage Channels)", "cmd.handover"),
    )
    @app_commands.describe(player=L("The player whose seat the AI takes (empty: your own)", "opt.player"))
    async def handover(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        target = str(player.id) if player is not None else None
        await self.bot.answer(interaction, lambda chat, user: self.service.hand_to_ai(chat, user, target))

    @app_commands.command(name="settings", description=L("Show or change this channel's game settings", "cmd.settings"))
    @with_settings
    async def settings(self, interaction: discord.Interaction, **settings: Any) -> None:
        changes = setting_changes(settings) or None
        await self.bot.answer(interaction, lambda chat, user: self.service.settings(chat, user, changes))

    # ----------------------------------------------------------------- play

    @app_commands.command(name="board", description=L("Show the game's board and scores", "cmd.board"))
    @app_commands.describe(public=L("Show it to everyone in the channel", "opt.public"))
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.board(chat, user), public=public)

    @app_commands.command(name="secret", description=L("See what your game keeps secret (only you)", "cmd.secret"))
    async def secret(self, interaction: discord.Interaction) -> None:
        await self._show_secret(interaction)

    async def _show_secret(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, lambda chat, user: self.service.secret(user, chat), needs_chat=False
        )

    # The older name of /paris secret, kept so that players' habits and posted help still work.
    @app_commands.command(name="marker", description=L("See what your game keeps secret (only you)", "cmd.secret"))
    async def marker(self, interaction: discord.Interaction) -> None:
        await self._show_secret(interaction)

    @app_commands.command(name="stats", description=L("Results and records in this channel", "cmd.stats"))
    @app_commands.describe(game=L("Only this game (empty: each game played here)", "opt.stats_game"),
                           public=L("Show it to everyone in the channel", "opt.public"))
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(self, interaction: discord.Interaction, game: str | None = None, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.stats(chat, user, game), public=public)

    @app_commands.command(name="rating", description=L("Your rating in each game and the leaderboards",
                                                       "cmd.rating"))
    @app_commands.describe(game=L("Only this game (empty: every game)", "opt.rating_game"),
                           public=L("Show it to everyone in the channel", "opt.public"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rating(self, interaction: discord.Interaction, game: str | None = None, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.rating(chat, user, game), public=public)

    @app_commands.command(name="mygames", description=L("Your unfinished games in every channel (only you)",
                                                         "cmd.mygames"))
    async def mygames(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.my_games(user, link=self.bot.message_link),
                              needs_chat=False)

    @app_commands.command(name="next", description=L("The game that has waited for you longest (only you)",
                                                      "cmd.next"))
    async def next(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.next_game(user, link=self.bot.message_link),
                              needs_chat=False)

    @app_commands.command(name="away", description=L("Away for a while: the AI plays for you, or your clock stops",
                                                     "cmd.away"))
    @app_commands.describe(duration=L("How long: 5d, 12h or 90m; off when you are back (empty: are you away?)",
                                      "opt.away_duration"))
    async def away(self, interaction: discord.Interaction, duration: str | None = None) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.away(user, duration, chat),
                              needs_chat=False)

    @app_commands.command(name="record", description=L("The record of this channel's last finished game (JSON file)",
                                                       "cmd.record"))
    @app_commands.describe(public=L("Show it to everyone in the channel", "opt.public"))
    async def record(self, interaction: discord.Interaction, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.record_file(chat, user), public=public)

    @app_commands.command(name="replay", description=L("This channel's last finished game as an animation",
                                                       "cmd.replay"))
    async def replay(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.replay(chat, user))

    @app_commands.command(name="rules", description=L("The rules of this channel's game in short", "cmd.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, lambda chat, user: self.service.rules(chat, user), needs_chat=False
        )

    @app_commands.command(name="help", description=L("How to play with this bot", "cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, self.bot.help_reply, needs_chat=False)
