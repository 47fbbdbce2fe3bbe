"""The locks `Database.try_hold` takes: one process at a time for a role (the poller).

PostgreSQL, reached directly: a session advisory lock on a connection of its own, outside the
pool, so the server releases it the moment that connection ends (a kill -9: at once).
Keepalives make a vanished machine's connection end within about 11 s (idle 5 s, then 3 probes
2 s apart).

PostgreSQL through a transaction pooler (PgBouncer), where a session means nothing (each
transaction may run on another server connection) and keepalives cannot be asked at connect:
a lease, the row `leases(name)` saying who holds it (`holder`) until when (`until`, unix
seconds by the database's clock), every statement a transaction of its own. The holder renews
it every few seconds (`alive`) for `LEASE` seconds more; another takes it only once it has
lapsed by the database's clock; and the holder gives up its role as soon as it cannot renew,
at the latest `MARGIN` before the lease would lapse as counted from its last renewal's sending
(its own clock, so the database's always ends it later): two never hold it at once. A holder
that stops renewing (kill -9, a network cut, the machine gone) is taken over within `LEASE`
seconds and a standby's try; one that stops cleanly (`release`) at once, and so does a dead
process of this machine's (`bot.instance.dead_here`: a kill -9 and the same worker restarted).

SQLite: the file lock beside the database (`bot.instance`) already makes this process the only
one.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import asyncpg

from bot.instance import dead_here
from bot.storage.db import Database, HeldLock, StorageError
from bot.storage.pgerrors import FAILURES as _FAILURES
from bot.storage.pgerrors import describe as _describe

_KEEPALIVES = {"application_name": "sixshooter-lock", "tcp_keepalives_idle": "5",
               "tcp_keepalives_interval": "2", "tcp_keepalives_count": "3"}

LEASE = 8.0  # seconds a lease lasts past its last renewal
MARGIN = 1.0  # seconds before its end at which a holder that could not renew gives it up

_NOW = "CAST(extract(epoch FROM clock_timestamp()) AS DOUBLE PRECISION)"
_TAKE = ("INSERT INTO leases (name, holder, until) VALUES (?, ?, " + _NOW + " + ?)"
         " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until"
         " WHERE leases.until < " + _NOW + " OR leases.holder = excluded.holder"
         " RETURNING until")
_HOLDER = "SELECT holder FROM leases WHERE name = ?"
# A dead process's of this machine (a kill -9, then the same worker started again): taken at
# once, as the intake takes its updates (bot.instance.dead_here), rather than after its lapse.
_TAKE_FROM = ("UPDATE leases SET holder = ?, until = " + _NOW + " + ?"
              " WHERE name = ? AND holder = ? RETURNING until")
_RENEW = ("UPDATE leases SET until = " + _NOW + " + ?"
          " WHERE name = ? AND holder = ? AND until > " + _NOW)
_GIVE_UP = "DELETE FROM leases WHERE name = ? AND holder = ?"


class FileLocked:
    """SQLite's hold: the file lock is held for the process's lifetime."""

    async def alive(self) -> bool:
        return True

    async def release(self) -> None:
        pass


async def advisory_lock(url: str, shown: str, name: str, *, timeout: float) -> HeldLock | None:
    """The advisory lock `name` on a new connection to `url`; None if another session holds
    it. `shown` names the database in errors (no password)."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout, server_settings=_KEEPALIVES)
    except _FAILURES as e:
        raise StorageError(f"database {shown!r}: {_describe(e)}") from e
    try:
        taken = await conn.fetchval("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", name)
    except _FAILURES as e:
        conn.terminate()
        raise StorageError(f"database {shown!r}: {_describe(e)}") from e
    if not taken:
        await _close_quietly(conn)
        return None
    return _AdvisoryLock(conn, timeout)


class _AdvisoryLock:
    def __init__(self, conn: Any, timeout: float) -> None:
        self._conn, self._timeout = conn, timeout

    async def alive(self) -> bool:
        if self._conn.is_closed():
            return False
        try:
            async with asyncio.timeout(self._timeout):
                return bool(await self._conn.fetchval("SELECT 1"))
        except _FAILURES:
            return False

    async def release(self) -> None:
        await _close_quietly(self._conn)  # the session's end releases its locks


async def _close_quietly(conn: Any) -> None:
    try:
        async with asyncio.timeout(2.0):
            await conn.close()
    except _FAILURES:
        conn.terminate()


async def take_lease(db: Database, holder: str, name: str) -> HeldLock | None:
    """The lease `name` for `holder` (also when `holder` has it already); None while another
    holds it. StorageError if the database cannot be asked."""
    sent = time.monotonic()
    async with asyncio.timeout(db.busy_timeout):
        try:
            row = await db.fetchone(_TAKE, (name, holder, LEASE))
            if row is None:
                found = await db.fetchone(_HOLDER, (name,))
                if found is not None and _ended(str(found["holder"])):
                    row = await db.fetchone(_TAKE_FROM, (holder, LEASE, name, found["holder"]))
        except TimeoutError:
            raise StorageError(f"database {db.path!r}: no answer within "
                               f"{db.busy_timeout:g} s") from None
    return None if row is None else _Lease(db, holder, name, sent + LEASE)


def _ended(holder: str) -> bool:
    """Is `holder` a process of this machine that has ended? Not this process: two databases
    it opened are two holders (tests do that), whatever `dead_here` says of its own pid."""
    pid = holder.split("/")[1] if holder.count("/") >= 2 else ""
    return pid != str(os.getpid()) and dead_here(holder)


class _Lease:
    def __init__(self, db: Database, holder: str, name: str, ends: float) -> None:
        self._db, self._holder, self._name = db, holder, name
        self._ends = ends  # time.monotonic() by which the database has surely not ended it
        self._released = False

    async def alive(self) -> bool:
        """Renewed: held `LEASE` seconds more. False if it could not be renewed in time (the
        database away, or the lease lapsed and taken): stop acting as its holder now."""
        sent = time.monotonic()
        left = self._ends - MARGIN - sent
        if self._released or left <= 0:
            return False
        try:
            async with asyncio.timeout(min(left, self._db.busy_timeout)):
                renewed = await self._db.execute(_RENEW, (LEASE, self._name, self._holder))
        except (StorageError, TimeoutError):
            return False
        if renewed:
            self._ends = sent + LEASE
        return renewed > 0

    async def release(self) -> None:
        """Give it up at once (a standby's next try takes it); if the database cannot be
        reached, it lapses by itself."""
        if self._released:
            return
        self._released = True
        try:
            async with asyncio.timeout(self._db.busy_timeout):
                await self._db.execute(_GIVE_UP, (self._name, self._holder))
        except (StorageError, TimeoutError):
            pass
