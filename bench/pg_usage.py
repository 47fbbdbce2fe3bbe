"""What PostgreSQL spent serving one database over a span of time, for bench/bot_load.py.

CPU: the server runs one backend process per connection; the backends serving the database
are the rows of `pg_stat_activity` with its name, and a backend's CPU time (user + system) is
in `/proc/<pid>/stat`, so the server must run on this machine. The backends are sampled at the
start, every half second (a backend that leaves early, when the pool drops a connection, keeps
its last sample) and at the end, before the bot disconnects; a backend born during the span
counts from zero. The server's shared processes (WAL writer, checkpointer, background writer)
work for every database on the server, so they are reported apart, as a whole-server figure.

Work: `pg_stat_database`'s counters for the database (transactions, rows read and written),
read at the start and after the bot has disconnected (a backend reports its counters when it
idles at most every few seconds, and when it exits).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

import asyncpg

_SHARED = ("walwriter", "checkpointer", "background writer", "autovacuum launcher")
_COUNTERS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted",
             "tup_updated", "tup_deleted")


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used; None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServerUsage:
    """`await start()`, run the load, `await stop_cpu()` while the bot is still connected,
    then `await stop_counters()` after it disconnected; the figures are the attributes."""

    def __init__(self, admin_url: str, database: str) -> None:
        self.admin_url = admin_url
        self.database = database
        self.backend_cpu = 0.0  # seconds, the database's backends over the span
        self.shared_cpu = 0.0  # seconds, the server's shared processes (all databases)
        self.backends = 0  # how many backends served the database over the span
        self.counters: dict[str, int] = {}  # pg_stat_database deltas over the span
        self._conn: Any = None
        self._base: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._shared0: dict[int, float] = {}
        self._counters0: dict[str, int] = {}
        self._poller: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._conn = await asyncpg.connect(self.admin_url, timeout=10)
        self._counters0 = await self._counters()
        self._shared0 = self._cpu_of(await self._shared_pids())
        self._base = self._cpu_of(await self._backend_pids())
        self._last = dict(self._base)
        self._poller = asyncio.create_task(self._poll())

    async def stop_cpu(self) -> None:
        assert self._poller is not None
        self._poller.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._poller
        await self._sample()
        self.backends = len(self._last)
        self.backend_cpu = sum(cpu - self._base.get(pid, 0.0) for pid, cpu in self._last.items())
        shared = self._cpu_of(list(self._shared0))
        self.shared_cpu = sum(cpu - self._shared0[pid] for pid, cpu in shared.items())

    async def stop_counters(self) -> None:
        await asyncio.sleep(0.5)  # the exiting backends report their counters
        end = await self._counters()
        self.counters = {k: end[k] - self._counters0.get(k, 0) for k in end}

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            await self._sample()

    async def _sample(self) -> None:
        self._last |= self._cpu_of(await self._backend_pids())

    async def _backend_pids(self) -> list[int]:
        rows = await self._conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            self.database)
        return [int(r["pid"]) for r in rows]

    async def _shared_pids(self) -> list[int]:
        rows = await self._conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE backend_type = ANY($1::text[])",
            list(_SHARED))
        return [int(r["pid"]) for r in rows]

    @staticmethod
    def _cpu_of(pids: list[int]) -> dict[int, float]:
        found = {pid: process_cpu(pid) for pid in pids}
        return {pid: cpu for pid, cpu in found.items() if cpu is not None}

    async def _counters(self) -> dict[str, int]:
        row = await self._conn.fetchrow(
            f"SELECT {', '.join(_COUNTERS)} FROM pg_stat_database WHERE datname = $1",
            self.database)
        return {k: int(row[k] or 0) for k in _COUNTERS} if row else {}
