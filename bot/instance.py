"""One bot per database: an OS lock on `<database>.lock`, held for the process's lifetime.

Two processes on one database would both poll Telegram (each terminating the other's
getUpdates with 409 Conflict, forever) and keep diverging in-memory caches. The lock is
`flock(LOCK_EX | LOCK_NB)` on a file beside the database, so the kernel releases it whenever the
holder ends, kill -9 included: a restart after a crash never finds a stale lock. The file stays
(removing it would let a third process lock a new file while the second holds the old one);
it holds the holder's pid, for the message.

    with instance.hold(config.db_path):     # AlreadyRunning if another process holds it
        ...                                 # talk to Telegram
"""

from __future__ import annotations

import fcntl
import os
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
