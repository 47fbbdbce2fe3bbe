"""The database seam: one `Database` interface, two engines chosen by the URL's scheme.

    db = await Database.open("sixshooter.db")                    # SQLite (bot.storage.sqlite)
    db = await Database.open("sqlite:///data/sixshooter.db")     # the same, as a URL
    db = await Database.open("postgresql://bot:pw@db:5432/six")  # PostgreSQL (bot.storage.postgres)
    async with db.transaction():        # statements inside join it, whichever repository runs them
        ...                             # any exception undoes it all, and propagates
    await db.close()

Repositories are written once for both engines: portable SQL with `?` parameters only (the
PostgreSQL engine numbers them), `insert` for a new row's id, and nothing else of an engine's
own. What truly differs (placeholders, a new row's id, where the schema version is kept, the
schema's types, error codes, connections and locking) lives in the two engine modules and in
each engine's numbered migrations (`bot.storage.migrations` for SQLite, and
`bot.storage.migrations_pg` for PostgreSQL, whose first step builds SQLite's V12 at once).

Both engines give the same guarantees to one process: a transaction is all or nothing; the
process runs one transaction at a time (so a read-then-write inside one is never interleaved
with another of this process's); a read outside a transaction sees the last committed state
and never waits for a write; nothing waits forever: a write waits at most the busy timeout,
then fails with `StorageError`, as does every statement while the database cannot be reached.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from os import PathLike, fspath
from typing import Any, ClassVar, Protocol
from urllib.parse import urlsplit

from bot.ops import metrics

Params = Sequence[Any]
Migration = tuple[int, str]  # (the schema version it takes the database to, its script)

BUSY_TIMEOUT = 5.0  # seconds a write may wait for the writer, and then for the database's locks
READERS = 3  # connections for reads outside a transaction (SQLite: readers; PostgreSQL: pool)

POSTGRES_SCHEMES = ("postgresql", "postgres")


class Row(Protocol):
    """A row as both engines return it: by column name or position (Row and
    asyncpg.Record)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Any: ...


class StorageError(RuntimeError):
    """The database cannot be opened or used; the message says which and why (no password)."""


class ConstraintError(StorageError):
    """A constraint (UNIQUE, CHECK, FOREIGN KEY, NOT NULL) refused the statement; nothing of
    that statement was written. Repositories turn the ones they expect into results."""


class UniqueViolation(ConstraintError):
    """A UNIQUE index or key refused the row (another writer got there first). Catch it
    around a nested `transaction()`: on PostgreSQL a failed statement spoils the rest of its
    transaction, and the savepoint keeps the rest."""


class Rollback(Exception):
    """Raise inside `Database.transaction()` to undo it on purpose (e.g. a compare-and-swap
    lost); it propagates like any exception, so code after the block never runs as if the
    transaction had committed. Catch it around the block."""


class Transaction:
    """The transaction a task is inside: its database, and the engine's handle for it."""

    def __init__(self, db: Database, handle: Any = None) -> None:
        self.db = db
        self.handle = handle  # PostgreSQL: the connection it runs on
        self.handle_lock = asyncio.Lock()  # one statement at a time on that connection
        self.active = True
        self.savepoints = 0


# The transaction the current task (and the tasks it starts) is inside, if any.
_current: contextvars.ContextVar[Transaction | None] = contextvars.ContextVar(
    "sixshooter_storage_tx", default=None
)


def chat_lock(chat_id: int) -> str:
    """The lock key of a chat's read-modify-writes (`Database.transaction(lock=...)`)."""
    return f"chat:{chat_id:d}"


def lock_id(key: str) -> int:
    """A lock key as a stable signed 64-bit number (every process and machine agree on it),
    as PostgreSQL's advisory locks take it."""
    digest = hashlib.blake2b(key.encode(), digest_size=8, person=b"sixshooter").digest()
    return int.from_bytes(digest, "big", signed=True)


def is_postgres(where: str | PathLike[str]) -> bool:
    return isinstance(where, str) and urlsplit(where).scheme in POSTGRES_SCHEMES


def sqlite_path(where: str | PathLike[str]) -> str:
    """The SQLite file of a path or a URL as SQLAlchemy writes it: `sqlite:///data/bot.db`
    (relative), `sqlite:////srv/bot.db` (absolute), `sqlite:///:memory:`."""
    text = fspath(where)
    if text.startswith("sqlite:"):
        if not text.startswith("sqlite:///") or text == "sqlite:///":
            raise StorageError(f"{text!r}: a SQLite URL is sqlite:///path/to/file.db (three "
                               "slashes, then the path; a fourth for an absolute path), "
                               "or give the path alone")
        return text.removeprefix("sqlite:///")
    return text


def locate(where: str) -> tuple[str | None, str | None]:
    """Where a database is, as (the SQLite file, None) or (None, the PostgreSQL URL);
    StorageError saying what is wrong with it."""
    scheme = urlsplit(where).scheme if "://" in where or where.startswith("sqlite:") else ""
    if scheme in POSTGRES_SCHEMES:
        try:
            parts = urlsplit(where)
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
        except ValueError as e:
            raise StorageError(f"not a usable PostgreSQL URL ({e}); expected "
                               "postgresql://user:password@host:5432/database") from None
        if not parts.path.strip("/") and not parts.hostname:
            raise StorageError("the URL names no PostgreSQL server or database; expected "
                               "postgresql://user:password@host:5432/database")
        return None, where
    if scheme == "sqlite":
        return sqlite_path(where), None
    if scheme:
        raise StorageError(f"unknown database scheme {scheme!r}; give a SQLite file path "
                           "(or sqlite:///path) or a postgresql:// URL")
    return where, None


def redact_url(url: str) -> str:
    """A database URL as it may be shown: its password replaced."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def numbered(scripts: Sequence[str]) -> tuple[Migration, ...]:
    """Scripts taking the schema from version i to i + 1, as (version, script) steps."""
    return tuple((i + 1, s) for i, s in enumerate(scripts))


def pending(migrations: Sequence[Migration], current: int, where: str) -> list[Migration]:
    """The steps still to run from schema version `current`; StorageError if the database is
    newer than these migrations know."""
    latest = migrations[-1][0] if migrations else 0
    if current > latest:
        raise StorageError(
            f"the database {where!r} has schema version {current}, newer than this bot knows "
            f"({latest}): run a newer version of the bot, or restore a backup made for this one"
        )
    return [m for m in migrations if m[0] > current]


class HeldLock(Protocol):
    """A lock `Database.try_hold` took."""

    async def alive(self) -> bool:
        """Still held: the database confirms it within a few seconds."""
        ...

    async def release(self) -> None:
        """Give it up (also when the database cannot be reached any more)."""
        ...


class Database(ABC):
    """One engine's database; open with `await Database.open(where)`, share one instance,
    `await close()` at exit."""

    engine: ClassVar[str]  # "sqlite" or "postgresql"
    # Appended to a subquery that picks rows to claim: rows another process is claiming are
    # skipped, not waited for (PostgreSQL); SQLite has one process (its file lock), nothing.
    SKIP_LOCKED: ClassVar[str]
    path: str  # where it is, as it may be shown (a file path, or a URL without its password)
    busy_timeout: float

    @staticmethod
    async def open(
        where: str | PathLike[str],
        *,
        migrations: Sequence[Migration] | None = None,
        busy_timeout: float = BUSY_TIMEOUT,
        readers: int = READERS,
    ) -> Database:
        """Connect and run the pending migrations (None: the engine's own); StorageError if
        that fails. A `postgresql://` URL opens PostgreSQL; anything else is a SQLite file
        (a path, or `sqlite:///path`)."""
        if busy_timeout <= 0:
            raise ValueError("the busy timeout must be positive")
        if is_postgres(where):
            from bot.storage.postgres import PostgresDatabase

            return await PostgresDatabase.connect(
                str(where), migrations=migrations, busy_timeout=busy_timeout, readers=readers)
        from bot.storage.sqlite import SqliteDatabase

        return await SqliteDatabase.connect(
            sqlite_path(where), migrations=migrations, busy_timeout=busy_timeout,
            readers=readers)

    @abstractmethod
    async def close(self) -> None:
        """Wait for the statements in progress, then close every connection. Statements after
        this raise StorageError."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The latest migration this database has run."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT into a table with an `id` key; returns the new row's id."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """One row of a query (a read: outside a transaction it runs beside the writes)."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query (a read: outside a transaction it runs beside the writes)."""

    @abstractmethod
    def transaction(self, lock: str | None = None) -> AbstractAsyncContextManager[None]:
        """All statements in the block commit together or not at all.

        `lock` (e.g. `chat_lock(chat_id)`) names what the block reads and then writes: no
        other process's transaction with the same lock runs meanwhile, so a read-modify-write
        is as if one at a time across workers. PostgreSQL takes an advisory lock on the key,
        held to the end of the outermost transaction (waited for at most the busy timeout);
        SQLite's transaction is the database's one writer already. Take it at the start of
        the block, before any row is written, and one key per block (or in one order), so two
        transactions never wait for each other.

        Any exception (`Rollback` to say it is on purpose) undoes the block and propagates.
        A nested `transaction()` is a savepoint inside the outer one: an exception undoes just
        the nested block, and the outer one decides whether the rest commits. Tasks started
        inside the block join the transaction while it lasts. Other tasks' reads meanwhile
        see the state before it; their writes wait for it (at most the busy timeout).
        """

    def together(self, statements: int) -> AbstractAsyncContextManager[None]:
        """A transaction for `statements` statements to take effect together, or none for one
        (a statement is atomic on its own; BEGIN and COMMIT would be two more trips)."""
        return self.transaction() if statements > 1 else nullcontext()

    @abstractmethod
    async def try_hold(self, name: str) -> HeldLock | None:
        """Take the lock `name` for this process, held until released or this process's
        connection to the database ends (a kill, a network loss); None if another holds it.
        SQLite: the database's file lock (bot.instance) already makes this process the only
        one, so it always succeeds."""

    @abstractmethod
    async def tables(self) -> list[str]:
        """The schema's tables (not the engine's own bookkeeping), in no particular order."""

    # --- shared by the engines -----------------------------------------------------------

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        metrics.time_statements(cls)  # each statement of each engine timed, failures counted

    async def ping(self) -> None:
        """Return once the database answers a trivial query (StorageError if it cannot)."""
        await self.fetchone("SELECT 1")

    @property
    def current(self) -> Transaction | None:
        """The current task's transaction on this database, if it is inside one."""
        tx = _current.get()
        return tx if tx is not None and tx.active and tx.db is self else None

    @property
    def in_transaction(self) -> bool:
        """The current task is inside a transaction of this database."""
        return self.current is not None

    @staticmethod
    def _enter(tx: Transaction) -> contextvars.Token[Transaction | None]:
        return _current.set(tx)

    @staticmethod
    def _leave(token: contextvars.Token[Transaction | None]) -> None:
        _current.reset(token)
