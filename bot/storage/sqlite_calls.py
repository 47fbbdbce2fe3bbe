"""SQLite connections opened, and statements run in one trip to their connection's thread each.

aiosqlite runs each connection's calls in a thread of its own; its cursor API takes a trip per
call (execute, then fetch, then close: three for a read, two for a write), each a wake-up of
the event loop. A tap's dozen statements paid for about thirty. Here a statement is run, read
and closed in the thread in one call (through aiosqlite's queue of calls, `_execute`).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import aiosqlite

from bot.storage.db import ConstraintError, Params, StorageError, UniqueViolation

T = TypeVar("T")

SHORTER_BY = 0.05  # seconds of the busy timeout gone before a statement's own is shortened


def failure(path: str, e: sqlite3.Error) -> StorageError:
    """A sqlite3 error as the storage's (a constraint's: ConstraintError, UniqueViolation)."""
    kind = StorageError
    if isinstance(e, sqlite3.IntegrityError):
        kind = UniqueViolation if str(e).startswith("UNIQUE") else ConstraintError
    return kind(f"database {path!r}: {e}")


def _probe(where: str) -> None:
    sqlite3.connect(where).close()


async def open_connection(where: str) -> aiosqlite.Connection:
    """A connection to the file `where`, its rows by name or position; StorageError if not."""
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


def changes(conn: sqlite3.Connection, sql: str, params: Params) -> tuple[int, int | None]:
    """(In the connection's thread.) A write: the rows it changed and the last row id."""
    cursor = conn.execute(sql, params)
    try:
        return int(cursor.rowcount), cursor.lastrowid
    finally:
        cursor.close()


def fetch_one(conn: sqlite3.Connection, sql: str, params: Params) -> sqlite3.Row | None:
    cursor = conn.execute(sql, params)
    try:
        row: sqlite3.Row | None = cursor.fetchone()
        return row
    finally:
        cursor.close()


def fetch_all(conn: sqlite3.Connection, sql: str, params: Params) -> list[sqlite3.Row]:
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


async def in_thread(conn: aiosqlite.Connection, work: Callable[..., T], sql: str,
                     params: Params) -> T:
    """`work(connection, sql, params)` in the connection's own thread, in one trip (through
    aiosqlite's queue of calls, `_execute`: its public cursor methods take a trip each)."""
    result: T = await conn._execute(work, conn._conn, sql, params)  # type: ignore[no-untyped-call]
    return result


def submit(conn: aiosqlite.Connection, work: Callable[..., T], sql: str, params: Params, *,
           before: float, busy: float) -> asyncio.Future[T]:
    """Queue `work(connection, sql, params)` on the connection's thread now and return its
    future: the connection runs its calls in the order they were queued, so whoever queues
    next (a transaction's BEGIN) runs after this one, though nobody waited for it (as
    aiosqlite's `_execute` does, without the wait). It is done or failed as busy by `before`
    (a `time.monotonic()`), however long it waited behind the others (`within`)."""
    if not conn._running or conn._connection is None:  # (aiosqlite says ValueError)
        raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
    future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    conn._tx.put_nowait((future, partial(within, before, busy, work, conn._conn, sql, params)))
    return future


def within(before: float, busy: float, work: Callable[..., T], conn: sqlite3.Connection,
           sql: str, params: Params) -> T:
    """(In the connection's thread.) `work(conn, sql, params)` by `before` at the latest: not
    run at all once that has passed, and waiting for another process's lock on the file only
    for what is left of it, not for the connection's whole busy timeout (`busy` seconds) again.
    A write queued behind others that each waited for a held file would otherwise wait a busy
    timeout of its own after theirs, and the update that made it several (issue 37)."""
    left = before - time.monotonic()
    if left <= 0:
        raise sqlite3.OperationalError(
            "busy: queued behind the writer's other statements past the busy timeout")
    if left >= busy - SHORTER_BY:  # (nearly) the whole timeout left: as the connection is set
        return work(conn, sql, params)
    conn.execute(f"PRAGMA busy_timeout = {max(1, int(left * 1000)):d}")
    try:
        return work(conn, sql, params)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {max(1, round(busy * 1000)):d}")
