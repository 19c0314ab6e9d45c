"""The schema, step by step, for both backends.

Each step upgrades a database from version i to i + 1, in one transaction. Never edit a
released step; append a new one. Types that differ between the backends are named in braces
(``Dialect.ddl``: ``{bigint}`` is SQLite's INTEGER and PostgreSQL's BIGINT, ``{double}`` REAL
or DOUBLE PRECISION, ``{identity}`` a key the database numbers, ``{blob}`` bytes,
``{without_rowid}`` SQLite's clustered tables); SQLite keeps each CREATE statement's text as
written, so a released step's layout stays as it is too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .ratings import rate_stored_games
from .sql import Dialect, Step


def game_id_counter(dialect: Dialect) -> Sequence[str]:
    """Game ids from a counter (SQLite: a row of ``meta``; PostgreSQL: a sequence), starting
    above the stored games."""
    return dialect.create_game_ids


def kept_packed(table: str, column: str) -> Callable[[Dialect], Sequence[str]]:
    """``table.column`` holds bytes compressed already: out of line and not compressed again
    (``Dialect.keep_packed``; nothing to say in SQLite)."""
    def statements(dialect: Dialect) -> Sequence[str]:
        return [sql.format(table=table, column=column) for sql in dialect.keep_packed]
    return statements


STEPS: list[Step] = [
    Step(  # 1: games, moves, outbox, timers
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        """CREATE TABLE games (
            id {bigint} PRIMARY KEY, platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            chat_title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL, host_id TEXT NOT NULL,
            options TEXT NOT NULL, seed {bigint} NOT NULL, seats TEXT NOT NULL, setup TEXT,
            moves INTEGER NOT NULL DEFAULT 0, created {double} NOT NULL, updated {double} NOT NULL)""",
        """CREATE UNIQUE INDEX games_active_chat ON games(platform, chat_id)
            WHERE status IN ('lobby', 'playing')""",
        """CREATE TABLE moves (
            game_id {bigint} NOT NULL, n INTEGER NOT NULL, pick TEXT NOT NULL, seat INTEGER NOT NULL,
            actor TEXT NOT NULL, at {double} NOT NULL, PRIMARY KEY (game_id, n)){without_rowid}""",
        """CREATE TABLE outbox (
            id {identity} PRIMARY KEY, game_id {bigint}, platform TEXT NOT NULL, dest TEXT NOT NULL,
            state TEXT NOT NULL, body TEXT NOT NULL, slot TEXT, mode TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, due {double} NOT NULL, message_id TEXT,
            created {double} NOT NULL, sent_at {double}, error TEXT)""",
        """CREATE INDEX outbox_unsent ON outbox(platform, id) WHERE state IN ('pending', 'sending')""",
        """CREATE INDEX outbox_slot ON outbox(platform, slot, id) WHERE slot IS NOT NULL""",
        """CREATE TABLE slots (platform TEXT NOT NULL, slot TEXT NOT NULL, message_id TEXT NOT NULL,
            PRIMARY KEY (platform, slot)){without_rowid}""",
        """CREATE TABLE timers (game_id {bigint} NOT NULL, kind TEXT NOT NULL, due {double} NOT NULL,
            move INTEGER NOT NULL, PRIMARY KEY (game_id, kind)){without_rowid}""",
        """CREATE INDEX timers_due ON timers(due)""",
    ),
    Step(  # 2: results for stats, per-chat settings, held private messages by user
        """CREATE TABLE results (
            game_id {bigint} NOT NULL, seat INTEGER NOT NULL, platform TEXT NOT NULL,
            chat_id TEXT NOT NULL, user_id TEXT, name TEXT NOT NULL, is_ai INTEGER NOT NULL,
            points INTEGER NOT NULL, won INTEGER NOT NULL, ended {double} NOT NULL,
            PRIMARY KEY (game_id, seat))""",
        """CREATE INDEX results_chat ON results(platform, chat_id)""",
        """CREATE INDEX results_user ON results(platform, user_id)""",
        """CREATE TABLE chat_settings (platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            settings TEXT NOT NULL, PRIMARY KEY (platform, chat_id)){without_rowid}""",
        """CREATE INDEX outbox_held ON outbox(platform, dest) WHERE state = 'held'""",
    ),
    Step(  # 3: per-game bookkeeping (players without a private chat, reminders sent)
        """ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '{{}}'""",
    ),
    Step(  # 4: game kinds, optimistic versions, leases, game ids from a counter
        """ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'paris-paris'""",
        """ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE results ADD COLUMN game TEXT NOT NULL DEFAULT 'paris-paris'""",
        """ALTER TABLE outbox ADD COLUMN owner TEXT""",
        """ALTER TABLE outbox ADD COLUMN lease {double}""",
        """ALTER TABLE timers ADD COLUMN owner TEXT""",
        """ALTER TABLE timers ADD COLUMN lease {double}""",
        """CREATE INDEX outbox_dest ON outbox(platform, dest, id) WHERE state IN ('pending', 'sending')""",
        game_id_counter,
    ),
    Step(  # 5: a message's priority in the claim order (0: a prompt a player waits for)
        """ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 1""",
    ),
    Step(  # 6: rating history, one row per rated game and entry; then the stored games are rated
        """CREATE TABLE ratings (
            game_id {bigint} NOT NULL, platform TEXT NOT NULL, game TEXT NOT NULL, player TEXT NOT NULL,
            name TEXT NOT NULL, chat_id TEXT NOT NULL, place INTEGER NOT NULL,
            mu_before {double} NOT NULL, sigma_before {double} NOT NULL, mu_after {double} NOT NULL,
            sigma_after {double} NOT NULL, games INTEGER NOT NULL, ended {double} NOT NULL,
            PRIMARY KEY (game_id, player))""",
        # An entry's n-th rated game exists once: two games ending at once that both built on
        # the same rating cannot both be stored (the second one is a Conflict and is redone).
        """CREATE UNIQUE INDEX ratings_entry ON ratings(platform, game, player, games)""",
        """CREATE INDEX ratings_chat ON ratings(platform, game, chat_id)""",
        then=rate_stored_games,
    ),
    Step(  # 7: people away (/away) until a moment, per platform
        """CREATE TABLE away (platform TEXT NOT NULL, user_id TEXT NOT NULL, until {double} NOT NULL,
            PRIMARY KEY (platform, user_id)){without_rowid}""",
    ),
    Step(  # 8: each running game's match, packed (bot/service/game/snapshots.py), read back instead of a replay
        """CREATE TABLE snapshots (game_id {bigint} PRIMARY KEY, moves INTEGER NOT NULL, stamp TEXT NOT NULL,
            data {blob} NOT NULL)""",
        kept_packed("snapshots", "data"),
    ),
]
SCHEMA_VERSION = len(STEPS)
