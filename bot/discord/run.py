"""Starting the Discord bot: settings, the game service, the gateway connection.

``boardchat discord`` calls ``run_discord()``. Settings come from the environment or
``.env`` (see ``.env.example``): DISCORD_BOT_TOKEN (required), DISCORD_DEV_GUILD_ID
(optional: sync the slash commands to that one server, instantly; without it they sync
globally) and BOARDCHAT_DB (the SQLite file, shared with the other adapters) or
BOARDCHAT_DATABASE_URL (PostgreSQL, for several processes).

Several processes: BOARDCHAT_DISCORD_SHARD_COUNT (the bot's total number of shards) and
BOARDCHAT_DISCORD_SHARD_IDS (this process's shards, e.g. ``0,1``; default all) make the
bot an ``AutoShardedBot`` connecting only those shards; without them it is one connection,
as before. Any process may deliver any message (sending uses Discord's REST API), and only
the process holding shard 0 syncs the slash commands.

With BOARDCHAT_WEB_URL set the web board (``bot.web``) is served in the same process, and the
bot's messages carry links to it (docs/web.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.config import (
    ConfigError,
    Settings,
    database_target,
    metrics_setting,
    senders_setting,
    settings,
    web_settings,
)
from bot.outage import Outage
from bot.product import COMMAND, env_name

SHARD_COUNT, SHARD_IDS = env_name("DISCORD_SHARD_COUNT"), env_name("DISCORD_SHARD_IDS")
REACH_FIRST_DELAY = 1.0      # seconds before the first retry when Discord cannot be reached
REACH_MAX_DELAY = 60.0       # ... doubling up to this

if TYPE_CHECKING:
    from bot.web.ops import OpsServer
    from bot.web.server import WebBoard, WebSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    token: str
    dev_guild_id: int | None
    db_path: str
    shard_count: int | None = None               # None: one connection, no sharding
    shard_ids: tuple[int, ...] | None = None     # this process's shards (None: all of them)
    instance: str | None = None                  # BOARDCHAT_INSTANCE: this process's name
    senders: int = 1                             # BOARDCHAT_SENDERS: processes sending for this bot
    web: WebSettings | None = None               # BOARDCHAT_WEB_*: the web board, served when its address is set
    metrics: bool = False                        # BOARDCHAT_METRICS: /metrics served (with the board, or alone)

    @classmethod
    def from_settings(cls, source: Settings | None = None) -> DiscordConfig:
        source = source or settings()
        return cls(
            token=source.require("DISCORD_BOT_TOKEN"),
            dev_guild_id=source.get_int("DISCORD_DEV_GUILD_ID"),
            # A PostgreSQL URL when several processes share one database, else the SQLite file.
            db_path=database_target(source),
            **_shards(source), instance=source.get(env_name("INSTANCE")), senders=senders_setting(source),
            web=web_settings(source), metrics=metrics_setting(source),
        )

    @property
    def syncs_commands(self) -> bool:
        """Only one process syncs the slash commands: the one holding shard 0."""
        return self.shard_ids is None or 0 in self.shard_ids


def _shards(source: Settings) -> dict:
    count = source.get_int(SHARD_COUNT)
    ids_text = source.get(SHARD_IDS)
    if count is None:
        if ids_text is not None:
            raise ConfigError(f"{SHARD_IDS} needs {SHARD_COUNT} (the total)")
        return {}
    if count < 1:
        raise ConfigError(f"{SHARD_COUNT} must be at least 1, not {count}")
    if ids_text is None:
        return {"shard_count": count}
    try:
        ids = tuple(sorted({int(part) for part in ids_text.replace(" ", "").split(",") if part}))
    except ValueError:
        raise ConfigError(f"{SHARD_IDS} must be shard numbers like 0,1, not {ids_text!r}") from None
    if not ids or any(not 0 <= i < count for i in ids):
        raise ConfigError(f"{SHARD_IDS} {ids_text!r} must name shards 0 to {count - 1}")
    return {"shard_count": count, "shard_ids": ids}


def make_bot(service, config: DiscordConfig):
    """The bot for ``config``: sharded (only this process's shards) when a shard count is set."""
    from .app import BoardchatBot, ShardedBoardchatBot

    if config.shard_count is None:
        return BoardchatBot(service, dev_guild_id=config.dev_guild_id)
    return ShardedBoardchatBot(service, dev_guild_id=config.dev_guild_id, sync=config.syncs_commands,
                           shard_count=config.shard_count,
                           shard_ids=list(config.shard_ids) if config.shard_ids is not None else None)


async def serve(config: DiscordConfig) -> None:
    """Open the service, connect to Discord and run until the connection closes. While Discord
    cannot be reached (a bot started before the network), a retry after 1, 2, 4 ... at most
    60 s, told in the log once, every few minutes while it lasts, and when Discord answers
    (``Outage``)."""
    import aiohttp

    from bot.config import (
        ai_seconds,
        drawing_processes_setting,
        game_defaults,
        live_matches_setting,
        ops_address,
        service_metrics,
    )
    from bot.service import GameService

    service = await GameService.open(config.db_path, platforms=("discord",), defaults=game_defaults(),
                                     metrics=service_metrics(),
                                     ai_seconds=ai_seconds(), owner=config.instance, send_share=1 / config.senders,
                                     drawing_processes=drawing_processes_setting(), live_matches=live_matches_setting(),
                                     web_url=config.web.public_url if config.web else None)
    board: WebBoard | OpsServer | None = None     # what serves HTTP beside the bot, stopped with it
    if config.web is not None:
        from bot.web.server import serve_board

        board = await serve_board(service, config.web)
    elif config.metrics:
        from bot.web.ops import serve_ops

        board = await serve_ops(service, *ops_address())
    # SIGTERM (systemd, docker stop) ends the bot as cleanly as Ctrl+C does.
    main = asyncio.current_task()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
        if main is not None:            # always, in a coroutine that asyncio runs
            loop.add_signal_handler(signal.SIGTERM, main.cancel)
    delay = REACH_FIRST_DELAY
    outage = Outage(log, "Discord")
    # discord.py says "logging in using static token" at every attempt: only its warnings matter here
    logging.getLogger("discord.client").setLevel(logging.WARNING)
    try:
        while True:
            bot = make_bot(service, config)
            try:
                async with bot:
                    told = asyncio.create_task(_tell_when_ready(bot, outage))
                    try:
                        await bot.start(config.token)
                    finally:
                        told.cancel()
                return
            except (aiohttp.ClientConnectionError, OSError) as error:
                if bot.is_ready():           # it was up: the network went away, start afresh
                    delay = REACH_FIRST_DELAY
                outage.failed(error)
            await asyncio.sleep(delay)
            delay = min(delay * 2, REACH_MAX_DELAY)
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)
        if board is not None:
            await board.stop()
        await service.close()


async def _tell_when_ready(bot, outage: Outage) -> None:
    await bot.wait_until_ready()
    outage.reached()


def run_discord(config: DiscordConfig | None = None) -> int:
    """Run the Discord bot in the foreground (Ctrl+C stops it); returns an exit code."""
    try:
        config = config or DiscordConfig.from_settings()
    except ConfigError as error:
        print(f"{COMMAND} discord: {error}")
        return 2
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import discord

    try:
        asyncio.run(serve(config))
    except (KeyboardInterrupt, asyncio.CancelledError):
        log.info("stopped")
    except discord.LoginFailure:
        print(f"{COMMAND} discord: Discord rejected DISCORD_BOT_TOKEN (reset it in the Developer Portal, Bot tab)")
        return 1
    except discord.PrivilegedIntentsRequired as error:
        print(f"{COMMAND} discord: {error}")
        return 1
    return 0
