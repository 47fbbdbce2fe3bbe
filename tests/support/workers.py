"""Several bot processes on one database, as several machines would run them.

``Workers(api, database, tmp_path, n, webhook=True)`` starts ``n`` ``BotProcess`` on the same
``SIXSHOOTER_DB`` (a PostgreSQL URL: the e2e fixture ``postgres_database`` makes one per test):

* webhook mode: each worker serves ``HOOK_URL``'s path on a port of its own; once all listen
  and the webhook is set, the fake Bot API posts the updates round-robin over them
  (``api.deliver_to``, the load balancer), retrying a failed delivery on the next worker;
* polling mode: one of them polls (the leader), the others stand by; ``start`` returns at the
  leader's first getUpdates, and ``poller_of`` tells which worker made each getUpdates call
  (the client's TCP port, matched to its process through /proc: Linux only).

``kill(i)`` is kill -9, ``start_one(i)`` starts it again on the same database, ``storage()``
reads the database through the bot's repositories (``tests/support/stored.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

import httpx

from bot.storage import Storage

from .botprocess import BotProcess
from .fakeapi import FakeTelegramAPI, RecordedRequest

HOOK_URL = "https://bot.example.org/hook"
HOOK_PATH = "/hook"
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Workers:
    """N bot processes on one database; webhook or long-polling mode."""

    def __init__(self, api: FakeTelegramAPI, database: str, tmp_path: Path, n: int, *,
                 webhook: bool, env: dict[str, str] | None = None,
                 connections: int | None = None, first: int = 1) -> None:
        self.api, self.database, self.webhook = api, database, webhook
        self.connections = connections
        self.ports = [free_port() for _ in range(n)] if webhook else []
        self.procs: list[BotProcess] = []
        for i in range(n):
            extra = dict(env or {})
            if webhook:
                extra |= {"SIXSHOOTER_WEBHOOK_URL": HOOK_URL,
                          "SIXSHOOTER_WEBHOOK_PORT": str(self.ports[i])}
            self.procs.append(BotProcess(api, database, tmp_path / f"worker-{first + i}.log",
                                         env=extra))
        self.kills = 0
        self.poller_of: dict[int, int] = {}  # getUpdates request seq -> worker index
        self._watch: asyncio.Task[None] | None = None

    @property
    def targets(self) -> list[str]:
        """The workers' local webhook URLs, as a load balancer knows them."""
        return [f"http://127.0.0.1:{port}{HOOK_PATH}" for port in self.ports]

    def __len__(self) -> int:
        return len(self.procs)

    # ------------------------------------------------------------------ start, kill

    async def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start every worker. Webhook: return when all listen and the webhook is set, the
        fake then delivering to them. Polling: return at the leader's first getUpdates."""
        since = self.api.last_seq
        for proc in self.procs:
            await proc.start(wait_polling=False)
        if self._watch is None and not self.webhook:
            self._watch = asyncio.get_running_loop().create_task(self._watch_pollers())
        if self.webhook:
            await self._wait(lambda: self.api.webhook is not None, "the webhook set", timeout)
            for i in range(len(self.procs)):
                await self.wait_listening(i, timeout)
            kwargs = {} if self.connections is None else {"connections": self.connections}
            self.api.deliver_to(self.targets, **kwargs)
        else:
            await self.wait_poller(since=since, timeout=timeout)

    async def start_one(self, i: int, timeout: float = START_TIMEOUT) -> None:
        """Start worker i again (after a kill) and wait until it serves the webhook (polling:
        until it runs; a standby never calls getUpdates)."""
        await self.procs[i].start(wait_polling=False)
        if self.webhook:
            await self.wait_listening(i, timeout)
        else:
            await asyncio.sleep(0)

    async def kill(self, i: int) -> None:
        """kill -9 worker i."""
        await self.procs[i].kill()
        self.kills += 1

    async def restart(self, i: int, timeout: float = START_TIMEOUT) -> None:
        await self.kill(i)
        await self.start_one(i, timeout)

    async def close(self) -> None:
        """Kill every worker (teardown) and close the storage opened here."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        for proc in self.procs:
            await proc.kill()
            await proc.close_storage()

    async def storage(self) -> Storage:
        """The shared database, opened in this process (through the first worker's handle)."""
        return await self.procs[0].storage()

    def logs(self) -> str:
        return "\n".join(f"==== {p.log_path.name}\n{p.log()[-6000:]}" for p in self.procs)

    # ------------------------------------------------------------------ waiting

    async def _wait(self, ok: Callable[[], object], what: str, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not ok():
            if not any(p.running for p in self.procs):
                raise RuntimeError(f"every worker exited before {what}:\n{self.logs()}")
            if loop.time() > deadline:
                raise TimeoutError(f"{what}: not within {timeout}s\n{self.logs()}")
            await asyncio.sleep(0.05)

    async def wait_listening(self, i: int, timeout: float = START_TIMEOUT) -> None:
        """Until worker i serves its webhook port: its GET /healthz answers 200 (the database
        answers), as a load balancer's health check waits for (fails if it exits)."""
        proc, port = self.procs[i], self.ports[i]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with httpx.AsyncClient(timeout=2.0) as client:
            while True:
                if not proc.running:
                    raise RuntimeError(f"worker {i} exited before serving its webhook:\n"
                                       f"{proc.log()[-4000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200:
                        return
                if loop.time() > deadline:
                    raise TimeoutError(f"worker {i}: no healthy webhook port {port}")
                await asyncio.sleep(0.05)

    async def wait_poller(self, *, since: int = 0,
                          timeout: float = START_TIMEOUT) -> tuple[int, RecordedRequest]:
        """The first getUpdates after ``since`` whose worker is known: (its index, the call)."""
        found: list[tuple[int, RecordedRequest]] = []

        def polled() -> bool:
            for r in self.api.requests:
                if r.seq > since and r.method == "getUpdates" and r.seq in self.poller_of:
                    found.append((self.poller_of[r.seq], r))
                    return True
            self._map_pollers()
            return False

        await self._wait(polled, "a getUpdates call by a worker", timeout)
        return found[0]

    def pollers(self, since: int = 0) -> list[int | None]:
        """Which worker made each getUpdates call after ``since`` (None: not known)."""
        self._map_pollers()
        return [self.poller_of.get(r.seq) for r in self.api.requests
                if r.seq > since and r.method == "getUpdates"]

    async def _watch_pollers(self) -> None:
        """Match getUpdates calls to workers while their connections are open."""
        while True:
            self._map_pollers()
            await asyncio.sleep(0.1)

    def _map_pollers(self) -> None:
        pids = {p.pid: i for i, p in enumerate(self.procs) if p.running}
        todo = [r for r in self.api.requests[-200:]
                if r.method == "getUpdates" and r.peer and r.seq not in self.poller_of]
        if not todo:
            return
        owners = socket_owners(pids)
        for r in todo:
            assert r.peer is not None
            owner = owners.get(r.peer[1])
            if owner is not None:
                self.poller_of[r.seq] = owner


def socket_owners(pids: dict[int | None, int]) -> dict[int, int]:
    """Local TCP port of every client socket of these processes -> the value given for its
    pid (Linux /proc: a socket's inode in /proc/net/tcp*, found among a process's fds)."""
    inode_port: dict[str, int] = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(name).read_text().splitlines()[1:]:
                fields = line.split()
                inode_port[fields[9]] = int(fields[1].rsplit(":", 1)[1], 16)
    found: dict[int, int] = {}
    for pid, value in pids.items():
        if pid is None:
            continue
        for inode in _socket_inodes(pid):
            port = inode_port.get(inode)
            if port is not None:
                found[port] = value
    return found


def _socket_inodes(pid: int) -> Iterable[str]:
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    yield link[8:-1]


# The type of the e2e fixture ``launch_workers``: ``await launch_workers(database, n,
# webhook=True, env=None, connections=None, start=True)`` -> Workers.
LaunchWorkers = Callable[..., Awaitable[Workers]]
