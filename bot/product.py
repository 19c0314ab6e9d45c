"""The product's names, in one place: the bot hosts several games, so none of them is its name.

Earlier versions were called after their first game (Paris Paris); the ``OLD_*`` names are still
answered so that existing deployments keep working: the ``paris-paris`` command, the
``PARIS_PARIS_*`` variables (bot/config.py), the data folder and the bots' SQLite file
(bot/config.py, bot/terminal/paths.py) and the ``/paris`` Discord command group
(bot/discord/app.py).
"""

from __future__ import annotations

NAME = "Boardchat"                     # what users read (README title, help texts)
COMMAND = "boardchat"                  # the console script
DISTRIBUTION = "boardchat"             # the package on the package index (pyproject.toml)
ENV_PREFIX = "BOARDCHAT_"              # every setting of our own: BOARDCHAT_DB, BOARDCHAT_LANGUAGE, ...
DATA_FOLDER = "boardchat"              # the per-user data folder of terminal games
DEFAULT_DB = "boardchat.sqlite3"       # the chat bots' SQLite file when none is configured
MAPS_FOLDER = "boardchat-maps"         # where terminal games write their map pictures
DISCORD_GROUP = "boardchat"            # the slash-command group: /boardchat new, /boardchat join, ...

OLD_COMMAND = "paris-paris"
OLD_ENV_PREFIX = "PARIS_PARIS_"
OLD_DATA_FOLDER = "paris-paris"
OLD_DEFAULT_DB = "paris-paris.sqlite3"
OLD_DISCORD_GROUP = "paris"


def env_name(suffix: str) -> str:
    """The variable of a setting: ``env_name("DB")`` is ``BOARDCHAT_DB``."""
    return ENV_PREFIX + suffix


def env_names(name: str) -> tuple[str, ...]:
    """The names to look up for a variable, the new one first: ``BOARDCHAT_DB`` and ``PARIS_PARIS_DB``
    for either of them (so code still asking by an old name reads the new one too); others as they are."""
    if name.startswith(ENV_PREFIX):
        return name, OLD_ENV_PREFIX + name[len(ENV_PREFIX):]
    if name.startswith(OLD_ENV_PREFIX):
        return ENV_PREFIX + name[len(OLD_ENV_PREFIX):], name
    return (name,)
