"""What the service needs from a database, the schema both backends share, and its SQL.

Everything one action changes (game metadata, the move, outbox messages, timers, results)
arrives as one ``Changes`` value and is committed in one transaction, so a message about a
move can never exist without the move, nor the move without its messages. The game itself
is stored as its record (RULES.md: setup + moves); while it runs, its match is stored packed
too (``snapshots``, in the transaction of each move), and read back instead of a replay.

Several processes may share one database: game ids come from the database
(``new_game_id``), a game row is only overwritten by a writer that read its current
``version`` (otherwise ``Conflict``), and outbox messages and timers are handed out under
time-limited leases (``claim_unsent``, ``claim_due_timers``) so no two processes work on the
same one, while a dead process's work is taken over once its lease expires.

The SQL below is written once with ``?`` placeholders and run by both backends (the
PostgreSQL one numbers the placeholders); only the schema steps differ per dialect.
"""

from __future__ import annotations

import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from ..model import ACTIVE, Changes, GameMeta, RatingRow, ResultRow, Seat, Snapshot, StoredOut, TimerRow
from ..turnstate import TurnState


class Conflict(Exception):
    """Another writer changed the same data first (a newer game version, the same move, a
    second active game in a chat); nothing of the refused ``Changes`` was stored. Reload and
    retry."""


# Versioned schema: each entry upgrades the database from version i to i + 1.
# Never edit a released step; append a new one, to both lists.
MIGRATIONS: list[list[str]] = [
    [  # 1: games, moves, outbox, timers
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY, platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            chat_title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL, host_id TEXT NOT NULL,
            options TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL, setup TEXT,
            moves INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL)""",
        """CREATE UNIQUE INDEX games_active_chat ON games(platform, chat_id)
            WHERE status IN ('lobby', 'playing')""",
        """CREATE TABLE moves (
            game_id INTEGER NOT NULL, n INTEGER NOT NULL, pick TEXT NOT NULL, seat INTEGER NOT NULL,
            actor TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID""",
        """CREATE TABLE outbox (
            id INTEGER PRIMARY KEY, game_id INTEGER, platform TEXT NOT NULL, dest TEXT NOT NULL,
            state TEXT NOT NULL, body TEXT NOT NULL, slot TEXT, mode TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, due REAL NOT NULL, message_id TEXT,
            created REAL NOT NULL, sent_at REAL, error TEXT)""",
        """CREATE INDEX outbox_unsent ON outbox(platform, id) WHERE state IN ('pending', 'sending')""",
        """CREATE INDEX outbox_slot ON outbox(platform, slot, id) WHERE slot IS NOT NULL""",
        """CREATE TABLE slots (platform TEXT NOT NULL, slot TEXT NOT NULL, message_id TEXT NOT NULL,
            PRIMARY KEY (platform, slot)) WITHOUT ROWID""",
        """CREATE TABLE timers (game_id INTEGER NOT NULL, kind TEXT NOT NULL, due REAL NOT NULL,
            move INTEGER NOT NULL, PRIMARY KEY (game_id, kind)) WITHOUT ROWID""",
        """CREATE INDEX timers_due ON timers(due)""",
    ],
    [  # 2: results for stats, per-chat settings, held private messages by user
        """CREATE TABLE results (
            game_id INTEGER NOT NULL, seat INTEGER NOT NULL, platform TEXT NOT NULL,
            chat_id TEXT NOT NULL, user_id TEXT, name TEXT NOT NULL, is_ai INTEGER NOT NULL,
            points INTEGER NOT NULL, won INTEGER NOT NULL, ended REAL NOT NULL,
            PRIMARY KEY (game_id, seat))""",
        """CREATE INDEX results_chat ON results(platform, chat_id)""",
        """CREATE INDEX results_user ON results(platform, user_id)""",
        """CREATE TABLE chat_settings (platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            settings TEXT NOT NULL, PRIMARY KEY (platform, chat_id)) WITHOUT ROWID""",
        """CREATE INDEX outbox_held ON outbox(platform, dest) WHERE state = 'held'""",
    ],
    [  # 3: per-game bookkeeping (players without a private chat, reminders sent)
        """ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'""",
    ],
    [  # 4: game kinds, optimistic versions, leases, game ids from a counter
        """ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'paris-paris'""",
        """ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE results ADD COLUMN game TEXT NOT NULL DEFAULT 'paris-paris'""",
        """ALTER TABLE outbox ADD COLUMN owner TEXT""",
        """ALTER TABLE outbox ADD COLUMN lease REAL""",
        """ALTER TABLE timers ADD COLUMN owner TEXT""",
        """ALTER TABLE timers ADD COLUMN lease REAL""",
        """CREATE INDEX outbox_dest ON outbox(platform, dest, id) WHERE state IN ('pending', 'sending')""",
        """INSERT INTO meta (key, value) SELECT 'last_game_id', CAST(COALESCE(MAX(id), 0) AS TEXT)
            FROM games""",
    ],
    [  # 5: a message's priority in the claim order (0: a prompt a player waits for)
        """ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 1""",
    ],
    [  # 6: rating history, one row per rated game and entry (then the stored games are rated: RATE_STORED)
        """CREATE TABLE ratings (
            game_id INTEGER NOT NULL, platform TEXT NOT NULL, game TEXT NOT NULL, player TEXT NOT NULL,
            name TEXT NOT NULL, chat_id TEXT NOT NULL, place INTEGER NOT NULL,
            mu_before REAL NOT NULL, sigma_before REAL NOT NULL, mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL, games INTEGER NOT NULL, ended REAL NOT NULL,
            PRIMARY KEY (game_id, player))""",
        # An entry's n-th rated game exists once: two games ending at once that both built on
        # the same rating cannot both be stored (the second one is a Conflict and is redone).
        """CREATE UNIQUE INDEX ratings_entry ON ratings(platform, game, player, games)""",
        """CREATE INDEX ratings_chat ON ratings(platform, game, chat_id)""",
    ],
    [  # 7: people away (/away) until a moment, per platform
        """CREATE TABLE away (platform TEXT NOT NULL, user_id TEXT NOT NULL, until REAL NOT NULL,
            PRIMARY KEY (platform, user_id)) WITHOUT ROWID""",
    ],
    [  # 8: each running game's match, packed (bot/service/snapshots.py), read back instead of a replay
        """CREATE TABLE snapshots (game_id INTEGER PRIMARY KEY, moves INTEGER NOT NULL, stamp TEXT NOT NULL,
            data BLOB NOT NULL)""",
    ],
]

# The same steps in PostgreSQL's dialect: 64-bit ids and seeds, double precision times, an
# identity column for outbox ids, a sequence for game ids.
PG_MIGRATIONS: list[list[str]] = [
    [  # 1
        """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        """CREATE TABLE games (
            id BIGINT PRIMARY KEY, platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            chat_title TEXT NOT NULL DEFAULT '', status TEXT NOT NULL, host_id TEXT NOT NULL,
            options TEXT NOT NULL, seed BIGINT NOT NULL, seats TEXT NOT NULL, setup TEXT,
            moves INTEGER NOT NULL DEFAULT 0, created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL)""",
        """CREATE UNIQUE INDEX games_active_chat ON games(platform, chat_id)
            WHERE status IN ('lobby', 'playing')""",
        """CREATE TABLE moves (
            game_id BIGINT NOT NULL, n INTEGER NOT NULL, pick TEXT NOT NULL, seat INTEGER NOT NULL,
            actor TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, PRIMARY KEY (game_id, n))""",
        """CREATE TABLE outbox (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, game_id BIGINT,
            platform TEXT NOT NULL, dest TEXT NOT NULL, state TEXT NOT NULL, body TEXT NOT NULL,
            slot TEXT, mode TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
            due DOUBLE PRECISION NOT NULL, message_id TEXT, created DOUBLE PRECISION NOT NULL,
            sent_at DOUBLE PRECISION, error TEXT)""",
        """CREATE INDEX outbox_unsent ON outbox(platform, id) WHERE state IN ('pending', 'sending')""",
        """CREATE INDEX outbox_slot ON outbox(platform, slot, id) WHERE slot IS NOT NULL""",
        """CREATE TABLE slots (platform TEXT NOT NULL, slot TEXT NOT NULL, message_id TEXT NOT NULL,
            PRIMARY KEY (platform, slot))""",
        """CREATE TABLE timers (game_id BIGINT NOT NULL, kind TEXT NOT NULL,
            due DOUBLE PRECISION NOT NULL, move INTEGER NOT NULL, PRIMARY KEY (game_id, kind))""",
        """CREATE INDEX timers_due ON timers(due)""",
    ],
    [  # 2
        """CREATE TABLE results (
            game_id BIGINT NOT NULL, seat INTEGER NOT NULL, platform TEXT NOT NULL,
            chat_id TEXT NOT NULL, user_id TEXT, name TEXT NOT NULL, is_ai INTEGER NOT NULL,
            points INTEGER NOT NULL, won INTEGER NOT NULL, ended DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seat))""",
        """CREATE INDEX results_chat ON results(platform, chat_id)""",
        """CREATE INDEX results_user ON results(platform, user_id)""",
        """CREATE TABLE chat_settings (platform TEXT NOT NULL, chat_id TEXT NOT NULL,
            settings TEXT NOT NULL, PRIMARY KEY (platform, chat_id))""",
        """CREATE INDEX outbox_held ON outbox(platform, dest) WHERE state = 'held'""",
    ],
    [  # 3
        """ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'""",
    ],
    [  # 4
        """ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'paris-paris'""",
        """ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0""",
        """ALTER TABLE results ADD COLUMN game TEXT NOT NULL DEFAULT 'paris-paris'""",
        """ALTER TABLE outbox ADD COLUMN owner TEXT""",
        """ALTER TABLE outbox ADD COLUMN lease DOUBLE PRECISION""",
        """ALTER TABLE timers ADD COLUMN owner TEXT""",
        """ALTER TABLE timers ADD COLUMN lease DOUBLE PRECISION""",
        """CREATE INDEX outbox_dest ON outbox(platform, dest, id) WHERE state IN ('pending', 'sending')""",
        """CREATE SEQUENCE game_ids""",
        """SELECT setval('game_ids', (SELECT COALESCE(MAX(id), 0) FROM games) + 1, false)""",
    ],
    [  # 5
        """ALTER TABLE outbox ADD COLUMN priority INTEGER NOT NULL DEFAULT 1""",
    ],
    [  # 6
        """CREATE TABLE ratings (
            game_id BIGINT NOT NULL, platform TEXT NOT NULL, game TEXT NOT NULL, player TEXT NOT NULL,
            name TEXT NOT NULL, chat_id TEXT NOT NULL, place INTEGER NOT NULL,
            mu_before DOUBLE PRECISION NOT NULL, sigma_before DOUBLE PRECISION NOT NULL,
            mu_after DOUBLE PRECISION NOT NULL, sigma_after DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL, ended DOUBLE PRECISION NOT NULL, PRIMARY KEY (game_id, player))""",
        """CREATE UNIQUE INDEX ratings_entry ON ratings(platform, game, player, games)""",
        """CREATE INDEX ratings_chat ON ratings(platform, game, chat_id)""",
    ],
    [  # 7
        """CREATE TABLE away (platform TEXT NOT NULL, user_id TEXT NOT NULL, until DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (platform, user_id))""",
    ],
    [  # 8
        """CREATE TABLE snapshots (game_id BIGINT PRIMARY KEY, moves INTEGER NOT NULL, stamp TEXT NOT NULL,
            data BYTEA NOT NULL)""",
        # Out of line and not compressed again: the bytes are compressed already.
        """ALTER TABLE snapshots ALTER COLUMN data SET STORAGE EXTERNAL""",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
assert len(PG_MIGRATIONS) == SCHEMA_VERSION, "every schema step needs both dialects"
# After this schema step's SQL, in its transaction, the finished games already stored are rated
# in the order they ended (``stored_ratings``), as if ratings had existed all along.
RATE_STORED = 6

# ---- shared SQL (``?`` placeholders) ---------------------------------------------------

GAME_COLS = ("id", "platform", "chat_id", "chat_title", "status", "host_id", "options", "seed", "seats",
             "setup", "moves", "created", "updated", "extra", "game", "version")
OUT_COLS = "id, game_id, platform, dest, state, body, slot, mode, attempts, due"
RESULT_COLS = "game_id, seat, platform, chat_id, user_id, name, is_ai, points, won, ended, game"
RATING_COLS = ("game_id, platform, game, player, name, chat_id, place, mu_before, sigma_before, mu_after, "
               "sigma_after, games, ended")

SELECT_GAME = f"SELECT {', '.join(GAME_COLS)} FROM games"
# A game at version 0 was never stored by this code: it is inserted, or it replaces a row
# that is at version 0 too (written before versions existed, or by hand); a row at any
# later version means another writer got there first.
INSERT_GAME = (f"INSERT INTO games ({', '.join(GAME_COLS)}) VALUES ({', '.join('?' * len(GAME_COLS))}) "
               f"ON CONFLICT (id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in GAME_COLS[1:])} "
               f"WHERE games.version = 0")
# Only the writer that read the current version may overwrite the row.
UPDATE_GAME = (f"UPDATE games SET {', '.join(f'{c} = ?' for c in GAME_COLS[1:])} "
               f"WHERE id = ? AND version = ?")
INSERT_MOVE = "INSERT INTO moves (game_id, n, pick, seat, actor, at) VALUES (?,?,?,?,?,?)"
INSERT_TIMER = "INSERT INTO timers (game_id, kind, due, move) VALUES (?,?,?,?)"
UPSERT_RESULT = (f"INSERT INTO results ({RESULT_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?) "
                 "ON CONFLICT (game_id, seat) DO UPDATE SET platform = excluded.platform, "
                 "chat_id = excluded.chat_id, user_id = excluded.user_id, name = excluded.name, "
                 "is_ai = excluded.is_ai, points = excluded.points, won = excluded.won, "
                 "ended = excluded.ended, game = excluded.game")
UPSERT_AWAY = ("INSERT INTO away (platform, user_id, until) VALUES (?,?,?) "
               "ON CONFLICT (platform, user_id) DO UPDATE SET until = excluded.until")
DELETE_AWAY = "DELETE FROM away WHERE platform = ? AND user_id = ?"

# ---- snapshots: a running game's match, packed (bot/service/snapshots.py) ------------------
# A snapshot lands only while its game's row holds its move count and is running, whoever writes
# it (the commit of the move, after the game row; or a process that has just replayed the game
# and may have been overtaken by another process's move): it never stands for another position.
UPSERT_SNAPSHOT = ("INSERT INTO snapshots (game_id, moves, stamp, data) SELECT ?, ?, ?, ? WHERE EXISTS "
                   "(SELECT 1 FROM games WHERE id = ? AND moves = ? AND status = 'playing') "
                   "ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves, stamp = excluded.stamp, "
                   "data = excluded.data")
DROP_SNAPSHOT = "DELETE FROM snapshots WHERE game_id = ?"
# Games with their snapshot, if any, and without their moves.
SELECT_SNAPSHOTTED = (f"SELECT {', '.join('g.' + c for c in GAME_COLS)}, s.moves, s.stamp, s.data "
                      "FROM games g LEFT JOIN snapshots s ON s.game_id = g.id")


def snapshot_writes(changes: Changes) -> list[tuple[str, tuple]]:
    """The statements that store ``changes.snapshots`` and drop the snapshot of a game that ended
    or was aborted; run after the game row is written, in its transaction."""
    writes = [(UPSERT_SNAPSHOT, (s.game_id, s.moves, s.stamp, s.data, s.game_id, s.moves))
              for s in changes.snapshots]
    if changes.game is not None and changes.game.status not in ACTIVE:
        writes.append((DROP_SNAPSHOT, (changes.game.id,)))
    return writes


def snapshotted_from_row(row: Any) -> tuple[GameMeta, Snapshot | None]:
    """A ``SELECT_SNAPSHOTTED`` row: the game and its snapshot (None: none stored)."""
    values = tuple(row)
    n = len(GAME_COLS)
    meta = meta_from_row(values[:n])
    moves, stamp, data = values[n:]
    return meta, None if data is None else Snapshot(meta.id, moves, stamp, bytes(data))


def away_query(user_ids: list[str]) -> str:
    return f"SELECT user_id, until FROM away WHERE platform = ? AND user_id IN ({', '.join('?' * len(user_ids))})"


def away_change(away: tuple[str, str, float | None]) -> tuple[str, tuple]:
    """The statement that stores ``Changes.away``."""
    platform, user_id, until = away
    return (DELETE_AWAY, (platform, user_id)) if until is None else (UPSERT_AWAY, (platform, user_id, until))


UPSERT_SETTINGS = ("INSERT INTO chat_settings (platform, chat_id, settings) VALUES (?,?,?) "
                   "ON CONFLICT (platform, chat_id) DO UPDATE SET settings = excluded.settings")
LATEST_IN_SLOT = "SELECT id, state FROM outbox WHERE platform = ? AND slot = ? ORDER BY id DESC LIMIT 1"
# Coalesce only into a message nobody has started sending (a concurrent claim may just have).
COALESCE_EDIT = "UPDATE outbox SET body = ?, priority = ? WHERE id = ? AND state = 'pending'"
INSERT_OUT = ("INSERT INTO outbox (game_id, platform, dest, state, body, slot, mode, due, created, priority) "
              "VALUES (?,?,?,'pending',?,?,?,?,?,?)")
# What a slot shows now: the content of its latest message that went out.
LAST_SHOWN = ("SELECT body FROM outbox WHERE platform = ? AND slot = ? AND state = 'sent' "
              "ORDER BY id DESC LIMIT 1")
MARK_SENT = ("UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, error = NULL, owner = NULL, "
             "lease = NULL WHERE id = ?")
# A message without a slot (a picture, a notice) is never read again once it went out: it keeps
# what it said, the picture it asked for and its file name (``delivered_body``), for the week
# delivered messages stay; what only sending needed (the picture in words, the chat, mentions,
# buttons) goes. Issue 31: two thirds of a finished game's message bytes were such descriptions.
MARK_SENT_TRIMMED = ("UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, body = ?, error = NULL, "
                     "owner = NULL, lease = NULL WHERE id = ?")
KEPT_WHEN_DELIVERED = ("text", "render", "image_name")


def delivered_body(body: dict) -> str:
    """The stored body of a message without a slot once it went out (``MARK_SENT_TRIMMED``)."""
    return json.dumps({k: body[k] for k in KEPT_WHEN_DELIVERED if body.get(k)}, ensure_ascii=False)


# A slot shows one message at a time (a turn message, a seat's menu): once a later message of
# the slot went out, an earlier one is never read again (``LAST_SHOWN`` reads the latest, an edit
# coalesces only into the latest, an edit goes to the message id in ``slots``), so its row is
# deleted then, in the transaction that records the later one. A busy game's slots were most of
# its outbox (issue 31: 680 rows a game, each kept a week). Messages without a slot (pictures,
# notices) and a slot's latest delivered message stay for the week delivered messages are kept.
DROP_REPLACED = "DELETE FROM outbox WHERE platform = ? AND slot = ? AND state = 'sent' AND id < ?"
UPSERT_SLOT = ("INSERT INTO slots (platform, slot, message_id) VALUES (?,?,?) "
               "ON CONFLICT (platform, slot) DO UPDATE SET message_id = excluded.message_id")
RESCHEDULE = ("UPDATE outbox SET state = 'pending', due = ?, attempts = ?, error = ?, owner = NULL, "
              "lease = NULL WHERE id = ?")
SET_STATE = "UPDATE outbox SET state = ?, error = ?, owner = NULL, lease = NULL WHERE id = ?"
RELEASE_HELD = "UPDATE outbox SET state = 'pending', due = ? WHERE platform = ? AND dest = ? AND state = 'held'"
# ---- ratings ------------------------------------------------------------------------------
INSERT_RATING = f"INSERT INTO ratings ({RATING_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
# What rating a game needs: the finished games, their results, and the seats of persons the AI
# made a move for (they left: the game is not rated).
FINISHED_GAMES = f"{SELECT_GAME} WHERE status = 'finished'"
FINISHED_RESULTS = (f"SELECT {RESULT_COLS} FROM results WHERE game_id IN "
                    "(SELECT id FROM games WHERE status = 'finished')")
AI_MOVED = "SELECT DISTINCT game_id, seat FROM moves WHERE actor = 'ai'"
AI_MOVED_IN = "SELECT DISTINCT seat FROM moves WHERE game_id = ? AND actor = 'ai'"
# Each entry's latest row (its rating now), of one game kind on one platform: the highest count
# of rated games per entry (an index-only pass over ratings_entry), joined back to its row.
_R_COLS = ", ".join(f"r.{c}" for c in RATING_COLS.split(", "))
_LATEST_OF = ("SELECT {cols} FROM ratings r JOIN (SELECT player, MAX(games) AS n FROM ratings "
              "WHERE platform = ? AND game = ?{only} GROUP BY player) m ON r.player = m.player AND r.games = m.n "
              "WHERE r.platform = ? AND r.game = ?")
# Entries that played a rated game in one chat.
_IN_CHAT = " AND player IN (SELECT player FROM ratings WHERE platform = ? AND game = ? AND chat_id = ?)"


def latest_ratings_query(platform: str, game: str, chat_id: str | None, players: list[str] | None
                         ) -> tuple[str, tuple]:
    """The query (``?`` placeholders) and parameters of ``Storage.latest_ratings``."""
    only, params = "", ()
    if chat_id is not None:
        only, params = _IN_CHAT, (platform, game, chat_id)
    elif players is not None:
        only, params = f" AND player IN ({', '.join('?' * len(players))})", tuple(players)
    return (_LATEST_OF.format(cols=_R_COLS, only=only), (platform, game, *params, platform, game))


# ... of one entry, in every game kind.
LATEST_OF_PLAYER = (f"SELECT {RATING_COLS} FROM ratings WHERE platform = ? AND player = ? AND games = "
                    "(SELECT MAX(q.games) FROM ratings q WHERE q.platform = ratings.platform "
                    "AND q.game = ratings.game AND q.player = ratings.player)")
RATING_HISTORY = f"SELECT {RATING_COLS} FROM ratings ORDER BY ended, game_id, player"
PRUNE = "DELETE FROM outbox WHERE state IN ('sent', 'failed') AND COALESCE(sent_at, created) < ?"

# A message may be claimed when it is due and nobody holds a live lease on it, and only
# when every earlier unsent message to the same destination may be claimed too: a chat
# must never see its messages out of order, so a destination waits while an earlier
# message of it is not due yet or is being sent by someone.
# Each destination's first unsent message, when it is due and nobody holds a live lease on
# it (a destination's later messages wait for it: per-chat order), leaving out ``skip``
# (destinations waiting for their pace); then by rank and turn. The rank: 0 for a prompt a
# player waits for (priority 0), 1 for a message such a prompt waits behind in its chat (a
# closing edit, the round's picture: the prompt cannot go before them, so they inherit part
# of its urgency; otherwise the prompt would sit behind its own chat's map while other chats'
# maps go out), 2 for anything else.
# The turn, within a rank: shortest queue first, aged. A message's commit time plus
# ``BACKLOG_PENALTY`` seconds for every other unsent message of its destination, counted up to
# ``BACKLOG_COUNTED``: a quick exchange (a prompt edited, nothing behind it) goes before the
# prompts of chats that have a closing edit and a picture still to come (they wait for their
# own chat's budget anyway), while no message is ever passed within its rank by one committed
# more than ``BACKLOG_PENALTY * BACKLOG_COUNTED`` seconds after it: a backlog cannot starve. (3 s:
# about the spacing a chat's own budget puts between its calls after a burst, 0.3 a second on
# Telegram; README "Performance" has the measurements.) The pacer
# hands out the overall budget in the same order (``StoredOut.turn``, ``pacing.Ranked``). Commit
# times come from each committing process's clock: processes on several machines need their clocks
# in step (as the leases do already).
BACKLOG_PENALTY = 3.0
BACKLOG_COUNTED = 2
CLAIMABLE_OUT = (
    "SELECT o.id, o.state, CASE WHEN o.priority = 0 THEN 0 WHEN f.urgency = 0 THEN 1 ELSE 2 END AS rank, "
    f"o.created + {BACKLOG_PENALTY!r} * (CASE WHEN f.backlog > {BACKLOG_COUNTED + 1} THEN {BACKLOG_COUNTED} "
    "ELSE f.backlog - 1 END) AS turn "
    "FROM outbox o JOIN ("
    "SELECT MIN(id) AS first, MIN(priority) AS urgency, COUNT(*) AS backlog FROM outbox WHERE platform = ? "
    "AND state IN ('pending', 'sending') GROUP BY dest) f ON o.id = f.first "
    "WHERE o.due <= ? AND (o.state = 'pending' OR o.lease IS NULL OR o.lease <= ?){skip} "
    "ORDER BY rank, turn, o.id LIMIT ?")


# An owner keeps a claimed message until another owner claims it (which a claim may do once
# the lease ran out); renewing makes the lease live again, so nobody can claim it meanwhile.
RENEW_OUT = (f"UPDATE outbox SET lease = ? WHERE id = ? AND owner = ? AND state = 'sending' "
             f"RETURNING {OUT_COLS}")
# The message right after ``id`` to one destination, claimed only if nobody has started it (a
# pending edit may still be coalesced into a pending row; a claimed one no longer takes any).
CLAIM_NEXT_OUT = ("UPDATE outbox SET state = 'sending', owner = ?, lease = ?, attempts = attempts + 1 "
                  "WHERE id = (SELECT MIN(id) FROM outbox WHERE platform = ? AND dest = ? AND id > ? "
                  "AND state IN ('pending', 'sending', 'held')) AND state = 'pending' "
                  f"RETURNING {OUT_COLS}")
SET_OUT_BODY = "UPDATE outbox SET body = ? WHERE id = ?"
RELEASE_OUT = "UPDATE outbox SET state = ?, owner = NULL, lease = NULL WHERE id = ? AND owner = ? AND state = 'sending'"
RELEASE_TIMER = "UPDATE timers SET owner = NULL, lease = NULL WHERE game_id = ? AND kind = ? AND owner = ?"
# A restarted process (same owner name) takes its work back at once; a message it was
# sending stays 'sending' (it may have gone out) and is checked when claimed again.
RELEASE_OWNER_OUT = "UPDATE outbox SET owner = NULL, lease = NULL WHERE owner = ? AND state IN ('pending', 'sending')"
RELEASE_OWNER_TIMERS = "UPDATE timers SET owner = NULL, lease = NULL WHERE owner = ?"
OWNERS = ("SELECT owner FROM outbox WHERE owner IS NOT NULL UNION "
          "SELECT owner FROM timers WHERE owner IS NOT NULL")

# When there is work next: a leased message or timer comes back when its lease runs out.
_WAKE = "MIN(CASE WHEN lease IS NOT NULL AND lease > due THEN lease ELSE due END)"
# Only a destination's first unsent message counts: the ones after it wait for it. (Written
# as a join on each destination's first id, so it costs one pass over the unsent messages.)
NEXT_DUE = (f"SELECT {_WAKE} FROM outbox o JOIN (SELECT MIN(id) AS first FROM outbox WHERE platform = ? "
            "AND state IN ('pending', 'sending') GROUP BY dest) f ON o.id = f.first")
NEXT_TIMER = f"SELECT {_WAKE} FROM timers WHERE TRUE"
# Work that should have been done by ``before`` and is not (for the health check): unsent
# messages and unfired timers due then, not under a live lease.
LATE_OUT = ("SELECT COUNT(*) FROM outbox WHERE state IN ('pending', 'sending') AND due < ? "
            "AND (lease IS NULL OR lease < ?)")
LATE_TIMERS = "SELECT COUNT(*) FROM timers WHERE due < ? AND (lease IS NULL OR lease < ?)"


def claimable_out(platform: str, now: float, limit: int, skip: frozenset[str] = frozenset()) -> tuple[str, tuple]:
    """The claim query (``?`` placeholders) and its parameters."""
    dests = sorted(skip)
    where = f" AND o.dest NOT IN ({', '.join('?' * len(dests))})" if dests else ""
    return CLAIMABLE_OUT.format(skip=where), (platform, now, now, *dests, limit)


def platform_filter(platforms: tuple[str, ...] | None) -> tuple[str, tuple[str, ...]]:
    """SQL restricting timers to games on ``platforms``: each bot process fires only its own
    platform's timers, so a Telegram and a Discord process may share one database."""
    if platforms is None:
        return "", ()
    marks = ", ".join("?" * len(platforms))
    return f" AND game_id IN (SELECT id FROM games WHERE platform IN ({marks}))", tuple(platforms)


# ---- rows <-> values --------------------------------------------------------------------

def game_values(game: GameMeta) -> tuple:
    """The row of ``game`` in GAME_COLS order, as its next version."""
    return (game.id, game.platform, game.chat_id, game.chat_title, game.status, game.host_id,
            json.dumps(game.options), game.seed, json.dumps([s.to_dict() for s in game.seats]),
            json.dumps(game.setup) if game.setup is not None else None,
            game.moves, game.created, game.updated, json.dumps(game.turn.to_json()), game.game, game.version + 1)


def update_params(game: GameMeta) -> tuple:
    values = game_values(game)
    return (*values[1:], game.id, game.version)


def meta_from_row(row: Any) -> GameMeta:
    (gid, platform, chat_id, title, status, host, options, seed, seats, setup, moves, created,
     updated, extra, game, version) = row
    return GameMeta(
        id=gid, platform=platform, chat_id=chat_id, chat_title=title, status=status, host_id=host,
        options=json.loads(options), seed=seed, seats=[Seat(**s) for s in json.loads(seats)],
        setup=_interned(json.loads(setup)) if setup else None, moves=moves, created=created, updated=updated,
        turn=TurnState.from_json(json.loads(extra)), game=game, version=version)


def _interned(value: Any) -> Any:
    """``value`` (decoded JSON) with one copy of each text (``sys.intern``): a setup names the same
    tiles in every game, and the bot keeps the setups of all its games in memory."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(v) for v in value]
    if isinstance(value, dict):
        return {sys.intern(k): _interned(v) for k, v in value.items()}
    return value


def out_from_row(row: Any) -> StoredOut:
    oid, game_id, platform, dest, state, body, slot, mode, attempts, due = row
    return StoredOut(oid, game_id, platform, dest, state, json.loads(body), slot, mode, attempts, due)


def result_values(r: ResultRow) -> tuple:
    return (r.game_id, r.seat, r.platform, r.chat_id, r.user_id, r.name, int(r.is_ai), r.points,
            int(r.won), r.ended, r.game)


def result_from_row(r: Any) -> ResultRow:
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], bool(r[8]), r[9], r[10])


def rating_values(r: RatingRow) -> tuple:
    return (r.game_id, r.platform, r.game, r.player, r.name, r.chat_id, r.place, r.mu_before, r.sigma_before,
            r.mu_after, r.sigma_after, r.games, r.ended)


def rating_from_row(r: Any) -> RatingRow:
    return RatingRow(*tuple(r))


def rating_inputs(games: list[Any], results: list[Any], ai_moved: list[Any]
                  ) -> list[tuple[GameMeta, list[ResultRow], set[int]]]:
    """(game, its results, the seats the AI moved for) of each finished game, from the rows of
    FINISHED_GAMES, FINISHED_RESULTS and AI_MOVED."""
    by_game: dict[int, list[ResultRow]] = {}
    for row in results:
        r = result_from_row(row)
        by_game.setdefault(r.game_id, []).append(r)
    moved: dict[int, set[int]] = {}
    for gid, seat in ai_moved:
        moved.setdefault(gid, set()).add(seat)
    metas = [meta_from_row(row) for row in games]
    return [(m, by_game[m.id], moved.get(m.id, set())) for m in metas if m.id in by_game]


def stored_ratings(games: list[Any], results: list[Any], ai_moved: list[Any]) -> list[tuple]:
    """The rating rows (INSERT_RATING values) of every finished game stored: the migration's data step."""
    from ..ratings import recompute

    return [rating_values(r) for r in recompute(rating_inputs(games, results, ai_moved))]


def game_filter(game: str | None) -> tuple[str, tuple]:
    return ("", ()) if game is None else (" AND game = ?", (game,))


def chat_filter(chat_id: str | None) -> tuple[str, tuple]:
    """One chat's rows, or (None) every chat's of the platform."""
    return ("", ()) if chat_id is None else (" AND chat_id = ?", (chat_id,))


PLATFORM_GAMES = f"{SELECT_GAME} WHERE platform = ? ORDER BY id DESC LIMIT ?"
# The unfinished games (lobby or running) of a platform whose seats name a user, in any chat:
# the text match on the seats (``seated_pattern``) narrows the rows to a few, ``seated`` keeps
# those where the user holds a seat of their own (not one the AI plays for them).
SEATED_GAMES = (f"{SELECT_GAME} WHERE platform = ? AND status IN ('lobby', 'playing') "
                "AND seats LIKE ? ESCAPE '!' ORDER BY id")


def seated_pattern(user_id: str) -> str:
    """The LIKE pattern of a seats JSON text that names ``user_id`` (as ``game_values`` writes it)."""
    named = json.dumps({"user_id": user_id})[1:-1]
    return "%" + named.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%"


def seated(rows: list[Any], user_id: str) -> list[GameMeta]:
    """The games among ``SEATED_GAMES`` rows where ``user_id`` holds a human seat."""
    games = [meta_from_row(r) for r in rows]
    return [g for g in games if g.seat_of(user_id) is not None]


def slot_messages_query(slots: list[str]) -> str:
    return (f"SELECT slot, message_id FROM slots WHERE platform = ? "
            f"AND slot IN ({', '.join('?' * len(slots))})")


def user_game_ids(rows: list[Any], user_id: str) -> list[int]:
    """The ids among (id, seats JSON) rows where ``user_id`` holds a human seat."""
    return [gid for gid, seats in rows
            if any(s.get("user_id") == user_id and not s.get("is_ai") for s in json.loads(seats))]


# Every table's columns and key, in the order ``copy_database`` moves them.
TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "games": (GAME_COLS, ("id",)),
    "moves": (("game_id", "n", "pick", "seat", "actor", "at"), ("game_id", "n")),
    "outbox": (("id", "game_id", "platform", "dest", "state", "body", "slot", "mode", "attempts", "due",
                "message_id", "created", "sent_at", "error", "owner", "lease", "priority"), ("id",)),
    "slots": (("platform", "slot", "message_id"), ("platform", "slot")),
    "timers": (("game_id", "kind", "due", "move", "owner", "lease"), ("game_id", "kind")),
    "results": (tuple(RESULT_COLS.split(", ")), ("game_id", "seat")),
    "chat_settings": (("platform", "chat_id", "settings"), ("platform", "chat_id")),
    "ratings": (tuple(RATING_COLS.split(", ")), ("game_id", "player")),
    "away": (("platform", "user_id", "until"), ("platform", "user_id")),
    "snapshots": (("game_id", "moves", "stamp", "data"), ("game_id",)),
}


def page_query(table: str, after: tuple | None, limit: int) -> tuple[str, tuple]:
    """The next ``limit`` rows of ``table`` after the key ``after`` (keyset paging)."""
    cols, key = TABLES[table]
    where, params = "", ()
    if after is not None:
        where = f" WHERE ({', '.join(key)}) > ({', '.join('?' * len(key))})"
        params = tuple(after)
    return (f"SELECT {', '.join(cols)} FROM {table}{where} ORDER BY {', '.join(key)} LIMIT ?",
            (*params, limit))


def key_of(table: str, row: tuple) -> tuple:
    cols, key = TABLES[table]
    return tuple(row[cols.index(k)] for k in key)


def insert_query(table: str) -> str:
    cols = TABLES[table][0]
    return f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"


class Storage(ABC):
    """What the service needs from a database."""

    @abstractmethod
    async def open(self) -> None: ...
    @abstractmethod
    async def open_existing(self) -> None:
        """Open for reading what is there (the health check): never creates a database nor
        changes one (no migration); fails when there is no database at all."""
    @abstractmethod
    async def close(self) -> None: ...

    async def watch_games(self, changed: Callable[[int], None]) -> None:
        """Call ``changed(game_id)`` whenever another process commits a change to a game, where the
        database can tell (PostgreSQL's LISTEN/NOTIFY), until ``close``. SQLite cannot: it is one
        process's file, whose own commits the service reports itself."""
        return None

    @abstractmethod
    async def schema_version(self) -> int: ...
    @abstractmethod
    async def migrate(self, target: int = SCHEMA_VERSION) -> int:
        """Upgrade the schema step by step, each step in its own transaction."""
    @abstractmethod
    async def secret(self) -> bytes:
        """The payload-signing key, created on first use and kept."""
    # games
    @abstractmethod
    async def new_game_id(self) -> int:
        """A game id no process sharing this database has had or will get."""
    @abstractmethod
    async def max_game_id(self) -> int:
        """The highest game id handed out or stored (0 if none)."""
    @abstractmethod
    async def active_game_id(self, platform: str, chat_id: str) -> int | None: ...
    @abstractmethod
    async def latest_started_game(self) -> int | None:
        """The id of the newest game that was started (for exporting "the latest" record)."""
    @abstractmethod
    async def platform_games(self, platform: str, limit: int = 50) -> list[GameMeta]:
        """The newest ``limit`` games of a platform, newest first, any status (without moves):
        the terminal lists its games with this."""
    @abstractmethod
    async def game_version(self, game_id: int) -> int | None:
        """The stored version of a game (None: no such game): another process moved the game
        when it differs from the one in memory."""
    @abstractmethod
    async def load_game(self, game_id: int) -> tuple[GameMeta, list[tuple[int, str]]] | None:
        """The metadata and the stored moves, in order: (the seat that made it, its text)."""
    @abstractmethod
    async def load_games(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, list[tuple[int, str]]]]:
        """Many games in few queries (for eager restore); missing ids are left out."""
    @abstractmethod
    async def load_with_snapshots(self, game_ids: list[int]) -> dict[int, tuple[GameMeta, Snapshot | None]]:
        """Many games without their moves, each with its stored snapshot (None: none stored), in
        few queries: a game whose snapshot is current needs no replay. Missing ids are left out."""
    @abstractmethod
    async def active_games(self) -> list[tuple[int, str, str]]:
        """(id, platform, chat id) of every lobby and running game."""
    @abstractmethod
    async def commit(self, changes: Changes, now: float) -> list[int]:
        """Apply everything in one transaction; return the new outbox ids.

        ``changes.game`` with version 0 is inserted (or replaces a row at version 0);
        otherwise its row is updated only if it still holds ``changes.game.version``, which becomes version + 1 on success.
        Raises ``Conflict`` (and stores nothing of ``changes``) when the row moved on, the
        id is taken, a move number is stored already or the chat has another active game."""
    # outbox
    @abstractmethod
    async def unsent(self, platform: str, limit: int = 500) -> list[StoredOut]: ...
    @abstractmethod
    async def claim_unsent(self, platform: str, owner: str, now: float, lease_seconds: float,
                           limit: int = 100, skip: frozenset[str] = frozenset()) -> list[StoredOut]:
        """The first unsent message of each destination (but ``skip``) when it is due and
        nobody else works on it (pending, or 'sending' under an expired lease: a dead
        process's), marked 'sending' for ``owner`` until ``now + lease_seconds``: a
        destination's messages are handed out one at a time, in order, to one owner at a
        time. By ``StoredOut.rank``: prompts a player waits for (priority 0) first, then the
        messages such a prompt waits behind in its chat, then the rest; within a rank by
        ``StoredOut.turn`` (commit time, later for a destination with a backlog: see
        ``CLAIMABLE_OUT``), then by id."""
    @abstractmethod
    async def last_shown(self, platform: str, slot: str) -> dict | None:
        """The body of ``slot``'s latest message that went out (None: none is kept)."""
    @abstractmethod
    async def renew_lease(self, out_id: int, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        """Extend ``owner``'s lease on a claimed message to ``now + lease_seconds`` and return
        the message as stored; None when another owner claimed it meanwhile (possible once
        the lease ran out): then ``owner`` must not send it."""
    @abstractmethod
    async def claim_next(self, out: StoredOut, owner: str, now: float, lease_seconds: float) -> StoredOut | None:
        """Claim the message right after ``out`` (which ``owner`` holds) to the same destination,
        to send the two as one; None when there is none, or it is not pending."""
    @abstractmethod
    async def set_body(self, out_id: int, body: dict) -> None:
        """Keep ``body`` as what message ``out_id`` shows (after it went out in another form)."""
    @abstractmethod
    async def release_claim(self, out: StoredOut, owner: str) -> None:
        """Give back a claimed message unsent (back to 'pending', or 'sending' if it was
        taken over): any owner may claim it again at once."""
    @abstractmethod
    async def release_timer(self, timer: TimerRow, owner: str) -> None:
        """Give back a claimed timer that did not fire: any owner may claim it again at once."""
    @abstractmethod
    async def release_owner(self, owner: str) -> None:
        """Free every message and timer leased to ``owner`` (a clean stop, or a restart of a
        process that keeps its name)."""

    async def owners(self) -> list[str]:
        """The names holding any message or timer now."""
        return sorted(row[0] for row in await self._all(OWNERS))

    @abstractmethod
    async def next_due(self, platform: str) -> float | None: ...
    @abstractmethod
    async def mark_sending(self, out_id: int) -> StoredOut | None:
        """Mark a message as being sent (no edit can be coalesced into it any more) and
        return it as stored now: an edit may have been merged in since it was read."""
    @abstractmethod
    async def mark_sent(self, out: StoredOut, message_id: str, now: float) -> None: ...
    @abstractmethod
    async def reschedule(self, out_id: int, due: float, attempts: int, error: str) -> None: ...
    @abstractmethod
    async def set_state(self, out_id: int, state: str, error: str = "") -> None: ...
    @abstractmethod
    async def held_for(self, platform: str, dest: str) -> list[StoredOut]: ...
    @abstractmethod
    async def release_held(self, platform: str, dest: str, now: float) -> int: ...
    @abstractmethod
    async def slot_message(self, platform: str, slot: str) -> str | None: ...
    @abstractmethod
    async def slot_messages(self, platform: str, slots: list[str]) -> dict[str, str]:
        """The platform message id of each of ``slots`` that has one (``slot_message`` for many)."""
    @abstractmethod
    async def outbox_rows(self, game_id: int | None = None) -> list[StoredOut]: ...
    @abstractmethod
    async def prune_outbox(self, before: float) -> int:
        """Forget sent (or failed) messages older than ``before``; return how many."""
    # timers
    @abstractmethod
    async def due_timers(self, now: float, platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        """Timers due by ``now``; only those of games on ``platforms`` when given."""
    @abstractmethod
    async def claim_due_timers(self, now: float, owner: str, lease_seconds: float,
                               platforms: tuple[str, ...] | None = None) -> list[TimerRow]:
        """Due timers nobody holds a live lease on, leased to ``owner`` until
        ``now + lease_seconds``. A timer leaves when its game's commit replaces the game's
        timers or drops it; until then it is handed out again once its lease expires."""
    @abstractmethod
    async def late_work(self, before: float, now: float) -> tuple[int, int]:
        """(messages, timers) due before ``before`` and still waiting at ``now`` (no live lease):
        nonzero means no process is keeping up (the health check)."""
    @abstractmethod
    async def next_timer(self, platforms: tuple[str, ...] | None = None) -> float | None: ...
    @abstractmethod
    async def timers_of(self, game_id: int) -> list[TimerRow]: ...
    # settings and stats
    @abstractmethod
    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]: ...
    @abstractmethod
    async def away_until(self, platform: str, user_ids: list[str]) -> dict[str, float]:
        """When each of ``user_ids`` who said they are away (``/away``) is back (a past moment: back already)."""
    @abstractmethod
    async def chat_results(self, platform: str, chat_id: str | None, game: str | None = None) -> list[ResultRow]:
        """Results in a chat; only of that game kind when ``game`` is given."""
    @abstractmethod
    async def user_results(self, platform: str, user_id: str, game: str | None = None) -> list[ResultRow]:
        """A human's results; only of that game kind when ``game`` is given."""
    # ratings
    @abstractmethod
    async def ai_moved(self, game_id: int) -> set[int]:
        """The seats the AI made a stored move for (not at a deadline: those are 'deadline')."""
    @abstractmethod
    async def latest_ratings(self, platform: str, game: str, *, chat_id: str | None = None,
                             players: list[str] | None = None) -> list[RatingRow]:
        """Each entry's latest rating row in ``game``: only of entries rated in ``chat_id``, or
        only of ``players``, if given."""
    @abstractmethod
    async def player_ratings(self, platform: str, player: str) -> list[RatingRow]:
        """One entry's latest rating row in each game kind it was rated in."""
    @abstractmethod
    async def rating_history(self) -> list[RatingRow]:
        """Every rating row, in the order the games ended."""
    @abstractmethod
    async def rating_inputs(self) -> list[tuple[GameMeta, list[ResultRow], set[int]]]:
        """Each finished game with its results and the seats the AI moved for (``ratings.recompute``'s input)."""
    @abstractmethod
    async def user_games(self, platform: str, user_id: str) -> list[int]:
        """Ids of the running games where the user holds a seat."""
    @abstractmethod
    async def seated_games(self, platform: str, user_id: str) -> list[GameMeta]:
        """The unfinished games (lobby or running) where the user holds a seat of their own,
        in every chat of the platform, oldest first (without moves)."""
    # copying between databases (copy_database)
    @abstractmethod
    async def page(self, table: str, after: tuple | None, limit: int) -> list[tuple]:
        """Up to ``limit`` raw rows of ``table`` (TABLES order) after the key ``after``."""
    @abstractmethod
    async def insert_rows(self, table: str, rows: list[tuple]) -> None:
        """Store raw rows as read by ``page`` (into an empty table) in one transaction."""
    @abstractmethod
    async def adopt(self, secret: bytes, last_game_id: int) -> None:
        """Take over another database's signing key and game-id counter (after its rows)."""
