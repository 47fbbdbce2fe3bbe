"""The SQLite engine (the default): one file in WAL mode through several aiosqlite connections.

* **One writer.** Every write and every transaction runs on it, in order: a transaction holds
  it (an asyncio semaphore) from its BEGIN to its end, a write alone only while it is queued
  on the writer's thread (which runs its calls in the order they came), so a compare-and-swap
  is atomic within the process, no coroutine ever reads another's uncommitted writes, and
  writes follow each other without each waiting for the round trip of the one before.
  Other processes are kept out by SQLite's own locking (`BEGIN IMMEDIATE`, busy_timeout)
  and by the bot's lock file (`bot.instance`).
* **A few readers** (`PRAGMA query_only`). A read outside a transaction runs on one of them:
  WAL lets it read the last committed state while a write waits for the file's write lock,
  here or in another process, so a stalled write never stalls a read. Reads inside a
  transaction run on the writer and see the transaction's own writes.
* **Nothing waits forever.** A write waits at most the busy timeout for the writer (behind
  this process's other writes and transactions: one still queued by then is not run), then
  at most the busy timeout in SQLite for a lock another process holds; either way it fails
  with `StorageError` ("database is locked", "busy").

The schema version is `PRAGMA user_version`; a new row's id is the cursor's `lastrowid`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import partial
from os import path as os_path
from typing import ClassVar

import aiosqlite

from bot.storage.db import (
    BUSY_TIMEOUT,
    READERS,
    Capabilities,
    Database,
    HeldLock,
    Location,
    Migration,
    Params,
    Row,
    StorageError,
    Transaction,
    pending,
)
from bot.storage.locks import FileLocked
from bot.storage.schema import sqlite_steps
from bot.storage.sqlite_calls import (
    T,
    changes,
    failure,
    fetch_all,
    fetch_one,
    in_thread,
    open_connection,
    submit,
    within,
)

log = logging.getLogger(__name__)


class SqliteDatabase(Database):
    """A SQLite file (or ":memory:"); opened through `bot.storage.engines.open_database`."""

    engine: ClassVar[str] = "sqlite"
    # One bot per file (its lock file, bot.instance): what it keeps in memory is the truth.
    can: ClassVar[Capabilities] = Capabilities(
        one_process=True, advisory_locks=False, skip_locked=False)
    SKIP_LOCKED: ClassVar[str] = ""
    CATALOG: ClassVar[Mapping[str, str]] = {
        "references": 'SELECT "table" FROM pragma_foreign_key_list(?)',
        "key": "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk",
    }

    def __init__(self, writer: aiosqlite.Connection, path: str, *,
                 busy_timeout: float = BUSY_TIMEOUT) -> None:
        if busy_timeout <= 0:
            raise ValueError("the busy timeout must be positive")
        self._conn = writer
        self.path = path
        self.busy_timeout = busy_timeout
        # Held by every write and transaction on the writer. A semaphore, not a Lock: its
        # `locked()` also counts those waiting, so a free writer is taken with no timer armed.
        self._lock = asyncio.BoundedSemaphore(1)
        self._readers: list[aiosqlite.Connection] = []
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._closed = False

    @classmethod
    def locate(cls, where: str) -> Location:
        """A path, or a URL as SQLAlchemy writes it: `sqlite:///data/bot.db` (relative),
        `sqlite:////srv/bot.db` (absolute), `sqlite:///:memory:`; `~` is the home directory."""
        if where.startswith("sqlite:"):
            if not where.startswith("sqlite:///") or where == "sqlite:///":
                raise StorageError(f"{where!r}: a SQLite URL is sqlite:///path/to/file.db (three "
                                   "slashes, then the path; a fourth for an absolute path), "
                                   "or give the path alone")
            where = where.removeprefix("sqlite:///")
        file = os_path.expanduser(where)
        return Location(cls, file, file, file)

    @classmethod
    async def connect(cls, location: Location, *, migrations: Sequence[Migration] | None = None,
                      busy_timeout: float = BUSY_TIMEOUT, readers: int = READERS
                      ) -> SqliteDatabase:
        """Connect, set the pragmas and run pending migrations; StorageError if that fails.
        `busy_timeout` (seconds) bounds how long a write waits; `readers` is the number of
        reader connections (none for ":memory:" or a file not in WAL mode: reads share the
        writer)."""
        where = location.target
        db = cls(await open_connection(where), where, busy_timeout=busy_timeout)
        try:
            wal = await db._configure(db._conn)
            await db._migrate(sqlite_steps(await db.schema_version()) if migrations is None
                              else migrations)
            for _ in range(readers if wal else 0):
                conn = await open_connection(where)
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

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def try_hold(self, name: str) -> HeldLock | None:
        return FileLocked()

    async def tables(self) -> list[str]:
        rows = await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"
                                   " AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return [str(r[0]) for r in rows]

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        for version, script in pending(migrations, await self.schema_version(), self.path):
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
        await self._take(self._lock)
        try:
            if self._conn.in_transaction:  # left over by a cancelled BEGIN
                await self._rollback_quietly()
            yield
        finally:
            self._lock.release()

    # --- statements ---------------------------------------------------------------------
    # Each statement is one trip to its connection's thread (bot.storage.sqlite_calls).

    async def _run(self, work: Callable[..., T], sql: str, params: Params, *,
                   read: bool = False) -> T:
        """Run one statement: inside our transaction on the writer as it is; else a read on a
        reader, a write queued on the writer once no transaction holds it."""
        if self._closed:
            raise StorageError(f"database {self.path!r}: closed")
        try:
            if self.in_transaction:
                return await in_thread(self._conn, work, sql, params)
            if read and self._readers:
                conn = await self._idle.get()
                try:
                    return await in_thread(conn, work, sql, params)
                finally:
                    self._idle.put_nowait(conn)
            # Held while queued only (module doc): at 200 duels a tap's nine writes each waited
            # 25 to 40 ms for the round trip of the one before, each run well under 1 ms.
            before = time.monotonic() + self.busy_timeout  # done or failed by then
            async with self._writing():
                queued = submit(self._conn, work, sql, params, before=before,
                                busy=self.busy_timeout)
            return await queued
        except sqlite3.Error as e:
            raise failure(self.path, e) from e

    @staticmethod
    async def _one(conn: aiosqlite.Connection, sql: str) -> sqlite3.Row | None:
        return await in_thread(conn, fetch_one, sql, ())

    async def _execute(self, sql: str, params: Params) -> int:
        return (await self._run(changes, sql, params))[0]

    async def _insert(self, sql: str, params: Params) -> int:
        rowid = (await self._run(changes, sql, params))[1]
        if rowid is None:
            raise StorageError(f"database {self.path!r}: no row id after an insert")
        return rowid

    async def _fetchone(self, sql: str, params: Params) -> Row | None:
        row: sqlite3.Row | None = await self._run(fetch_one, sql, params, read=True)
        return row

    async def _fetchall(self, sql: str, params: Params) -> list[Row]:
        return list(await self._run(fetch_all, sql, params, read=True))

    # --- transactions -------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self, lock: str | None) -> AsyncIterator[None]:
        # `lock`: nothing to take. BEGIN IMMEDIATE makes this the file's one writer (another
        # process's transaction waits for it), and the lock file lets one bot use the file.
        outer = self.current
        if outer is not None:
            async with self._savepoint(outer):
                yield
            return
        if self._closed:
            raise StorageError(f"database {self.path!r}: closed")
        before = time.monotonic() + self.busy_timeout  # begun or failed by then
        async with self._writing():
            tx = Transaction(self)
            token = self._enter(tx)
            try:
                # Another process holding the file is waited for only as long as is left of
                # the busy timeout after the wait for the writer: one wait, not two.
                await in_thread(self._conn, partial(within, before, self.busy_timeout,
                                                    changes), "BEGIN IMMEDIATE", ())
                try:
                    yield
                finally:
                    tx.active = False
                await self._conn.execute("COMMIT")
            except BaseException as e:
                await self._rollback_quietly(always=True)
                if isinstance(e, sqlite3.Error):
                    raise failure(self.path, e) from e
                raise
            finally:
                self._leave(token)

    @asynccontextmanager
    async def _savepoint(self, tx: Transaction) -> AsyncIterator[None]:
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
