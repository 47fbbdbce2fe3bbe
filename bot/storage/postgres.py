"""The PostgreSQL engine, through asyncpg's connection pool.

* **Statements** are the repositories' portable SQL with `?` parameters, numbered `$1, $2, …`
  once per statement text (`numbered_sql`) and prepared once per connection (asyncpg's cache).
* **Transactions** run on one pooled connection, found again through the task's context, one
  at a time in this process (an `asyncio.Lock`, as SQLite's single writer), so one process
  behaves exactly as on SQLite; several processes are ordered by PostgreSQL's row locks, the
  compare-and-swap on every game's version, and a transaction's `lock` key (an advisory lock
  held to the outermost transaction's end). A nested transaction is a savepoint.
* **Reads** outside a transaction take any pooled connection and see the last committed state.
* **Nothing waits forever.** A connection is waited for at most the busy timeout, a statement's
  lock too (`lock_timeout`), and a statement runs at most a minute (`statement_timeout`, and
  asyncpg's `command_timeout` a few seconds later, whatever the server was told);
  past that, or while the server cannot be reached (a restart, a network cut), a statement
  fails with `StorageError`, and the pool connects again for the next one: a short outage
  stalls what needs the database and nothing else, and nothing is half-written.
* **Several servers** (libpq's `postgresql://u@db1:5432,db2:5432/bot?target_session_attrs=
  read-write`): asyncpg tries them in order at every new connection and keeps the first that
  takes writes. A write that meets a server taking none any more (a demoted primary: SQLSTATE
  25006) fails with `StorageError`, and every pooled connection is dropped and made again, so
  the next statement finds the primary of the moment instead of the pool keeping the old one.
* **The schema version** is the one row of `schema_version`; migrations run in one
  transaction each, under an advisory lock, so processes starting together migrate once.
* **Through a transaction pooler** (`?pooler=transaction` on the URL) the engine is
  `bot.storage.pooled`'s, psycopg's connections under this one's SQL (`bot.storage.engines`
  picks it): asyncpg can send a statement only as a named prepared one, which a pooler loses,
  or as an unnamed one prepared in a round trip of its own.

A new row's id comes back by `RETURNING id`. Telegram ids are BIGINT, times BIGINT unix
seconds (DOUBLE PRECISION where fractional), flags 0/1 INTEGERs, as on SQLite.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, cast
from urllib.parse import parse_qsl, urlencode, urlsplit

import asyncpg

from bot.instance import worker_name
from bot.storage.db import (
    BUSY_TIMEOUT,
    READERS,
    Capabilities,
    ConstraintError,
    Database,
    HeldLock,
    Location,
    Migration,
    Params,
    Row,
    StorageError,
    Transaction,
    UniqueViolation,
    lock_id,
    pending,
)
from bot.storage.locks import advisory_lock
from bot.storage.pgerrors import FAILURES as _FAILURES
from bot.storage.pgerrors import describe as _describe
from bot.storage.postgres_sql import (
    CATALOG,
    changed,
    numbered_sql,
    passwords,
    redact_url,
    servers,
)
from bot.storage.schema import POSTGRES_STEPS

log = logging.getLogger(__name__)

STATEMENT_TIMEOUT_MS = 60_000
MIGRATION_LOCK = 0x5158_0001  # pg_advisory_xact_lock key: one process migrates at a time
POOLER = "pooler"  # the URL's query parameter saying a pooler is in front, and its kind:
POOLERS = ("transaction",)  # (a session pooler is a direct connection, as far as the bot sees)

@dataclass(frozen=True, slots=True)
class DriverErrors:
    """A driver's exceptions, by what they mean to the bot (`PostgresDatabase._guard`)."""

    bug: type[BaseException]  # a parameter of the wrong type: propagates as it is
    read_only: type[BaseException]  # a write on a server that takes none (SQLSTATE 25006)
    unique: type[BaseException]  # a UNIQUE index or key refused the row
    constraint: type[BaseException]  # another constraint did
    failures: tuple[type[BaseException], ...]  # the server, the network, the driver


class PostgresDatabase(Database):
    """A PostgreSQL database; opened through `bot.storage.engines.open_database` with a
    `postgresql://` URL."""

    engine: ClassVar[str] = "postgresql"
    # Several bots may share it: what one holds in memory, another may have changed since.
    can: ClassVar[Capabilities] = Capabilities(
        one_process=False, advisory_locks=True, skip_locked=True)
    SKIP_LOCKED: ClassVar[str] = " FOR UPDATE SKIP LOCKED"
    CATALOG: ClassVar[Mapping[str, str]] = CATALOG
    ERRORS: ClassVar[DriverErrors] = DriverErrors(
        bug=asyncpg.DataError, read_only=asyncpg.ReadOnlySQLTransactionError,
        unique=asyncpg.UniqueViolationError,
        constraint=asyncpg.IntegrityConstraintViolationError, failures=_FAILURES)

    _begin: str = "BEGIN"  # and, on an engine that must, the session's settings each time

    def __init__(self, pool: Any, location: Location, *, busy_timeout: float) -> None:
        self._pool = pool
        self._url = location.target  # for a lock's own connection (try_hold); never shown
        self.path = location.shown
        self.busy_timeout = busy_timeout
        self._holder = worker_name()  # a lease's holder: host/pid/token (bot.instance)
        self._lock = asyncio.Lock()  # one transaction at a time in this process
        self._closed = False

    @classmethod
    def locate(cls, where: str) -> Location:
        """postgresql://user:password@host:5432/database (or postgres://); several servers as
        libpq writes them (`host1:5432,host2:5432`), tried in order, with
        `?target_session_attrs=read-write` (or `primary`) for the one that takes writes; and
        `?pooler=transaction` when a transaction pooler is in front."""
        try:
            named = servers(where)
        except ValueError as e:
            raise StorageError(f"not a usable PostgreSQL URL ({e}); expected "
                               "postgresql://user:password@host:5432/database") from None
        query = urlsplit(where).query
        pooler = dict(parse_qsl(query, keep_blank_values=True)).get(POOLER)
        if pooler is not None and pooler not in POOLERS:
            raise StorageError(f"unknown {POOLER}={pooler!r} in the PostgreSQL URL; expected "
                               f"{POOLER}=transaction (a transaction pooler such as PgBouncer)")
        if not urlsplit(where).path.strip("/") and not named:
            raise StorageError("the URL names no PostgreSQL server or database; expected "
                               "postgresql://user:password@host:5432/database")
        return Location(cls, where, redact_url(where), secrets=tuple(passwords(where)),
                        pooled=pooler is not None)

    @classmethod
    async def connect(cls, location: Location, *, migrations: Sequence[Migration] | None = None,
                      busy_timeout: float = BUSY_TIMEOUT, readers: int = READERS
                      ) -> PostgresDatabase:
        shown = location.shown
        settings = {"application_name": "sixshooter",
                    "lock_timeout": str(max(1, round(busy_timeout * 1000))),
                    "statement_timeout": str(STATEMENT_TIMEOUT_MS)}
        try:
            pool = await asyncpg.create_pool(
                location.target, min_size=0, max_size=max(2, readers + 2),
                timeout=busy_timeout, command_timeout=STATEMENT_TIMEOUT_MS / 1000 + 5,
                server_settings=settings, statement_cache_size=1024, reset=_keep_session)
        except _FAILURES as e:
            raise StorageError(f"cannot open the database {shown!r}: {_describe(e)}") from e
        db = cls(pool, location, busy_timeout=busy_timeout)
        await db._ready(migrations)
        return db

    async def _ready(self, migrations: Sequence[Migration] | None) -> None:
        """Run the pending migrations (None: the engine's own); if that fails, every
        connection is dropped at once, and the first connection's failure is the database's."""
        try:
            await self._migrate(POSTGRES_STEPS if migrations is None else migrations)
        except BaseException as e:
            self._pool.terminate()
            if isinstance(e, StorageError) and e.__cause__ is not None:  # the first connection
                raise StorageError(f"cannot open the database {self.path!r}: "
                                   f"{_describe(e.__cause__)}") from e
            raise

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            try:
                async with asyncio.timeout(self.busy_timeout):
                    await self._pool.close()
            except TimeoutError:
                self._pool.terminate()

    # --- schema ----------------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT max(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def try_hold(self, name: str) -> HeldLock | None:
        return await advisory_lock(self._url, self.path, name, timeout=self.busy_timeout)

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename <> 'schema_version' ORDER BY tablename")
        return [str(r[0]) for r in rows]

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        async with self.transaction():
            await self.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            await self.execute("CREATE TABLE IF NOT EXISTS schema_version"
                               " (version INTEGER NOT NULL)")
            current = await self.schema_version()
            tx = self.current
            assert tx is not None
            for version, script in pending(migrations, current, self.path):
                log.info("database %s: migrating to schema version %d", self.path, version)
                async with self._guard():
                    await tx.handle.execute(script)  # a script: several statements, no params
                await self.execute("DELETE FROM schema_version")
                await self.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))

    # --- statements ------------------------------------------------------------------------

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        """The driver's and the network's errors as StorageError (a constraint:
        ConstraintError); a parameter of the wrong type is a bug and propagates as it is."""
        errors = self.ERRORS
        try:
            yield
        except errors.bug:
            raise
        except errors.read_only as e:  # SQLSTATE 25006
            await self._read_only(e)
            raise StorageError(f"database {self.path!r}: {_describe(e)}: the server takes no "
                               "writes now; connecting again") from e
        except errors.unique as e:
            raise UniqueViolation(f"database {self.path!r}: {_describe(e)}") from e
        except errors.constraint as e:
            raise ConstraintError(f"database {self.path!r}: {_describe(e)}") from e
        except errors.failures as e:
            raise StorageError(f"database {self.path!r}: {_describe(e)}") from e

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """The transaction's connection (one statement at a time: tasks started inside the
        transaction share it), else a pooled one for this statement."""
        if self._closed:
            raise StorageError(f"database {self.path!r}: closed")
        tx = self.current
        if tx is not None:
            async with tx.handle_lock:
                yield tx.handle
            return
        async with self._guard():
            conn = await self._pool.acquire(timeout=self.busy_timeout)
        try:
            yield conn
        finally:
            await self._release(conn)

    async def _execute(self, sql: str, params: Params) -> int:
        async with self._connection() as conn, self._guard():
            return changed(await conn.execute(numbered_sql(sql), *params))

    async def _insert(self, sql: str, params: Params) -> int:
        async with self._connection() as conn, self._guard():
            new_id = await conn.fetchval(numbered_sql(f"{sql} RETURNING id"), *params)
        if new_id is None:
            raise StorageError(f"database {self.path!r}: no row id after an insert")
        return int(new_id)

    async def _fetchone(self, sql: str, params: Params) -> Row | None:
        async with self._connection() as conn, self._guard():
            return cast("Row | None", await conn.fetchrow(numbered_sql(sql), *params))

    async def _fetchall(self, sql: str, params: Params) -> list[Row]:
        async with self._connection() as conn, self._guard():
            return cast("list[Row]", await conn.fetch(numbered_sql(sql), *params))

    # --- transactions ----------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self, lock: str | None) -> AsyncIterator[None]:
        outer = self.current
        if outer is not None:
            async with self._savepoint(outer, lock):
                yield
            return
        if self._closed:
            raise StorageError(f"database {self.path!r}: closed")
        await self._take(self._lock)
        try:
            async with self._guard():
                handle = await self._pool.acquire(timeout=self.busy_timeout)
            tx = Transaction(self, handle)
            token = self._enter(tx)
            try:
                async with self._guard():  # one round trip: BEGIN, its settings, its lock
                    await handle.execute(self._begin + _held(lock))
                try:
                    yield
                finally:
                    tx.active = False
                async with self._guard():
                    await handle.execute("COMMIT")
            except BaseException:
                await self._rollback_quietly(handle)
                raise
            finally:
                self._leave(token)
                await self._release(handle)
        finally:
            self._lock.release()

    @asynccontextmanager
    async def _savepoint(self, tx: Transaction, lock: str | None) -> AsyncIterator[None]:
        tx.savepoints += 1
        name = f"sp{tx.savepoints:d}"
        async with tx.handle_lock, self._guard():  # a lock: held to the outer one's end
            await tx.handle.execute(f"SAVEPOINT {name}{_held(lock)}")
        try:
            yield
        except BaseException:
            async with tx.handle_lock, self._guard():
                await tx.handle.execute(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        async with tx.handle_lock, self._guard():
            await tx.handle.execute(f"RELEASE SAVEPOINT {name}")

    async def _read_only(self, e: BaseException) -> None:
        """A write met a server that takes none (a primary demoted, or set read-only): every
        pooled connection is dropped, the one in hand at its release, the idle ones at their
        next acquire, and connected again through the URL's servers, where
        `target_session_attrs=read-write` finds the one that takes writes now."""
        log.warning("database %s: %s: dropping its connections, connecting again",
                    self.path, _describe(e))
        await self._pool.expire_connections()

    async def _rollback_quietly(self, handle: Any) -> None:
        """Undo a transaction; if it never started (the server only warns), or its connection
        is gone (the server undoes it then), there is nothing to undo."""
        try:
            await handle.execute("ROLLBACK")
        except self.ERRORS.failures as e:
            log.debug("database %s: rollback: %s", self.path, _describe(e))

    async def _release(self, handle: Any) -> None:
        try:
            await self._pool.release(handle)
        except self.ERRORS.failures as e:
            log.debug("database %s: release: %s", self.path, _describe(e))


def _held(lock: str | None) -> str:
    """What takes a transaction's `lock` (an advisory lock on db.lock_id of its key), after its
    BEGIN or SAVEPOINT in the same round trip; nothing without one."""
    return "" if lock is None else f"; SELECT pg_advisory_xact_lock({lock_id(lock):d})"


def without_pooler(url: str) -> tuple[str, bool]:
    """The URL asyncpg is given (which would send an unknown query parameter to the server as
    a setting), and whether a transaction pooler is in front."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in query if k != POOLER]
    if len(kept) == len(query):
        return url, False
    return parts._replace(query=urlencode(kept)).geturl(), True


async def _keep_session(conn: Any) -> None:
    """A connection back in the pool keeps its session: asyncpg still rolls back a transaction
    left open, and the bot sets nothing else on a pooled connection (no LISTEN, no SET, no
    session advisory lock): the default reset query would be a round trip for nothing."""
