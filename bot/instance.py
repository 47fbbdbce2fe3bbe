"""One bot per database: an OS lock on `<database>.lock`, held for the process's lifetime.

Two processes on one database would both poll Telegram (each terminating the other's
getUpdates with 409 Conflict, forever) and keep diverging in-memory caches. The lock is
`flock(LOCK_EX | LOCK_NB)` on a file beside the database, so the kernel releases it whenever the
holder ends, kill -9 included: a restart after a crash never finds a stale lock. The file stays
(removing it would let a third process lock a new file while the second holds the old one);
it holds the holder's pid, for the message.

On PostgreSQL there is no such lock (several workers are the point); `worker_name` names this
process among them, and `dead_here` tells a claim of a dead run on this machine, to be taken
back at once rather than after its lease.

    with instance.hold(config.db_path):     # AlreadyRunning if another process holds it
        ...                                 # talk to Telegram
"""

from __future__ import annotations

import fcntl
import os
import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class AlreadyRunning(RuntimeError):
    """Another process holds the lock; the message is one line saying what to do."""


class LockError(RuntimeError):
    """The lock file cannot be opened; the message is one line naming it."""


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".lock")


@contextmanager
def hold(db_path: Path) -> Iterator[Path]:
    """Hold the lock beside `db_path` for the block; yields the lock file's path."""
    path = lock_path(db_path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise LockError(
            f"cannot open the lock file {str(path)!r} beside SIXSHOOTER_DB: {e.strerror}; "
            "make its directory writable by this user"
        ) from e
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            who = f"(pid {holder}) " if holder else ""
            raise AlreadyRunning(
                f"another sixshooter {who}is already running on the database "
                f"{str(db_path)!r}; stop it first, or point SIXSHOOTER_DB at another file"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield path
    finally:
        os.close(fd)  # releases the lock if we hold it


def _read_pid(fd: int) -> int | None:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


# --- this process among the bot's workers (PostgreSQL: several, on several machines) ---------

def worker_name() -> str:
    """This process as the owner of what it claims (inbox updates, due rows): host/pid/token
    (a random token: a pid comes back)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"


def dead_here(owner: str) -> bool:
    """Is `owner` (a `worker_name`) a process of this machine that is gone? One with this
    process's pid but not its name is an earlier run's (a restarted container); a pid that
    runs is alive (or reused: then its claims wait for their leases)."""
    host, _, rest = owner.partition("/")
    pid = rest.partition("/")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: it runs
        return False
    return False
