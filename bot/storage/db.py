"""The database: opening, migrations, statements and transactions over one writer and readers.

The file is in WAL mode and reached through several aiosqlite connections:

* **One writer.** Every write and every transaction runs on it, one at a time (an
  `asyncio.Lock`), so a compare-and-swap is atomic within the process and no coroutine ever
  reads another's uncommitted writes. Other processes are kept out by SQLite's own locking
  (`BEGIN IMMEDIATE`, busy_timeout).
* **A few readers** (`PRAGMA query_only`). A read outside a transaction runs on one of them:
  WAL lets it read the last committed state while a write waits for the file's write lock,
  here or in another process, so a stalled write never stalls a read. Reads inside a
  transaction run on the writer and see the transaction's own writes.
* **Nothing waits forever.** A write waits at most the busy timeout for the writer (behind
  this process's other writes), then at most the busy timeout in SQLite for a lock another
  process holds; either way it fails with `StorageError` ("database is locked", "busy").

    db = await Database.open("sixshooter.db")
    async with db.transaction():        # statements inside join it, whichever repository runs them
        ...                             # any exception undoes it all, and propagates
    await db.close()

Repositories call `execute` / `insert` / `fetchone` / `fetchall` with `?` parameters only.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from os import PathLike
from typing import Any

import aiosqlite

from bot.storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

Params = Sequence[Any]

BUSY_TIMEOUT = 5.0  # seconds a write may wait for the writer, and then for the file's lock
READERS = 3  # reader connections (reads outside a transaction run on them, in parallel)

# The transaction the current task (and the tasks it starts) is inside, if any.
_current: contextvars.ContextVar[_Transaction | None] = contextvars.ContextVar(
    "sixshooter_storage_tx", default=None
)


class StorageError(RuntimeError):
    """The database cannot be opened or used; the message says which file and why."""


class ConstraintError(StorageError):
    """A constraint (UNIQUE, CHECK, FOREIGN KEY, NOT NULL) refused the statement; nothing of
    that statement was written. Repositories turn the ones they expect into results."""


class Rollback(Exception):
    """Raise inside `Database.transaction()` to undo it on purpose (e.g. a compare-and-swap
    lost); it propagates like any exception, so code after the block never runs as if the
    transaction had committed. Catch it around the block."""


class _Transaction:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.active = True
        self.savepoints = 0


def _error(path: str, e: sqlite3.Error) -> StorageError:
    kind = ConstraintError if isinstance(e, sqlite3.IntegrityError) else StorageError
    return kind(f"database {path!r}: {e}")


def _probe(where: str) -> None:
    sqlite3.connect(where).close()


async def _connect(where: str) -> aiosqlite.Connection:
    # The file is tried first in a thread this coroutine waits for: when aiosqlite's own
    # connect fails (a missing directory...), it stops its worker thread without waiting for
    # it, and that thread may then report to an event loop that is already closed.
    try:
        await asyncio.to_thread(_probe, where)
        conn = await aiosqlite.connect(where, isolation_level=None)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open the database {where!r}: {e}") from e
    conn.row_factory = sqlite3.Row
    return conn


class Database:
    """Open with `await Database.open(path)`; share one instance; `await close()` at exit."""

    def __init__(self, writer: aiosqlite.Connection, path: str, *,
                 busy_timeout: float = BUSY_TIMEOUT) -> None:
        if busy_timeout <= 0:
            raise ValueError("the busy timeout must be positive")
        self._conn = writer
        self.path = path
        self.busy_timeout = busy_timeout
        self._lock = asyncio.Lock()  # held by every write and transaction on the writer
        self._readers: list[aiosqlite.Connection] = []
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | PathLike[str],
        *,
        migrations: Sequence[str] = MIGRATIONS,
        busy_timeout: float = BUSY_TIMEOUT,
        readers: int = READERS,
    ) -> Database:
        """Connect, set the pragmas and run pending migrations; StorageError if that fails.

        `busy_timeout` (seconds) bounds how long a write waits; `readers` is the number of
        reader connections (none for ":memory:" or a file not in WAL mode: reads then share
        the writer).
        """
        where = str(path)
        db = cls(await _connect(where), where, busy_timeout=busy_timeout)
        try:
            wal = await db._configure(db._conn)
            await db._migrate(migrations)
            for _ in range(readers if wal else 0):
                conn = await _connect(where)
                db._readers.append(conn)
                await db._configure(conn, reader=True)
                db._idle.put_nowait(conn)
        except BaseException as e:
            for conn in (db._conn, *db._readers):
                await conn.close()
            if isinstance(e, sqlite3.Error):
                raise StorageError(f"cannot use the database {where!r}: {e}") from e
            raise
        return db

    async def close(self) -> None:
        """Wait for the statements in progress (a write ends within the busy timeout), then
        close every connection. Statements after this raise StorageError."""
        if self._closed:
            return
        self._closed = True
        try:
            async with self._lock:
                await self._conn.close()
        finally:
            for _ in self._readers:
                conn = await self._idle.get()
                await conn.close()

    async def _configure(self, conn: aiosqlite.Connection, *, reader: bool = False) -> bool:
        """Set a connection's pragmas; True if the file is in WAL mode."""
        busy_ms = max(1, round(self.busy_timeout * 1000))
        for pragma in ("foreign_keys = ON", f"busy_timeout = {busy_ms:d}",
                       "synchronous = NORMAL"):
            await conn.execute(f"PRAGMA {pragma}")
        if reader:
            await conn.execute("PRAGMA query_only = ON")
            return True
        row = await self._one(conn, "PRAGMA journal_mode = WAL")
        mode = str(row[0]) if row else "?"
        if mode.lower() != "wal" and self.path != ":memory:":
            log.warning("database %s: journal_mode is %s, not wal", self.path, mode)
        return mode.lower() == "wal"

    async def user_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def _migrate(self, migrations: Sequence[str]) -> None:
        current = await self.user_version()
        if current > len(migrations):
            raise StorageError(
                f"the database {self.path!r} has schema version {current}, newer than this "
                f"bot knows ({len(migrations)}): run a newer version of the bot, or restore "
                "a backup made for this one"
            )
        for version in range(current + 1, len(migrations) + 1):
            script = migrations[version - 1]
            log.info("database %s: migrating to schema version %d", self.path, version)
            try:
                # One script: BEGIN, the migration and its version bump commit or fail together.
                # (executescript runs a script in autocommit mode, so the BEGIN is ours.)
                await self._conn.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\n;PRAGMA user_version = {version:d};\nCOMMIT;"
                )
            except BaseException:
                await self._rollback_quietly()
                raise

    # --- connections --------------------------------------------------------------------

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        """Hold the writer, waiting for it at most the busy timeout."""
        try:
            async with asyncio.timeout(self.busy_timeout):
                await self._lock.acquire()
        except TimeoutError:
            raise StorageError(
                f"database {self.path!r}: busy: the writer stayed taken for "
                f"{self.busy_timeout:g} s") from None
        try:
            if self._conn.in_transaction:  # left over by a cancelled BEGIN
                await self._rollback_quietly()
            yield
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        conn = await self._idle.get()
        try:
            yield conn
        finally:
            self._idle.put_nowait(conn)

    # --- statements ---------------------------------------------------------------------

    @asynccontextmanager
    async def _statement(self, sql: str, params: Params,
                         *, read: bool = False) -> AsyncIterator[aiosqlite.Cursor]:
        """Run one statement: inside our transaction on the writer as it is; else a read on a
        reader, a write on the writer once it is free."""
        if self._closed:
            raise StorageError(f"database {self.path!r}: closed")
        async with AsyncExitStack() as stack:
            conn = self._conn
            if not self.in_transaction:
                if read and self._readers:
                    conn = await stack.enter_async_context(self._reading())
                else:
                    await stack.enter_async_context(self._writing())
            try:
                async with conn.execute(sql, params) as cursor:
                    yield cursor
            except sqlite3.Error as e:
                raise _error(self.path, e) from e

    @staticmethod
    async def _one(conn: aiosqlite.Connection, sql: str) -> sqlite3.Row | None:
        async with conn.execute(sql) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        async with self._statement(sql, params) as cursor:
            return int(cursor.rowcount)

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT; returns the new row's id."""
        async with self._statement(sql, params) as cursor:
            if cursor.lastrowid is None:
                raise StorageError(f"database {self.path!r}: no row id after an insert")
            return int(cursor.lastrowid)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """One row of a query (a read: outside a transaction it runs on a reader)."""
        async with self._statement(sql, params, read=True) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Every row of a query (a read: outside a transaction it runs on a reader)."""
        async with self._statement(sql, params, read=True) as cursor:
            return list(await cursor.fetchall())

    # --- transactions -------------------------------------------------------------------

    @property
    def in_transaction(self) -> bool:
        """The current task is inside a transaction of this database."""
        tx = _current.get()
        return tx is not None and tx.active and tx.db is self

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """All statements in the block commit together or not at all.

        Any exception (`Rollback` to say it is on purpose) undoes the block and propagates.
        A nested `transaction()` is a savepoint inside the outer one: an exception undoes just
        the nested block, and the outer one decides whether the rest commits. Tasks started
        inside the block join the transaction while it lasts. Other tasks' reads meanwhile
        see the state before it; their writes wait for it (at most the busy timeout).
        """
        outer = _current.get()
        if outer is not None and outer.active and outer.db is self:
            async with self._savepoint(outer):
                yield
            return
        if self._closed:
            raise StorageError(f"database {self.path!r}: closed")
        async with self._writing():
            tx = _Transaction(self)
            token = _current.set(tx)
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield
                finally:
                    tx.active = False
                await self._conn.execute("COMMIT")
            except BaseException as e:
                await self._rollback_quietly(always=True)
                if isinstance(e, sqlite3.Error):
                    raise _error(self.path, e) from e
                raise
            finally:
                _current.reset(token)

    @asynccontextmanager
    async def _savepoint(self, tx: _Transaction) -> AsyncIterator[None]:
        tx.savepoints += 1
        name = f"sp{tx.savepoints:d}"
        await self._conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            await self._conn.execute(f"ROLLBACK TO {name}")
            await self._conn.execute(f"RELEASE {name}")
            raise
        await self._conn.execute(f"RELEASE {name}")

    async def _rollback_quietly(self, *, always: bool = False) -> None:
        """Undo an open transaction on the writer. `always`: even when none looks open yet (a
        cancelled BEGIN still queued in the connection's thread runs before this ROLLBACK)."""
        if not (always or self._conn.in_transaction):
            return
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            if "no transaction is active" not in str(e):
                log.exception("database %s: rollback failed", self.path)
