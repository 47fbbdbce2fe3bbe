"""A PostgreSQL primary and its synchronous streaming standby on this machine, for failover.

    async with replicated_pair() as pair:    # skipped, with one line, without the binaries
        pair.url("postgres")                 # both servers, libpq's multi-host form
        await pair.crash_primary()           # pg_ctl -m immediate stop: a crash
        await pair.read_only_primary()       # or: it stays up and takes no writes
        await pair.promote()                 # the standby takes writes

Built with the server's own binaries (`pg_config --bindir`: initdb, pg_ctl, pg_basebackup),
as user `postgres` when the tests run as root (`runuser`), in a temporary directory of its
own (with the servers' sockets), each server on a free port of 127.0.0.1, trusting local
users. A commit is acknowledged only once the standby has it (`synchronous_standby_names`),
so nothing acknowledged is lost to the crash; `fsync` is off, for speed: the crash is an
immediate stop of the server, not of the machine, so what was written stays in the OS's
cache. Both servers are stopped, and the directory removed, however the block ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from .ops import free_port

TOOLS = ("initdb", "pg_ctl", "pg_basebackup")
SKIP = ("failover tests skipped: no PostgreSQL server binaries (initdb, pg_ctl, "
        "pg_basebackup) in `pg_config --bindir`")
USER = "postgres"
READY = 30.0  # seconds a server may take to start, or the standby to catch up


def bindir() -> Path | None:
    """Where the server's binaries are: `pg_config --bindir`, else Debian's newest."""
    candidates: list[Path] = []
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                             check=True, timeout=10)
        candidates.append(Path(out.stdout.strip()))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                         key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
                         reverse=True)
    return next((d for d in candidates if all((d / t).is_file() for t in TOOLS)), None)


def _as_user() -> list[str] | None:
    """The prefix that runs a server command as `postgres` (initdb refuses root); None if
    that cannot be done here."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    try:
        pwd.getpwnam(USER)
    except KeyError:
        return None
    return None if runuser is None else [runuser, "-u", USER, "--"]


@dataclass
class Server:
    name: str
    data: Path
    port: int

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.name}.log"


class Pair:
    """The primary and its standby (`replicated_pair`)."""

    def __init__(self, root: Path, bin_dir: Path, prefix: list[str]) -> None:
        self.root, self.bin, self.prefix = root, bin_dir, prefix
        self.primary = Server("primary", root / "primary", free_port())
        self.standby = Server("standby", root / "standby", free_port())

    def url(self, database: str = "postgres", *, password: str | None = None,
            attrs: str = "read-write") -> str:
        """Both servers, the primary first, as libpq (and asyncpg) read them."""
        user = USER if password is None else f"{USER}:{password}"
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in (self.primary, self.standby))
        return f"postgresql://{user}@{hosts}/{database}?target_session_attrs={attrs}"

    def direct(self, server: Server, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{server.port}/{database}"

    async def run(self, tool: str, *args: str | Path) -> None:
        """A server binary, as `postgres`; AssertionError with its output if it fails."""
        proc = await asyncio.create_subprocess_exec(
            *self.prefix, str(self.bin / tool), *map(str, args), cwd=self.root,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        out, _ = await proc.communicate()
        assert proc.returncode == 0, f"{tool} {' '.join(map(str, args))}:\n{out.decode()}"

    async def start(self, server: Server) -> None:
        await self.run("pg_ctl", "-D", server.data, "-l", server.log, "-w", "-t", str(READY),
                       "start")

    async def build(self) -> None:
        """initdb the primary, start it, copy it into the standby (pg_basebackup -R: it
        streams from the primary), start that, and wait until it is the synchronous one."""
        p, s = self.primary, self.standby
        await self.run("initdb", "-D", p.data, "-U", USER, "-A", "trust", "-E", "UTF8",
                       "--locale=C", "--no-sync")
        settings = {
            "listen_addresses": "'127.0.0.1'", "port": str(p.port),
            "unix_socket_directories": f"'{self.root}'", "shared_buffers": "'16MB'",
            "max_connections": "60", "fsync": "off", "wal_level": "replica",
            "max_wal_senders": "4", "synchronous_standby_names": "'*'",
            "synchronous_commit": "on", "logging_collector": "off",
        }
        with (p.data / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())
        await self.start(p)
        await self.run("pg_basebackup", "-h", "127.0.0.1", "-p", str(p.port), "-U", USER,
                       "-D", s.data, "-R", "-X", "stream", "-c", "fast", "--no-sync")
        # Its own port; once promoted it has no standby of its own to wait for.
        with (s.data / "postgresql.auto.conf").open("a") as conf:
            conf.write(f"port = {s.port}\nsynchronous_standby_names = ''\n")
        await self.start(s)
        conn = await asyncpg.connect(self.direct(p), timeout=READY)
        try:
            for _ in range(int(READY / 0.1)):
                if await conn.fetchval("SELECT count(*) FROM pg_stat_replication"
                                       " WHERE sync_state = 'sync'"):
                    return
                await asyncio.sleep(0.1)
        finally:
            await conn.close()
        raise AssertionError(f"the standby did not become synchronous within {READY} s")

    async def crash_primary(self) -> None:
        """As a crash: the primary stops at once, its connections cut, nothing flushed."""
        await self.run("pg_ctl", "-D", self.primary.data, "-m", "immediate", "-w", "stop")

    async def read_only_primary(self) -> None:
        """The primary stays up but takes no writes (as one demoted in place): its sessions,
        the open ones too, now refuse every write (SQLSTATE 25006)."""
        conn = await asyncpg.connect(self.direct(self.primary), timeout=READY)
        try:
            await conn.execute("ALTER SYSTEM SET default_transaction_read_only = on")
            await conn.execute("SELECT pg_reload_conf()")
        finally:
            await conn.close()

    async def promote(self) -> None:
        """The standby becomes the primary (returns once it takes writes)."""
        await self.run("pg_ctl", "-D", self.standby.data, "-w", "-t", str(READY), "promote")

    async def stop(self) -> None:
        for server in (self.primary, self.standby):
            if (server.data / "postmaster.pid").exists():
                with contextlib.suppress(AssertionError):
                    await self.run("pg_ctl", "-D", server.data, "-m", "immediate", "-w", "stop")

    def logs(self) -> str:
        """Both servers' logs (for a failed test's report)."""
        return "\n".join(f"---- {s.name}\n{s.log.read_text(errors='replace')[-4000:]}"
                         for s in (self.primary, self.standby) if s.log.exists())


@contextlib.asynccontextmanager
async def replicated_pair() -> AsyncIterator[Pair]:
    """A running primary and synchronous standby; skipped, with one line, where the server
    binaries (or a way to run them as `postgres`) are missing."""
    found, prefix = bindir(), _as_user()
    if found is None or prefix is None:
        pytest.skip(SKIP if found is None else
                    "failover tests skipped: running as root needs `runuser` and a "
                    "`postgres` user to run the servers")
    root = Path(tempfile.mkdtemp(prefix="sixshooter-failover-"))
    if prefix:
        account = pwd.getpwnam(USER)
        os.chown(root, account.pw_uid, account.pw_gid)
    pair = Pair(root, found, prefix)
    try:
        await pair.build()
        yield pair
    finally:
        await pair.stop()
        shutil.rmtree(root, ignore_errors=True)
