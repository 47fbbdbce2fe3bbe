"""The database connection: opening, migrations, and serialised statements and transactions.

One aiosqlite connection in autocommit mode, guarded by an `asyncio.Lock`: every statement and
every transaction holds the lock, so a compare-and-swap is atomic within the process and no
coroutine ever reads another's uncommitted writes. Other processes are kept out by SQLite's own
locking (WAL, `BEGIN IMMEDIATE`, busy_timeout).

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

# The transaction the current task (and the tasks it starts) is inside, if any.
_current: contextvars.ContextVar[_Transaction | None] = contextvars.ContextVar(
    "sixshooter_storage_tx", default=None
)


class StorageError(RuntimeError):
    """The database cannot be opened or used; the message says which file and why."""


class Rollback(Exception):
    """Raise inside `Database.transaction()` to undo it on purpose (e.g. a compare-and-swap
    lost); it propagates like any exception, so code after the block never runs as if the
    transaction had committed. Catch it around the block."""


class _Transaction:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.active = True
        self.savepoints = 0


class Database:
    """Open with `await Database.open(path)`; share one instance; `await close()` at exit."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls, path: str | PathLike[str], *, migrations: Sequence[str] = MIGRATIONS
    ) -> Database:
        """Connect, set the pragmas and run pending migrations; StorageError if that fails."""
        where = str(path)
        try:
            conn = await aiosqlite.connect(where, isolation_level=None)
        except sqlite3.Error as e:
            raise StorageError(f"cannot open the database {where!r}: {e}") from e
        conn.row_factory = sqlite3.Row
        db = cls(conn, where)
        try:
            await db._configure()
            await db._migrate(migrations)
        except BaseException as e:
            await conn.close()
            if isinstance(e, sqlite3.Error):
                raise StorageError(f"cannot use the database {where!r}: {e}") from e
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def _configure(self) -> None:
        for pragma in ("foreign_keys = ON", "busy_timeout = 5000", "synchronous = NORMAL"):
            await self._conn.execute(f"PRAGMA {pragma}")
        row = await self._one("PRAGMA journal_mode = WAL", ())
        mode = str(row[0]) if row else "?"
        if mode.lower() != "wal" and self.path != ":memory:":
            log.warning("database %s: journal_mode is %s, not wal", self.path, mode)

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
                    f"BEGIN IMMEDIATE;\n{script}\n;PRAGMA user_version = {version};\nCOMMIT;"
                )
            except BaseException:
                if self._conn.in_transaction:
                    await self._conn.rollback()
                raise

    # --- statements ---------------------------------------------------------------------

    @asynccontextmanager
    async def _statement(self, sql: str, params: Params) -> AsyncIterator[aiosqlite.Cursor]:
        """Run one statement, holding the lock unless the caller is inside our transaction."""
        async with AsyncExitStack() as stack:
            if not self.in_transaction:
                await stack.enter_async_context(self._lock)
            try:
                async with self._conn.execute(sql, params) as cursor:
                    yield cursor
            except sqlite3.Error as e:
                raise StorageError(f"database {self.path!r}: {e}") from e

    async def _one(self, sql: str, params: Params) -> sqlite3.Row | None:
        async with self._conn.execute(sql, params) as cursor:
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
        async with self._statement(sql, params) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._statement(sql, params) as cursor:
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
        inside the block join the transaction while it lasts; do not await, inside the block,
        a task started before it that uses the database (it would wait for the lock you hold).
        """
        outer = _current.get()
        if outer is not None and outer.active and outer.db is self:
            async with self._savepoint(outer):
                yield
            return
        async with self._lock:
            await self._rollback_quietly()  # a transaction left over by a failed rollback
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
                await self._rollback_quietly()
                if isinstance(e, sqlite3.Error):
                    raise StorageError(f"database {self.path!r}: {e}") from e
                raise
            finally:
                _current.reset(token)

    @asynccontextmanager
    async def _savepoint(self, tx: _Transaction) -> AsyncIterator[None]:
        tx.savepoints += 1
        name = f"sp{tx.savepoints}"
        await self._conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            await self._conn.execute(f"ROLLBACK TO {name}")
            await self._conn.execute(f"RELEASE {name}")
            raise
        await self._conn.execute(f"RELEASE {name}")

    async def _rollback_quietly(self) -> None:
        if not self._conn.in_transaction:
            return
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("database %s: rollback failed", self.path)
