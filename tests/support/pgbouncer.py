"""A PgBouncer in transaction pooling mode in front of the tests' PostgreSQL server.

`PgBouncer(admin_url).start()` runs `pgbouncer` (Debian's package; `.ci/run` installs it) on a
free 127.0.0.1 port with a config of its own, every database of the server behind it, any
user let in without a password (auth_type trust, other users found through `auth_user`, as the
tests' server trusts them too); as user postgres when run as root (pgbouncer refuses root).
`pooled(url)` is `url` through it, with `?pooler=transaction` so that the bot knows.
`retarget(port)` moves it to another server (a failover's new primary), through its admin
console as an operator would.
Without `pgbouncer` on the PATH (or in /usr/sbin) the tests using it skip with `HOW`.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

HOW = ("PgBouncer tests skipped: install pgbouncer (Debian: apt-get install pgbouncer; "
       ".ci/run does) to run them")


def binary() -> str | None:
    return shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/usr/bin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pooled(url: str, port: int, *, user: str | None = None) -> str:
    """`url` through the pooler on `port` (as `user`, given), marked `?pooler=transaction`."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "pooler"] + [
        ("pooler", "transaction")]
    netloc = f"{user or parts.username or 'postgres'}@127.0.0.1:{port}"
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query), ""))


class PgBouncer:
    """One pgbouncer process; `stop()` ends it."""

    def __init__(self, admin_url: str) -> None:
        server = urlsplit(admin_url)
        self.server_host = server.hostname or "127.0.0.1"
        self.server_port = server.port or 5432
        self.admin_user = server.username or "postgres"
        self.port = 0
        self._dir = Path(tempfile.mkdtemp(prefix="sixshooter-pgbouncer-"))
        self._proc: subprocess.Popen[bytes] | None = None

    def url(self, url: str, *, user: str | None = None) -> str:
        return pooled(url, self.port, user=user)

    def start(self) -> PgBouncer:
        """Started and listening; a port taken meanwhile (another test process) is tried
        again on another."""
        for attempt in range(3):
            try:
                return self._start()
            except RuntimeError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _start(self) -> PgBouncer:
        exe = binary()
        assert exe is not None, HOW
        self.port = _free_port()
        ini, users = self._dir / "pgbouncer.ini", self._dir / "users.txt"
        users.write_text(f'"{self.admin_user}" ""\n')
        self._write_config()
        user = None
        if os.geteuid() == 0:  # pgbouncer refuses to run as root
            user = "postgres"
            for f in (self._dir, ini, users):
                shutil.chown(f, user)
        self._proc = subprocess.Popen([exe, str(ini)], user=user, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"pgbouncer exited: {self.log()[-2000:]}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            time.sleep(0.05)
        self._end()
        raise RuntimeError(f"pgbouncer did not listen within 10 s: {self.log()[-2000:]}")

    def _write_config(self) -> None:
        ini, users, log = self._dir / "pgbouncer.ini", self._dir / "users.txt", self._dir / "log"
        ini.write_text(
            "[databases]\n"
            f"* = host={self.server_host} port={self.server_port}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {users}\nauth_user = {self.admin_user}\n"
            f"admin_users = {self.admin_user}\n"
            # A server that refused a login is tried again after 1 s, not the default 15 s:
            # the tests' servers come back (or are moved to) within seconds.
            "server_login_retry = 1\n"
            "pool_mode = transaction\nmax_client_conn = 500\ndefault_pool_size = 20\n"
            f"logfile = {log}\n")

    async def retarget(self, port: int) -> None:
        """Point every database at the server on `port` (a failover's new primary): the
        config rewritten, then RELOAD and RECONNECT on the admin console, so that no server
        connection to the old one is used again."""
        self.server_port = port
        self._write_config()
        console = await asyncpg.connect(host="127.0.0.1", port=self.port, user=self.admin_user,
                                        database="pgbouncer", statement_cache_size=0)
        try:
            await console.execute("RELOAD")
            await console.execute("RECONNECT")
        finally:
            await console.close()

    def log(self) -> str:
        path = self._dir / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        self._end()
        shutil.rmtree(self._dir, ignore_errors=True)

    def _end(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
