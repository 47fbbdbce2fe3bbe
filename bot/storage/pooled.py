"""PostgreSQL behind a transaction pooler (`?pooler=transaction`), through psycopg.

A transaction pooler (PgBouncer's `pool_mode = transaction`, the pooled URLs of the managed
services) may run each transaction on another server connection, and keeps no named prepared
statement from one to the next. asyncpg can then only send a statement unnamed, and it
prepares one in a round trip of its own before running it: two round trips, and a statement
described afresh, for each of a tap's dozen statements. psycopg sends Parse, Bind, Execute and
Sync together (`prepare_threshold=None`): one round trip, nothing kept on the server. So this
engine is `PostgresDatabase` (its SQL, schema, migrations and catalog) with psycopg's
connections instead of asyncpg's, chosen by `bot.storage.engines` for a URL saying a pooler
is in front:

* **Parameters** are the repositories' `?`, numbered `$1, $2, …` (psycopg's raw cursor), each
  sent with psycopg's type for its value (an int as the smallest integer type that holds it, a
  float as a float8, which a column of integers takes, rounded, as asyncpg has it).
* **Connections** come from a pool of this module's: a connection is made when none is idle
  (within the busy timeout, the real reason if it cannot be), and one in a wrong state (broken,
  or left inside a transaction) is closed on its way back rather than kept. A write that meets a
  server taking none any more (SQLSTATE 25006) drops them all, as on the direct engine.
* **Transactions** begin with their settings and lock in one round trip (`BEGIN; SET LOCAL
  lock_timeout …; SET LOCAL statement_timeout …; SELECT pg_advisory_xact_lock(…)`): a pooler
  passes on no settings at connect. Statements outside a transaction get the timeouts the role
  has (README), and the client's own limit (`STATEMENT_TIMEOUT_MS` and a few seconds); a cut
  network is noticed by the socket's keepalives.
* **The poller's hold** is a lease row (`bot.storage.locks.take_lease`): no session outlives a
  transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import psycopg
from psycopg import errors as pgerr
from psycopg.conninfo import make_conninfo
from psycopg.pq import TransactionStatus
from psycopg.rows import RowMaker

from bot.storage.db import (
    BUSY_TIMEOUT,
    READERS,
    HeldLock,
    Location,
    Migration,
    Params,
    Row,
    StorageError,
)
from bot.storage.locks import take_lease
from bot.storage.pgerrors import describe as _describe
from bot.storage.postgres import (
    STATEMENT_TIMEOUT_MS,
    DriverErrors,
    PostgresDatabase,
    without_pooler,
)
from bot.storage.postgres_sql import numbered_sql

log = logging.getLogger(__name__)

FAILURES = (OSError, TimeoutError, psycopg.Error)
CLIENT_TIMEOUT = STATEMENT_TIMEOUT_MS / 1000 + 5  # the client's own limit on one statement
# The client's own socket (libpq's options, not startup parameters, which a pooler refuses): a
# cut network or a vanished pooler ends a statement within about a minute, inside a
# transaction too, where `statement_timeout` bounds only the server's side.
_NETWORK = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 5,
            "keepalives_count": 3, "tcp_user_timeout": 60_000}


class Record:
    """A row by column name or position, as the other engines give it."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: Mapping[str, int], values: Sequence[Any]) -> None:
        self._names = names
        self._values = values

    def __getitem__(self, key: int | str, /) -> Any:
        return self._values[self._names[key] if isinstance(key, str) else key]

    def keys(self) -> Iterator[str]:
        return iter(self._names)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Record({dict(zip(self._names, self._values, strict=True))!r})"


def _records(cursor: Any) -> RowMaker[Record]:
    result = cursor.pgresult  # its columns' names, read once for all its rows
    names = {} if result is None else {
        result.fname(i).decode(): i for i in range(result.nfields)}
    return lambda values: Record(names, values)


Handle = psycopg.AsyncRawCursor[Record]  # a connection's one cursor: what statements run on


class _Pool:
    """Connections to the pooler, each with its cursor: an idle one if there is, else a new
    one; at most `size` at once."""

    def __init__(self, conninfo: str, size: int) -> None:
        self._conninfo = conninfo
        self._slots = asyncio.Semaphore(size)
        self._idle: list[Handle] = []
        self._born: dict[Handle, int] = {}
        self._generation = 0  # connections of an older one are closed, not reused (expire)

    async def acquire(self, timeout: float) -> Handle:
        if self._slots.locked():
            async with asyncio.timeout(timeout):
                await self._slots.acquire()
        else:
            await self._slots.acquire()
        try:
            while self._idle:
                cursor = self._idle.pop()
                if not cursor.connection.closed and self._born.get(cursor) == self._generation:
                    return cursor
                await self._close(cursor)
            async with asyncio.timeout(timeout):
                conn = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, prepare_threshold=None)
            cursor = psycopg.AsyncRawCursor(conn, row_factory=_records)
            self._born[cursor] = self._generation
            return cursor
        except BaseException:
            self._slots.release()
            raise

    async def release(self, cursor: Handle) -> None:
        """Back to the idle ones if it is idle and of this generation, else closed."""
        conn = cursor.connection
        try:
            if (conn.closed or conn.broken or self._born.get(cursor) != self._generation
                    or conn.info.transaction_status != TransactionStatus.IDLE):
                await self._close(cursor)
            else:
                self._idle.append(cursor)
        finally:
            self._slots.release()

    async def expire_connections(self) -> None:
        """Every connection made so far is closed instead of reused (as asyncpg's pool)."""
        self._generation += 1

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for cursor in idle:
            await self._close(cursor)

    def terminate(self) -> None:
        """Every idle connection dropped at once (as asyncpg's pool), without a goodbye."""
        idle, self._idle = self._idle, []
        for cursor in idle:
            self._born.pop(cursor, None)
            cursor.connection.pgconn.finish()

    async def _close(self, cursor: Handle) -> None:
        self._born.pop(cursor, None)
        try:
            await cursor.connection.close()
        except FAILURES as e:
            log.debug("pooled connection: close: %s", _describe(e))


class PooledPostgresDatabase(PostgresDatabase):
    """A PostgreSQL database behind a transaction pooler; opened through
    `bot.storage.engines.open_database` with a `postgresql://…?pooler=transaction` URL."""

    ERRORS: ClassVar[DriverErrors] = DriverErrors(
        bug=psycopg.DataError, read_only=pgerr.ReadOnlySqlTransaction,
        unique=pgerr.UniqueViolation, constraint=psycopg.IntegrityError, failures=FAILURES)

    @classmethod
    async def connect(cls, location: Location, *, migrations: Sequence[Migration] | None = None,
                      busy_timeout: float = BUSY_TIMEOUT, readers: int = READERS
                      ) -> PooledPostgresDatabase:
        url, _ = without_pooler(location.target)
        try:
            conninfo = make_conninfo(url, application_name="sixshooter",
                                     connect_timeout=max(2, round(busy_timeout)), **_NETWORK)
        except psycopg.Error as e:  # libpq's words may quote the URL: its password masked
            said = _describe(e)
            for secret in location.secrets:
                said = said.replace(secret, "***")
            raise StorageError(f"not a usable PostgreSQL URL for a pooler {location.shown!r}: "
                               f"{said}") from None
        db = cls(_Pool(conninfo, max(2, readers + 2)), location, busy_timeout=busy_timeout)
        timeouts = {"lock_timeout": str(max(1, round(busy_timeout * 1000))),
                    "statement_timeout": str(STATEMENT_TIMEOUT_MS)}
        db._begin = "BEGIN" + "".join(f"; SET LOCAL {k} = {v}" for k, v in timeouts.items())
        await db._ready(migrations)
        return db

    async def try_hold(self, name: str) -> HeldLock | None:
        return await take_lease(self, self._holder, name)

    # --- statements ------------------------------------------------------------------------

    async def _run(self, cursor: Handle, sql: str, params: Params) -> None:
        """One statement; outside a transaction (where no `statement_timeout` was set) the
        client gives up on it after `CLIENT_TIMEOUT`."""
        if self.current is not None:
            await cursor.execute(numbered_sql(sql), params)
            return
        async with asyncio.timeout(CLIENT_TIMEOUT):
            await cursor.execute(numbered_sql(sql), params)

    async def _execute(self, sql: str, params: Params) -> int:
        async with self._connection() as cursor, self._guard():
            await self._run(cursor, sql, params)
            return max(0, int(cursor.rowcount))

    async def _insert(self, sql: str, params: Params) -> int:
        async with self._connection() as cursor, self._guard():
            await self._run(cursor, f"{sql} RETURNING id", params)
            row = await cursor.fetchone()
        if row is None or row[0] is None:
            raise StorageError(f"database {self.path!r}: no row id after an insert")
        return int(row[0])

    async def _fetchone(self, sql: str, params: Params) -> Row | None:
        async with self._connection() as cursor, self._guard():
            await self._run(cursor, sql, params)
            row: Row | None = await cursor.fetchone()
            return row

    async def _fetchall(self, sql: str, params: Params) -> list[Row]:
        async with self._connection() as cursor, self._guard():
            await self._run(cursor, sql, params)
            return list(await cursor.fetchall())
