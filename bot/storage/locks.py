"""The locks `Database.try_hold` takes: one process at a time for a role (the poller).

PostgreSQL: a session advisory lock on a connection of its own, outside the pool, so the server
releases it the moment that connection ends (a kill -9: at once). Keepalives make a vanished
machine's connection end within about 11 s (idle 5 s, then 3 probes 2 s apart). SQLite: the
file lock beside the database (`bot.instance`) already makes this process the only one.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from bot.storage.db import HeldLock, StorageError
from bot.storage.pgerrors import FAILURES as _FAILURES
from bot.storage.pgerrors import describe as _describe

_KEEPALIVES = {"application_name": "sixshooter-lock", "tcp_keepalives_idle": "5",
               "tcp_keepalives_interval": "2", "tcp_keepalives_count": "3"}


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
