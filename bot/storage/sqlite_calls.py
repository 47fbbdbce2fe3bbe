"""SQLite statements run where they cost least: on the event loop when they cannot wait, else
in their connection's own thread (aiosqlite's), where they may.

A statement on a local file in WAL mode takes microseconds, and one that cannot wait (a
connection whose busy timeout is 0: SQLITE_BUSY at once where it would wait) cannot hold the
loop. A trip to the connection's thread costs ten times the statement (issue 21: 55 us of CPU
against 4.6 us for a one-row read, in wake-ups of the thread and of the loop): a tap's dozen
statements paid for a tenth of its CPU. So a statement runs here first; when it meets a lock
another process holds (SQLITE_BUSY: it changed nothing), it runs again in the thread with
the busy timeout, and waits there. A read of many rows (`fetch_all`, of any length) always
runs in the thread. While a call of a connection is in its thread, even one whose caller was
cancelled, every later call of that connection goes there too, behind it (aiosqlite's queue
is in order): a connection is never used by two threads at once.

With statements committing on the loop, the WAL is copied back into the file elsewhere
(`Checkpoints`): SQLite's own checkpoint, run by the commit that fills a thousand pages, writes
and syncs the file in that commit.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from typing import TypeVar

import aiosqlite

from bot.storage.db import ConstraintError, Params, StorageError, UniqueViolation

log = logging.getLogger(__name__)

T = TypeVar("T")
CHECKPOINT_EVERY = 100  # commits (SQLite's own default: a thousand pages of WAL, ~200 here)


def error_of(path: str, e: sqlite3.Error) -> StorageError:
    kind = StorageError
    if isinstance(e, sqlite3.IntegrityError):
        kind = UniqueViolation if str(e).startswith("UNIQUE") else ConstraintError
    return kind(f"database {path!r}: {e}")


def _probe(where: str) -> None:
    sqlite3.connect(where).close()


async def connect_to(where: str) -> aiosqlite.Connection:
    # The file is tried first in a thread this coroutine waits for: when aiosqlite's own
    # connect fails (a missing directory...), it stops its worker thread without waiting for
    # it, and that thread may then report to an event loop that is already closed.
    try:
        await asyncio.to_thread(_probe, where)
        # check_same_thread off: a statement that cannot wait runs on the loop, in between
        # the calls of the connection's own thread (never beside one: sqlite_calls.Seat)
        conn = await aiosqlite.connect(where, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open the database {where!r}: {e}") from e
    conn.row_factory = sqlite3.Row
    return conn




def changes(conn: sqlite3.Connection, sql: str, params: Params) -> tuple[int, int | None]:
    """A write: the rows it changed and the last row id."""
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


def busy(e: sqlite3.Error) -> bool:
    """SQLITE_BUSY (or LOCKED): the statement met a lock it would have to wait for."""
    code = getattr(e, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class Seat:
    """One aiosqlite connection and the two ways to run a call on it (see the module's note).
    `here` says whether a call may run on the loop at all: not before `open_here` (the pragmas
    and migrations wait in the thread) and never for a file not in WAL mode, whose commits
    wait for the disk."""

    def __init__(self, conn: aiosqlite.Connection, busy_ms: int) -> None:
        self.conn = conn
        self.busy_ms = busy_ms
        self.here = False
        self._sent = 0  # calls given to the thread (counted on the loop)
        self._done = 0  # of those, finished (counted in the thread)

    async def open_here(self) -> None:
        """From now on a call runs on the loop first: this connection never waits there."""
        await self.in_thread(changes, "PRAGMA busy_timeout = 0", ())
        self.here = True

    async def call(self, work: Callable[[sqlite3.Connection, str, Params], T], sql: str,
                   params: Params) -> T:
        if self.here and self._sent == self._done:
            try:
                return work(self.conn._conn, sql, params)
            except sqlite3.OperationalError as e:
                if not busy(e):
                    raise
        return await self.in_thread(work, sql, params)

    async def in_thread(self, work: Callable[[sqlite3.Connection, str, Params], T], sql: str,
                        params: Params) -> T:
        """`work` in the connection's thread, waiting up to the busy timeout for a lock."""
        here, wait = self.here, self.busy_ms

        def waiting(conn: sqlite3.Connection) -> T:
            try:
                if here:  # its busy timeout is 0 on the loop: this call may wait
                    conn.execute(f"PRAGMA busy_timeout = {wait:d}").close()
                try:
                    return work(conn, sql, params)
                finally:
                    if here:
                        conn.execute("PRAGMA busy_timeout = 0").close()
            finally:
                self._done += 1

        self._sent += 1
        try:
            result: T = await self.conn._execute(  # type: ignore[no-untyped-call]
                waiting, self.conn._conn)
        except ValueError:
            if self._sent != self._done and not self.conn._running:
                self._sent -= 1  # closed: aiosqlite refused it before queueing it
            raise
        return result


class Checkpoints:
    """Every CHECKPOINT_EVERY commits, a passive checkpoint (it never blocks a reader or the
    writer) by a connection of its own, in its thread; `close` waits for the one running."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn, self.path = conn, path
        self._seat = Seat(conn, 0)
        self._commits = 0
        self._running: asyncio.Task[None] | None = None

    def committed(self) -> None:
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and (self._running is None or self._running.done()):
            self._commits = 0
            self._running = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await self._seat.in_thread(fetch_one, "PRAGMA wal_checkpoint(PASSIVE)", ())
        except (sqlite3.Error, ValueError) as e:  # the next one tries again
            log.warning("database %s: checkpoint failed: %s", self.path, e)

    async def close(self) -> None:
        if self._running is not None:
            await asyncio.wait([self._running])
        await self.conn.close()
