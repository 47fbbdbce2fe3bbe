"""The database seam: one `Database` interface, each engine a subclass declaring what it can do.

    db = await open_database("sixshooter.db")                    # bot.storage.engines: SQLite
    db = await open_database("postgresql://bot:pw@db:5432/six")  # PostgreSQL, by the URL's scheme
    async with db.transaction():        # statements inside join it, whichever repository runs them
        ...                             # any exception undoes it all, and propagates
    await db.close()

An engine is registered by its URL scheme in `bot.storage.engines`, which parses a location
once (`Location`); the rest of the bot asks the engine's `Capabilities` (`db.can`), never its
name. This module imports no engine, and nothing above storage: whoever watches the statements
installs itself with `bot.storage.watch.watch` (bot.ops.metrics).

Repositories are written once for both engines: portable SQL with `?` parameters only (the
PostgreSQL engine numbers them), `insert` for a new row's id, and nothing else of an engine's
own. What truly differs (placeholders, a new row's id, where the schema version is kept, the
schema's types, error codes, connections and locking, the catalog's queries, how a location is
written) lives in each engine's module (`sqlite`, `postgres`, and their helpers `sqlite_calls`,
`postgres_sql`), and in the schema's one dialect table (`bot.storage.schema`: a V13 baseline and
the later steps, written once for both; SQLite's own V1-V13 for files made before them).

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
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from bot.storage.watch import committing, timed

Params = Sequence[Any]
Migration = tuple[int, str]  # (the schema version it takes the database to, its script)

BUSY_TIMEOUT = 5.0  # seconds a write may wait for the writer, and then for the database's locks
READERS = 3  # connections for reads outside a transaction (SQLite: readers; PostgreSQL: pool)


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


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What an engine can do: what the rest of the bot asks (`storage.can`), never its name."""

    # Only this process can use the database (SQLite: the lock file beside it, bot.instance):
    # what it holds in memory is the whole truth, and nothing needs sharing with another.
    one_process: bool
    # `transaction(lock=...)` and `try_hold` keep other processes out (PostgreSQL's advisory
    # locks); without them, there is no other process to keep out.
    advisory_locks: bool
    # A claim skips the rows another process is claiming (`Database.SKIP_LOCKED`).
    skip_locked: bool


@dataclass(frozen=True, slots=True)
class Location:
    """Where a database is, parsed once (`bot.storage.engines.locate`)."""

    engine: type[Database]
    target: str = field(repr=False)  # what the engine opens: the file, or the URL (a password too)
    shown: str  # as it may be shown: the file, or the URL with its password masked
    file: str | None = None  # the file it is in (the bot's lock goes beside it); None: a server
    # What no line may show: the URL's password, as written and decoded (the bot's log masks it)
    secrets: tuple[str, ...] = field(default=(), repr=False)
    pooled: bool = False  # a transaction pooler is in front (bot.storage.engines: its engine)


class Database(ABC):
    """One engine's database; open with `await open_database(where)` (bot.storage.engines),
    share one instance, `await close()` at exit. An engine implements the `_`-named statements
    and `_transaction`; the public ones here run them, and tell the watcher."""

    engine: ClassVar[str]  # the engine's name, as shown (metrics, `db copy`); ask `can`
    can: ClassVar[Capabilities]
    # Appended to a subquery that picks rows to claim: rows another process is claiming are
    # skipped, not waited for (PostgreSQL); SQLite has one process (its file lock), nothing.
    SKIP_LOCKED: ClassVar[str]
    # The catalog's queries `bot.storage.copy` asks, each of one table's name: "references"
    # (the tables its foreign keys refer to), "key" (its primary key's columns, in order),
    # and "identity" (its columns a sequence numbers) if the engine has such columns.
    CATALOG: ClassVar[Mapping[str, str]]
    path: str  # where it is, as it may be shown (a file path, or a URL without its password)
    busy_timeout: float

    @classmethod
    @abstractmethod
    def locate(cls, where: str) -> Location:
        """`where` (a path or a URL of one of this engine's schemes) as this engine's
        location; StorageError saying what is wrong with it."""

    @classmethod
    @abstractmethod
    async def connect(cls, where: Location, *, migrations: Sequence[Migration] | None,
                      busy_timeout: float, readers: int) -> Database:
        """Connect and run the pending migrations (None: the engine's own); StorageError if
        that fails (`bot.storage.engines.open_database`)."""

    @abstractmethod
    async def close(self) -> None:
        """Wait for the statements in progress, then close every connection. Statements after
        this raise StorageError."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The latest migration this database has run."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        return await timed(self.engine, self._execute(sql, params))

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT into a table with an `id` key; returns the new row's id."""
        return await timed(self.engine, self._insert(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """One row of a query (a read: outside a transaction it runs beside the writes)."""
        return await timed(self.engine, self._fetchone(sql, params))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query (a read: outside a transaction it runs beside the writes)."""
        return await timed(self.engine, self._fetchall(sql, params))

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
        block = self._transaction(lock)
        return block if self.in_transaction else committing(self.engine, block)

    @abstractmethod
    async def _execute(self, sql: str, params: Params) -> int: ...

    @abstractmethod
    async def _insert(self, sql: str, params: Params) -> int: ...

    @abstractmethod
    async def _fetchone(self, sql: str, params: Params) -> Row | None: ...

    @abstractmethod
    async def _fetchall(self, sql: str, params: Params) -> list[Row]: ...

    @abstractmethod
    def _transaction(self, lock: str | None) -> AbstractAsyncContextManager[None]: ...

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

    async def _take(self, turn: asyncio.Semaphore | asyncio.Lock) -> None:
        """Take this process's `turn` (its one writer, its one transaction at a time), waiting
        at most the busy timeout, then StorageError; a free one is taken with no timer armed."""
        try:
            if turn.locked():
                async with asyncio.timeout(self.busy_timeout):
                    await turn.acquire()
            else:
                await turn.acquire()
        except TimeoutError:
            raise StorageError(
                f"database {self.path!r}: busy: the writer stayed taken for "
                f"{self.busy_timeout:g} s") from None

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
