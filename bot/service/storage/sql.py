"""The one SQL layer both backends offer: a ``Database`` runs SQL written once, with ``?``
placeholders, and a ``Dialect`` holds the few pieces of SQL that differ between SQLite and
PostgreSQL (column types, the game-id counter, row locks, notifications).

The storage's aggregates (games, outbox, timers, ...) are written against these two only;
``SqliteDatabase`` and ``PostgresDatabase`` differ where the databases do: how a connection
is held, how a transaction runs and is grouped, how a unique violation shows, how rows are
bulk-loaded, where the schema version is kept.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
# A row as the driver gives it (a tuple, an asyncpg Record): read by position.
Row = Sequence[Any]


class Conflict(Exception):
    """Another writer changed the same data first (a newer game version, the same move, a
    second active game in a chat); nothing of the refused ``Changes`` was stored. Reload and
    retry."""


class Connection(ABC):
    """One connection inside a transaction or a read. ``execute`` returns how many rows the
    statement changed (0 for one that changes none, such as DDL)."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...
    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    @abstractmethod
    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...
    @abstractmethod
    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row (None: no row)."""
        row = await self.one(sql, params)
        return row[0] if row is not None else None


@dataclass(frozen=True)
class Dialect:
    """The SQL that differs between the backends. Schema steps name the types in braces
    (``{bigint}``, ``{double}``, ``{identity}``, ``{blob}``, ``{without_rowid}``: ``ddl``)."""

    name: str
    # DDL: a 64-bit integer, a float, an integer key numbered by the database, bytes, and
    # SQLite's clustered tables (nothing in PostgreSQL).
    bigint: str
    double: str
    identity: str
    blob: str
    without_rowid: str
    # The game-id counter: its creation (schema step 4), the highest id handed out or stored,
    # the next one (a statement returning it), and, after copying another database's rows,
    # continuing above the copied ids (one ``?``: the source's highest game id).
    create_game_ids: tuple[str, ...]
    last_game_id: str
    next_game_id: str
    continue_ids: str
    # Row locks a claim takes in PostgreSQL (SQLite's transactions hold the whole database).
    row_locks: bool
    # Several writes as one statement: a data-modifying WITH, and RETURNING that names every table
    # of an UPDATE ... FROM (PostgreSQL: one round trip instead of one a statement). SQLite runs
    # in this process, where a statement costs no trip, and takes neither: its writes go one by one.
    chained_writes: bool
    # A statement that makes transactions with the same key (``?``) take turns, or None where
    # every write transaction takes turns anyway (SQLite).
    take_turns: str | None
    # A statement telling other processes that a game changed (``?``: its id), or None.
    announce_game: str | None
    # Statements keeping a column of bytes that are compressed already out of line and not
    # compressed again (``{table}``, ``{column}``): PostgreSQL's TOAST would try; none in SQLite.
    keep_packed: tuple[str, ...]

    def ddl(self, sql: str) -> str:
        return sql.format(bigint=self.bigint, double=self.double, identity=self.identity, blob=self.blob,
                          without_rowid=self.without_rowid)

    def for_update(self, of: str | None = None, *, skip_locked: bool = False) -> str:
        """The clause locking the rows a claim reads (``of``: only that table's), or nothing."""
        if not self.row_locks:
            return ""
        return " FOR UPDATE" + (f" OF {of}" if of else "") + (" SKIP LOCKED" if skip_locked else "")


class Database(ABC):
    """A connection (SQLite) or a pool (PostgreSQL) running the storage's SQL."""

    dialect: Dialect

    @abstractmethod
    async def open(self, migrate: Callable[[], Awaitable[Any]]) -> None:
        """Connect, then bring the schema up to date with ``migrate``."""
    @abstractmethod
    async def open_existing(self) -> None:
        """Connect to a database that must exist already, changing nothing (no migration)."""
    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def transaction(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``work`` in one read-write transaction; it is rolled back if ``work`` raises."""

    async def grouped(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """A transaction whose commit may be shared with others asked for meanwhile (SQLite's
        group commit); ``work`` failing fails alone."""
        return await self.transaction(work)

    @abstractmethod
    async def read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run several reads (``work``) on one connection."""

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.read(lambda conn: conn.one(sql, params))

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.read(lambda conn: conn.all(sql, params))

    async def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.one(sql, params)
        return row[0] if row is not None else None

    async def change(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One write statement, committed; how many rows it changed."""
        return await self.transaction(lambda conn: conn.execute(sql, params))

    async def change_returning(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """One write statement with ``RETURNING``, committed; the (first) row it returned."""
        return await self.transaction(lambda conn: conn.one(sql, params))

    async def change_returning_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One write statement with ``RETURNING``, committed; every row it returned."""
        return await self.transaction(lambda conn: conn.all(sql, params))

    @abstractmethod
    def is_conflict(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a unique violation: another writer stored the same key first."""

    @abstractmethod
    async def schema_version(self) -> int: ...
    @abstractmethod
    async def migrate(self, steps: Sequence[Step], target: int) -> int:
        """Take ``steps[version:target]``, each in its own transaction, one process at a time."""

    async def insert_rows(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        """Store raw rows (into an empty table) in one transaction."""
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks(len(columns))})"
        await self.transaction(lambda conn: conn.executemany(sql, rows))

    async def watch_games(self, changed: Callable[[int], None]) -> None:
        """Call ``changed(game_id)`` whenever another process commits a change to a game, where
        the database can tell (``Dialect.announce_game``), until ``close``."""
        return None


class Step:
    """One schema step: its statements (types as ``Dialect.ddl`` names them; a function of the
    dialect where the backends need different statements), then, in the same transaction, an
    optional data step."""

    def __init__(self, *statements: str | Callable[[Dialect], Sequence[str]],
                 then: Callable[[Connection], Awaitable[None]] | None = None) -> None:
        self.statements = statements
        self.then = then

    def sql(self, dialect: Dialect) -> list[str]:
        out: list[str] = []
        for statement in self.statements:
            if isinstance(statement, str):
                out.append(dialect.ddl(statement))
            else:
                out += statement(dialect)
        return out

    async def apply(self, conn: Connection, dialect: Dialect) -> None:
        for sql in self.sql(dialect):
            await conn.execute(sql)
        if self.then is not None:
            await self.then(conn)


def marks(n: int) -> str:
    """``n`` placeholders, comma-separated (for ``IN (...)`` and ``VALUES (...)``)."""
    return ", ".join("?" * n)
