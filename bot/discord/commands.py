"""The /paris slash-command group: each subcommand is one service call.

Command and option names stay English (Discord requires stable names); descriptions
and choice names are translated for German, Italian and French clients from
``renderers/locales/<lang>/LC_MESSAGES/discord.po`` through ``CatalogTranslator``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.games import AI_LEVELS, KINDS
from renderers.i18n import LANGUAGES, catalog

if TYPE_CHECKING:
    from .app import ParisBot

KEY_PREFIX = "discord."


def L(text: str, key: str) -> locale_str:  # noqa: N802 - reads like the gettext "_"
    """An English text that Discord shows translated where ``discord.<key>`` exists."""
    return locale_str(text, key=key)


class CatalogTranslator(app_commands.Translator):
    """Serves command descriptions and choice names from the message catalogs."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        key = string.extras.get("key")
        language = locale.value.split("-")[0]
        if not key or language == "en" or language not in LANGUAGES:
            return None
        message = catalog(language).get(KEY_PREFIX + key)
        if message is None or not message.text:
            return None
        return message.text[:100]   # Discord's limit for descriptions and choice names


LANGUAGE_CHOICES = [
    Choice(name="English", value="en"),
    Choice(name="Deutsch", value="de"),
    Choice(name="Italiano", value="it"),
    Choice(name="Français", value="fr"),
]
# A declared game option's values (engine/interface.py OptionSpec), each labelled by its catalog
# entry "discord.option.<name>.<value>": the choices follow the games' declarations.
_OPTION_SPECS = {spec.name: spec for game in KINDS.values() for spec in game.definition.options}
FINAL_TOURS_CHOICES = [Choice(name=L(str(value), f"option.final_tours.{value}"), value=str(value))
                       for value in _OPTION_SPECS["final_tours"].values]
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
GAME_CHOICES = [Choice(name=game.definition.name, value=game.id) for game in KINDS.values()]
# Every game's AI levels, each labelled by "discord.level.<level>" (a game lacking one plays its normal level).
LEVEL_CHOICES = [Choice(name=L(level, f"level.{level}"), value=level) for level in AI_LEVELS]

SETTING_DESCRIPTIONS = {
    "language": L("Language of the game's messages and map", "opt.language"),
    "final_tours": L("Which lines run at the end of the game", "opt.final_tours"),
    "reminder": L("Remind the player to move after", "opt.reminder"),
    "deadline": L("Hand the turn to the AI after", "opt.deadline"),
}
SETTING_CHOICES = {
    "language": LANGUAGE_CHOICES,
    "final_tours": FINAL_TOURS_CHOICES,
    "reminder": REMINDER_CHOICES,
    "deadline": DEADLINE_CHOICES,
}


def setting_changes(
    language: str | None, final_tours: str | None, reminder: int | None, deadline: int | None
) -> dict:
    """The service's ``options``/``changes`` dict for the options a user filled in."""
    changes: dict = {}
    if language is not None:
        changes["language"] = language
    if final_tours is not None:
        changes["final_tours"] = final_tours
    if reminder is not None:
        changes["reminder_minutes"] = reminder
    if deadline is not None:
        changes["deadline_minutes"] = deadline
    return changes


class ParisGroup(app_commands.Group):
    """/paris ...: thin wrappers that hand each command to ``ParisBot.answer``."""

    def __init__(self, bot: ParisBot) -> None:
        super().__init__(name="paris", description=L("Play Paris Paris, the board game", "cmd.paris"))
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    # ---------------------------------------------------------------- lobby

    @app_commands.command(name="new", description=L("Open a new game in this channel", "cmd.new"))
    @app_commands.describe(game=L("Which game to play", "opt.game"),
                           thread=L("Open a thread for the game", "opt.thread"), **SETTING_DESCRIPTIONS)
    @app_commands.choices(game=GAME_CHOICES, **SETTING_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        thread: bool = False,
        language: str | None = None,
        final_tours: str | None = None,
        reminder: int | None = None,
        deadline: int | None = None,
    ) -> None:
        options = setting_changes(language, final_tours, reminder, deadline)
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
    @app_commands.describe(**SETTING_DESCRIPTIONS)
    @app_commands.choices(**SETTING_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        final_tours: str | None = None,
        reminder: int | None = None,
        deadline: int | None = None,
    ) -> None:
        changes = setting_changes(language, final_tours, reminder, deadline) or None
        await self.bot.answer(interaction, lambda chat, user: self.service.settings(chat, user, changes))

    # ----------------------------------------------------------------- play

    @app_commands.command(name="board", description=L("Show the map, scores and tiles on offer", "cmd.board"))
    @app_commands.describe(public=L("Show it to everyone in the channel", "opt.public"))
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.board(chat, user), public=public)

    @app_commands.command(name="secret", description=L("See what your game keeps secret (only you)", "cmd.secret"))
    async def secret(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, lambda chat, user: self.service.secret(user, chat), needs_chat=False
        )

    # The older name of /paris secret, kept so that players' habits and posted help still work.
    @app_commands.command(name="marker", description=L("See what your game keeps secret (only you)", "cmd.secret"))
    async def marker(self, interaction: discord.Interaction) -> None:
        await self.secret.callback(self, interaction)

    @app_commands.command(name="stats", description=L("Results and records in this channel", "cmd.stats"))
    @app_commands.describe(public=L("Show it to everyone in the channel", "opt.public"))
    async def stats(self, interaction: discord.Interaction, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.stats(chat, user), public=public)

    @app_commands.command(name="record", description=L("The record of this channel's last finished game (JSON file)",
                                                       "cmd.record"))
    @app_commands.describe(public=L("Show it to everyone in the channel", "opt.public"))
    async def record(self, interaction: discord.Interaction, public: bool = False) -> None:
        await self.bot.answer(interaction, lambda chat, user: self.service.record_file(chat, user), public=public)

    @app_commands.command(name="rules", description=L("The rules of Paris Paris in short", "cmd.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(
            interaction, lambda chat, user: self.service.rules(chat, user), needs_chat=False
        )

    @app_commands.command(name="help", description=L("How to play with this bot", "cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        await self.bot.answer(interaction, self.bot.help_reply, needs_chat=False)
